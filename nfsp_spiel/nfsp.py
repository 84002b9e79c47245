"""Neural Fictitious Self-Play (NFSP) in TensorFlow 2.

Heinrich & Silver 2016, "Deep Reinforcement Learning from Self-Play in
Imperfect-Information Games" (NFSP paper), Alg. 1; Heinrich's thesis ch. 6,
Alg. 8 (Online FSP agent) and Alg. 9 (NFSP with DQN).

Each `NFSP` agent is an OpenSpiel `rl_agent.AbstractAgent` for one player:

* a best-response learner trained on M_RL, the agent's transitions: DQN
  (`nfsp_spiel.dqn`, the NFSP paper's) or ARM (`nfsp_spiel.arm`, NFSP-ARM:
  Chen et al., "Optimize Neural Fictitious Self-Play in Regret Minimization
  Thinking"), chosen by `NFSPConfig.best_response` and held through the
  small interface `nfsp_spiel.dqn` documents;
* an average-policy network Pi trained by SGD on the cross-entropy of eq. 6.3
  against M_SL, the agent's own best-response behaviour, kept in a reservoir
  (Vitter), an exponential reservoir (Osborne et al.) or, for the paper's
  ablation, a sliding window (`nfsp_spiel.replay_memory`);
* per episode, with probability eta (the anticipatory parameter) the agent
  follows the learner's policy (epsilon-greedy(Q); ARM's regret matching),
  otherwise Pi; only best-response steps reach
  M_SL. eta = 1 is the paper's DQN baseline (sec. 4.2): the average network
  only watches.

Every `learn_every` of the agent's steps it makes `updates_per_learn` SGD
updates of each network in one compiled `tf.function` call; it acts from numpy
copies of the weights refreshed after each such call, which is what makes one
agent step cost microseconds rather than a TensorFlow call. The batched
methods (`begin_episodes`, `act`, `observe_transitions`, `record_steps`) are
what `step` itself runs on batches of one; `nfsp_spiel.selfplay` runs them
on many games at once.

`NFSPConfig` (`nfsp_spiel.nfsp_config`, importable without TensorFlow) holds
every hyperparameter with the NFSP paper's Leduc values as defaults (sec.
4.1); `NFSPConfig.lhe()` has sec. 4.3's, `NFSPConfig.dqn()` sec. 4.2's
baseline, `NFSPConfig.nfsp_arm()` and `NFSPConfig.arm()` NFSP-ARM and plain
ARM.
"""

import contextlib
import dataclasses
import enum
import itertools
import json
import math

import numpy as np
from open_spiel.python import policy as policy_lib
from open_spiel.python import rl_agent

from nfsp_spiel import arm as arm_lib
from nfsp_spiel import checkpoints
from nfsp_spiel import checks
from nfsp_spiel import dqn as dqn_lib
from nfsp_spiel import evaluation
from nfsp_spiel import networks
from nfsp_spiel import replay_memory
from nfsp_spiel.quiet_tensorflow import tf

# The configuration lives in a module without TensorFlow (binaries parse
# their flags before importing it); it is part of this module's interface.
from nfsp_spiel.nfsp_config import EPSILON_SCHEDULES  # noqa: F401
from nfsp_spiel.nfsp_config import NFSPConfig
from nfsp_spiel.nfsp_config import POLICIES
from nfsp_spiel.nfsp_config import SL_MEMORIES  # noqa: F401
# What the networks read from a game, part of this module's interface.
from nfsp_spiel.game_tensors import information_state_size
from nfsp_spiel.game_tensors import reads_observations
from nfsp_spiel.game_tensors import state_tensor

# The dtype of M_SL's [state, action] rows as the learning call reads them.
_SL_DTYPES = {"float32": "float32", "uint8": "uint8", "bits": "float32"}


class MODE(enum.Enum):
  """OpenSpiel's names for the policy an NFSP agent plays (its PyTorch and
  JAX agents' upper case, its TF1 agent's lower case)."""
  BEST_RESPONSE = 0
  AVERAGE_POLICY = 1
  best_response = 0  # pylint: disable=invalid-name
  average_policy = 1  # pylint: disable=invalid-name

# Config fields a checkpoint may differ in: where a run resumes (a GPU run on
# a CPU) does not change what it learns. Fields added since a checkpoint was
# written count with their defaults (`NFSPConfig()`), which keep the earlier
# behaviour.
IGNORED_FIELDS = ("device",)


# Rows this short go through Python floats when there is one of them: a
# single game's step then costs two numpy calls fewer than five each (a
# numpy call on a tiny array costs ~1 us, a Python float operation ~50 ns).
_PYTHON_ROW = 16


def _sample(probs, uniforms):
  """One action per row of `probs`: the first whose cumulative probability
  exceeds the row's uniform times the row's total."""
  if probs.shape[0] == 1 and probs.shape[1] <= _PYTHON_ROW:
    row = probs[0].tolist()
    cumulative = list(itertools.accumulate(row))
    threshold = float(uniforms[0]) * cumulative[-1]
    return np.array([next(a for a, (c, p) in enumerate(zip(cumulative, row))
                          if c >= threshold and p > 0)])
  cumulative = np.cumsum(probs, axis=1)
  # Never past the last positive entry: the threshold is below the total.
  return (cumulative < uniforms[:, None] * cumulative[:, -1:]).sum(axis=1)


def masked_softmax(logits, legal):
  """Softmax over the legal actions (a 0/1 mask) of each row."""
  if logits.shape[0] == 1 and logits.shape[1] <= _PYTHON_ROW:
    row, mask = logits[0].tolist(), legal[0].tolist()
    top = max(x for x, m in zip(row, mask) if m > 0)
    exps = [math.exp(x - top) if m > 0 else 0.0 for x, m in zip(row, mask)]
    total = sum(exps)
    return np.array([[e / total for e in exps]])
  logits = np.where(legal > 0, logits, -np.inf)
  exp = np.exp(logits - logits.max(axis=1, keepdims=True))
  return exp / exp.sum(axis=1, keepdims=True)


class NFSP(rl_agent.AbstractAgent):
  """One player's NFSP agent (thesis Alg. 8/9 with DQN)."""

  def __init__(self, player_id, state_size, num_actions, config=None, seed=0,
               name="nfsp"):
    config = NFSPConfig.leduc() if config is None else config
    if not isinstance(config, NFSPConfig):
      raise TypeError(f"config must be an NFSPConfig, not {type(config)}")
    self.player_id = checks.whole_number("player_id", player_id, 0)
    self.state_size = checks.whole_number("state_size", state_size, 1)
    self.num_actions = checks.whole_number("num_actions", num_actions, 1)
    self.config = config
    self._name = name
    self._rng = np.random.default_rng(seed)
    self._evaluation_rng = np.random.default_rng([seed, 1])
    self.steps = 0  # this agent's training steps
    self.episodes = 0  # training episodes begun by `step`
    if config.memory_dtype in ("uint8", "bits") and self.num_actions > 256:
      raise ValueError(f"memory_dtype={config.memory_dtype!r} stores actions "
                       f"in a byte: num_actions={self.num_actions} needs "
                       "'float32'")
    with self._placement():
      learner = {"dqn": dqn_lib.DQN, "arm": arm_lib.ARM}[config.best_response]
      self.best_response_learner = learner(self.state_size, self.num_actions,
                                           config, self._rng)
      self.average_network = networks.MLP(self.state_size,
                                          config.hidden_layers,
                                          self.num_actions, self._rng,
                                          name="average_network",
                                          init=config.init)
    self._average_weights = self.average_network.numpy_weights()
    # M_SL holds one [s, a] row per record in `memory_dtype`, with "bits"
    # the state packed 8 entries to a byte (M_RL, the learner's, one
    # [s, a, r, s', legal(s'), done] row, float32 or packed alike): one array
    # per memory makes adding and sampling a single indexing operation.
    self._packed = (replay_memory.BitRows(self.state_size + 1,
                                          range(self.state_size))
                    if config.memory_dtype == "bits" else None)
    sl_shapes = {"record": (
        (self._packed.packed_width if self._packed else self.state_size + 1,),
        np.uint8 if self._packed else np.dtype(config.memory_dtype))}
    if config.sl_memory == "reservoir":
      self.sl_memory = replay_memory.Reservoir(config.sl_memory_capacity,
                                               sl_shapes, self._rng)
    elif config.sl_memory == "exponential_reservoir":
      self.sl_memory = replay_memory.ExponentialReservoir(
          config.sl_memory_capacity, sl_shapes, self._rng,
          config.sl_min_probability)
    else:
      self.sl_memory = replay_memory.CircularBuffer(config.sl_memory_capacity,
                                                    sl_shapes, self._rng)
    self._unstored_rl, self._unstored_sl = [], []  # see `store`
    self._learn_functions = {}  # see `learn_together`
    self.losses = {"rl_loss": np.nan, "sl_loss": np.nan}
    # The single-game path's episode: policy choice (drawn at its first step,
    # so that an agent driven by `selfplay` draws nothing for it) and last
    # (state, action).
    self._best_response = None
    self._pending = None
    self._mode = None  # `temp_mode_as`'s, while in force

  @property
  def rl_memory(self):
    """M_RL, held by the best-response learner."""
    return self.best_response_learner.memory

  def _placement(self):
    if self.config.device is None:
      return contextlib.nullcontext()
    return tf.device(self.config.device)

  # ---- the batched methods (the single-game `step` runs them on one row) ----

  @property
  def epsilon(self):
    """The exploration of epsilon-greedy(Q) at iteration steps / learn_every
    (`NFSPConfig.epsilon_schedule`)."""
    config = self.config
    iteration = self.steps / config.learn_every
    start, end = config.epsilon_start, config.epsilon_end
    progress = min(self.steps, config.epsilon_decay_steps) / (
        config.epsilon_decay_steps)
    if config.epsilon_schedule == "polynomial":
      return start / (1.0 + config.epsilon_decay * np.sqrt(iteration))
    if config.epsilon_schedule == "linear":
      return start + (end - start) * progress
    if config.epsilon_schedule == "exponential":
      return end + (start - end) * math.exp(-progress)
    return start / np.sqrt(1.0 + iteration)

  def begin_episodes(self, count):
    """Per new episode: True where the agent follows epsilon-greedy(Q)."""
    return self._rng.random(count) < self.config.anticipatory

  def probabilities(self, states, legal, policy):
    """Action distributions of `policy` ("average", "best_response" with the
    current epsilon, "greedy_average", or a boolean array choosing
    best response per row) at a batch of states with 0/1 legal masks."""
    states = np.asarray(states, np.float32)
    legal = np.asarray(legal, np.float32)
    self._check_states(states, legal)
    if isinstance(policy, str):
      if policy not in POLICIES:
        raise ValueError(f"policy={policy!r}: must be one of {POLICIES}")
      if policy == "best_response":
        return self.best_response_learner.policy_probabilities(states, legal)
      probs = masked_softmax(
          networks.forward(self._average_weights, states), legal)
      if policy == "greedy_average":
        probs = dqn_lib.epsilon_greedy(probs, legal, 0.0)
      return probs
    best_response = np.asarray(policy, bool)
    learner = self.best_response_learner
    if best_response.all():  # whole batches in one mode skip the indexing
      return learner.behaviour_probabilities(states, legal, self.epsilon)
    if not best_response.any():
      return masked_softmax(
          networks.forward(self._average_weights, states), legal)
    probs = np.empty(legal.shape)  # a mixed batch: each mode on its rows
    probs[best_response] = learner.behaviour_probabilities(
        states[best_response], legal[best_response], self.epsilon)
    rows = ~best_response
    probs[rows] = masked_softmax(
        networks.forward(self._average_weights, states[rows]), legal[rows])
    return probs

  def act(self, states, legal, best_response):
    """Sampled actions and their distributions for a batch of states."""
    probs = self.probabilities(states, legal, best_response)
    return _sample(probs, self._rng.random(len(probs))), probs

  def observe_transitions(self, states, actions, rewards, next_states,
                          next_legal, done, games=None):
    """Adds completed transitions (s, a, r, s') to M_RL; `next_legal` masks
    s's legal actions (zeros where `done`). `games` numbers the game each
    came from, where several are played at once (ARM's n-step returns follow
    a game's transitions; None: one game at a time)."""
    if not len(states):
      return
    rewards = np.asarray(rewards, np.float32) * self.config.reward_scale
    columns = [states, actions, rewards, next_states, next_legal, done]
    if self.best_response_learner.needs_games:
      columns.append(np.zeros(len(states)) if games is None else games)
    columns = [np.asarray(c, np.float32).reshape(len(states), -1)
               for c in columns]
    self._unstored_rl.append(np.concatenate(columns, axis=1))

  def record_steps(self, states, actions, best_response, learn=True):
    """Counts training steps just taken and adds the best-response ones to
    M_SL; returns how many learning calls (one per `learn_every` steps) fell
    due, and makes them unless `learn` is False (the caller then makes them,
    e.g. with `learn_together`)."""
    best_response = np.asarray(best_response, bool)
    if best_response.any():
      rows = np.concatenate([np.asarray(states)[best_response],
                             np.asarray(actions)[best_response, None]], axis=1)
      self._unstored_sl.append(self._packed.pack(rows) if self._packed
                               else rows)
    due = self._count_steps(len(best_response))
    if learn and due:
      self.learn(due)
    return due

  def _count_steps(self, steps):
    """Counts `steps` training steps; returns the learning calls due."""
    before = self.steps // self.config.learn_every
    self.steps += steps
    return self.steps // self.config.learn_every - before

  def sl_records(self, rows):
    """M_SL's stored rows as [state, action] rows (unpacked where
    `memory_dtype` is "bits")."""
    return self._packed.unpack(rows) if self._packed else rows

  def store(self):
    """Adds the records observed since the last call to the memories.

    Records wait in lists until the memories are read (`learn`, a
    checkpoint): the memories' contents at every read are those of adding
    each record at once, and a single game's steps cost one list append
    instead of a memory update each.
    """
    if self._unstored_rl:
      self.best_response_learner.add(np.concatenate(self._unstored_rl))
      self._unstored_rl.clear()
    if self._unstored_sl:
      self.sl_memory.add_batch(record=np.concatenate(self._unstored_sl))
      self._unstored_sl.clear()

  # ---- records and weights for a learner in another process ----
  # (`nfsp_spiel.distributed`: actors' copies play and take their records,
  # the learner's agents add them and learn, actors load the new weights).

  def take_records(self):
    """Removes the records observed since the last `store` from this agent
    and returns them, (M_RL rows, M_SL rows), as `add_records` takes them."""
    rl, sl = self._unstored_arrays()
    self._unstored_rl.clear()
    self._unstored_sl.clear()
    return rl, sl

  def add_records(self, rl_rows, sl_rows, steps):
    """Takes another copy's `take_records` and counts the `steps` training
    steps that made them; returns the learning calls that fell due (the
    caller makes them, e.g. with `learn_together`)."""
    self._unstored_rl.append(np.asarray(rl_rows, np.float32))
    self._unstored_sl.append(np.asarray(sl_rows))
    return self._count_steps(steps)

  def acting_weights(self):
    """The numpy weights acting reads: (best-response learner's, average
    network's)."""
    return list(self.best_response_learner.weights), list(
        self._average_weights)

  def load_acting_weights(self, weights):
    """Acts from another copy's `acting_weights()` from now on."""
    learner_weights, average_weights = weights
    self.best_response_learner.set_acting_weights(list(learner_weights))
    self._average_weights = list(average_weights)

  def _unstored_arrays(self):
    """The records waiting for `store`, as one M_RL and one M_SL array."""
    learner = self.best_response_learner
    widths = ((learner.record_size, np.float32),
              (self.sl_memory.fields["record"].shape[1],
               self.sl_memory.fields["record"].dtype))
    return tuple(np.concatenate(unstored) if unstored else
                 np.zeros((0, width), dtype)
                 for unstored, (width, dtype) in zip(
                     (self._unstored_rl, self._unstored_sl), widths))

  def learn(self, calls=1):
    """`calls` learning calls: `updates_per_learn` SGD updates each, of each
    network whose memory holds `min_memory_to_learn` records, fused in one
    compiled call that also returns the new weights for the numpy mirrors."""
    learn_together([self], [calls])

  def _learning_batches(self, calls):
    """Stores the waiting records and takes the inputs of `calls` learning
    calls: (which of learner and M_SL are ready, the learner's inputs, M_SL's
    minibatches)."""
    self.store()
    rl = self.best_response_learner.learning_batches(calls)
    shape = (calls * self.config.updates_per_learn, self.config.batch_size)
    sl = []
    if len(self.sl_memory) >= self.config.min_memory_to_learn:
      sl = [self.sl_records(self.sl_memory.sample(shape)["record"])]
    return (bool(rl), bool(sl)), rl + sl

  def _learning_specs(self, key, calls):
    """Input signatures of `_learn_both` for `_learning_batches`' output."""
    shape = (calls * self.config.updates_per_learn, self.config.batch_size)
    specs = []
    if key[0]:
      specs += self.best_response_learner.learning_specs(calls)
    if key[1]:
      specs.append(tf.TensorSpec((*shape, self.state_size + 1), tf.as_dtype(
          _SL_DTYPES[self.config.memory_dtype])))
    return specs

  def _learn_both(self, rl, sl):
    """Graph code: the learner's updates on its inputs `rl` (a list), one
    SGD update of the average network per leading row of `sl`; returns the
    losses and both networks' new weights."""
    losses = {}
    with self._placement():
      if rl:
        losses["rl_loss"] = self.best_response_learner.learn(*rl)
      if sl is not None:
        for update in range(sl.shape[0]):
          records = tf.cast(sl[update], tf.float32)
          states = records[:, :-1]
          actions = tf.cast(records[:, -1], tf.int32)
          losses["sl_loss"] = networks.sgd_step(
              lambda: tf.reduce_mean(  # eq. 6.3
                  tf.nn.sparse_softmax_cross_entropy_with_logits(
                      actions, self.average_network(states))),  # pylint: disable=cell-var-from-loop
              self.average_network.weights, self.config.sl_learning_rate)
      return (losses, [tf.identity(v) for v in
                       self.best_response_learner.acting_variables()],
              [tf.identity(v) for v in self.average_network.weights])

  def _apply_learning(self, key, losses, learner_weights, average_weights):
    """Takes a learning call's outputs: losses, and the new weights of the
    networks that trained into the numpy mirrors."""
    losses = {name: float(value) for name, value in losses.items()}
    if not all(np.isfinite(list(losses.values()))):
      raise FloatingPointError(
          f"NFSP agent {self.player_id}: training diverged ({losses}); "
          "lower rl_learning_rate / sl_learning_rate or scale the rewards "
          "with NFSPConfig.reward_scale")
    # A network whose memory is not ready yet keeps its loss at NaN.
    self.losses = {**self.losses, **losses}
    if key[0]:
      self.best_response_learner.set_acting_weights(
          [w.numpy() for w in learner_weights])
    if key[1]:
      self._average_weights = [w.numpy() for w in average_weights]

  def _check_states(self, states, legal):
    if states.ndim != 2 or states.shape[1] != self.state_size:
      raise ValueError(f"information-state tensors of shape {states.shape} do "
                       f"not fit the networks' input size {self.state_size}")
    if legal.shape != (len(states), self.num_actions):
      raise ValueError(f"legal-action masks of shape {legal.shape}, expected "
                       f"{(len(states), self.num_actions)}")

  # ---- the OpenSpiel RL-agent interface ----

  def step(self, time_step, is_evaluation=False):
    """Acts for `player_id` and learns (OpenSpiel's `AbstractAgent.step`).

    Training steps follow the episode's policy (epsilon-greedy(Q) with
    probability eta, else Pi), store transitions in M_RL and best-response
    steps in M_SL; evaluation steps play `config.evaluation_policy` and
    change nothing but an evaluation RNG.
    """
    p = self.player_id
    if p >= len(time_step.observations["info_state"]):
      raise ValueError(f"player_id={p}: the time step has "
                       f"{len(time_step.observations['info_state'])} players")
    if time_step.last():
      if not is_evaluation:
        if self._pending is not None:
          state, action = self._pending
          self.observe_transitions(
              state[None], [action], [time_step.rewards[p]],
              np.zeros((1, self.state_size)), np.zeros((1, self.num_actions)),
              [1.0])
        self._pending = None
        self._best_response = bool(self.begin_episodes(1)[0])
        self.episodes += 1
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
      action = _sample(probs, self._evaluation_rng.random(1))
      return rl_agent.StepOutput(action=int(action[0]), probs=probs[0])
    if self._best_response is None:
      self._best_response = bool(self.begin_episodes(1)[0])
    if self._pending is not None:
      previous_state, previous_action = self._pending
      reward = time_step.rewards[p] if time_step.rewards else 0.0
      self.observe_transitions(previous_state[None], [previous_action],
                               [reward], state[None], legal, [0.0])
    best_response = (self._best_response if self._mode is None else
                     self._mode is MODE.BEST_RESPONSE)
    action, probs = self.act(state[None], legal, [best_response])
    self.record_steps(state[None], action, [best_response])
    self._pending = (state, int(action[0]))
    return rl_agent.StepOutput(action=int(action[0]), probs=probs[0])

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
    first (OpenSpiel's order; the RL loss is the learner's: `nfsp_spiel.dqn`'s
    half the mean squared TD error, or ARM's two mean squared errors)."""
    return tuple(None if math.isnan(self.losses[k]) else self.losses[k]
                 for k in ("sl_loss", "rl_loss"))

  @property
  def step_counter(self):
    """Training `step` calls, each episode's last one included (OpenSpiel's
    count; `steps` counts those that act)."""
    return self.steps + self.episodes

  # ---- checkpoints ----

  def save(self, path):
    """Writes everything a resumed run needs (networks, target network,
    optimiser state: none for plain SGD, both memories, counters, RNGs, the
    current episode) to `path` (.npz), atomically."""
    return checkpoints.write(path, self.checkpoint_header(),
                             self.checkpoint_arrays())

  def restore(self, path):
    """Loads a checkpoint written by `save` by an agent of the same player,
    sizes and configuration; a mismatch raises before anything changes."""
    self.load_checkpoint_arrays(
        checkpoints.read(path, self.checkpoint_header(), IGNORED_FIELDS,
                         NFSPConfig()), path)

  def checkpoint_header(self, algorithm="NFSP agent", game=None, **settings):
    """The checkpoint header of this agent (alone, or as part of a run of
    `algorithm` on `game` with the loop's `settings`)."""
    return checkpoints.header(algorithm, game, {
        **dataclasses.asdict(self.config), **settings})

  def checkpoint_arrays(self):
    """The agent's checkpoint as a dict of arrays (what `save` writes).
    Records not yet stored are saved as they are, so that a resumed run
    stores them when an uninterrupted one would (the same RNG draws)."""
    arrays = {"config": self.config.to_json(),
              "shape": np.array([self.player_id, self.state_size,
                                 self.num_actions]),
              "counters": np.array([
                  self.steps, self.episodes,
                  int(self.best_response_learner.updates.numpy())]),
              "rng": json.dumps([self._rng.bit_generator.state,
                                 self._evaluation_rng.bit_generator.state]),
              "episode": json.dumps([self._best_response, None if
                                     self._pending is None else
                                     self._pending[1]]),
              "pending_state": (np.zeros(0) if self._pending is None
                                else self._pending[0])}
    for name, network in self._networks().items():
      for i, weights in enumerate(network.numpy_weights()):
        arrays[f"{name}_{i}"] = weights
    learner = self.best_response_learner
    for key, value in learner.state_arrays().items():
      arrays[f"learner_{key}"] = value
    memories = (("rl", learner.memory_arrays()),
                ("sl", self.sl_memory.state()))
    for (name, state), unstored in zip(memories, self._unstored_arrays()):
      for key, value in state.items():
        arrays[f"{name}_memory_{key}"] = value
      arrays[f"{name}_unstored"] = unstored
    return arrays

  def check_checkpoint_arrays(self, data, path):
    """Raises if `data` (from `checkpoint_arrays()`) was written by an agent
    of another configuration, player or size (`path` names it)."""
    saved = checkpoints.header("NFSP agent", None,
                               json.loads(str(data["config"])))
    checkpoints.check(path, saved, self.checkpoint_header(), IGNORED_FIELDS,
                      NFSPConfig())
    shape = [self.player_id, self.state_size, self.num_actions]
    if [int(x) for x in data["shape"]] != shape:
      raise checkpoints.CheckpointError(
          f"{path!r} holds an agent of (player_id, state_size, "
          f"num_actions) = {tuple(data['shape'])}, this one is "
          f"{tuple(shape)}")

  def load_checkpoint_arrays(self, data, path):
    """Restores from `checkpoint_arrays()`' output after checking it."""
    self.check_checkpoint_arrays(data, path)
    for name, network in self._networks().items():
      network.assign([data[f"{name}_{i}"]
                      for i in range(len(network.weights))])
    learner = self.best_response_learner

    def prefixed(prefix):
      return {k[len(prefix):]: data[k] for k in data if k.startswith(prefix)}

    learner.load_memory_arrays(prefixed("rl_memory_"))
    self.sl_memory.load_state(prefixed("sl_memory_"))
    self._unstored_rl[:] = [np.asarray(data["rl_unstored"])]
    self._unstored_sl[:] = [np.asarray(data["sl_unstored"])]
    self.steps, self.episodes, updates = (int(c) for c in data["counters"])
    learner.updates.assign(updates)
    states = json.loads(str(data["rng"]))
    self._rng.bit_generator.state = states[0]
    self._evaluation_rng.bit_generator.state = states[1]
    best_response, action = json.loads(str(data["episode"]))
    self._best_response = best_response
    self._pending = (None if action is None else
                     (np.array(data["pending_state"], np.float32), action))
    learner.load_state_arrays(prefixed("learner_"))
    self._average_weights = self.average_network.numpy_weights()

  def _networks(self):
    return {**self.best_response_learner.networks(),
            "average_network": self.average_network}


def save_agents(path, game, agents, progress=None, settings=None,
                agent_arrays=None, **extra):
  """One checkpoint file for all players' agents (and `extra` arrays of the
  training loop, whose `settings` join the header, and a training run's
  `progress`), written atomically; returns the path. `agent_arrays`: the
  agents' `checkpoint_arrays()` where they were taken in another process
  (`agents` are then copies of the same configuration, for the header)."""
  if agent_arrays is None:
    agent_arrays = [agent.checkpoint_arrays() for agent in agents]
  arrays = {"game": str(game), **extra}
  for p, part in enumerate(agent_arrays):
    for key, value in part.items():
      arrays[f"agent{p}/{key}"] = value
  header = agents[0].checkpoint_header("NFSP", game, **(settings or {}))
  return checkpoints.write(path, header, arrays, progress)


def read_agents(path, game, agents, settings=None):
  """Reads and checks `save_agents`' file for `agents` (or copies of the same
  configuration): returns (each agent's `checkpoint_arrays()`, the `extra`
  arrays). Another game, configuration, loop `settings` or agent size raises
  `checkpoints.CheckpointError`."""
  expected = agents[0].checkpoint_header("NFSP", game, **(settings or {}))
  data = checkpoints.read(path, expected, IGNORED_FIELDS, NFSPConfig())
  parts = [{k[len(f"agent{p}/"):]: v for k, v in data.items()
            if k.startswith(f"agent{p}/")} for p in range(len(agents))]
  if not all(parts):
    raise checkpoints.CheckpointError(
        f"{path!r} holds no agent for some of the {len(agents)} players")
  extra = {k: v for k, v in data.items() if not k.startswith("agent")
           and k != "game"}
  for agent, part in zip(agents, parts):
    agent.check_checkpoint_arrays(part, path)
  return parts, extra


def restore_agents(path, game, agents, settings=None):
  """Restores `save_agents`' file into `agents`; returns its `extra` arrays.
  A checkpoint `read_agents` refuses changes no agent."""
  parts, extra = read_agents(path, game, agents, settings)
  for agent, part in zip(agents, parts):
    agent.load_checkpoint_arrays(part, path)
  return extra


def learn_together(agents, calls):
  """Makes `calls[i]` learning calls of `agents[i]` for every i, all in one
  compiled (XLA) call: what one agent's `learn` does, for several agents at
  the cost of one TensorFlow dispatch (which, not the arithmetic, dominates
  a learning call of the papers' small networks). Each agent samples its
  batches first, then every network makes its updates in order."""
  plans = [(agent, calls_, *agent._learning_batches(calls_))  # pylint: disable=protected-access
           for agent, calls_ in zip(agents, calls) if calls_]
  plans = [plan for plan in plans if plan[3]]  # some memory is ready
  if not plans:
    return
  signature = tuple((id(agent), calls_, key) for agent, calls_, key, _
                    in plans)
  cache = plans[0][0]._learn_functions  # pylint: disable=protected-access
  if signature not in cache:
    cache[signature] = _compile_learning(plans)
  # Tensors, not numpy arrays: a concrete function binds numpy arguments
  # through a path that costs ~0.15 ms each, `tf.constant` ~0.02 ms.
  batches = [tf.constant(b) for plan in plans for b in plan[3]]
  with plans[0][0]._placement():  # pylint: disable=protected-access
    outputs = cache[signature](*batches)
  for (agent, _, key, _), output in zip(plans, outputs):
    agent._apply_learning(key, *output)  # pylint: disable=protected-access


def _compile_learning(plans):
  """The XLA-compiled learning call of `learn_together`'s plans, as a
  concrete function (calling one costs half a `tf.function`'s dispatch)."""
  specs, layout = [], []
  for agent, calls, key, _ in plans:
    specs += agent._learning_specs(key, calls)  # pylint: disable=protected-access
    rl_inputs = (len(agent.best_response_learner.learning_specs(calls))
                 if key[0] else 0)
    layout.append((agent, rl_inputs, key[1]))

  def learn(*batches):
    batches, outputs = list(batches), []
    for agent, rl_inputs, sl_ready in layout:
      rl, batches = batches[:rl_inputs], batches[rl_inputs:]
      sl = batches.pop(0) if sl_ready else None
      outputs.append(agent._learn_both(rl, sl))  # pylint: disable=protected-access
    return outputs

  return tf.function(learn, input_signature=specs,
                     jit_compile=True).get_concrete_function()


def agents_for(game, config=None, seed=0):
  """One NFSP agent per player of `game` (seeds `seed`, `seed + 1`, ...)."""
  size = information_state_size(game)
  return [NFSP(p, size, game.num_distinct_actions(), config, seed=seed + p)
          for p in range(game.num_players())]


class NFSPPolicy(policy_lib.Policy):
  """The agents' average policy Pi (or their "best_response" /
  "greedy_average") as an OpenSpiel policy, for any evaluation tool."""

  def __init__(self, game, agents, kind="average"):
    super().__init__(game, list(range(game.num_players())))
    if kind not in POLICIES:
      raise ValueError(f"kind={kind!r}: must be one of {POLICIES}")
    self._agents = agents
    self._kind = kind
    self._observation = reads_observations(game)

  def action_probabilities(self, state, player_id=None):
    player = state.current_player() if player_id is None else player_id
    legal = np.zeros((1, self.game.num_distinct_actions()), np.float32)
    legal_actions = state.legal_actions(player)
    legal[0, legal_actions] = 1.0
    probs = self._agents[player].probabilities(
        np.asarray(state_tensor(state, player, self._observation),
                   np.float32)[None],
        legal, self._kind)[0]
    return {a: float(probs[a]) for a in legal_actions}

  def holding_probabilities(self, state, player, holdings):
    """(H, actions): the policy at `state` for `player` holding each row of
    `holdings` (card ids) in the hold'em games, in one batched forward pass:
    the range queries of `evaluation.local_best_response`."""
    legal = np.zeros((1, self.game.num_distinct_actions()), np.float32)
    legal[0, state.legal_actions(player)] = 1.0
    tensors = state.holding_tensors(player, holdings)
    return self._agents[player].probabilities(
        tensors, np.repeat(legal, len(tensors), axis=0), self._kind)

  def to_tabular(self):
    """A `TabularPolicy` over every information state, filled by one batched
    forward pass per player (for exact exploitability on small games)."""
    tabular = policy_lib.TabularPolicy(self.game)
    tensors, legal = _tabular_inputs(tabular)
    for player, rows in enumerate(_rows_by_player(tabular)):
      tabular.action_probability_array[rows] = self._agents[
          player].probabilities(tensors[rows], legal[rows], self._kind)
    return tabular


def sl_memory_policy(game, agents):
  """The action frequencies in each agent's M_SL as a `TabularPolicy`.

  What a perfect supervised fit of Pi to M_SL would play: each information
  state (matched by its information-state tensor) gets the frequencies of
  the actions M_SL holds for that tensor, uniform where it holds none. Its
  exploitability beside Pi's tells whether a run is limited by the
  supervised fit or by the best-response data it fits (small games only).
  """
  tabular = policy_lib.TabularPolicy(game)
  tensors, legal = _tabular_inputs(tabular)
  for player, rows in enumerate(_rows_by_player(tabular)):
    agent = agents[player]
    agent.store()
    records = agent.sl_records(
        agent.sl_memory.fields["record"][:len(agent.sl_memory)])
    states = records[:, :-1].astype(np.float32)
    keys, inverse = np.unique(_row_keys(np.concatenate([tensors[rows],
                                                        states])),
                              return_inverse=True)
    counts = np.zeros((len(keys), agent.num_actions))
    np.add.at(counts, (inverse[len(rows):], records[:, -1].astype(np.int64)),
              1.0)
    counts = counts[inverse[:len(rows)]] * legal[rows]
    seen = counts.sum(axis=1, keepdims=True)
    uniform = legal[rows] / legal[rows].sum(axis=1, keepdims=True)
    tabular.action_probability_array[rows] = np.where(
        seen > 0, counts / np.maximum(seen, 1.0), uniform)
  return tabular


def diagnostics(game, agents, average=None, greedy=None):
  """What limits a run on a game small enough for exact best responses:
  each player's best-response gap (`br_gap_<p>`: exact best-response value
  minus the greedy Q policy's, against the other's average; the RL side) and
  the exploitability of M_SL's raw action counts (`exploitability_sl_memory`,
  the data Pi is fitted to; compare it with Pi's own exploitability).
  `average` / `greedy`: the agents' tabulated policies where the caller has
  them already."""
  if average is None:
    average = NFSPPolicy(game, agents).to_tabular()
  if greedy is None:
    greedy = NFSPPolicy(game, agents, "best_response").to_tabular()
  gaps = evaluation.best_response_gaps(game, average,
                                       [greedy] * game.num_players())
  return {**{f"br_gap_{p}": gap for p, gap in enumerate(gaps)},
          "exploitability_sl_memory": evaluation.exploitability(
              game, sl_memory_policy(game, agents))}


def _row_keys(rows):
  """One hashable, sortable key per row of a 2-D array (exact equality):
  packed bits where every entry is 0 or 1 (the papers' encodings)."""
  if np.isin(rows, (0.0, 1.0)).all():
    rows = np.packbits(rows.astype(bool), axis=1)
  rows = np.ascontiguousarray(rows)
  return rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1])))[
      :, 0]


_TABULAR_INPUTS = {}


def _tabular_inputs(tabular):
  """Information-state tensors and legal masks of a TabularPolicy's rows,
  cached per game (computing them once costs ~0.3 s on Leduc)."""
  key = str(tabular.game)
  if key not in _TABULAR_INPUTS:
    observation = reads_observations(tabular.game)
    tensors = np.array([state_tensor(s, s.current_player(), observation)
                        for s in tabular.states], np.float32)
    _TABULAR_INPUTS[key] = (tensors, tabular.legal_actions_mask.astype(
        np.float32))
  return _TABULAR_INPUTS[key]


def _rows_by_player(tabular):
  return [np.array([tabular.state_lookup[key] for key in keys], np.int64)
          for keys in tabular.states_per_player]
