"""The E[HS^2] buckets arranged by board, for simulation loops.

`card_abstraction` indexes a hand (hole cards, board) up to suit isomorphism
in one dense index per round, which costs a few hundred nanoseconds of bit
work per look-up, about half of a Smooth UCT episode on Limit Hold'em
(BUILD_NOTES.md). Both players of a deal share the board, so this module
splits the index in two:

* `<round>_boards[colex(board)]`: every raw board of the round (its cards'
  colex rank, C(52, k) entries) names its canonical board, the smallest suit
  permutation of it in colex order, and the suit permutation that maps it
  there, packed as canonical number * 32 + permutation (int32).
* `<round>[canonical board, pair]`: the bucket of each of the 1326 hole-card
  pairs (their colex rank) on that canonical board, from `card_abstraction`'s
  table (a suit permutation leaves E[HS^2], so the bucket, unchanged).

A look-up is then a sort of the board's cards, one board entry per round for
both players, and per player two small tables (permuted cards, pair rank) and
one bucket entry, whose address (`pair_cell`) is known from the cards before
it is read, so that a simulation can prefetch it (`smooth_uct.lhe`). The
preflop table is a 52 x 52 array over the card pair.

The arrangement is derived from `card_abstraction.tables()` (about half a
minute on two cores) and cached beside them (`<cache>/by_board`, checksummed like
them): 1,755 / 16,432 / 134,459 canonical flops / turns / rivers, 227 MiB.
"""

import collections
import itertools
import logging
import math
import pathlib
import time

import numba
import numpy as np

from nfsp_spiel.poker import card_abstraction

ROUND_CARDS = (3, 4, 5)  # board cards of the flop, turn and river
NUM_PAIRS = 1326  # C(52, 2)
NUM_CANONICAL = (1755, 16432, 134459)  # boards up to suit permutation
BoardTables = collections.namedtuple(
    "BoardTables", ("preflop", "flop_boards", "flop", "turn_boards", "turn",
                    "river_boards", "river"))

_CHOOSE = np.array([[math.comb(n, k) for k in range(6)] for n in range(53)],
                   np.int64)
_PERMUTED = np.array([[card & ~3 | p[card & 3] for card in range(52)]
                      for p in itertools.permutations(range(4))], np.int64)
_PAIR = np.full((52, 52), -1, np.int64)
for _a, _b in itertools.combinations(range(52), 2):
  _PAIR[_a, _b] = _PAIR[_b, _a] = math.comb(_b, 2) + _a
_PERMUTATION_BITS = 5  # 24 permutations


@numba.njit(cache=True)
def sorted_colex(cards, k, scratch):
  """Colex rank of a set of k cards given in any order (sorted in
  `scratch`)."""
  for i in range(k):
    card = cards[i]
    j = i
    while j > 0 and scratch[j - 1] > card:
      scratch[j] = scratch[j - 1]
      j -= 1
    scratch[j] = card
  rank = 0
  for i in range(k):
    rank += _CHOOSE[scratch[i], i + 1]
  return rank


@numba.njit(cache=True)
def _canonical_boards(k):
  """For each k-card board (by colex rank): the colex rank of its canonical
  form and the permutation that maps it there."""
  count = _CHOOSE[52, k]
  canonical = np.empty(count, np.int64)
  permutation = np.empty(count, np.int64)
  board = np.arange(k)  # the boards in colex order, one after the other
  image = np.empty(k, np.int64)
  scratch = np.empty(k, np.int64)
  for rank in range(count):
    best, best_p = count, 0
    for p in range(24):
      for i in range(k):
        image[i] = _PERMUTED[p, board[i]]
      value = sorted_colex(image, k, scratch)
      if value < best:
        best, best_p = value, p
    canonical[rank], permutation[rank] = best, best_p
    i = 0  # the next board in colex order
    while i < k - 1 and board[i] + 1 == board[i + 1]:
      board[i] = i
      i += 1
    board[i] += 1
  return canonical, permutation


@numba.njit(cache=True)
def _cards_of(rank, k):
  """The k cards (ascending) of colex rank `rank`."""
  cards = np.empty(k, np.int64)
  for i in range(k - 1, -1, -1):
    card = i
    while _CHOOSE[card + 1, i + 1] <= rank:
      card += 1
    cards[i] = card
    rank -= _CHOOSE[card, i + 1]
  return cards


@numba.njit(cache=True, parallel=True)
def _gather(canonical_ranks, k, table, out):
  """out[b, pair] = table[hand_index(pair, board b)] for the canonical boards
  with colex ranks `canonical_ranks` (pairs that share a card with the board
  keep out's value)."""
  for b in numba.prange(len(canonical_ranks)):
    board = _cards_of(canonical_ranks[b], k)
    work = np.empty(16, np.int64)
    hole = np.empty(2, np.int64)
    used = 0
    for card in board:
      used |= 1 << card
    for second in range(52):
      for first in range(second):
        if not (used >> first & 1 or used >> second & 1):
          hole[0], hole[1] = first, second
          out[b, _PAIR[first, second]] = table[
              card_abstraction.hand_index_in(work, hole, board)]


def _board_entries(k):
  """The `<round>_boards` table of k-card boards, and the colex ranks of the
  canonical boards in the order of their numbers."""
  canonical, permutation = _canonical_boards(k)
  ranks, number = np.unique(canonical, return_inverse=True)
  return (number << _PERMUTATION_BITS | permutation).astype(np.int32), ranks


def _derive_round(k, table):
  """(boards, buckets) of the round with k board cards from its index table."""
  boards, ranks = _board_entries(k)
  buckets = np.zeros((len(ranks), NUM_PAIRS), table.dtype)
  _gather(ranks, k, table, buckets)
  return boards, buckets


def derive(tables):
  """`BoardTables` from `card_abstraction`'s `Tables` (about a minute)."""
  parts = [card_abstraction.preflop_buckets_by_cards(tables.preflop)]
  for k, table in zip(ROUND_CARDS, tables[1:]):
    parts.extend(_derive_round(k, table))
  return BoardTables(*parts)


def _shapes():
  dtypes = dict(zip(card_abstraction.ROUND_NAMES, card_abstraction._DTYPES))  # pylint: disable=protected-access
  shapes = {"preflop": ((52, 52), dtypes["preflop"])}
  for name, k, canonical in zip(card_abstraction.ROUND_NAMES[1:], ROUND_CARDS,
                                NUM_CANONICAL):
    shapes[f"{name}_boards"] = ((math.comb(52, k),), np.int32)
    shapes[name] = ((canonical, NUM_PAIRS), dtypes[name])
  return shapes


def tables(cache_dir=None):
  """The `BoardTables`, loaded from `<cache_dir>/by_board` or derived from
  `card_abstraction.tables(cache_dir)` (built first if need be) and saved
  there on first use.

  Raises:
    ValueError: naming a cached file that is damaged or of the wrong shape.
  """
  cache_dir = pathlib.Path(cache_dir or card_abstraction.default_cache_dir())
  arrays = card_abstraction.load_tables(cache_dir / "by_board")
  if arrays is None:
    start = time.perf_counter()
    derived = derive(card_abstraction.tables(cache_dir))
    arrays = derived._asdict()
    card_abstraction.save_tables(cache_dir / "by_board", arrays)
    logging.info("derived the E[HS^2] tables by board in %.1f s",
                 time.perf_counter() - start)
  for name, (shape, dtype) in _shapes().items():
    if name not in arrays or arrays[name].shape != shape or (
        arrays[name].dtype != dtype):
      raise ValueError(f"{cache_dir / 'by_board' / (name + '.npy')}: not a "
                       f"{shape} {np.dtype(dtype).name} table; delete "
                       f"{cache_dir / 'by_board'} to derive it again")
  return BoardTables(**arrays)


def stand_ins(buckets=None):
  """`BoardTables` of the real shapes whose bucket is (canonical board +
  pair) modulo the round's bucket count (or all `buckets`): for tests and
  examples of the simulator's bookkeeping, which need no E[HS^2] values."""
  shapes = _shapes()
  arrays = {}
  for name, count in zip(card_abstraction.ROUND_NAMES,
                         card_abstraction.NUM_BUCKETS):
    shape, dtype = shapes[name]
    if buckets is not None:
      arrays[name] = np.full(shape, buckets, dtype)
      continue
    arrays[name] = np.empty(shape, dtype)
    for start in range(0, shape[0], 4096):  # rows in chunks: small temporaries
      rows = np.arange(start, min(start + 4096, shape[0]))[:, None]
      arrays[name][rows[:, 0]] = (rows + np.arange(shape[1])) % count
  for name, k in zip(card_abstraction.ROUND_NAMES[1:], ROUND_CARDS):
    arrays[f"{name}_boards"] = _board_entries(k)[0]
  return BoardTables(**arrays)


@numba.njit(cache=True)
def board_entry(round_, board, boards, scratch):
  """The packed (canonical board, permutation) of a round's board cards
  (`board` holds at least the round's; `boards` is the round's `_boards`
  table, `scratch` 5 int64s)."""
  return boards[sorted_colex(board, ROUND_CARDS[round_ - 1], scratch)]


@numba.njit(cache=True)
def pair_cell(entry, first, second):
  """Where the bucket of hole cards (first, second) on the board of `entry`
  (`board_entry`) is in the round's table, flattened: canonical board *
  NUM_PAIRS + pair of the permuted cards."""
  p = entry & (1 << _PERMUTATION_BITS) - 1
  pair = _PAIR[_PERMUTED[p, first], _PERMUTED[p, second]]
  return (entry >> _PERMUTATION_BITS) * NUM_PAIRS + pair


def bucket(round_, hole, board, board_tables):
  """The bucket of one hand on round `round_` (0 preflop ... 3 river) with
  the round's board cards, from Python (checked like
  `card_abstraction.bucket`)."""
  hole, board = card_abstraction.round_hand(round_, hole, board)
  if round_ == 0:
    return int(board_tables.preflop[hole[0], hole[1]])
  entry = board_entry(round_, board, board_tables[2 * round_ - 1],
                      np.empty(5, np.int64))
  cell = pair_cell(entry, hole[0], hole[1])
  return int(board_tables[2 * round_].flat[cell])


@numba.njit(cache=True)
def _buckets_of(rounds, holes, boards, preflop, flop_boards, flop, turn_boards,
                turn, river_boards, river):
  out = np.empty(len(rounds), np.int64)
  scratch = np.empty(5, np.int64)
  for i in range(len(rounds)):
    r, first, second = rounds[i], holes[i, 0], holes[i, 1]
    if r == 0:
      out[i] = preflop[first, second]
    elif r == 1:
      out[i] = flop[pair_cell(board_entry(1, boards[i], flop_boards, scratch),
                              first, second)]
    elif r == 2:
      out[i] = turn[pair_cell(board_entry(2, boards[i], turn_boards, scratch),
                              first, second)]
    else:
      out[i] = river[pair_cell(board_entry(3, boards[i], river_boards,
                                           scratch), first, second)]
  return out


def buckets(rounds, holes, boards, board_tables):
  """`bucket` of n hands at once: rounds (n,), hole cards (n, 2), boards
  (n, 5) of which round r reads its first 0 / 3 / 4 / 5 cards."""
  flat = [t.reshape(-1) if name in ("flop", "turn", "river") else t
          for name, t in zip(board_tables._fields, board_tables)]
  return _buckets_of(np.asarray(rounds, np.int64), np.asarray(holes, np.int64),
                     np.asarray(boards, np.int64), *flat)
