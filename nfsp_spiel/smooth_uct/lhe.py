"""Smooth UCT and UCT on heads-up Limit Texas Hold'em, in the E[HS^2] abstraction.

Heinrich's thesis (2017), sec. 3.5.3 (fig. 3.5, tables 3.1 and 3.2): Smooth
UCT (Alg. 1-3, `smooth_uct`) searches two-player Limit Hold'em with the
players' cards bucketed by E[HS^2] (`card_abstraction`: 169 / 1000 / 500 /
200 buckets per round, imperfect recall), the betting unabstracted. The
thesis' program of this kind, SmooCT, came second in the 2014 ACPC.

* The betting: `BettingTree` (`nfsp_spiel.trees.betting_tree`) compiles
  `nfsp_lhe`'s betting (ACPC heads-up
  limit, the rules as `nfsp_lhe` states them: blinds 10/5 with player 0 the
  big blind, bets of 10 then 20 from the turn, at most 3 raises preflop and 4
  after, the small blind first preflop) into arrays: 6,378 decision nodes,
  10,206 terminals. It is the betting alone (the cards are dealt in the
  kernel), not `game_tree.GameTree`'s histories (about 10^18); it shares its
  terminal sentinel, and `exploration` computes `smooth_uct`'s schedule on
  it.
* An information state is (betting node, the acting player's bucket on the
  node's round): the betting is remembered, earlier rounds' buckets are not.
  They are numbered node by node (node offset + bucket), 1,520,352 in all, so
  N, N(u, a) and Q are arrays (`smooth_uct.TableSearch`: a 64-byte row per
  information state, 97 MB) and a state is in the tree once visited.
* `_simulate` (numba) deals 9 cards per episode two episodes ahead, looks
  up both players' buckets by board (`board_buckets`: the board's entry once
  per round for both players, then each player's pair) with the reads
  prefetched, walks the betting tree, grows each player's tree by one
  information state per episode,
  plays uniformly at random outside it and ranks showdowns with
  `hand_ranks`; selection and backup are `smooth_uct`'s, shared with the
  small games' kernel.
* Returns are in big blinds, the unit of the exploration schedule (eq. 3.2):
  c = min(C, pot + k * remaining betting potential) set at the start of each
  betting round, C = 24 and k = 0.5 (`SmoothUCTConfig.lhe()`), so c is in
  [10, 24].

`average_policy()` and `greedy_policy()` are OpenSpiel policies over
`nfsp_lhe` states (their betting and cards mapped to the information state);
`agent()` and `bot()` play the average one.
"""

import dataclasses
import os

import numba
import numpy as np
from open_spiel.python import policy as policy_lib

from nfsp_spiel.poker import board_buckets
from nfsp_spiel.trees.betting_tree import BettingTree
from nfsp_spiel.poker import cache_hints
from nfsp_spiel.poker import card_abstraction
from nfsp_spiel.core import checkpoints
from nfsp_spiel.core import checks
from nfsp_spiel.smooth_uct import search as smooth_uct
from nfsp_spiel.poker import hand_ranks
from nfsp_spiel.games import nfsp_lhe

# The rules are the game's (`nfsp_lhe`), in chips.
BIG_BLIND = nfsp_lhe.BIG_BLIND


def betting_tree():
  """`nfsp_lhe`'s betting tree with the E[HS^2] abstraction's information
  states numbered (`card_abstraction.NUM_BUCKETS` per round)."""
  return BettingTree(card_abstraction.NUM_BUCKETS)


def exploration(tree, cap, k):
  """Eq. 3.2 per node of a `BettingTree`, in big blinds: min(cap, pot + k *
  potential) with the pot and the remaining betting potential (the largest
  pot reachable, less the pot) of the node's betting round's start."""
  pot = tree.contributions.sum(axis=1) / BIG_BLIND
  parent = tree.parents()
  new_round = np.ones(len(pot), bool)
  new_round[1:] = tree.round[1:] != tree.round[parent[1:]]
  return smooth_uct.exploration_schedule(pot, parent, new_round, cap, k)


@numba.njit(cache=True)
def deal_ahead(deck, deal, board_ranks, scratch, flop_boards, turn_boards,
               river_boards):
  """Deals len(deal) cards (a partial Fisher-Yates shuffle of `deck`: two
  per player, then the board's 5), ranks the flop, turn and river boards
  and prefetches their board entries (`smooth_uct.lhe3` deals for three)."""
  for i in range(len(deal)):
    j = i + np.random.randint(52 - i)
    deck[i], deck[j] = deck[j], deck[i]
    deal[i] = deck[i]
  board = deal[len(deal) - 5:]
  for r in range(1, 4):
    board_ranks[r] = board_buckets.sorted_colex(board, r + 2, scratch)
  cache_hints.prefetch(flop_boards, board_ranks[1])
  cache_hints.prefetch(turn_boards, board_ranks[2])
  cache_hints.prefetch(river_boards, board_ranks[3])


@numba.njit(cache=True)
def _locate_round(r, deal, board_rank, cells, boards, buckets):
  """Reads the deal's round-r board entry and prefetches each player's
  bucket cell (`board_buckets.pair_cell`) in the round's `buckets` table,
  keeping the cells in cells[:, r] (a row per player)."""
  entry = boards[board_rank]
  for p in range(cells.shape[0]):
    cells[p, r] = board_buckets.pair_cell(entry, deal[2 * p], deal[2 * p + 1])
    cache_hints.prefetch(buckets, cells[p, r])


@numba.njit(cache=True)
def locate(deal, board_ranks, cells, flop_boards, flop, turn_boards, turn,
           river_boards, river):
  """`_locate_round` for the flop, turn and river (their tables' types
  differ, so one call each rather than a loop)."""
  _locate_round(1, deal, board_ranks[1], cells, flop_boards, flop)
  _locate_round(2, deal, board_ranks[2], cells, turn_boards, turn)
  _locate_round(3, deal, board_ranks[3], cells, river_boards, river)


@numba.njit(cache=True, nogil=True)  # threads share the tables
def _simulate(num_episodes, seed, player, round_, contributions, fold_loser,
              child_start, num_children, children, offset, exploration,
              preflop, flop_boards, flop, turn_boards, turn, river_boards,
              river, counts, action_counts, q, gamma, eta0, d, max_depth,
              record):
  """Runs `num_episodes` episodes of Alg. 1 on Limit Hold'em, updating the
  tables in place (`flop`, `turn`, `river`: the bucket tables by board,
  flattened). If `record` has rows, row i gets episode i's 9 cards and its
  2 x 4 buckets.

  An episode's time goes to memory latency (BUILD_NOTES.md): its bucket
  look-ups and tree rows are cache misses in tables of 100-200 MB. So deals
  are made two episodes ahead, in a ring of three: each step deals the
  episode two ahead and prefetches its board entries, reads the next
  episode's entries (prefetched a step ago) and prefetches its bucket cells,
  then plays its own deal with the buckets at hand, prefetching the rows of
  a decision's children before selecting at it."""
  np.random.seed(seed)
  deck = np.arange(52)
  deals = np.empty((3, 9), np.int64)
  board_ranks = np.empty((3, 4), np.int64)
  cells = np.empty((3, 2, 4), np.int64)
  scratch = np.empty(5, np.int64)
  buckets = np.empty((2, 4), np.int64)
  in_tree = np.empty(2, np.bool_)
  path_u = np.empty(max_depth, np.int64)
  path_k = np.empty(max_depth, np.int64)
  path_p = np.empty(max_depth, np.int64)
  returns = np.empty(2)
  for step in range(num_episodes + 2):
    deal_ahead(deck, deals[step % 3], board_ranks[step % 3], scratch,
               flop_boards, turn_boards, river_boards)
    if step >= 1:
      ahead = (step - 1) % 3
      locate(deals[ahead], board_ranks[ahead], cells[ahead], flop_boards,
             flop, turn_boards, turn, river_boards, river)
    if step < 2:
      continue
    slot = (step - 2) % 3
    deal = deals[slot]
    for p in range(2):
      buckets[p, 0] = preflop[deal[2 * p], deal[2 * p + 1]]
      buckets[p, 1] = flop[cells[slot, p, 1]]
      buckets[p, 2] = turn[cells[slot, p, 2]]
      buckets[p, 3] = river[cells[slot, p, 3]]
    if len(record):
      record[step - 2, :9] = deal
      record[step - 2, 9:] = buckets.ravel()
    in_tree[:] = True
    node, depth = 0, 0
    while player[node] >= 0:
      acting, n = player[node], num_children[node]
      first = child_start[node]
      for k in range(n):  # the rows the next decision may read
        child = children[first + k]
        if player[child] >= 0 and in_tree[player[child]]:
          cache_hints.prefetch(counts, offset[child] +
                   buckets[player[child], round_[child]])
      if not in_tree[acting]:
        k = np.random.randint(n)  # rollout
      else:
        u = offset[node] + buckets[acting, round_[node]]
        if counts[u] == 0:  # expand, then roll out for this player
          k = np.random.randint(n)
          in_tree[acting] = False
        else:
          k = smooth_uct.select(u, n, counts, action_counts, q, gamma, eta0,
                                d, exploration[node])
        path_u[depth], path_k[depth], path_p[depth] = u, k, acting
        depth += 1
      node = children[first + k]
    if fold_loser[node] >= 0:
      loser = fold_loser[node]
      return0 = contributions[node, loser] * (1.0 if loser == 1 else -1.0)
    else:
      return0 = contributions[node, 0] * hand_ranks.showdown_sign(
          deal[0:2], deal[2:4], deal[4:9])
    returns[0], returns[1] = return0 / BIG_BLIND, -return0 / BIG_BLIND
    smooth_uct.backup(path_u, path_k, path_p, depth, returns, counts,
                      action_counts, q)


def _flat(tables):
  """`board_buckets.BoardTables` as `_simulate` takes them: the bucket
  tables flattened (views), so that a cell is one index."""
  return tuple(table.reshape(-1) if name in ("flop", "turn", "river") else
               table for name, table in zip(tables._fields, tables))


class SmoothUCTLHE(smooth_uct.TableSearch):
  """Smooth UCT (or UCT: `SmoothUCTConfig.uct_lhe()`) self-play search on `nfsp_lhe` in the
  E[HS^2] abstraction; see the module docstring. `tables` are the bucket
  tables by board, by default `board_buckets.tables()` (built once, ~3
  minutes, then cached)."""

  def __init__(self, game, config=None, seed=0, tables=None, threads=None,
               **overrides):
    if game.get_type().short_name != "nfsp_lhe":
      raise ValueError(f"game={game}: SmoothUCTLHE searches nfsp_lhe; "
                       "smooth_uct.SmoothUCT takes games whose tree fits in "
                       "memory")
    self.tree = betting_tree()
    super().__init__(game, config or smooth_uct.SmoothUCTConfig.lhe(), seed,
                     self.tree.num_infosets, 3, overrides, threads)
    cfg = self.config
    self.exploration = (
        np.full(len(self.tree.player), cfg.c) if cfg.exploration_cap is None
        else exploration(self.tree, cfg.exploration_cap, cfg.exploration_k))
    self.tables = tables or board_buckets.tables()

  def run(self, num_episodes):
    """Simulates `num_episodes` episodes from fresh deals."""
    num_episodes = checks.whole_number("num_episodes", num_episodes, 0)
    self._simulate(num_episodes, np.empty((0, 17), np.int64))

  def _simulate(self, num_episodes, record):
    """`run`, writing each episode's cards and buckets into `record` if it
    has rows (the tests' view into the kernel's deal pipeline)."""
    if len(record) and self.threads > 1:
      raise ValueError(f"threads={self.threads}: recording the deals needs "
                       "one thread (record's rows are the episodes in order)")
    t, cfg = self.tree, self.config
    self._run_kernel(_simulate, num_episodes, t.player, t.round,
                     t.contributions, t.fold_loser, t.child_start,
                     t.num_children, t.children, t.offset, self.exploration,
                     *_flat(self.tables), self.counts, self.action_counts,
                     self.q, cfg.gamma, cfg.eta0, cfg.d, t.max_depth, record)

  def information_state(self, state):
    """(betting node, index of the acting player's information state) of an
    `nfsp_lhe` decision state."""
    return _information_state(self.tree, self.tables, state)

  def average_policy(self):
    """N(u, a) / N(u) (uniform where never visited), an OpenSpiel policy:
    a snapshot, which later `run`s leave as it is."""
    return _AveragePolicy(self)

  def greedy_policy(self):
    """argmax_a Q(u, a) (uniform where never visited), an OpenSpiel policy:
    a snapshot, which later `run`s leave as it is."""
    t = self.tree
    widths = np.repeat(t.num_children, np.diff(t.offset, append=t.num_infosets))
    # Only the node's actions compete: a 2-action node's third Q is unused.
    q = np.where(np.arange(3) < widths[:, None], self.q, -np.inf)
    choice = np.where(self.expanded, np.argmax(q, axis=1), UNVISITED)
    return GreedyProfile(self.game, choice.astype(np.uint8),
                         {**dataclasses.asdict(self.config),
                          "seed": self._seed, "episodes": self.episodes},
                         self.tree, self.tables)


def _information_state(tree, tables, state):
  betting = tuple(a for p, a in ((h.player, h.action)
                                 for h in state.full_history()) if p >= 0)
  node = tree.node_of[betting]
  p = state.current_player()
  r = int(tree.round[node])
  bucket = board_buckets.bucket(
      r, state.hole_cards(p),
      state.board_cards()[:card_abstraction.BOARD_CARDS[r]], tables)
  return node, int(tree.offset[node]) + bucket


def _node_actions(tree, node):
  first = tree.child_start[node]
  return tree.actions[first:first + tree.num_children[node]]


class _AveragePolicy(policy_lib.Policy):
  """N(u, a) / N(u) from a copy of a search's tables."""

  def __init__(self, search):
    super().__init__(search.game, [0, 1])
    self._tree, self._tables = search.tree, search.tables
    self._action_counts = search.action_counts.copy()
    self._counts = search.counts.copy()

  def action_probabilities(self, state, player_id=None):
    node, u = _information_state(self._tree, self._tables, state)
    actions = _node_actions(self._tree, node)
    if self._counts[u] == 0:
      probs = np.full(len(actions), 1.0 / len(actions))
    else:
      values = self._action_counts[u, :len(actions)]
      probs = values / values.sum()
    return {int(a): float(p) for a, p in zip(actions, probs)}


UNVISITED = 255  # a greedy profile's entry for a never-visited state


class GreedyProfile(policy_lib.Policy):
  """A pure strategy profile over the abstraction's information states, the
  form in which SmooCT played (thesis sec. 3.5.3: 8.1 MB greedy profiles):
  `choice[u]` is the index of the chosen action among node u's children, or
  UNVISITED (uniform). An OpenSpiel policy over `nfsp_lhe` states, saved in
  about 0.3 MB (`save`, `load`) with the search's settings and episode
  count."""

  def __init__(self, game, choice, settings, tree=None, tables=None):
    super().__init__(game, [0, 1])
    self.tree = tree or betting_tree()
    if choice.shape != (self.tree.num_infosets,):
      raise ValueError(f"choice has shape {choice.shape}: a greedy profile "
                       f"has one entry per information state, "
                       f"({self.tree.num_infosets},)")
    self.choice, self.settings = choice, settings
    self.tables = tables or board_buckets.tables()

  def action_probabilities(self, state, player_id=None):
    node, u = _information_state(self.tree, self.tables, state)
    actions = _node_actions(self.tree, node)
    if self.choice[u] == UNVISITED:
      return {int(a): 1.0 / len(actions) for a in actions}
    return {int(a): float(i == self.choice[u]) for i, a in enumerate(actions)}

  def batch_action_probabilities(self, decisions):
    """(n, 3) over fold, call, raise at many decisions at once
    (`evaluation.batched_matches.Decisions`): one bucket look-up per row."""
    u = self.tree.offset[decisions.node] + board_buckets.buckets(
        decisions.round, decisions.hole, decisions.board, self.tables)
    choice = self.choice[u]
    widths = self.tree.num_children[decisions.node]
    actions = self.tree.actions[self.tree.child_start[decisions.node][:, None]
                                + np.minimum(np.arange(3), widths[:, None] - 1)]
    rows = np.arange(len(decisions))
    probs = np.zeros((len(decisions), 3))
    unvisited = choice == UNVISITED
    probs[rows[unvisited]] = decisions.legal[unvisited] / widths[
        unvisited, None]
    probs[rows[~unvisited], actions[rows[~unvisited],
                                    choice[~unvisited]]] = 1.0
    return probs

  def save(self, path):
    """Writes the profile and its settings to a compressed .npz (through a
    temporary file: an interrupted save leaves the previous one)."""
    return checkpoints.save_compressed(path, self.settings,
                                       choice=self.choice)

  @classmethod
  def load(cls, game, path, tables=None):
    """The profile `save` wrote to `path`."""
    arrays, settings = checkpoints.load_compressed(path, ("choice",),
                                                   "a greedy profile")
    return cls(game, arrays["choice"], settings, tables=tables)


# In the package's data folder (setup.py's package_data).
SHIPPED_PROFILE = os.path.join(os.path.dirname(os.path.dirname(__file__)),
                               "data", "smooct_lhe.npz")


def shipped_profile(game, tables=None):
  """The package's SmooCT-like opponent: Smooth UCT's greedy profile after
  10^9 episodes with `SmoothUCTConfig.lhe()`, seed 0 (its settings are in `.settings`), built
  by `examples/smooth_uct.py --game nfsp_lhe --episodes 1e9 --eval_every
  1e8 --seed 0 --output_dir DIR --greedy_profile PATH` (README)."""
  return GreedyProfile.load(game, SHIPPED_PROFILE, tables)
