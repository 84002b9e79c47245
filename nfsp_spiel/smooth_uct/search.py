"""Smooth UCT and extensive-form UCT: multi-tree MCTS for imperfect information.

Heinrich's thesis (2017), ch. 3: Alg. 1 (extensive-form MCTS with one search
tree per player over its information states), Alg. 2 (UCT) and Alg. 3
(Smooth UCT), eq. 3.1. Each simulated episode starts from a sampled deal;
every player selects in its own tree until it reaches an information state
that is not in the tree yet, which it adds (one node per player per episode)
and from where it plays the random rollout policy. Each in-tree (information
state, action) of the episode is then updated with the player's return:
N(u) += 1, N(u, a) += 1, Q(u, a) += (r - Q(u, a)) / N(u, a).

Smooth UCB selects by UCB, argmax_a Q(u, a) + c sqrt(log N(u) / N(u, a)),
with probability eta = max(gamma, eta0 / (1 + d sqrt(N(u)))), and otherwise
samples the average strategy N(u, a) / N(u); eta0 = 1, d = 0 gives UCT.

The simulation loop is the whole cost (the thesis ran billions of episodes),
so it runs on a compiled form of the game tree (flat arrays) in a numba
kernel; the outputs are OpenSpiel policies (average N(u, a) / N(u), greedy
argmax Q) evaluated through the evaluation module.
"""

import concurrent.futures
import dataclasses
import math
import os
from typing import Optional

import numba
import numpy as np
from open_spiel.python.bots import policy as policy_bot

from nfsp_spiel.core import checkpoints
from nfsp_spiel.core import checks
from nfsp_spiel import evaluation
from nfsp_spiel.trees import sequence_form
from nfsp_spiel.trees.game_tree import CHANCE
from nfsp_spiel.trees.game_tree import TERMINAL


@dataclasses.dataclass
class SmoothUCTConfig:
  """Smooth UCT's parameters; defaults are the thesis' Kuhn poker values.

  Attributes:
    c: UCB exploration constant (Kuhn 1.75; Leduc 18; UCT: 2 and 20).
    gamma: lower limit of eta (eq. 3.1).
    eta0: initial eta; 1 with d = 0 is UCT.
    d: decay rate of eta with sqrt(N(u)) (Kuhn 0.001, Leduc 0.002).
    exploration_cap: C of the poker schedule (eq. 3.2), c = min(C, pot +
      k * remaining betting potential) set at the start of each betting
      round; None keeps the constant c. Needs states with `contributions()`
      (this package's poker games). The thesis used C = 24, k = 0.5 in LHE.
    exploration_k: k of eq. 3.2.
  """
  c: float = 1.75
  gamma: float = 0.1
  eta0: float = 0.9
  d: float = 0.001
  exploration_cap: Optional[float] = None
  exploration_k: float = 0.5

  def __post_init__(self):
    # `not x >= 0` rather than `x < 0`: NaN fails every comparison.
    if not 0 <= self.c < math.inf:
      raise ValueError(f"c={self.c}: the exploration constant must be a "
                       "finite number >= 0")
    for name in ("gamma", "eta0"):
      if not 0.0 <= getattr(self, name) <= 1.0:
        raise ValueError(f"{name}={getattr(self, name)}: must be in [0, 1]")
    if not 0 <= self.d < math.inf:
      raise ValueError(f"d={self.d}: must be a finite number >= 0")
    if self.exploration_cap is not None and not (
        0 <= self.exploration_cap < math.inf):
      raise ValueError(f"exploration_cap={self.exploration_cap}: must be a "
                       "finite number >= 0")
    if not 0.0 <= self.exploration_k <= 1.0:
      raise ValueError(f"exploration_k={self.exploration_k}: must be in "
                       "[0, 1]")

  @classmethod
  def kuhn(cls):
    """The thesis' Kuhn poker parameters (fig. 3.2), the defaults."""
    return cls()

  @classmethod
  def leduc(cls):
    """The thesis' Leduc Hold'em parameters (fig. 3.3)."""
    return cls(c=18.0, gamma=0.1, eta0=0.9, d=0.002)

  @classmethod
  def uct(cls, c=2.0):
    """Plain extensive-form UCT (Alg. 2): eta is always 1 (Kuhn c = 2,
    Leduc c = 20)."""
    return cls(c=c, gamma=0.0, eta0=1.0, d=0.0)

  @classmethod
  def lhe(cls):
    """Limit Hold'em (`smooth_uct.lhe`), thesis sec. 3.5.3: gamma 0.1, eta
    0.9, d = 1/20000; eq. 3.2 with C = 24 (half the largest pot, 48 big
    blinds) and k = 0.5."""
    return cls(c=24.0, gamma=0.1, eta0=0.9, d=1 / 20000, exploration_cap=24.0,
               exploration_k=0.5)

  @classmethod
  def uct_lhe(cls):
    """UCT on Limit Hold'em: `lhe()` with eta always 1."""
    return dataclasses.replace(cls.lhe(), gamma=0.0, eta0=1.0, d=0.0)

  @classmethod
  def lhe3(cls):
    """Three-player Limit Hold'em (`smooth_uct.lhe3`), thesis sec. 3.5.3:
    the two-player mixing schedule, eq. 3.2 with C = 36 (half the largest
    pot, 72 big blinds) and k = 0.5."""
    return dataclasses.replace(cls.lhe(), c=36.0, exploration_cap=36.0)

  @classmethod
  def uct_lhe3(cls):
    """UCT on three-player Limit Hold'em: `lhe3()` with eta always 1."""
    return dataclasses.replace(cls.lhe3(), gamma=0.0, eta0=1.0, d=0.0)


def exploration_schedule(pot, parent, new_round, cap, k):
  """Eq. 3.2 per node of a tree whose parents have lower ids (`parent`, -1
  at the root, node 0): min(cap, pot + k * potential), with the pot and the
  remaining betting potential (the largest pot reachable below, less the
  pot) of the start of the node's betting round: the root or a node where
  `new_round` is true. The one place of the thesis' exploration cap, for
  this module's trees and `smooth_uct.lhe`'s betting tree."""
  pot = np.asarray(pot, np.float64)
  up, fresh = np.asarray(parent).tolist(), np.asarray(new_round).tolist()
  largest = pot.tolist()  # the largest pot below each node
  for node in range(len(up) - 1, 0, -1):
    largest[up[node]] = max(largest[up[node]], largest[node])
  start = list(range(len(up)))  # the start of each node's round
  for node in range(1, len(up)):
    if not fresh[node]:
      start[node] = start[up[node]]
  largest = np.array(largest)[start]
  return np.minimum(cap, pot[start] + k * (largest - pot[start]))


@numba.njit(cache=True)
def select(u, n, counts, action_counts, q, gamma, eta0, d, c):
  """Smooth UCB (Alg. 3) at tree node u with n actions: a child index.
  Shared by every simulation kernel (this module's, smooth_uct.lhe's)."""
  eta = max(gamma, eta0 / (1.0 + d * np.sqrt(counts[u])))
  if np.random.random() < eta:  # UCB, unvisited actions first, random ties
    best, best_value, ties = 0, -np.inf, 0
    log_total = np.log(counts[u])
    for k in range(n):
      if action_counts[u, k] == 0:
        value = np.inf
      else:
        value = q[u, k] + c * np.sqrt(log_total / action_counts[u, k])
      if value > best_value:
        best, best_value, ties = k, value, 1
      elif value == best_value:
        ties += 1
        if np.random.random() * ties < 1.0:
          best = k
    return best
  z = np.random.random() * counts[u]  # the average strategy N(u, a) / N(u)
  for k in range(n - 1):
    z -= action_counts[u, k]
    if z < 0:
      return k
  return n - 1


@numba.njit(cache=True, nogil=True)  # threads share the tables
def _simulate(num_episodes, seed, player, infoset, child_start, num_children,
              children, chance_cumulative, utility, counts, action_counts, q,
              gamma, eta0, d, c, max_depth):
  """Runs `num_episodes` episodes of Alg. 1, updating the tables in place.

  `c` holds each information state's exploration constant.
  """
  np.random.seed(seed)
  path_u = np.empty(max_depth, np.int64)
  path_k = np.empty(max_depth, np.int64)
  path_p = np.empty(max_depth, np.int64)
  returns = np.empty(2)
  for _ in range(num_episodes):
    node, depth = 0, 0
    out_of_tree0, out_of_tree1 = False, False
    while player[node] != TERMINAL:
      acting, first, n = player[node], child_start[node], num_children[node]
      if acting == CHANCE:
        z, k = np.random.random(), 0
        while k < n - 1 and z >= chance_cumulative[first + k]:
          k += 1
      elif (out_of_tree0 if acting == 0 else out_of_tree1):
        k = np.random.randint(n)  # rollout
      else:
        u = infoset[node]
        if counts[u] == 0:  # expand, then roll out for this player
          k = np.random.randint(n)
          if acting == 0:
            out_of_tree0 = True
          else:
            out_of_tree1 = True
        else:
          k = select(u, n, counts, action_counts, q, gamma, eta0, d, c[u])
        path_u[depth], path_k[depth], path_p[depth] = u, k, acting
        depth += 1
      node = children[first + k]
    returns[0], returns[1] = utility[node], -utility[node]
    backup(path_u, path_k, path_p, depth, returns, counts, action_counts, q)


@numba.njit(cache=True)
def backup(path_u, path_k, path_p, depth, returns, counts, action_counts, q):
  """Alg. 1's update of the episode's first `depth` in-tree (information
  state, action) pairs with their player's return (`returns[player]`)."""
  for i in range(depth):
    u, k = path_u[i], path_k[i]
    r = returns[path_p[i]]
    counts[u] += 1.0
    action_counts[u, k] += 1.0
    q[u, k] += (r - q[u, k]) / action_counts[u, k]


def all_cores():
  """The number of cores this process may run on (the default `threads`)."""
  return len(os.sched_getaffinity(0))


class TableSearch:
  """Smooth UCT's tables over `num_infosets` information states, N(u),
  N(u, a) and Q(u, a) (u is in the tree once visited: N(u) > 0), and what is
  built on them alone: checkpoints, agents and bots. A subclass simulates
  (`run`, through `_run_kernel`) and reads the tables as policies
  (`average_policy`).

  `threads` simulations run at once into the same tables, lock-free
  (BUILD_NOTES.md, "Smooth UCT on every core"): two threads' updates of one
  row can interleave, so that one of them is lost. With one thread a seed
  gives one run, chunk by chunk and across checkpoints; with more, the
  threads' interleaving is the machine's, so runs differ from each other in
  their tables, not in their law.

  The three tables are views of one array with a row per information state,
  padded to 64 bytes, so that a simulation's visit to u reads one cache line
  however large the tables (Limit Hold'em's are 97 MB). On Limit Hold'em this
  measured the same rate as three separate arrays
  (benchmarks/results/smooth_uct_lhe.txt): the time goes elsewhere.
  """

  _TABLES = ("counts", "action_counts", "q")

  def __init__(self, game, config, seed, num_infosets, width, overrides,
               threads=None):
    self.config = dataclasses.replace(config or SmoothUCTConfig(), **overrides)
    self.game = game
    self.threads = checks.whole_number(
        "threads", all_cores() if threads is None else threads, 1)
    row = -(-(1 + 2 * width) // 8) * 8  # float64s, a multiple of 64 bytes
    self._rows = np.zeros((num_infosets, row))
    self.counts = self._rows[:, 0]
    self.action_counts = self._rows[:, 1:1 + width]
    self.q = self._rows[:, 1 + width:1 + 2 * width]
    self.episodes = 0
    self._seed = seed
    self._rng = np.random.default_rng(seed)

  def _run_kernel(self, kernel, num_episodes, *args):
    """kernel(episodes, seed, *args) for `num_episodes` episodes in all: one
    call seeded from the search's generator, or `threads` calls side by side
    (numba's generator is per thread, the kernel releases the GIL), each
    with its own seed and a share of the episodes."""
    if self.threads == 1:
      kernel(num_episodes, int(self._rng.integers(2**31)), *args)
    else:
      seeds = self._rng.integers(2**31, size=self.threads)
      shares = np.diff(np.linspace(0, num_episodes, self.threads + 1)
                       .round().astype(np.int64))
      with concurrent.futures.ThreadPoolExecutor(self.threads) as pool:
        for done in [pool.submit(kernel, int(share), int(seed), *args)
                     for share, seed in zip(shares, seeds)]:
          done.result()
    self.episodes += num_episodes

  @property
  def expanded(self):
    """Which information states are in the tree (visited: Alg. 1 updates a
    state in the episode that adds it)."""
    return self.counts > 0

  def agent(self, player_id, seed=0):
    """An OpenSpiel `rl_agent.AbstractAgent` playing the average policy."""
    return self.average_policy().agent(player_id, seed)

  def bot(self, player_id, seed=0):
    """A `pyspiel.Bot` playing the average policy (for `evaluate_bots`)."""
    return policy_bot.PolicyBot(player_id, np.random.RandomState(seed),
                                self.average_policy())

  def checkpoint_header(self):
    """What this search's checkpoints hold: the game, config and seed."""
    return checkpoints.header("Smooth UCT", self.game,
                              {**dataclasses.asdict(self.config),
                               "seed": self._seed})

  def save(self, path, progress=None):
    """Checkpoints the tables and counters, with a training run's `progress`
    (`run_directory`) beside them."""
    return checkpoints.save(path, self.checkpoint_header(), self._rng,
                            progress, episodes=self.episodes,
                            **{name: getattr(self, name)
                               for name in self._TABLES})

  @classmethod
  def restore(cls, game, path, config=None, seed=0, **overrides):
    """A search resumed from `save`'s checkpoint; one of another algorithm,
    game, config or seed raises `checkpoints.CheckpointError`."""
    search = cls(game, config, seed, **overrides)
    data = checkpoints.load(path, search.checkpoint_header(), search._rng)  # pylint: disable=protected-access
    checkpoints.check_shapes(path, data, {
        name: getattr(search, name) for name in cls._TABLES})
    for name in cls._TABLES:
      getattr(search, name)[:] = data[name]
    search.episodes = int(data["episodes"])
    return search


class SmoothUCT(TableSearch):
  """Smooth UCT self-play search over a whole game; see the module docstring."""

  def __init__(self, game, config: Optional[SmoothUCTConfig] = None, seed=0,
               threads=None, **overrides):
    self.form = sequence_form.SequenceForm(game)
    # The game walked once: the form's rows are the tree's information
    # states, player 1's after player 0's in the tables (`tree.offset`).
    t = self.tree = self.form.game_tree
    self.num_infosets = sum(t.num_infosets)
    self.num_actions = game.num_distinct_actions()
    super().__init__(game, config, seed, self.num_infosets, self.num_actions,
                     overrides, threads)
    # What `_simulate` reads besides the tree's own arrays.
    self._player = t.player.astype(np.int8)
    self._row = t.infoset_rows()
    self._chance_cumulative = t.chance_cumulative()
    self._utility = t.returns[:, 0].copy()  # player 0's
    self.exploration = self._exploration()
    self._max_depth = game.max_game_length() + 1

  def _exploration(self):
    """Each information state's exploration constant: c, or eq. 3.2's."""
    cfg, t = self.config, self.tree
    if cfg.exploration_cap is None:
      return np.full(self.num_infosets, cfg.c)
    if np.isnan(t.pot).any():
      raise ValueError("the exploration schedule (eq. 3.2) needs states with "
                       "contributions(): this package's poker games")
    new_round = np.ones(t.num_nodes, bool)  # the root, or after chance
    new_round[1:] = t.player[t.parent[1:]] == CHANCE
    values = exploration_schedule(t.pot, t.parent, new_round,
                                  cfg.exploration_cap, cfg.exploration_k)
    c = np.zeros(self.num_infosets)
    acting = self._row >= 0
    c[self._row[acting]] = values[acting]
    return c

  def run(self, num_episodes):
    """Simulates `num_episodes` episodes from the root (sampled deals)."""
    num_episodes = checks.whole_number("num_episodes", num_episodes, 0)
    t, cfg = self.tree, self.config
    self._run_kernel(_simulate, num_episodes, self._player, self._row,
                     t.child_start, t.num_children, t.children,
                     self._chance_cumulative, self._utility, self.counts,
                     self.action_counts, self.q, cfg.gamma, cfg.eta0, cfg.d,
                     self.exploration, self._max_depth)

  def _strategies(self, table, greedy):
    """Per-player strategy arrays over the form's rows from a tree table."""
    strategies = []
    for p in (0, 1):
      legal = self.form.legal[p]
      rows = slice(self.tree.offset[p], self.tree.offset[p] + len(legal))
      strategy = self.form.uniform(p)
      for row, actions in enumerate(legal):
        ids = np.flatnonzero(actions)
        values = table[rows][row, :len(ids)]
        if self.counts[rows][row] == 0:
          continue  # never visited: uniform
        probs = np.zeros(self.num_actions)
        if greedy:
          probs[ids[int(np.argmax(values))]] = 1.0
        else:
          probs[ids] = values / values.sum()
        strategy[row] = probs
      strategies.append(strategy)
    return strategies

  def average_policy(self):
    """N(u, a) / N(u) (uniform where never visited), an OpenSpiel policy."""
    return sequence_form.SequenceFormPolicy(
        self.form, self._strategies(self.action_counts, greedy=False))

  def greedy_policy(self):
    """argmax_a Q(u, a) (uniform where never visited), an OpenSpiel policy."""
    return sequence_form.SequenceFormPolicy(
        self.form, self._strategies(self.q, greedy=True))

  def exploitability(self):
    return evaluation.exploitability(self.game, self.average_policy())
