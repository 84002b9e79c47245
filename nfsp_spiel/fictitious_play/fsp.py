"""Table-lookup batch Fictitious Self-Play: Q-learning and a counting model.

Heinrich, Lanctot & Silver, "Fictitious Self-Play in Extensive-Form Games",
ICML 2015, sec. 4-5 (Alg. 2); Heinrich's thesis (2017), sec. 5.4-5.6
(Alg. 6 and 7). Each iteration k:

1. episodes are sampled from sigma = (1 - eta_k) pi + eta_k beta: while the
   reinforcement-learning memories fill, m per player from (beta_i, sigma_-i),
   which the opponent stores as experience (ICML 2015 sec. 5.2); once full,
   n from sigma (every player stores its transitions) and m per player from
   (beta_i, sigma_-i) (player i stores them), with the mixing correction
   eta_k = min(1, gamma * alpha_k / p), p = (n + m) / memory size;
2. each player's Q-learner replays episodes from its circular memory (Q kept
   across iterations, stepsize 0.05 / (1 + 0.003 sqrt k)) and its best
   response is Boltzmann(Q) at temperature 1 / (1 + 0.02 sqrt k);
3. each player's own behaviour in the (beta_i, sigma_-i) episodes feeds its
   counting model, N(u, a) += rho(a) (its policy at u) or the one-hot action,
   and its average strategy is N(u, .) / N(u).

Every part is per player, so games of more than two players run as they
are (the papers state FSP for N players; ICML 2015 sec. 4): while the
memories fill, the (beta_i, sigma_-i) episodes are stored by every opponent.
There fictitious play need not converge to a Nash equilibrium, and the
measure is NashConv (`nash_conv()`).

Information states are keyed by their information-state tensor, the same key
an RL agent gets from `rl_environment` (for Leduc this merges states that
differ only in suits, which never matter there).
Evaluation runs on the game's compiled form (`sequence_form`, `public_tree`,
`n_player`),
which also gives the diagnostics of thesis fig. 5.1 and 5.2: best-response
quality (eq. 5.2) and the distance to the exact, full-width XFP average of the
same best responses.
"""

import dataclasses
import math
from typing import Optional

import numpy as np
from open_spiel.python import rl_agent

from nfsp_spiel.core import checkpoints
from nfsp_spiel import evaluation
from nfsp_spiel.trees import sequence_form
from nfsp_spiel.fictitious_play import n_player
from nfsp_spiel.fictitious_play import xfp


@dataclasses.dataclass
class FSPConfig:
  """FSP's hyperparameters; defaults are the papers' (ICML 2015 sec. 5.2,
  thesis sec. 5.6.2).

  Attributes:
    memory_episodes: capacity of each player's circular RL memory, episodes.
    simultaneous_episodes: n, episodes from sigma per iteration (full memory).
    alternating_episodes: m, episodes from (beta_i, sigma_-i) per player.
    replay_episodes: episodes each Q-learner replays per iteration.
    q_stepsize, q_stepsize_decay: Q-learning stepsize a / (1 + d sqrt(k)).
    temperature, temperature_decay: Boltzmann temperature t / (1 + d sqrt(k)).
    count_policy: the counting model adds the best response's policy rho at
      each state (True) or the one-hot sampled action (False).
    mixing_gamma: gamma of the mixing correction (ICML 2015 sec. 5.2); None
      mixes with plain fictitious play's 1/k.
    seed: seeds the sampling.
  """
  memory_episodes: int = 40000
  simultaneous_episodes: int = 2
  alternating_episodes: int = 1
  replay_episodes: int = 30
  q_stepsize: float = 0.05
  q_stepsize_decay: float = 0.003
  temperature: float = 1.0
  temperature_decay: float = 0.02
  count_policy: bool = True
  mixing_gamma: Optional[float] = 10.0
  seed: int = 0

  def __post_init__(self):
    for name in ("memory_episodes", "replay_episodes"):
      if getattr(self, name) < 1:
        raise ValueError(f"{name}={getattr(self, name)}: must be >= 1")
    for name in ("simultaneous_episodes", "alternating_episodes"):
      if getattr(self, name) < 0:
        raise ValueError(f"{name}={getattr(self, name)}: must be >= 0")
    for name in ("q_stepsize", "temperature"):
      if not getattr(self, name) > 0:
        raise ValueError(f"{name}={getattr(self, name)}: must be positive")
    for name in ("q_stepsize_decay", "temperature_decay"):
      if getattr(self, name) < 0:
        raise ValueError(f"{name}={getattr(self, name)}: must be >= 0")
    if self.mixing_gamma is not None and not self.mixing_gamma > 0:
      raise ValueError(f"mixing_gamma={self.mixing_gamma}: must be positive "
                       "or None")

  def q_stepsize_at(self, k):
    return self.q_stepsize / (1 + self.q_stepsize_decay * np.sqrt(k))

  def temperature_at(self, k):
    return self.temperature / (1 + self.temperature_decay * np.sqrt(k))


def tensor_key(tensor):
  """A hashable key of an information-state tensor (its float32 bytes)."""
  return np.asarray(tensor, np.float32).tobytes()


def info_state_key(state, player, size):
  """`tensor_key` of the state's information-state tensor.

  Our games hand over the ones of their binary tensor directly, which skips
  OpenSpiel's tensor round trip (and its per-call shape computation).
  """
  ones = getattr(state, "info_state_ones", None)
  if ones is None:
    return tensor_key(state.information_state_tensor(player))
  tensor = np.zeros(size, np.float32)
  tensor[ones(player)] = 1.0
  return tensor.tobytes()


class InfoStateTable:
  """The information states of one player, indexed by key, with legal masks."""

  def __init__(self, form, player):
    self.index, legal, self.class_of_row = {}, [], []
    self.size = form.game.information_state_tensor_size()
    rows = (form.reachable[player] if hasattr(form, "reachable") else
            np.arange(len(form.keys[player])))
    self.rows = rows
    for row, state in zip(rows, form.states[player]):
      key = info_state_key(state, player, self.size)
      if key not in self.index:
        self.index[key] = len(legal)
        legal.append(form.legal[player][row])
      self.class_of_row.append(self.index[key])
    self.legal = np.array(legal, bool)
    self.class_of_row = np.array(self.class_of_row, np.int64)

  def __len__(self):
    return len(self.legal)

  def lookup(self, key):
    try:
      return self.index[key]
    except KeyError:
      raise KeyError(f"unknown information state {key}: not in the compiled "
                     "game") from None


class EpisodeMemory:
  """A circular buffer of one player's episodes: (state, action) and reward."""

  def __init__(self, capacity, max_length):
    self.states = np.zeros((capacity, max_length), np.int64)
    self.actions = np.zeros((capacity, max_length), np.int64)
    self.lengths = np.zeros(capacity, np.int64)
    self.rewards = np.zeros(capacity)
    self.size = self.next = 0

  @property
  def full(self):
    return self.size == len(self.lengths)

  def add(self, states, actions, reward):
    i = self.next
    self.states[i, :len(states)] = states
    self.actions[i, :len(actions)] = actions
    self.lengths[i] = len(states)
    self.rewards[i] = reward
    self.next = (i + 1) % len(self.lengths)
    self.size = min(self.size + 1, len(self.lengths))


def boltzmann(q, legal, temperature):
  """Softmax of Q / temperature over the legal actions of every row."""
  logits = np.where(legal, q / temperature, -np.inf)
  logits -= logits.max(1, keepdims=True)
  weights = np.exp(logits)
  return weights / weights.sum(1, keepdims=True)


class QLearner(rl_agent.AbstractAgent):
  """Table-lookup Q-learning best response with experience replay (Alg. 7).

  As an OpenSpiel agent it plays Boltzmann(Q) from the info-state tensor and,
  when not evaluating, stores its episodes in its memory.
  """

  def __init__(self, player_id, table, config, max_length, rng):
    super().__init__(player_id)
    self.player_id, self.table, self.config = player_id, table, config
    self.q = np.zeros(table.legal.shape)
    self.memory = EpisodeMemory(config.memory_episodes, max_length)
    self.temperature = config.temperature
    self._rng = rng
    self._episode = ([], [])

  def policy_table(self):
    return boltzmann(self.q, self.table.legal, self.temperature)

  def replay(self, k):
    """Q-learning on `replay_episodes` episodes sampled from the memory.

    The sampled episodes are replayed side by side, one time step at a time
    (forward, as experienced): every update of step t sees Q after step t-1.
    Returns the number of Q-value updates made.
    """
    memory = self.memory
    if not memory.size:
      return 0
    stepsize = self.config.q_stepsize_at(k)
    episodes = self._rng.integers(memory.size, size=self.config.replay_episodes)
    lengths, rewards = memory.lengths[episodes], memory.rewards[episodes]
    states, actions = memory.states[episodes], memory.actions[episodes]
    q, legal = self.q, self.table.legal
    for t in range(lengths.max()):
      active = lengths > t
      target = rewards[active]
      following = lengths[active] > t + 1
      if following.any():
        after = states[active, t + 1][following]
        target[following] = np.where(legal[after], q[after], -np.inf).max(1)
      s, a = states[active, t], actions[active, t]
      np.add.at(q, (s, a), stepsize * (target - q[s, a]))
    return int(lengths.sum())

  def step(self, time_step, is_evaluation=False):
    if time_step.last():
      if not is_evaluation and self._episode[0]:
        self.memory.add(*self._episode, time_step.rewards[self.player_id])
      self._episode = ([], [])
      return None
    row = self.table.lookup(tensor_key(
        time_step.observations["info_state"][self.player_id]))
    probs = np.zeros(self.table.legal.shape[1])
    probs[:] = boltzmann(self.q[row:row + 1], self.table.legal[row:row + 1],
                         self.temperature)[0]
    action = int(self._rng.choice(len(probs), p=probs))
    if not is_evaluation:
      self._episode[0].append(row)
      self._episode[1].append(action)
    return rl_agent.StepOutput(action=action, probs=probs)


class CountingModel(rl_agent.AbstractAgent):
  """The average strategy as counts N(u, a) (thesis sec. 5.4.3); an agent."""

  def __init__(self, player_id, table, rng):
    super().__init__(player_id)
    self.player_id, self.table = player_id, table
    self.counts = np.zeros(table.legal.shape)
    self._rng = rng

  def add(self, rows, targets):
    np.add.at(self.counts, rows, targets)

  def policy_table(self):
    """N(u, a) / N(u), uniform where u was never counted."""
    totals = self.counts.sum(1, keepdims=True)
    uniform = self.table.legal / self.table.legal.sum(1, keepdims=True)
    return np.where(totals > 0, self.counts / np.maximum(totals, 1e-300),
                    uniform)

  def step(self, time_step, is_evaluation=False):
    if time_step.last():
      return None
    row = self.table.lookup(tensor_key(
        time_step.observations["info_state"][self.player_id]))
    probs = self.policy_table()[row]
    return rl_agent.StepOutput(
        action=int(self._rng.choice(len(probs), p=probs)), probs=probs)


class FSPSolver:
  """Batch table-lookup FSP; see the module docstring.

  `iteration()` runs one batch iteration; `average_policy()` is the counting
  models' average as an OpenSpiel `TabularPolicy` (`policy()` a light one);
  `exploitability()`, `nash_conv()`, `best_response_quality()` and
  `average_error()` are the papers' measurements. `learners` and `average_models` are the per-player
  OpenSpiel agents.
  """

  def __init__(self, game, config: Optional[FSPConfig] = None, seed=None,
               **overrides):
    if seed is not None:
      overrides["seed"] = seed
    self.config = dataclasses.replace(config or FSPConfig(), **overrides)
    game_type = game.get_type()
    if not game_type.provides_information_state_tensor:
      raise ValueError(
          f"FSPSolver needs a game with information-state tensors (its tables "
          f"are keyed by them); {game} has provides_information_state_tensor="
          f"{game_type.provides_information_state_tensor}")
    self.game = game
    self.players = range(game.num_players())
    self.form = n_player.compile_game(game, "FSPSolver")
    self.tables = [InfoStateTable(self.form, p) for p in self.players]
    self._rng = np.random.default_rng(self.config.seed)
    max_length = game.max_game_length()
    self.learners = [QLearner(p, self.tables[p], self.config, max_length,
                              self._rng) for p in self.players]
    self.average_models = [CountingModel(p, self.tables[p], self._rng)
                           for p in self.players]
    # On a public tree, episodes are played on the tree's arrays; the class
    # (tensor-keyed information state) of every (decision node, hand) row:
    self._tree = getattr(self.form, "tree", None)
    self._row_class = []
    for table, legal in zip(self.tables, self.form.legal):
      row_class = -np.ones(len(legal), np.int64)
      row_class[table.rows] = table.class_of_row
      self._row_class.append(row_class)
    self._legal_actions = [[list(np.flatnonzero(row)) for row in table.legal]
                           for table in self.tables]
    self._num_actions = game.num_distinct_actions()
    self._deals = []  # pre-drawn deals of the public tree
    self.iterations = 0
    self.episodes = 0
    # Decisions played, Q-values replayed and counts added so far: FSP's work
    # on the machine-independent axis of `xfp.XFPSolver.state_visits`.
    self.state_visits = 0
    self._exact = {}  # name -> [XFP's average of the same best responses, n]

  # --- one iteration ------------------------------------------------------

  def mixing(self, k):
    """eta_k of sigma_k = (1 - eta_k) pi + eta_k beta."""
    alpha = 1.0 / (k + 1)
    if self.config.mixing_gamma is None or not self.learners[0].memory.full:
      return alpha
    p = ((self.config.simultaneous_episodes + self.config.alternating_episodes)
         / self.config.memory_episodes)
    return min(1.0, self.config.mixing_gamma * alpha / p)

  def iteration(self):
    config, k = self.config, self.iterations + 1
    for learner in self.learners:
      learner.temperature = config.temperature_at(k)
    eta = self.mixing(k)
    full = all(learner.memory.full for learner in self.learners)
    if full:
      for _ in range(config.simultaneous_episodes):
        self._episode([self._rng.random() < eta for _ in self.players],
                      store=[True for _ in self.players])
    for player in self.players:
      for _ in range(config.alternating_episodes):
        # The opponents play sigma_-i, drawn in seat order; the best
        # responder learns from the episode once the memories are full
        # (Alg. 6), before that its opponents store it (ICML 2015 sec. 5.2).
        best = [p == player or self._rng.random() < eta for p in self.players]
        store = [(p == player) == full for p in self.players]
        self._episode(best, store, count_player=player)
    for learner in self.learners:
      self.state_visits += learner.replay(k)
    self.iterations = k

  def _choose(self, player, row, best):
    """Samples an action at information state `row`: (action, policy).

    Plain Python on the 2-3 legal actions: per call it beats numpy's
    overhead, and this is the sampling loop's innermost step.
    """
    legal = self._legal_actions[player][row]
    if best:
      q, temperature = self.learners[player].q[row], self.learners[
          player].temperature
      logits = [q[a] / temperature for a in legal]
      top = max(logits)
      weights = [math.exp(v - top) for v in logits]
    else:
      counts = self.average_models[player].counts[row]
      weights = [counts[a] for a in legal]
      if not sum(weights) > 0:
        weights = [1.0] * len(legal)
    total = sum(weights)
    probs = [0.0] * self._num_actions
    u, cumulative, action = self._rng.random() * total, 0.0, legal[-1]
    for a, w in zip(legal, weights):
      probs[a] = w / total
      cumulative += w
      if action == legal[-1] and u < cumulative:
        action = a
    return action, probs

  def _episode(self, best, store, count_player=None):
    """Plays one episode (`best[p]`: player p plays its best response, else
    its average), files the transitions and the counting targets."""
    rows, actions, probs, returns = (self._play_tree(best) if self._tree else
                                     self._play_states(best))
    for player in self.players:
      if store[player] and rows[player]:
        self.learners[player].memory.add(rows[player], actions[player],
                                         returns[player])
    if count_player is not None and rows[count_player]:
      targets = (np.array(probs[count_player]) if self.config.count_policy
                 else np.eye(self.tables[count_player].legal.shape[1])[
                     actions[count_player]])
      self.average_models[count_player].add(rows[count_player], targets)
      self.state_visits += len(rows[count_player])
    self.state_visits += sum(len(own) for own in rows)
    self.episodes += 1

  def _play_tree(self, best):
    """An episode on the public tree x hands (no OpenSpiel state needed)."""
    tree, rng = self._tree, self._rng
    if not self._deals:  # drawn in blocks: one vectorised draw, not 4096
      self._deals = tree.sample_deals(rng, 4096).tolist()
    hands = self._deals.pop()
    rows, actions, probs = ([], []), ([], []), ([], [])
    node = 0
    while tree.nodes[node].terminal is None:
      info = tree.nodes[node]
      if info.player < 0:
        action = tree.sample_board(node, *hands, rng)
      else:
        p = info.player
        row = self._row_class[p][self.form.node_row(p, node, hands[p])]
        action, policy = self._choose(p, row, best[p])
        rows[p].append(row)
        actions[p].append(action)
        probs[p].append(policy)
      node = info.children[action]
    utility = tree.utility(node, *hands)
    return rows, actions, probs, (utility, -utility)

  def _play_states(self, best):
    """An episode on OpenSpiel states, keyed by information-state tensors."""
    state = self.game.new_initial_state()
    rows, actions, probs = ([[] for _ in self.players] for _ in range(3))
    rng = self._rng
    while not state.is_terminal():
      if state.is_chance_node():
        u, total = rng.random(), 0.0
        for action, p in state.chance_outcomes():
          total += p
          if u < total:
            break
        state.apply_action(action)
        continue
      p = state.current_player()
      table = self.tables[p]
      row = table.lookup(info_state_key(state, p, table.size))
      action, policy = self._choose(p, row, best[p])
      rows[p].append(row)
      actions[p].append(action)
      probs[p].append(policy)
      state.apply_action(action)
    return rows, actions, probs, state.returns()

  # --- policies and measurements ---------------------------------------------

  def _rows(self, tables):
    """Per-class tables as the compiled form's per-row strategy arrays."""
    strategies = []
    for p in self.players:
      strategy = self.form.uniform(p)
      strategy[self.tables[p].rows] = tables[p][self.tables[p].class_of_row]
      strategies.append(strategy)
    return strategies

  def average_strategies(self):
    return self._rows([m.policy_table() for m in self.average_models])

  def best_response_strategies(self):
    return self._rows([learner.policy_table() for learner in self.learners])

  def policy(self):
    """The average profile as a light OpenSpiel policy."""
    return sequence_form.SequenceFormPolicy(self.form,
                                            self.average_strategies())

  def average_policy(self):
    """The average profile as an OpenSpiel `TabularPolicy`."""
    return self.form.to_tabular(self.average_strategies())

  def exploitability(self):
    return evaluation.exploitability(self.game, self.policy())

  def nash_conv(self):
    """NashConv of the average profile (the measure beyond two players)."""
    return evaluation.nash_conv(self.game, self.policy())

  def best_response_quality(self):
    """Thesis eq. 5.2 for the current Boltzmann best responses."""
    best = sequence_form.SequenceFormPolicy(self.form,
                                            self.best_response_strategies())
    return evaluation.best_response_quality(self.game, self.policy(),
                                            [best for _ in self.players])

  def checkpoint_header(self):
    """What this solver's checkpoints hold: FSP, the game, the config."""
    return checkpoints.header("FSP", self.game, self.config)

  def save(self, path, progress=None):
    """Checkpoints everything a resumed run needs (tables, memories, RNG),
    with a training run's `progress` (`run_directory`) beside it."""
    arrays = {"iterations": self.iterations, "episodes": self.episodes,
              "state_visits": self.state_visits,
              "deals": np.array(self._deals, np.int64).reshape(-1, 2)}
    for p in self.players:
      memory = self.learners[p].memory
      arrays.update({f"q{p}": self.learners[p].q,
                     f"counts{p}": self.average_models[p].counts,
                     f"memory{p}_states": memory.states,
                     f"memory{p}_actions": memory.actions,
                     f"memory{p}_lengths": memory.lengths,
                     f"memory{p}_rewards": memory.rewards,
                     f"memory{p}_cursor": [memory.size, memory.next]})
    return checkpoints.save(path, self.checkpoint_header(), self._rng,
                            progress, **arrays)

  @classmethod
  def restore(cls, game, path, config=None, seed=None, **overrides):
    """A solver resumed from `save`'s checkpoint; one of another algorithm,
    game or config raises `checkpoints.CheckpointError`."""
    solver = cls(game, config, seed, **overrides)
    data = checkpoints.load(path, solver.checkpoint_header(), solver._rng)  # pylint: disable=protected-access
    for p in solver.players:
      memory = solver.learners[p].memory
      checkpoints.check_shapes(path, data, {
          f"q{p}": solver.learners[p].q,
          f"counts{p}": solver.average_models[p].counts,
          **{f"memory{p}_{name}": getattr(memory, name)
             for name in ("states", "actions", "lengths", "rewards")}})
    for p in solver.players:
      memory = solver.learners[p].memory
      solver.learners[p].q[:] = data[f"q{p}"]
      solver.average_models[p].counts[:] = data[f"counts{p}"]
      memory.states[:] = data[f"memory{p}_states"]
      memory.actions[:] = data[f"memory{p}_actions"]
      memory.lengths[:] = data[f"memory{p}_lengths"]
      memory.rewards[:] = data[f"memory{p}_rewards"]
      memory.size, memory.next = (int(v) for v in data[f"memory{p}_cursor"])
    solver.iterations = int(data["iterations"])
    solver.episodes = int(data["episodes"])
    # Checkpoints written before the work counter existed lack it. It feeds
    # only the work axis of the XFP-vs-FSP figures (no step of FSP reads
    # it), and every run of those figures started after it was added, so
    # such a run resumes exactly, counting its work from the restore on.
    solver.state_visits = int(data.get("state_visits", 0))
    solver._deals = data["deals"].tolist()  # pylint: disable=protected-access
    return solver

  def update_exact_average(self, name="exact"):
    """One XFP update of an exact average with the current best responses.

    Thesis fig. 5.2 tracks such 'perfect averages', each updated every 10,
    100 or 1000 iterations (one `name` each); they do not affect FSP.
    """
    best = self.best_response_strategies()
    if name not in self._exact:
      self._exact[name] = [[self.form.uniform(p) for p in self.players], 0]
    average, updates = self._exact[name]
    alpha = 1.0 / (updates + 2)
    for p in self.players:
      step = xfp.realization_weighted_step(
          alpha, self.form.infoset_reach(p, average[p]),
          self.form.infoset_reach(p, best[p]))
      average[p] = average[p] + step[:, None] * (best[p] - average[p])
    self._exact[name][1] = updates + 1

  def average_error(self, name="exact"):
    """Squared distance of the counting model's average to an exact one."""
    if name not in self._exact:
      raise ValueError(f"no exact average {name!r}: call "
                       "update_exact_average() first")
    average = self.average_strategies()
    exact = self._exact[name][0]
    return float(sum(np.sum((average[p] - exact[p]) ** 2)
                     for p in self.players))
