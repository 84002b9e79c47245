"""Neural Fictitious Self-Play (Heinrich & Silver 2016) and NFSP-ARM.

The parts, by module:

* `batched_agent`: `BatchedAgent`, one player's agent as the drivers use it
  (its learning parts; acting, recording and learning on batches);
* `agent`: `NFSP`, that agent as an OpenSpiel RL agent (`step`);
* `config`: `NFSPConfig` and the learners' `DQNConfig`, `ARMConfig`, with
  the papers' presets (no TensorFlow);
* `learner`: the `BestResponseLearner` protocol; `dqn`, `arm`: the two
  shipped learners; `average_policy`: Pi and M_SL;
* `transitions`: moves into M_RL records (`PendingMoves`);
* `fused_learning`: several agents' learning in one compiled call;
* `agent_checkpoints`: the agents' and runs' checkpoint format;
  `agent_policies`: `NFSPPolicy` and the diagnostics; `average_profile`: a
  trained run's average networks saved alone and loaded as a policy;
* drivers: `selfplay` (batched games), `distributed` (Ray actors),
  `rl_loop` (OpenSpiel's RL loop, one game at a time), `population` (K
  runs in one process; `sweep`: its members from seeds and sweeps);
  `drivers`: which of them a binary's settings make, new or resumed;
* adapters: `openspiel_nfsp`, `openspiel_nfsp_tf1` (OpenSpiel's NFSP
  constructors);
* `networks`, `replay_memory`: what the parts share (`trees.game_tensors`:
  what they read from a game).

The names below are this package's interface (`from nfsp_spiel import nfsp;
nfsp.NFSP(...)`); they load on first use, so that reading the configuration
(`nfsp.NFSPConfig`) does not import TensorFlow.
"""

import importlib

_EXPORTS = {
    "NFSP": "agent", "MODE": "agent", "agents_for": "agent",
    "BatchedAgent": "batched_agent",
    "NFSPConfig": "config", "DQNConfig": "config", "ARMConfig": "config",
    "POLICIES": "config", "RESERVOIR_BUFFER_KINDS": "config",
    "EPSILON_SCHEDULES": "config", "BEST_RESPONSES": "config",
    "masked_softmax": "average_policy", "PendingMoves": "transitions",
    "FusedLearning": "fused_learning", "learn_together": "fused_learning",
    "Population": "population", "spaced_seeds": "population",
    "StackedLearning": "stacked_learning",
    "save_agents": "agent_checkpoints", "read_agents": "agent_checkpoints",
    "restore_agents": "agent_checkpoints",
    "IGNORED_FIELDS": "agent_checkpoints",
    "NFSPPolicy": "agent_policies", "sl_memory_policy": "agent_policies",
    "diagnostics": "agent_policies",
    "reads_observations": "nfsp_spiel.trees.game_tensors",
    "information_state_size": "nfsp_spiel.trees.game_tensors",
    "state_tensor": "nfsp_spiel.trees.game_tensors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
  if name not in _EXPORTS:
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
  module = _EXPORTS[name]
  if "." not in module:
    module = f"{__name__}.{module}"
  value = getattr(importlib.import_module(module), name)
  globals()[name] = value
  return value


def __dir__():
  return sorted([*globals(), *_EXPORTS])
