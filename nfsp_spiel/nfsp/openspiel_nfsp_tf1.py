"""OpenSpiel's TF1 NFSP constructor on this package's agent: change one import.

A script written for OpenSpiel's TensorFlow 1 NFSP
(`open_spiel.python.algorithms.nfsp`, gone from recent OpenSpiel releases)
runs on `nfsp_spiel.nfsp.NFSP` with

    from nfsp_spiel.nfsp import openspiel_nfsp_tf1 as nfsp

`NFSP(session, player_id, ...)` maps its arguments as
`nfsp_spiel.nfsp.openspiel_nfsp` does (see there what differs), with the TF1
DQN's own schedule: epsilon decays linearly and the target network is copied
whole, as here. The session goes unused: the agent builds and steps in
TensorFlow 2's eager mode, also inside the script's `with
tf.compat.v1.Session() as sess:` (whose graph is the default there), and
`sess.run(tf.compat.v1.global_variables_initializer())` runs and does
nothing. `MODE.best_response` / `MODE.average_policy` and
`agent.get_step_counter()` are the TF1 agent's names. Of its models only
"mlp" is supported. One more difference: the TF1 NFSP does not pass
`hidden_layers_sizes` on to its DQN, whose Q-network keeps that DQN's
default single layer of 128 units; here both networks take
`hidden_layers_sizes`. `save` and `restore` are this package's (one file,
not a directory).
"""

from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import openspiel_nfsp
from nfsp_spiel.core.quiet_tensorflow import tf
from nfsp_spiel.nfsp import MODE  # noqa: F401  (OpenSpiel's name)

# The keyword arguments the TF1 NFSP passes on to its DQN
# (open_spiel/python/algorithms/dqn.py: `DQN.__init__`); of these, its
# `dropout_rate` and `use_batch_norm` reach only convolutional models.
_DQN_ARGUMENTS = ("replay_buffer_capacity", "replay_buffer_class",
                  "update_target_network_every", "discount_factor",
                  "epsilon_start", "epsilon_end", "epsilon_decay_duration",
                  "loss_str")
_CONVOLUTIONAL_ONLY = ("dropout_rate", "use_batch_norm")


def _eager():
  """Eager execution, also where a TF1 session's graph is the default
  (`tf.init_scope` leaves function graphs only; this internal API is the
  one way out of a session's)."""
  return tf.__internal__.eager_context.eager_mode()


class EagerNFSP(nfsp.NFSP):
  """`nfsp_spiel.nfsp.NFSP` as a TF1 script drives it: built and stepped
  eagerly under the script's session graph, with `get_step_counter`."""

  def __init__(self, *args, **kwargs):
    with _eager():
      super().__init__(*args, **kwargs)

  def step(self, time_step, is_evaluation=False):
    with _eager():  # ~5 us a step
      return super().step(time_step, is_evaluation)

  def get_step_counter(self):
    """`step_counter` (the TF1 agent's name)."""
    return self.step_counter


def NFSP(session, player_id, state_representation_size, num_actions,  # pylint: disable=invalid-name
         hidden_layers_sizes, reservoir_buffer_capacity, anticipatory_param,
         input_shape=None, conv_layer_info=None, batch_size=128,
         rl_learning_rate=0.01, sl_learning_rate=0.01,
         min_buffer_size_to_learn=1000, learn_every=64, optimizer_str="sgd",
         model_type="mlp", **kwargs):
  """This package's NFSP agent set up as OpenSpiel's TF1 NFSP would be by
  the same call (`kwargs`: what OpenSpiel passes on to its DQN)."""
  del session  # eager TensorFlow runs without one
  unknown = sorted(set(kwargs) - set(_DQN_ARGUMENTS + _CONVOLUTIONAL_ONLY))
  if unknown:
    raise TypeError(f"OpenSpiel's TF1 NFSP and DQN take no arguments "
                    f"{unknown}")
  if (model_type, input_shape, conv_layer_info) != ("mlp", None, None):
    raise ValueError(
        f"model_type={model_type!r}, input_shape={input_shape!r}, "
        f"conv_layer_info={conv_layer_info!r}: the networks are MLPs "
        "(model_type='mlp', no input_shape or conv_layer_info)")
  config = openspiel_nfsp.openspiel_config(
      hidden_layers_sizes, reservoir_buffer_capacity, anticipatory_param,
      batch_size, rl_learning_rate, sl_learning_rate,
      min_buffer_size_to_learn, learn_every, optimizer_str,
      weight_update_coeff=1.0, epsilon_decay_schedule_str="linear",
      **{k: v for k, v in kwargs.items() if k not in _CONVOLUTIONAL_ONLY})
  return EagerNFSP(player_id, state_representation_size, num_actions,
                   config)
