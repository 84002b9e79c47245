"""OpenSpiel's NFSP constructor on this package's agent: change one import.

A script written for OpenSpiel's PyTorch NFSP (`open_spiel.python.pytorch.
nfsp`; its JAX one takes the same arguments) runs on `nfsp_spiel.nfsp.NFSP`
with

    from nfsp_spiel.nfsp import openspiel_nfsp as nfsp

and one written for its TF1 agent (`open_spiel.python.algorithms.nfsp`) with
`from nfsp_spiel.nfsp import openspiel_nfsp_tf1 as nfsp`. `NFSP(...)` takes
OpenSpiel's arguments with OpenSpiel's defaults, which are OpenSpiel's
settings, not the paper's (`NFSPConfig.leduc()` holds the paper's Leduc
experiment), and returns an `nfsp_spiel.nfsp.NFSP` whose `NFSPConfig`
(`openspiel_config`) gives the same updates where the two agents can:

* OpenSpiel's PyTorch and TF1 DQNs descend the mean squared TD error, this
  agent half of it (`nfsp_spiel.nfsp.dqn`): `rl_learning_rate` is doubled, which
  makes the same SGD step (OpenSpiel's JAX DQN halves it too: a JAX script
  gets twice its RL step unless it halves `rl_learning_rate`);
* OpenSpiel learns from a memory once it holds both `batch_size` and
  `min_buffer_size_to_learn` records: the agent's `min_buffer_size_to_learn`
  is the larger;
* the target network is copied whole every `update_target_network_every //
  learn_every` Q updates (OpenSpiel's PyTorch and JAX DQNs take 99.5% of the
  Q-network at each copy by default, `weight_update_coeff=0.995`).

What stays this agent's own (README, "Using an OpenSpiel NFSP script"):
epsilon decays over all of the agent's steps where OpenSpiel's DQN counts
only its best-response steps; learning calls fall every `learn_every` steps
that act, where OpenSpiel also counts each episode's last step; M_SL holds
the best response's sampled actions, not its action distributions (the same
expected cross-entropy gradient); an evaluation step outside `temp_mode_as`
plays the average policy (`NFSPConfig.evaluation_policy`), not the
episode's; the starting weights are `NFSPConfig.init`'s ("torch": PyTorch's
`nn.Linear` initialisation); `save` and `restore` write this package's
checkpoint file.

What the agent cannot do (Adam or RMSProp, Huber loss, gradient clipping, a
discount below 1, partial target updates, another memory class) raises a
ValueError naming the argument; an argument neither OpenSpiel's NFSP nor its
DQN takes raises a TypeError.
"""

from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import MODE  # noqa: F401  (OpenSpiel's name)

# The arguments that OpenSpiel's NFSP passes on to its DQN, with their
# defaults (open_spiel/python/pytorch/dqn.py and jax/dqn.py: `DQN.__init__`),
# and its own arguments that this module takes as settings
# (`replay_buffer_class`, `gradient_clipping`, JAX's `allow_checkpointing`).
# None stands for OpenSpiel's memory class.
_SETTINGS = {
    "replay_buffer_capacity": 10000, "update_target_network_every": 1000,
    "weight_update_coeff": 0.995, "discount_factor": 1.0,
    "epsilon_start": 1.0, "epsilon_end": 0.1,
    "epsilon_decay_duration": int(1e6), "epsilon_decay_schedule_str": "exp",
    "loss_str": "mse", "huber_loss_parameter": 1.0, "gradient_clipping": None,
    "device": "cpu", "replay_buffer_class": None,
    "allow_checkpointing": True}

# What the agent supports of a setting that it does not take whole: the
# values, and why no other.
_SUPPORTED = {
    "optimizer_str": (("sgd",), "the agent descends by plain SGD"),
    "loss_str": (("mse",), "the Q loss is the squared TD error"),
    "discount_factor": ((1.0,), "returns are undiscounted"),
    "gradient_clipping": ((None,), "gradients are not clipped"),
    "weight_update_coeff": ((0.995, 1.0), "the target network is copied "
                            "whole (0.995 is taken as 1)"),
    "epsilon_decay_schedule_str": (("exp", "linear"),
                                   "OpenSpiel has no other"),
    "replay_buffer_class": ((None,), "the memories are nfsp_spiel."
                            "replay_memory's (leave the argument out)"),
}
_SCHEDULES = {"exp": "exponential", "linear": "linear"}


def _device(device):
  """The TensorFlow device of a PyTorch device name ("cpu", "cuda:1")."""
  kind, _, index = str(device).partition(":")
  if kind not in ("cpu", "cuda"):
    raise ValueError(f"device={device!r}: this agent runs on 'cpu' or "
                     "'cuda[:index]' (TensorFlow's CPU or GPU)")
  return f"/{'CPU' if kind == 'cpu' else 'GPU'}:{index or 0}"


def openspiel_config(hidden_layers_sizes, reservoir_buffer_capacity,
                     anticipatory_param, batch_size=128, rl_learning_rate=0.01,
                     sl_learning_rate=0.01, min_buffer_size_to_learn=1000,
                     learn_every=64, optimizer_str="sgd", **settings):
  """The `NFSPConfig` of OpenSpiel NFSP arguments (`settings`: those it
  passes on to its DQN), e.g. for `nfsp_spiel.nfsp.selfplay`'s batched loop."""
  unknown = sorted(set(settings) - set(_SETTINGS))
  if unknown:
    raise TypeError(f"OpenSpiel's NFSP and DQN take no arguments {unknown}")
  settings = {**_SETTINGS, **settings, "optimizer_str": optimizer_str}
  for name, (allowed, why) in _SUPPORTED.items():
    if settings[name] not in allowed:
      raise ValueError(f"{name}={settings[name]!r} is not supported: "
                       f"{why}; allowed: {allowed}")
  if isinstance(hidden_layers_sizes, int):  # as OpenSpiel's DQN reads it
    hidden_layers_sizes = (hidden_layers_sizes,)
  dqn = nfsp.DQNConfig(
      learning_rate=2 * rl_learning_rate,
      replay_buffer_capacity=int(settings["replay_buffer_capacity"]),
      target_refit_every=max(
          1, int(settings["update_target_network_every"]) // learn_every),
      epsilon_start=float(settings["epsilon_start"]),
      epsilon_end=float(settings["epsilon_end"]),
      epsilon_decay_duration=int(settings["epsilon_decay_duration"]),
      epsilon_schedule=_SCHEDULES[settings["epsilon_decay_schedule_str"]])
  return nfsp.NFSPConfig(
      best_response=dqn, hidden_layers=tuple(hidden_layers_sizes),
      reservoir_buffer_capacity=int(reservoir_buffer_capacity),
      reservoir_buffer_kind="reservoir",
      anticipatory_param=float(anticipatory_param),
      batch_size=batch_size, sl_learning_rate=sl_learning_rate,
      min_buffer_size_to_learn=max(min_buffer_size_to_learn, batch_size),
      learn_every=learn_every, updates_per_learn=1,
      reward_scale=1.0, device=_device(settings["device"]))


def NFSP(player_id, state_representation_size, num_actions,  # pylint: disable=invalid-name
         hidden_layers_sizes, reservoir_buffer_capacity, anticipatory_param,
         batch_size=128, rl_learning_rate=0.01, sl_learning_rate=0.01,
         min_buffer_size_to_learn=1000, learn_every=64, optimizer_str="sgd",
         seed=42, **kwargs):
  """This package's NFSP agent set up as OpenSpiel's PyTorch NFSP would be
  by the same call (`kwargs`: what OpenSpiel passes on to its DQN)."""
  config = openspiel_config(
      hidden_layers_sizes, reservoir_buffer_capacity, anticipatory_param,
      batch_size, rl_learning_rate, sl_learning_rate,
      min_buffer_size_to_learn, learn_every, optimizer_str, **kwargs)
  size = state_representation_size
  if isinstance(size, (tuple, list)):  # OpenSpiel's type hint: a shape
    if len(size) != 1:
      raise ValueError(f"state_representation_size={size!r}: the networks "
                       "read flat information-state tensors (one size)")
    (size,) = size
  return nfsp.NFSP(player_id, size, num_actions, config, seed=seed)
