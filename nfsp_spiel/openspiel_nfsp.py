"""OpenSpiel's NFSP constructor on this package's agent: change one import.

A script written for OpenSpiel's NFSP (`open_spiel.python.pytorch.nfsp`, the
JAX one, or the TF1 `open_spiel.python.algorithms.nfsp`) runs on this
package's agent with

    from nfsp_spiel import openspiel_nfsp as nfsp

`nfsp.NFSP(player_id, state_representation_size, num_actions,
hidden_layers_sizes, reservoir_buffer_capacity, anticipatory_param, ...)`
takes OpenSpiel's arguments and defaults (its settings, not the paper's:
`nfsp_spiel.nfsp.NFSPConfig.leduc()` is the paper's Leduc experiment) and
returns an `nfsp_spiel.nfsp.NFSP` with the matching `NFSPConfig`; `MODE`,
`temp_mode_as`, `mode`, `loss` and `step_counter` are OpenSpiel's. What the
agent does differently (each a documented choice of this package):

* epsilon decays over the agent's steps, OpenSpiel's over its DQN's;
* the target network is refitted whole every `update_target_network_every`
  steps (OpenSpiel's default `weight_update_coeff=0.995` copies 99.5% of it);
* plain SGD on half the mean squared TD error (OpenSpiel: MSE), no discount;
* memories are this package's (`replay_buffer_class` is not taken).

Arguments with no counterpart (Adam, Huber loss, gradient clipping, a
discount below 1, soft target updates) raise a ValueError naming them.
"""

from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import MODE  # noqa: F401  (OpenSpiel's name)

# OpenSpiel's DQN defaults for the arguments NFSP passes on to it.
_DQN_DEFAULTS = {
    "replay_buffer_capacity": 10000, "update_target_network_every": 1000,
    "weight_update_coeff": 0.995, "discount_factor": 1.0,
    "epsilon_start": 1.0, "epsilon_end": 0.1,
    "epsilon_decay_duration": int(1e6), "epsilon_decay_schedule_str": "exp",
    "loss_str": "mse", "huber_loss_parameter": 1.0, "gradient_clipping": None,
    "device": "cpu"}
# What this agent supports of each, where it is not everything.
_SUPPORTED = {
    "optimizer_str": ("sgd",), "discount_factor": (1.0,),
    "loss_str": ("mse",), "gradient_clipping": (None,),
    "weight_update_coeff": (0.995,),
    "epsilon_decay_schedule_str": ("exp", "linear"),
    "device": ("cpu", "cuda", "gpu")}


def NFSP(player_id, state_representation_size, num_actions,  # pylint: disable=invalid-name
         hidden_layers_sizes, reservoir_buffer_capacity, anticipatory_param,
         batch_size=128, rl_learning_rate=0.01, sl_learning_rate=0.01,
         min_buffer_size_to_learn=1000, learn_every=64, optimizer_str="sgd",
         seed=42, **kwargs):
  """This package's NFSP agent configured as OpenSpiel's would be."""
  unknown = sorted(set(kwargs) - set(_DQN_DEFAULTS) - {"huber_loss_parameter"})
  if unknown:
    raise TypeError(f"NFSP got arguments OpenSpiel's NFSP and DQN do not "
                    f"take, or this package does not: {unknown}")
  dqn = {**_DQN_DEFAULTS, **kwargs, "optimizer_str": optimizer_str}
  for name, allowed in _SUPPORTED.items():
    if dqn[name] not in allowed:
      raise ValueError(f"{name}={dqn[name]!r}: this agent supports "
                       f"{allowed} (see nfsp_spiel.openspiel_nfsp)")
  if isinstance(hidden_layers_sizes, int):
    hidden_layers_sizes = (hidden_layers_sizes,)
  config = nfsp.NFSPConfig(
      hidden_layers=tuple(hidden_layers_sizes),
      rl_memory_capacity=int(dqn["replay_buffer_capacity"]),
      sl_memory_capacity=int(reservoir_buffer_capacity),
      sl_memory="reservoir", anticipatory=float(anticipatory_param),
      batch_size=batch_size, rl_learning_rate=rl_learning_rate,
      sl_learning_rate=sl_learning_rate,
      min_memory_to_learn=min_buffer_size_to_learn, learn_every=learn_every,
      updates_per_learn=1,  # OpenSpiel: one update per learning call
      target_refit_every=max(
          1, int(dqn["update_target_network_every"]) // learn_every),
      epsilon_start=float(dqn["epsilon_start"]),
      epsilon_end=float(dqn["epsilon_end"]),
      epsilon_decay_steps=int(dqn["epsilon_decay_duration"]),
      epsilon_schedule={"exp": "exponential", "linear": "linear"}[
          dqn["epsilon_decay_schedule_str"]],
      reward_scale=1.0,
      device="/CPU:0" if dqn["device"] == "cpu" else "/GPU:0")
  size = state_representation_size
  if isinstance(size, (tuple, list)):
    (size,) = size
  return nfsp.NFSP(player_id, size, num_actions, config, seed=seed)
