"""The checkpoint format of NFSP agents and of the runs that train them.

An agent's checkpoint is a dict of arrays (`agent_arrays`): its
configuration, sizes, counters, random streams, the episode in progress, every
network's weights, the learner's optimiser state and both memories, with the
records not yet stored. A run's file (`save_agents`) holds every player's
agent under `agent<p>/` beside the driver's own arrays, under a header that
names the algorithm, game, configuration and the driver's settings
(`nfsp_spiel.core.checkpoints`), so that a run refuses a checkpoint of other
settings. Headers written before the learners' configurations were split off
name the learner's fields flat (`rl_learning_rate`, ...): they are read
through `config.complete_header`, so every earlier checkpoint still loads.
"""

import json

import numpy as np

from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp.config import complete_header

# Config fields a checkpoint may differ in: where a run resumes (a GPU run on
# a CPU) does not change what it learns.
IGNORED_FIELDS = ("device",)
# Config fields a run branched from another run's checkpoint may change
# (`drivers.branch`): how the agents learn and explore, nothing that shapes an
# array, a memory or the games in flight.
BRANCH_FIELDS = (
    "sl_learning_rate", "anticipatory_param", "reward_scale",
    "best_response.learning_rate", "best_response.epsilon_start",
    "best_response.epsilon_schedule", "best_response.epsilon_decay",
    "best_response.epsilon_end", "best_response.epsilon_decay_duration",
    "best_response.double_q", "best_response.td_error_clip")


def header(agent, algorithm="NFSP agent", game=None, **settings):
  """The checkpoint header of `agent` (alone, or as part of a run of
  `algorithm` on `game` with the driver's `settings`)."""
  return checkpoints.header(algorithm, game, {
      **agent.config.header_fields(), **settings})


def read(path, expected, ignore=()):
  """`checkpoints.read` for NFSP headers, of either form (config fields in
  `ignore` may differ besides `IGNORED_FIELDS`)."""
  return checkpoints.read(path, expected, (*IGNORED_FIELDS, *ignore),
                          upgrade=complete_header)


def agent_arrays(agent):
  """The agent's checkpoint as a dict of arrays. Records not yet stored are
  saved as they are, so that a resumed run stores them when an
  uninterrupted one would (the same random draws)."""
  learner = agent.best_response_learner
  best_response, pending = agent.episode()
  arrays = {"config": agent.config.to_json(),
            "shape": np.array([agent.player_id, agent.state_size,
                               agent.num_actions]),
            "counters": np.array([agent.steps, agent.episodes,
                                  int(learner.updates.numpy())]),
            "rng": json.dumps([agent.rng.bit_generator.state,
                               agent.evaluation_rng.bit_generator.state]),
            "episode": json.dumps([best_response, None if pending is None
                                   else pending[1]]),
            "pending_state": (np.zeros(0) if pending is None
                              else pending[0])}
  for name, network in agent.networks().items():
    for i, weights in enumerate(network.numpy_weights()):
      arrays[f"{name}_{i}"] = weights
  for key, value in learner.state_arrays().items():
    arrays[f"learner_{key}"] = value
  memories = (("rl", learner.memory_arrays()),
              ("sl", agent.average_policy.memory.state()))
  for (name, state), unstored in zip(memories, agent.unstored_records()):
    for key, value in state.items():
      arrays[f"{name}_memory_{key}"] = value
    arrays[f"{name}_unstored"] = unstored
  return arrays


def check_agent_arrays(agent, data, path, ignore=()):
  """Raises if `data` (`agent_arrays`' output) was written by an agent of
  another configuration (but for the fields in `ignore`), player or size
  (`path` names it)."""
  saved = checkpoints.header("NFSP agent", None,
                             json.loads(str(data["config"])))
  checkpoints.check(path, saved, header(agent), (*IGNORED_FIELDS, *ignore),
                    upgrade=complete_header)
  shape = [agent.player_id, agent.state_size, agent.num_actions]
  if [int(x) for x in data["shape"]] != shape:
    raise checkpoints.CheckpointError(
        f"{path!r} holds an agent of (player_id, state_size, num_actions) = "
        f"{tuple(data['shape'])}, this one is {tuple(shape)}")


def load_agent_arrays(agent, data, path, ignore=()):
  """Restores `agent` from `agent_arrays`' output after checking it (config
  fields in `ignore` may differ)."""
  check_agent_arrays(agent, data, path, ignore)
  for name, network in agent.networks().items():
    network.assign([data[f"{name}_{i}"] for i in range(len(network.weights))])
  learner = agent.best_response_learner

  def prefixed(prefix):
    return {k[len(prefix):]: data[k] for k in data if k.startswith(prefix)}

  learner.load_memory_arrays(prefixed("rl_memory_"))
  agent.average_policy.memory.load_state(prefixed("sl_memory_"))
  steps, episodes, updates = (int(c) for c in data["counters"])
  learner.updates.assign(updates)
  rng_states = json.loads(str(data["rng"]))
  best_response, action = json.loads(str(data["episode"]))
  agent.load_progress(
      steps=steps, episodes=episodes, rng_states=rng_states,
      unstored=(np.asarray(data["rl_unstored"]),
                np.asarray(data["sl_unstored"])),
      episode=(best_response, None if action is None else
               (np.array(data["pending_state"], np.float32), action)))
  learner.load_state_arrays(prefixed("learner_"))


def save_agents(path, game, agents, progress=None, settings=None,
                arrays_by_agent=None, **extra):
  """One checkpoint file for all players' agents (and `extra` arrays of the
  training loop, whose `settings` join the header, and a training run's
  `progress`), written atomically; returns the path. `arrays_by_agent`: the
  agents' `agent_arrays` where they were taken in another process (`agents`
  are then copies of the same configuration, for the header)."""
  if arrays_by_agent is None:
    arrays_by_agent = [agent_arrays(agent) for agent in agents]
  arrays = {"game": str(game), **extra}
  for p, part in enumerate(arrays_by_agent):
    for key, value in part.items():
      arrays[f"agent{p}/{key}"] = value
  return checkpoints.write(path, header(agents[0], "NFSP", game,
                                        **(settings or {})), arrays, progress)


def read_agents(path, game, agents, settings=None, ignore=()):
  """Reads and checks `save_agents`' file for `agents` (or copies of the same
  configuration): returns (each agent's arrays, the `extra` arrays). Another
  game, configuration (but for the fields in `ignore`), driver setting or
  agent size raises `checkpoints.CheckpointError`."""
  data = read(path, header(agents[0], "NFSP", game, **(settings or {})),
              ignore)
  parts = [{k[len(f"agent{p}/"):]: v for k, v in data.items()
            if k.startswith(f"agent{p}/")} for p in range(len(agents))]
  if not all(parts):
    raise checkpoints.CheckpointError(
        f"{path!r} holds no agent for some of the {len(agents)} players")
  extra = {k: v for k, v in data.items() if not k.startswith("agent")
           and k != "game"}
  for agent, part in zip(agents, parts):
    check_agent_arrays(agent, part, path, ignore)
  return parts, extra


def restore_agents(path, game, agents, settings=None, ignore=()):
  """Restores `save_agents`' file into `agents`; returns its `extra` arrays.
  A checkpoint `read_agents` refuses changes no agent."""
  parts, extra = read_agents(path, game, agents, settings, ignore)
  for agent, part in zip(agents, parts):
    load_agent_arrays(agent, part, path, ignore)
  return extra
