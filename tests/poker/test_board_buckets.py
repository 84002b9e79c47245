"""The E[HS^2] buckets arranged by board (`board_buckets`) against the index
tables of `card_abstraction` and its suit-isomorphism index."""

import math

import numpy as np
import pytest

from nfsp_spiel.poker import board_buckets
from nfsp_spiel.poker import card_abstraction


@pytest.fixture(scope="module")
def stand_ins():
  return board_buckets.stand_ins()


def _board_index(board):
  """Waugh's index of a board alone (`card_abstraction`'s board kinds): equal
  exactly for suit-isomorphic boards."""
  kind = {4: 4, 5: 5}[len(board)]
  return card_abstraction._index(np.array(board, np.int64),  # pylint: disable=protected-access
                                 np.empty(0, np.int64), kind,
                                 np.empty(16, np.int64))


def test_canonical_boards_are_the_suit_isomorphism_classes(stand_ins):
  """As many canonical turns and rivers as the index has board classes, and
  two boards share a canonical board exactly when the index says they are
  suit permutations of each other; the permutation maps a board onto it."""
  for r, k in ((2, 4), (3, 5)):
    entries = stand_ins[2 * r - 1]
    assert len(np.unique(entries >> 5)) == board_buckets.NUM_CANONICAL[r - 1]
    assert board_buckets.NUM_CANONICAL[r - 1] == card_abstraction._OFFSETS[k, -1]  # pylint: disable=protected-access
  assert len(np.unique(stand_ins.flop_boards >> 5)) == 1755
  rng = np.random.default_rng(0)
  for k, entries in ((4, stand_ins.turn_boards), (5, stand_ins.river_boards)):
    canonical_of_index = {}
    for _ in range(3000):
      board = sorted(rng.choice(52, k, replace=False).tolist())
      rank = sum(math.comb(card, i + 1) for i, card in enumerate(board))
      number, p = entries[rank] >> 5, entries[rank] & 31
      image = sorted(int(board_buckets._PERMUTED[p, c]) for c in board)  # pylint: disable=protected-access
      image_rank = sum(math.comb(c, i + 1) for i, c in enumerate(image))
      # The image is the canonical board itself: same number, and the
      # identity (permutation 0, tried first) maps it onto itself.
      assert entries[image_rank] == number << 5
      assert canonical_of_index.setdefault(_board_index(board), number) == number
    # Distinct classes got distinct numbers.
    assert len(set(canonical_of_index.values())) == len(canonical_of_index)


def test_buckets_by_board_equal_the_index_tables(stand_ins):
  """Derived from index tables of random buckets (so that a wrong index or
  permutation shows), every round's bucket by board equals the index
  table's, on random deals; the river is derived only for the deals'
  boards."""
  rng = np.random.default_rng(1)
  index_tables = card_abstraction.Tables(*(
      rng.integers(0, n, size, dtype=dtype) for size, n, dtype in zip(
          card_abstraction.INDEX_SIZES, card_abstraction.NUM_BUCKETS,
          (np.uint8, np.uint16, np.uint16, np.uint8))))
  deals = [rng.choice(52, 9, replace=False) for _ in range(2000)]
  flop_boards, flop = board_buckets._derive_round(3, index_tables.flop)  # pylint: disable=protected-access
  turn_boards, turn = board_buckets._derive_round(4, index_tables.turn)  # pylint: disable=protected-access
  river_boards = stand_ins.river_boards
  river = np.zeros((board_buckets.NUM_CANONICAL[2], board_buckets.NUM_PAIRS),
                   np.uint8)
  numbers = {}
  for deal in deals:
    rank = sum(math.comb(int(c), i + 1) for i, c in enumerate(sorted(deal[4:])))
    number = river_boards[rank] >> 5
    image = sorted(int(board_buckets._PERMUTED[river_boards[rank] & 31, c])  # pylint: disable=protected-access
                   for c in deal[4:])
    numbers[number] = sum(math.comb(c, i + 1) for i, c in enumerate(image))
  rows = np.array(sorted(numbers))
  part = np.zeros((len(rows), board_buckets.NUM_PAIRS), np.uint8)
  board_buckets._gather(np.array([numbers[n] for n in rows]), 5,  # pylint: disable=protected-access
                        index_tables.river, part)
  river[rows] = part
  derived = board_buckets.BoardTables(
      card_abstraction.preflop_buckets_by_cards(index_tables.preflop),
      flop_boards, flop, turn_boards, turn, river_boards, river)
  for deal in deals:
    for hole in (deal[:2], deal[2:4]):
      for r, k in enumerate(card_abstraction.BOARD_CARDS):
        assert board_buckets.bucket(r, hole, deal[4:4 + k], derived) == (
            card_abstraction.bucket(r, hole, deal[4:4 + k], index_tables))


def test_bucket_checks_its_cards(stand_ins):
  with pytest.raises(ValueError, match="round 2 .turn. has 4 board cards"):
    board_buckets.bucket(2, [0, 1], [2, 3, 4], stand_ins)
  with pytest.raises(ValueError, match="distinct ids"):
    board_buckets.bucket(1, [0, 1], [1, 3, 4], stand_ins)


def test_cache_is_loaded_and_checked(tmp_path):
  """Tables in `<cache>/by_board` are loaded as they are (no derivation from
  the index tables, which are absent here); a table of the wrong shape is
  refused naming the file."""
  arrays = board_buckets.stand_ins(buckets=7)._asdict()
  card_abstraction.save_tables(tmp_path / "by_board", arrays)
  loaded = board_buckets.tables(tmp_path)
  assert loaded.river.shape == (134459, 1326) and loaded.turn[5, 9] == 7
  card_abstraction.save_tables(tmp_path / "by_board",
                               {**arrays, "turn": arrays["turn"][:-1]})
  with pytest.raises(ValueError, match="by_board/turn.npy: not a"):
    board_buckets.tables(tmp_path)
