"""Neural Fictitious Self-Play (NFSP) in TensorFlow 2: the agent's core.

Heinrich & Silver 2016, "Deep Reinforcement Learning from Self-Play in
Imperfect-Information Games" (NFSP paper), Alg. 1; Heinrich's thesis ch. 6,
Alg. 8 (Online FSP agent) and Alg. 9 (NFSP with DQN).

Each `NFSP` agent is an OpenSpiel `rl_agent.AbstractAgent` for one player,
composed of two learning parts (`nfsp_spiel.nfsp.learner`):

* a best-response learner trained on M_RL, the agent's transitions, built
  from `NFSPConfig.best_response`: DQN (`nfsp_spiel.nfsp.dqn`, the NFSP
  paper's) or ARM (`nfsp_spiel.nfsp.arm`, NFSP-ARM: Chen et al., "Optimize
  Neural Fictitious Self-Play in Regret Minimization Thinking");
* the average policy Pi (`nfsp_spiel.nfsp.average_policy`), fitted to M_SL,
  the agent's own best-response behaviour.

Per episode, with probability eta (the anticipatory parameter) the agent
follows the learner's policy (epsilon-greedy(Q); ARM's regret matching),
otherwise Pi; only best-response steps reach M_SL. eta = 1 is the paper's DQN
baseline (sec. 4.2): the average network only watches.

Every `learn_every` of the agent's steps it makes `updates_per_learn` updates
of each network in one compiled call (`nfsp_spiel.nfsp.fused_learning`); it
acts from numpy copies of the weights refreshed after each such call, which
is what makes one agent step cost microseconds rather than a TensorFlow call.
The batched methods (`begin_episodes`, `act`, `observe_transitions`,
`record_steps`) are what `step` itself runs on batches of one;
`nfsp_spiel.nfsp.selfplay` runs them on many games at once. `BatchedAgent`
is that core; `nfsp_spiel.nfsp.agent.NFSP` adds OpenSpiel's single-game
interface. Checkpoints: `nfsp_spiel.nfsp.agent_checkpoints`; OpenSpiel
policies: `nfsp_spiel.nfsp.agent_policies`.
"""

import contextlib
import itertools

import numpy as np

from nfsp_spiel.core import checks
from nfsp_spiel.core.quiet_tensorflow import tf
from nfsp_spiel.nfsp import average_policy as average_policy_lib
from nfsp_spiel.nfsp import fused_learning
from nfsp_spiel.nfsp import networks
from nfsp_spiel.nfsp import transitions
from nfsp_spiel.nfsp.config import NFSPConfig
from nfsp_spiel.nfsp.config import POLICIES


# The losses of the learning parts, in `learning_parts()` order.
_LOSS_NAMES = ("rl_loss", "sl_loss")


def sample(probs, uniforms):
  """One action per row of `probs`: the first whose cumulative probability
  exceeds the row's uniform times the row's total."""
  if probs.shape[0] == 1 and probs.shape[1] <= average_policy_lib.PYTHON_ROW:
    row = probs[0].tolist()
    cumulative = list(itertools.accumulate(row))
    threshold = float(uniforms[0]) * cumulative[-1]
    return np.array([next(a for a, (c, p) in enumerate(zip(cumulative, row))
                          if c >= threshold and p > 0)])
  cumulative = np.cumsum(probs, axis=1)
  # Never past the last positive entry: the threshold is below the total.
  return (cumulative < uniforms[:, None] * cumulative[:, -1:]).sum(axis=1)


def greedy(probs, legal):
  """The argmax of each row of `probs` among the legal actions, one-hot."""
  best = np.argmax(np.where(legal > 0, probs, -np.inf), axis=1)
  result = np.zeros(legal.shape)
  result[np.arange(len(best)), best] = 1.0
  return result


class BatchedAgent:
  """One player's NFSP agent (thesis Alg. 8/9) as the drivers use it: every
  method takes a batch of states or records; see the module docstring."""

  def __init__(self, player_id, state_size, num_actions, config=None, seed=0):
    config = NFSPConfig.leduc() if config is None else config
    if not isinstance(config, NFSPConfig):
      raise TypeError(f"config must be an NFSPConfig, not {type(config)}")
    self.player_id = checks.whole_number("player_id", player_id, 0)
    self.state_size = checks.whole_number("state_size", state_size, 1)
    self.num_actions = checks.whole_number("num_actions", num_actions, 1)
    self.config = config
    self.rng = np.random.default_rng(seed)
    self._steps = 0  # this agent's training steps
    self._episodes = 0  # training episodes ended
    if config.memory_dtype in ("uint8", "bits") and self.num_actions > 256:
      raise ValueError(f"memory_dtype={config.memory_dtype!r} stores actions "
                       f"in a byte: num_actions={self.num_actions} needs "
                       "'float32'")
    networks.check_precision(config.precision, config.device)
    with self.placement():
      self.best_response_learner = config.best_response.build(
          self.state_size, self.num_actions, config, self.rng)
      self.average_policy = average_policy_lib.AveragePolicy(
          self.state_size, self.num_actions, config, self.rng)
    self._record_fields = tuple(self.best_response_learner.record_fields())
    self._waiting = transitions.WaitingRecords(self.best_response_learner,
                                               self.average_policy)
    self.losses = {name: np.nan for name in _LOSS_NAMES}

  def placement(self):
    """The device context of the agent's networks and updates."""
    if self.config.device is None:
      return contextlib.nullcontext()
    return tf.device(self.config.device)

  # ---- parts and counters ----

  @property
  def steps(self):
    """This agent's training steps (the exploration schedule's clock)."""
    return self._steps

  @steps.setter
  def steps(self, value):
    # OpenSpiel-style scripts and tests set the clock; drivers use
    # `count_steps`, `add_records` or `load_acting_weights`.
    self._steps = int(value)

  @property
  def episodes(self):
    """Training episodes ended."""
    return self._episodes

  def count_episodes(self, count):
    """Counts `count` training episodes ended (by a driver)."""
    self._episodes += int(count)

  def learning_parts(self):
    """The parts the fused learning call trains, in order."""
    return (self.best_response_learner, self.average_policy)

  def networks(self):
    """Name -> network, every network a checkpoint holds."""
    return {**self.best_response_learner.networks(),
            "average_network": self.average_policy.network}

  @property
  def rl_memory(self):
    """M_RL, held by the best-response learner."""
    return self.best_response_learner.memory

  @property
  def sl_memory(self):
    """M_SL, held by the average policy."""
    return self.average_policy.memory

  @property
  def average_network(self):
    return self.average_policy.network

  def sl_records(self, rows):
    """M_SL's stored rows as [state, action] rows."""
    return self.average_policy.records(rows)

  def sl_memory_records(self):
    """Every [state, action] row M_SL holds (after storing what waits)."""
    self.store()
    memory = self.sl_memory
    return self.sl_records(memory.fields["record"][:len(memory)])

  @property
  def epsilon(self):
    """The learner's exploration now (DQN's epsilon; 0 for a learner without
    an exploration schedule, such as ARM)."""
    schedule = getattr(self.best_response_learner, "epsilon", None)
    return 0.0 if schedule is None else schedule(self._steps)

  # ---- the batched methods (the single-game `step` runs them on one row) ----

  def begin_episodes(self, count):
    """Per new episode: True where the agent follows its best response."""
    return self.rng.random(count) < self.config.anticipatory_param

  def probabilities(self, states, legal, policy):
    """Action distributions of `policy` ("average", "best_response": the
    learner's evaluation policy, "greedy_average", or a boolean array
    choosing the learner's training policy per row) at a batch of states
    with 0/1 legal masks. `states` may be `networks.OneHotRows` where
    `policy` is a name (LBR's range queries)."""
    legal = np.asarray(legal, np.float32)
    learner = self.best_response_learner
    if not (isinstance(states, networks.OneHotRows) and
            isinstance(policy, str)):
      states = np.asarray(states, np.float32)
    self._check_states(states, legal)
    if isinstance(policy, str):
      if policy not in POLICIES:
        raise ValueError(f"policy={policy!r}: must be one of {POLICIES}")
      if policy == "best_response":
        return learner.policy_probabilities(states, legal)
      probs = self.average_policy.probabilities(states, legal)
      return greedy(probs, legal) if policy == "greedy_average" else probs
    best_response = np.asarray(policy, bool)
    if best_response.all():  # whole batches in one mode skip the indexing
      return learner.behaviour_probabilities(states, legal, self._steps)
    if not best_response.any():
      return self.average_policy.probabilities(states, legal)
    probs = np.empty(legal.shape)  # a mixed batch: each mode on its rows
    probs[best_response] = learner.behaviour_probabilities(
        states[best_response], legal[best_response], self._steps)
    rows = ~best_response
    probs[rows] = self.average_policy.probabilities(states[rows], legal[rows])
    return probs

  def act(self, states, legal, best_response):
    """Sampled actions and their distributions for a batch of states."""
    probs = self.probabilities(states, legal, best_response)
    return sample(probs, self.rng.random(len(probs))), probs

  def observe_transitions(self, states, actions, rewards, next_states,
                          next_legal, done, games=None):
    """Adds completed transitions (s, a, r, s') to M_RL; `next_legal` masks
    s's legal actions (zeros where `done`). `games` numbers the game each
    came from, where several are played at once (None: one game)."""
    if not len(states):
      return
    self._waiting.add_transitions(transitions.records(
        self._record_fields, state=states, action=actions,
        reward=np.asarray(rewards, np.float32) * self.config.reward_scale,
        next_state=next_states, next_legal=next_legal, done=done,
        game=np.zeros(len(states)) if games is None else games))

  def record_steps(self, states, actions, best_response, learn=True):
    """Counts training steps just taken and adds the best-response ones to
    M_SL; returns how many learning calls (one per `learn_every` steps) fell
    due, and makes them unless `learn` is False (the caller then makes them,
    e.g. with a driver's `FusedLearning`)."""
    best_response = np.asarray(best_response, bool)
    if best_response.any():
      self._waiting.add_steps(self.average_policy.rows(
          np.asarray(states)[best_response],
          np.asarray(actions)[best_response]))
    due = self.count_steps(len(best_response))
    if learn and due:
      self.learn(due)
    return due

  def count_steps(self, steps):
    """Counts `steps` training steps; returns the learning calls due."""
    before = self._steps // self.config.learn_every
    self._steps += steps
    return self._steps // self.config.learn_every - before

  def store(self):
    """Adds the records observed since the last call to the memories
    (`transitions.WaitingRecords`)."""
    self._waiting.store()

  def learn(self, calls=1):
    """`calls` learning calls: `updates_per_learn` updates each, of each
    network whose memory holds enough records, in one compiled call that
    also returns the new weights for the numpy mirrors."""
    fused_learning.learn_together([self], [calls])

  def take_learning(self, ready, losses, weights):
    """Takes a fused learning call's outputs for this agent: per learning
    part (`ready` ones trained), its loss and its new acting weights."""
    losses = {name: float(loss) for name, part_ready, loss
              in zip(_LOSS_NAMES, ready, losses) if part_ready}
    if not all(np.isfinite(list(losses.values()))):
      raise FloatingPointError(
          f"NFSP agent {self.player_id}: training diverged ({losses}); "
          "lower the learning rates or scale the rewards with "
          "NFSPConfig.reward_scale")
    # A network whose memory is not ready yet keeps its loss at NaN.
    self.losses = {**self.losses, **losses}
    for part, part_ready, part_weights in zip(self.learning_parts(), ready,
                                              weights):
      if part_ready:
        part.set_acting_weights([np.asarray(w) for w in part_weights])

  # ---- records and weights for a learner in another process ----
  # (`nfsp_spiel.nfsp.distributed`: actors' copies play and take their
  # records, the learner's agents add them and learn, actors load the new
  # weights).

  def unstored_records(self):
    """The records waiting for `store`, as one M_RL and one M_SL array."""
    return self._waiting.arrays()

  def take_records(self):
    """Removes the records observed since the last `store` from this agent
    and returns them, (M_RL rows, M_SL rows), as `add_records` takes them."""
    return self._waiting.take()

  def add_records(self, rl_rows, sl_rows, steps, first_game=0):
    """Takes another copy's `take_records` and counts the `steps` training
    steps that made them; returns the learning calls that fell due (the
    caller makes them). `first_game` is added to the records' game numbers
    where they carry them, so that games of several copies stay apart."""
    rl_rows = np.asarray(rl_rows, np.float32)
    if "game" in self._record_fields and first_game:
      rl_rows = rl_rows.copy()  # Ray's arrays are read-only views
      rl_rows[:, self._record_fields.index("game") - len(
          self._record_fields)] += first_game
    self._waiting.put(rl_rows, np.asarray(sl_rows))
    return self.count_steps(steps)

  def games_recorded(self):
    """One more than the largest game number in M_RL (0 where records carry
    no game): where a copy's new games may start numbering."""
    memory = self.rl_memory
    if "game" not in self._record_fields or not len(memory):
      return 0
    return int(memory[:, -1].max()) + 1

  def acting_weights(self):
    """The numpy weights acting reads: (best-response learner's, average
    policy's)."""
    return list(self.best_response_learner.weights), list(
        self.average_policy.weights)

  def load_acting_weights(self, weights, steps=None):
    """Acts from another copy's `acting_weights()` from now on (and with its
    exploration clock `steps`, where given)."""
    learner_weights, average_weights = weights
    self.best_response_learner.set_acting_weights(list(learner_weights))
    self.average_policy.set_acting_weights(list(average_weights))
    if steps is not None:
      self._steps = int(steps)

  def load_counters(self, steps, episodes, losses):
    """Takes another copy's counters and last losses (a driver's mirror of
    agents that learn elsewhere)."""
    self._steps, self._episodes = int(steps), int(episodes)
    self.losses = dict(losses)

  def _check_states(self, states, legal):
    shape = ((len(states), len(states.shared))
             if isinstance(states, networks.OneHotRows) else states.shape)
    if len(shape) != 2 or shape[1] != self.state_size:
      raise ValueError(f"information-state tensors of shape {shape} do "
                       f"not fit the networks' input size {self.state_size}")
    if legal.shape != (len(states), self.num_actions):
      raise ValueError(f"legal-action masks of shape {legal.shape}, expected "
                       f"{(len(states), self.num_actions)}")

  def load_progress(self, steps, episodes, rng_state, unstored):
    """Restores counters, the random stream and waiting records
    (`nfsp_spiel.nfsp.agent_checkpoints`; after the networks)."""
    self._steps, self._episodes = steps, episodes
    self.rng.bit_generator.state = rng_state
    self._waiting.load(*unstored)
    self.average_policy.set_acting_weights(
        self.average_policy.network.numpy_weights())
