"""Smooth UCT and UCT on three-player Limit Texas Hold'em (`nfsp_lhe3`).

Heinrich's thesis (2017), sec. 3.5.3, table 3.3: the two-player search
(`smooth_uct.lhe`) in the ACPC three-player limit game, with the coarser
E[HS^2] grid of table 3.1 (169 / 1000 / 100 / 20 buckets per round), the same
mixing schedule and eq. 3.2 with C = 36 (half of the largest pot, 72 big
blinds) and k = 0.5 (`SmoothUCTConfig.lhe3()`).

Why it is not `smooth_uct.lhe` with three players: that search numbers its
information states through a compiled betting tree, which for three players
has 23.9M nodes (9.7M decisions) and 215M information states in this grid,
13.8 GB in 64-byte rows (measured building it: 7.6 minutes in Python). The
thesis searched within 3.6 GB. So here the betting is played in the kernel
(chips, raises, who is still in: `trees.three_player_betting`), and an
information state is a 64-bit hash of the betting sequence and the acting
player's bucket (`three_player_betting.state_key`), kept in an
open-addressing table whose rows are taken as states join the tree
(`capacity` rows of 72 bytes, 2^25 by default: 2.4 GB). A full table (past
`MAX_LOAD`) adds no more states: the search goes on in the tree it has.
Two different states share a row only if their hashes collide, about once in
2^64 / (states in the table) look-ups.

* The buckets: the two-player tables by board (`board_buckets`) hold
  1000 / 500 / 200 buckets on the flop / turn / river; a nested equidistant
  grid's bucket is the finer one's divided down (floor(floor(500 v) / 5) =
  floor(100 v)), so the turn's are divided by 5 and the river's by 10.
* Returns are each player's chips won, in big blinds; the pot is split
  among the best hands at a showdown.
* `average_policy()` and `greedy_policy()` are OpenSpiel policies over
  `nfsp_lhe3` states (their betting hashed as the kernel does).
"""

import dataclasses

import numba
import numpy as np
from open_spiel.python import policy as policy_lib

from nfsp_spiel.core import checkpoints
from nfsp_spiel.core import checks
from nfsp_spiel.games import nfsp_lhe
from nfsp_spiel.poker import board_buckets
from nfsp_spiel.trees import three_player_betting as betting
from nfsp_spiel.smooth_uct import lhe
from nfsp_spiel.smooth_uct import search as smooth_uct

NUM_PLAYERS = betting.NUM_PLAYERS
NUM_BUCKETS = (169, 1000, 100, 20)  # thesis table 3.1, three-player LHE
# Divisors from the two-player tables' grid to this one's, per round.
_COARSER = np.array([1, 1, 5, 10], np.int64)
MAX_LOAD = 0.9  # the share of rows a search fills before it adds no more
# The most chips one player can add from the start of each round on.
_BETS_LEFT = np.cumsum((betting.MAX_RAISES * betting.RAISE_SIZES)[::-1])[
    ::-1].copy()


@numba.njit(cache=True)
def find_row(keys, key):
  """The row holding `key`, or the empty row where it would go (linear
  probing in a power-of-two table)."""
  mask = np.uint64(len(keys) - 1)
  row = key & mask
  while keys[row] != 0 and keys[row] != key:
    row = (row + np.uint64(1)) & mask
  return np.int64(row)


@numba.njit(cache=True)
def _write_key(actions, bucket, out):
  """out[0] = the key of (betting `actions`, `bucket`): an array keeps it a
  uint64 on its way to Python."""
  out[0] = betting.state_key(betting.betting_hash(actions), bucket)


@numba.njit(cache=True)
def lookup_row(keys, actions, bucket):
  """The row of the information state (betting `actions`, `bucket`), or -1
  if it is not in the table."""
  u = find_row(keys, betting.state_key(betting.betting_hash(actions), bucket))
  return u if keys[u] != 0 else -1


@numba.njit(cache=True)
def _exploration(chips, active, r, cap, k):
  """Eq. 3.2 at the start of round r, in big blinds: min(cap, pot + k *
  (largest pot - pot)), where in the largest pot each player still in puts
  in the most the rounds left allow and the folded players' chips stay."""
  pot, folded, still_in, top = 0.0, 0.0, 0, 0.0
  for p in range(NUM_PLAYERS):
    pot += chips[p]
    if active[p]:
      still_in += 1
      top = max(top, chips[p])
    else:
      folded += chips[p]
  largest = folded + still_in * (top + _BETS_LEFT[r])
  return min(cap, (pot + k * (largest - pot)) / nfsp_lhe.BIG_BLIND)


@numba.njit(cache=True, nogil=True)  # threads share the tables
def _simulate(num_episodes, seed, preflop, flop_boards, flop, turn_boards,
              turn, river_boards, river, keys, counts, action_counts, q,
              filled, limit, gamma, eta0, d, cap, k_explore):
  """Runs `num_episodes` episodes of Alg. 1 on three-player Limit Hold'em,
  updating the tables in place (`filled[0]`: rows taken). The
  deals are made two episodes ahead and their look-ups prefetched as in
  `smooth_uct.lhe` (its `deal_ahead` and `locate`)."""
  np.random.seed(seed)
  deck = np.arange(52)
  deals = np.empty((3, 2 * NUM_PLAYERS + 5), np.int64)
  board_ranks = np.empty((3, 4), np.int64)
  cells = np.empty((3, NUM_PLAYERS, 4), np.int64)
  scratch = np.empty(5, np.int64)
  buckets = np.empty((NUM_PLAYERS, 4), np.int64)
  chips = np.empty(NUM_PLAYERS)
  active = np.empty(NUM_PLAYERS, np.bool_)
  bet = np.empty(betting.COUNTERS, np.int64)
  in_tree = np.empty(NUM_PLAYERS, np.bool_)
  ranks = np.empty(NUM_PLAYERS, np.int64)
  returns = np.empty(NUM_PLAYERS)
  legal = np.empty(3, np.int64)
  path_u = np.empty(betting.MAX_DECISIONS, np.int64)
  path_k = np.empty(betting.MAX_DECISIONS, np.int64)
  path_p = np.empty(betting.MAX_DECISIONS, np.int64)
  for step in range(num_episodes + 2):
    lhe.deal_ahead(deck, deals[step % 3], board_ranks[step % 3], scratch,
                   flop_boards, turn_boards, river_boards)
    if step >= 1:
      ahead = (step - 1) % 3
      lhe.locate(deals[ahead], board_ranks[ahead], cells[ahead], flop_boards,
                 flop, turn_boards, turn, river_boards, river)
    if step < 2:
      continue
    slot = (step - 2) % 3
    deal = deals[slot]
    for p in range(NUM_PLAYERS):
      buckets[p, 0] = preflop[deal[2 * p], deal[2 * p + 1]]
      buckets[p, 1] = flop[cells[slot, p, 1]]
      buckets[p, 2] = turn[cells[slot, p, 2]] // _COARSER[2]
      buckets[p, 3] = river[cells[slot, p, 3]] // _COARSER[3]
    betting.begin(chips, active, bet)
    in_tree[:] = True
    history = betting.EMPTY_BETTING  # the betting so far, hashed
    c = _exploration(chips, active, 0, cap, k_explore)
    depth = 0
    while not bet[betting.OVER]:
      p = bet[betting.PLAYER]
      n = betting.legal_actions(chips, bet, legal)
      if not in_tree[p]:
        k = np.random.randint(n)  # rollout
      else:
        key = betting.state_key(history, buckets[p, bet[betting.ROUND]])
        u = find_row(keys, key)
        if keys[u] == 0:  # expand (while the table has room), roll out
          k = np.random.randint(n)
          in_tree[p] = False
          if filled[0] < limit:
            keys[u] = key
            filled[0] += 1
            path_u[depth], path_k[depth], path_p[depth] = u, k, p
            depth += 1
        else:
          k = smooth_uct.select(u, n, counts, action_counts, q, gamma, eta0,
                                d, c)
          path_u[depth], path_k[depth], path_p[depth] = u, k, p
          depth += 1
      history = betting.mix(history, legal[k])
      if betting.apply(legal[k], chips, active, bet):
        c = _exploration(chips, active, bet[betting.ROUND], cap, k_explore)
    betting.returns(deal, chips, active, bet, ranks, returns)
    returns /= nfsp_lhe.BIG_BLIND
    smooth_uct.backup(path_u, path_k, path_p, depth, returns, counts,
                      action_counts, q)


class SmoothUCTLHE3(smooth_uct.TableSearch):
  """Smooth UCT (or UCT: `SmoothUCTConfig.uct_lhe3()`) self-play search on
  `nfsp_lhe3` in the three-player E[HS^2] abstraction; see the module
  docstring. `capacity`: rows of the state table (a power of two)."""

  _TABLES = ("counts", "action_counts", "q", "keys")

  def __init__(self, game, config=None, seed=0, tables=None, threads=None,
               capacity=2**25, **overrides):
    if game.get_type().short_name != "nfsp_lhe3":
      raise ValueError(f"game={game}: SmoothUCTLHE3 searches nfsp_lhe3")
    capacity = checks.whole_number("capacity", capacity, 2)
    if capacity & (capacity - 1):
      raise ValueError(f"capacity={capacity}: must be a power of two")
    super().__init__(game, config or smooth_uct.SmoothUCTConfig.lhe3(), seed,
                     capacity, 3, overrides, threads)
    # The key lives in its row's eighth, padding word: the probe that finds
    # a state brings its N, N(u, a) and Q in the same cache line.
    assert self._rows.shape[1] == 8, self._rows.shape
    self.keys = self._rows.view(np.uint64)[:, 7]
    self.tables = tables or board_buckets.tables()

  @property
  def filled(self):
    """Rows taken: the states in the players' trees."""
    return int(np.count_nonzero(self.keys))

  def run(self, num_episodes):
    """Simulates `num_episodes` episodes from fresh deals."""
    num_episodes = checks.whole_number("num_episodes", num_episodes, 0)
    cfg = self.config
    filled = np.array([self.filled], np.int64)
    self._run_kernel(_simulate, num_episodes, *_flat(self.tables), self.keys,
                     self.counts, self.action_counts, self.q, filled,
                     int(MAX_LOAD * len(self.keys)), cfg.gamma, cfg.eta0,
                     cfg.d, cfg.exploration_cap, cfg.exploration_k)

  def row(self, state):
    """The table row of an `nfsp_lhe3` decision state's information state,
    or -1 if it is not in the tree."""
    u = find_row(self.keys, _key(self.tables, state))
    return int(u) if self.keys[u] else -1

  def average_policy(self):
    """N(u, a) / N(u) (uniform where never visited), an OpenSpiel policy:
    a snapshot, which later `run`s leave as it is."""
    return _AveragePolicy(self)

  def greedy_policy(self):
    """argmax_a Q(u, a) (uniform where never visited), an OpenSpiel policy:
    a snapshot, saved compactly by its `save`."""
    filled = np.flatnonzero(self.keys)
    rows = filled[np.argsort(self.keys[filled])]
    # A row does not know how many actions its state has: the choice is
    # among the actions tried (an expanded state has tried one at least).
    q = np.where(self.action_counts[rows] > 0, self.q[rows], -np.inf)
    return GreedyProfile3(self.game, self.keys[rows], np.argmax(
        q, axis=1).astype(np.uint8), {
            **dataclasses.asdict(self.config), "seed": self._seed,
            "episodes": self.episodes}, self.tables)


def _flat(tables):
  return tuple(table.reshape(-1) if name in ("flop", "turn", "river") else
               table for name, table in zip(tables._fields, tables))


def _key(tables, state):
  """The key of `state`'s information state: its betting hashed as the
  kernel hashes it, its player's bucket on the coarse grid."""
  betting = np.array([item.action for item in state.full_history()
                      if item.player >= 0], np.int64)
  p, r = state.current_player(), state.betting_round()
  bucket = board_buckets.bucket(
      r, state.hole_cards(p), state.board_cards()[:nfsp_lhe.BOARD_CARDS[r]],
      tables)
  key = np.empty(1, np.uint64)
  _write_key(betting, np.int64(bucket // _COARSER[r]), key)
  return key[0]


@numba.njit(cache=True)
def _state_keys(histories, buckets):
  keys = np.empty(len(histories), np.uint64)
  for i in range(len(histories)):
    keys[i] = betting.state_key(histories[i], buckets[i])
  return keys


@numba.njit(cache=True)
def _find_rows(keys, wanted):
  return np.array([find_row(keys, key) for key in wanted], np.int64)


def _decision_keys(tables, decisions):
  """The keys of many decisions' information states
  (`evaluation.batched_three_player.ThreePlayerDecisions`), as `_key`."""
  buckets = board_buckets.buckets(decisions.round, decisions.hole,
                                  decisions.board, tables)
  return _state_keys(decisions.betting, buckets // _COARSER[decisions.round])


def _legal_columns(legal):
  """(n, 3): the column of each row's k-th legal action (k < its count)."""
  ranks = np.cumsum(legal, axis=1)
  return np.stack([np.argmax(ranks > k, axis=1) for k in range(3)], axis=1)


class _AveragePolicy(policy_lib.Policy):
  """N(u, a) / N(u) from a copy of a three-player search's rows, uniform
  off the tree."""

  def __init__(self, search):
    super().__init__(search.game, list(range(NUM_PLAYERS)))
    self._keys, self._tables = search.keys.copy(), search.tables
    self._action_counts = search.action_counts.copy()

  def action_probabilities(self, state, player_id=None):
    legal = state.legal_actions()
    u = find_row(self._keys, _key(self._tables, state))
    if not self._keys[u]:
      return {a: 1.0 / len(legal) for a in legal}
    counts = self._action_counts[u, :len(legal)]
    return {a: float(v) for a, v in zip(legal, counts / counts.sum())}

  def batch_action_probabilities(self, decisions):
    """(n, 3) over fold, call, raise at many decisions at once
    (`evaluation.batched_three_player`): the same numbers as
    `action_probabilities`."""
    rows = _find_rows(self._keys, _decision_keys(self._tables, decisions))
    widths = decisions.legal.sum(axis=1)
    probs = decisions.legal / widths[:, None]
    known = np.flatnonzero(self._keys[rows] != 0)
    counts = np.where(np.arange(3) < widths[known, None],
                      self._action_counts[rows[known], :3], 0)
    shares = counts / counts.sum(axis=1, keepdims=True)
    columns = _legal_columns(decisions.legal[known])
    probs[known] = 0.0
    for k in range(3):
      some = widths[known] > k
      probs[known[some], columns[some, k]] = shares[some, k]
    return probs


class GreedyProfile3(policy_lib.Policy):
  """A three-player search's greedy profile, compactly: the sorted keys of
  the states in its trees and one uint8 choice each (the index among the
  state's legal actions), uniform elsewhere; an OpenSpiel policy over
  `nfsp_lhe3` states, saved with the search's settings (`save`, `load`).
  The thesis' were 435 MB uncompressed."""

  def __init__(self, game, keys, choice, settings, tables=None):
    super().__init__(game, list(range(NUM_PLAYERS)))
    if keys.shape != choice.shape or np.any(keys[1:] < keys[:-1]):
      raise ValueError(f"keys {keys.shape} and choice {choice.shape}: a "
                       "profile has one choice per key, keys sorted")
    self.keys, self.choice, self.settings = keys, choice, settings
    self.tables = tables or board_buckets.tables()

  def action_probabilities(self, state, player_id=None):
    legal = state.legal_actions()
    key = _key(self.tables, state)
    i = int(np.searchsorted(self.keys, key))
    if i < len(self.keys) and self.keys[i] == key and (
        self.choice[i] < len(legal)):
      return {a: float(j == self.choice[i]) for j, a in enumerate(legal)}
    return {a: 1.0 / len(legal) for a in legal}

  def batch_action_probabilities(self, decisions):
    """(n, 3) over fold, call, raise at many decisions at once
    (`evaluation.batched_three_player`): one bucket look-up and one binary
    search per row."""
    keys = _decision_keys(self.tables, decisions)
    widths = decisions.legal.sum(axis=1)
    probs = decisions.legal / widths[:, None]
    if not len(self.keys):
      return probs
    i = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
    choice = self.choice[i].astype(np.int64)
    known = np.flatnonzero((self.keys[i] == keys) & (choice < widths))
    columns = _legal_columns(decisions.legal[known])
    probs[known] = 0.0
    probs[known, columns[np.arange(len(known)), choice[known]]] = 1.0
    return probs

  def save(self, path):
    """Writes the profile and its settings to a compressed .npz (through a
    temporary file: an interrupted save leaves the previous one)."""
    return checkpoints.save_compressed(path, self.settings, keys=self.keys,
                                       choice=self.choice)

  @classmethod
  def load(cls, game, path, tables=None):
    """The profile `save` wrote to `path`."""
    arrays, settings = checkpoints.load_compressed(
        path, ("keys", "choice"), "a three-player greedy profile")
    return cls(game, arrays["keys"], arrays["choice"], settings, tables)
