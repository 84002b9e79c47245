"""Neural Fictitious Self-Play (NFSP) in TensorFlow 2: the OpenSpiel agent.

Heinrich & Silver 2016, "Deep Reinforcement Learning from Self-Play in
Imperfect-Information Games" (NFSP paper), Alg. 1; Heinrich's thesis ch. 6,
Alg. 8 (Online FSP agent) and Alg. 9 (NFSP with DQN).

`NFSP` is an OpenSpiel `rl_agent.AbstractAgent` for one player: `step` plays
one game through the batched methods of `batched_agent.BatchedAgent` (which
holds the learning parts and what the drivers use) on batches of one, with
OpenSpiel's NFSP accessors (`mode`, `temp_mode_as`, `loss`, `step_counter`)
and checkpoints (`save`, `restore`; the format is `agent_checkpoints`').
"""

import contextlib
import enum
import math

import numpy as np
from open_spiel.python import rl_agent

from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp import batched_agent
from nfsp_spiel.nfsp import agent_checkpoints
from nfsp_spiel.nfsp import config as config_lib
from nfsp_spiel.nfsp import equity_inputs
from nfsp_spiel.nfsp import transitions
from nfsp_spiel.nfsp.batched_agent import sample
from nfsp_spiel.trees.game_tensors import information_state_size


class MODE(enum.Enum):
  """OpenSpiel's names for the policy an NFSP agent plays (its PyTorch and
  JAX agents' upper case, its TF1 agent's lower case)."""
  BEST_RESPONSE = 0
  AVERAGE_POLICY = 1
  best_response = 0  # pylint: disable=invalid-name
  average_policy = 1  # pylint: disable=invalid-name


class NFSP(batched_agent.BatchedAgent, rl_agent.AbstractAgent):
  """One player's NFSP agent as an OpenSpiel RL agent: `step` plays one game
  through the batched methods on batches of one; see the module
  docstring."""

  def __init__(self, player_id, state_size, num_actions, config=None, seed=0,
               name="nfsp"):
    super().__init__(player_id, state_size, num_actions, config, seed)
    self._name = name
    self.evaluation_rng = np.random.default_rng([seed, 1])
    # The single-game episode: policy choice (drawn at its first step, so
    # that an agent driven by `selfplay` draws nothing for it) and its
    # pending move.
    self._best_response = None
    self._moves = transitions.PendingMoves(1, self.state_size,
                                           self.num_actions,
                                           self.observe_transitions)
    self._mode = None  # `temp_mode_as`'s, while in force

  # ---- the OpenSpiel RL-agent interface ----

  def step(self, time_step, is_evaluation=False):
    """Acts for `player_id` and learns (OpenSpiel's `AbstractAgent.step`).

    Training steps follow the episode's policy (the learner's with
    probability eta, else Pi), store transitions in M_RL and best-response
    steps in M_SL; evaluation steps play `config.evaluation_policy` and
    change nothing but an evaluation RNG.
    """
    p = self.player_id
    if p >= len(time_step.observations["info_state"]):
      raise ValueError(f"player_id={p}: the time step has "
                       f"{len(time_step.observations['info_state'])} players")
    game = np.zeros(1, np.int64)
    if time_step.last():
      if not is_evaluation:
        self._moves.ended(game, [time_step.rewards[p]])
        self._best_response = bool(self.begin_episodes(1)[0])
        self._episodes += 1
      return None
    observations = time_step.observations
    state = np.asarray(observations["info_state"][p], np.float32)
    legal_actions = observations["legal_actions"][p]
    if max(legal_actions) >= self.num_actions:
      raise ValueError(f"legal action {max(legal_actions)} does not fit "
                       f"num_actions={self.num_actions} (the game's "
                       "num_distinct_actions)")
    legal = np.zeros((1, self.num_actions), np.float32)
    legal[0, legal_actions] = 1.0
    if is_evaluation:
      policy = {None: self.config.evaluation_policy,
                MODE.BEST_RESPONSE: "best_response",
                MODE.AVERAGE_POLICY: "average"}[self._mode]
      probs = self.probabilities(state[None], legal, policy)
      action = sample(probs, self.evaluation_rng.random(1))
      return rl_agent.StepOutput(action=int(action[0]), probs=probs[0])
    if self._best_response is None:
      self._best_response = bool(self.begin_episodes(1)[0])
    best_response = (self._best_response if self._mode is None else
                     self._mode is MODE.BEST_RESPONSE)
    action, probs = self.act(state[None], legal, [best_response])
    self._moves.moved(game, state[None], legal, action,
                      [time_step.rewards[p] if time_step.rewards else 0.0])
    self.record_steps(state[None], action, [best_response])
    return rl_agent.StepOutput(action=int(action[0]), probs=probs[0])

  def episode(self):
    """The single-game episode in progress: (best-response choice or None,
    pending (state, action) or None)."""
    pending = None
    if self._moves.waiting[0]:
      pending = (self._moves.state[0].copy(), int(self._moves.action[0]))
    return self._best_response, pending

  def load_progress(self, steps, episodes, rng_states, unstored, episode):
    """Restores counters, random streams, waiting records and the episode in
    progress (`nfsp_spiel.nfsp.agent_checkpoints`; after the networks)."""
    super().load_progress(steps, episodes, rng_states[0], unstored)
    self.evaluation_rng.bit_generator.state = rng_states[1]
    self._best_response, pending = episode
    self._moves.waiting[0] = pending is not None
    if pending is not None:
      self._moves.state[0], self._moves.action[0] = pending

  # ---- OpenSpiel's NFSP agents' accessors (`openspiel_nfsp`) ----

  @property
  def mode(self):
    """The policy this episode plays, as OpenSpiel's `MODE`."""
    if self._mode is not None:
      return self._mode
    return MODE.BEST_RESPONSE if self._best_response else MODE.AVERAGE_POLICY

  @contextlib.contextmanager
  def temp_mode_as(self, mode):
    """Plays `mode`'s policy within the context (OpenSpiel's): evaluation
    steps the greedy best response or the average policy, training steps
    that policy as the episode's."""
    # By name: OpenSpiel's TF1 `MODE` numbers its members from 1.
    previous, self._mode = self._mode, MODE[mode.name]
    try:
      yield
    finally:
      self._mode = previous

  @property
  def loss(self):
    """(SL loss, RL loss) of each network's last update, None before its
    first (OpenSpiel's order; the RL loss is the learner's)."""
    return tuple(None if math.isnan(self.losses[k]) else self.losses[k]
                 for k in ("sl_loss", "rl_loss"))

  @property
  def step_counter(self):
    """Training `step` calls, each episode's last one included (OpenSpiel's
    count; `steps` counts those that act)."""
    return self._steps + self._episodes

  # ---- checkpoints (the format is `nfsp_spiel.nfsp.agent_checkpoints`') ----

  def save(self, path):
    """Writes everything a resumed run needs (networks, optimiser state,
    both memories, counters, random streams, the current episode) to `path`
    (.npz), atomically."""
    return checkpoints.write(path, self.checkpoint_header(),
                             self.checkpoint_arrays())

  def restore(self, path):
    """Loads a checkpoint written by `save` by an agent of the same player,
    sizes and configuration, in place (OpenSpiel's agents' convention); a
    mismatch raises before anything changes."""
    self.load_checkpoint_arrays(
        agent_checkpoints.read(path, self.checkpoint_header()), path)

  def checkpoint_header(self, algorithm="NFSP agent", game=None, **settings):
    return agent_checkpoints.header(self, algorithm, game, **settings)

  def checkpoint_arrays(self):
    return agent_checkpoints.agent_arrays(self)

  def check_checkpoint_arrays(self, data, path):
    agent_checkpoints.check_agent_arrays(self, data, path)

  def load_checkpoint_arrays(self, data, path):
    agent_checkpoints.load_agent_arrays(self, data, path)


def agents_for(game, config=None, seed=0):
  """One NFSP agent per player of `game` (seeds `seed`, `seed + 1`, ...)."""
  return [agent_for(game, p, config, seed=seed + p)
          for p in range(game.num_players())]


def agent_for(game, player, config=None, seed=0):
  """`player`'s NFSP agent of `config` for `game`, reading what
  `config.inputs` says: the game's information-state tensors, or those and
  the equity of the cards (`equity_inputs.EquityInputs`, Limit Hold'em
  only)."""
  size = information_state_size(game)
  if config is None or config.inputs == config_lib.CARDS:
    return NFSP(player, size, game.num_distinct_actions(), config, seed=seed)
  check_inputs(game, config)
  return equity_inputs.EquityInputs(NFSP(
      player, size + equity_inputs.LEVELS, game.num_distinct_actions(),
      config, seed=seed))


def check_inputs(game, config):
  """Refuses `config.inputs` that `game` cannot give (the equity of
  Limit Hold'em's cards in another game)."""
  if (config.inputs != config_lib.CARDS
      and game.get_type().short_name != "nfsp_lhe"):
    raise ValueError(f"inputs={config.inputs!r} reads Limit Hold'em's "
                     f"cards: the game must be nfsp_lhe, not {game}")
