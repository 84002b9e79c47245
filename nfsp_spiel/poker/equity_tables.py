"""Check-down equity against a uniformly random holding, by table look-up.

The equity-threshold player (`evaluation.baselines.EquityThreshold`) decides
by E[HS]: the probability that its cards win a check-down against a holding
drawn uniformly from the cards it cannot see, a tie counting half. Computed
hand by hand, a flop equity ranks 1081 run-outs x 1081 holdings (52 ms), which
made 25,000 hands against the player take half an hour. This module tables
it the way `card_abstraction` tables E[HS^2], with HS in place of HS^2 and
the same passes (`card_abstraction.turn_pass`, `flop_pass`):

* turn: for every 4-card board up to suit isomorphism, each holding's river
  scores (2 * wins + ties against the 990 holdings left) summed over its 46
  river cards;
* flop: those sums summed over the 47 turn cards;
* river: one board's scores are computed when asked (~0.1 ms), no table.

Drawing the opposing holding first and the run-out second, or the run-out
first, gives the same uniform distribution over (holding, run-out) pairs, so
E over run-outs of the river's HS is the check-down equity. The tables hold
exact integers (uint32; 13,960,050 + 1,286,792 entries, 61 MB): an equity is
the sum over 46 * 1980 (turn) or 47 * 46 * 1980 (flop), correctly rounded,
so a pot-odds threshold hit exactly is hit exactly. Built in about a minute
on one core on first use and cached like the E[HS^2] tables
(`$NFSP_SPIEL_CACHE/ehs` or `~/.cache/nfsp_spiel/ehs`, SHA-256 checked).
"""

import collections
import functools
import logging
import pathlib

import numba
import numpy as np

from nfsp_spiel.poker import card_abstraction

Tables = collections.namedtuple("Tables", ("flop", "turn"))
_SCORE_SCALE = 2 * 990  # a river score counts 2 per win, 1 per tie
# What a table entry is summed over: (turn cards x) river cards x scale.
_TURN_DIVISOR = 46 * _SCORE_SCALE
_FLOP_DIVISOR = 47 * _TURN_DIVISOR
_UNWRITTEN = np.iinfo(np.uint32).max


def default_cache_dir():
  """$NFSP_SPIEL_CACHE/ehs, or ~/.cache/nfsp_spiel/ehs (beside ehs2)."""
  return card_abstraction.default_cache_dir().parent / "ehs"


def build_tables(log=logging.info):
  """The flop and turn score sums (about a minute on one core)."""
  turn = np.full(card_abstraction.INDEX_SIZES[2], _UNWRITTEN, np.uint32)
  card_abstraction.turn_pass(turn, False)
  if (turn == _UNWRITTEN).any():
    raise RuntimeError("the turn pass missed some turn indices")
  log("E[HS] turn table built")
  flop = np.empty(card_abstraction.INDEX_SIZES[1], np.uint32)
  card_abstraction.flop_pass(turn, flop, 1)
  return Tables(flop, turn)


@functools.lru_cache(maxsize=None)
def tables(cache_dir=None):
  """The tables, loaded from `cache_dir` (default `default_cache_dir()`) or
  built there on first use; kept for the process."""
  cache_dir = pathlib.Path(cache_dir or default_cache_dir())
  arrays = card_abstraction.load_tables(cache_dir)
  if arrays is None:
    logging.info("building the E[HS] tables in %s", cache_dir)
    arrays = build_tables()._asdict()
    card_abstraction.save_tables(cache_dir, arrays)
  for name, size in zip(Tables._fields, card_abstraction.INDEX_SIZES[1:3]):
    if name not in arrays or arrays[name].shape != (size,) or (
        arrays[name].dtype != np.uint32):
      raise ValueError(f"{cache_dir / (name + '.npy')}: not a {size}-entry "
                       f"uint32 table; delete {cache_dir} to rebuild")
  return Tables(arrays["flop"], arrays["turn"])


@numba.njit(cache=True)
def _river_equity(hole, board, holdings, scores):
  card_abstraction._river_scores(board, holdings, scores)  # pylint: disable=protected-access
  low, high = min(hole[0], hole[1]), max(hole[0], hole[1])
  for h in range(len(scores)):
    if holdings[h, 0] == low and holdings[h, 1] == high:
      return scores[h] / _SCORE_SCALE
  return np.nan


@numba.njit(cache=True)
def _equities(holes, boards, num_board, flop, turn):
  out = np.full(len(holes), np.nan)
  holdings = np.empty((1081, 2), np.int64)
  scores = np.empty(1081, np.int64)
  for row in range(len(holes)):
    hole, board = holes[row], boards[row, :num_board[row]]
    if num_board[row] == 3:
      out[row] = flop[card_abstraction.hand_index(hole, board)] / _FLOP_DIVISOR
    elif num_board[row] == 4:
      out[row] = turn[card_abstraction.hand_index(hole, board)] / _TURN_DIVISOR
    elif num_board[row] == 5:
      out[row] = _river_equity(hole, board, holdings, scores)
  return out


def postflop_equities(holes, boards, num_board, tables_=None):
  """Check-down equity of each row's `holes` (n x 2 card ids) on the first
  `num_board` (3, 4 or 5) of its `boards` (n x 5; later cards ignored)."""
  holes = np.asarray(holes, np.int64).reshape(-1, 2)
  boards = np.asarray(boards, np.int64).reshape(len(holes), -1)
  num_board = np.asarray(num_board, np.int64).reshape(len(holes))
  if not np.isin(num_board, (3, 4, 5)).all():
    raise ValueError(f"num_board={num_board.tolist()}: each row needs 3, 4 "
                     "or 5 board cards (preflop equities are not tabled)")
  if boards.shape[1] < num_board.max():
    raise ValueError(f"boards of {boards.shape[1]} cards, but num_board asks "
                     f"for {num_board.max()}")
  unused = -1 - np.arange(boards.shape[1])  # distinct, never a card
  cards = np.concatenate([holes, np.where(
      np.arange(boards.shape[1]) < num_board[:, None], boards, unused)], 1)
  used = cards >= 0
  repeated = (np.diff(np.sort(cards, axis=1), axis=1) == 0).any(axis=1)
  if (cards[used] > 51).any() or (holes < 0).any() or repeated.any():
    row = int(np.flatnonzero(repeated | (cards > 51).any(axis=1) |
                             (holes < 0).any(axis=1))[0])
    raise ValueError(f"row {row}: hole {holes[row].tolist()}, board "
                     f"{boards[row, :num_board[row]].tolist()}: want distinct "
                     "card ids in [0, 52)")
  tables_ = tables() if tables_ is None else tables_
  return _equities(holes, boards, num_board, tables_.flop, tables_.turn)
