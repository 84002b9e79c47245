"""E[HS] tables: equal to the check-down equity enumerated hand by hand
(`hand_ranks.checkdown_scores`, which ranks each opposing holding against
each run-out: an independent route)."""

import numpy as np
import pytest

from nfsp_spiel.games import cards
from nfsp_spiel.poker import card_abstraction
from nfsp_spiel.poker import equity_tables
from nfsp_spiel.poker import hand_ranks


def _exact(hole, board):
  return float(np.nanmean(hand_ranks.checkdown_scores(
      hole, board, cards.holdings(range(52)))))


def _deals(count, num_board, seed):
  rng = np.random.default_rng(seed)
  deals = np.array([rng.choice(52, 7, replace=False) for _ in range(count)])
  return deals[:, :2], deals[:, 2:], np.full(count, num_board)


def test_turn_sums_are_the_equity():
  """The turn pass's per-board sums, over 46 * 1980, are the equity."""
  holes, boards, _ = _deals(4, 4, seed=1)
  for hole, board in zip(holes, boards[:, :4]):
    sums = card_abstraction._turn_totals(board, False)  # pylint: disable=protected-access
    a, b = sorted(hole)
    assert sums[a, b] / (46 * 1980) == pytest.approx(_exact(hole, board),
                                                     abs=1e-12)


def test_river_equity_without_a_table():
  holes, boards, num_board = _deals(20, 5, seed=2)
  empty = equity_tables.Tables(np.zeros(0, np.uint32), np.zeros(0, np.uint32))
  got = equity_tables.postflop_equities(holes, boards, num_board, empty)
  want = [_exact(hole, board) for hole, board in zip(holes, boards)]
  np.testing.assert_allclose(got, want, atol=1e-12)


def test_tables_hold_the_equity():
  """Random flop and turn hands, looked up in the built (cached) tables;
  the board cards after the round's are not read (here: the hole cards)."""
  for num_board, seed in ((3, 3), (4, 4)):
    holes, boards, rounds = _deals(12, num_board, seed)
    boards[:, num_board:] = holes[:, :5 - num_board]
    got = equity_tables.postflop_equities(holes, boards, rounds)
    want = [_exact(hole, board[:num_board])
            for hole, board in zip(holes, boards)]
    np.testing.assert_allclose(got, want, atol=1e-12)


@pytest.mark.parametrize("holes, boards, num_board, message", [
    ([[0, 1]], [[2, 3, 4, 5, 6]], [0], "num_board=.0.: each row needs 3"),
    ([[0, 1]], [[1, 3, 4, 5, 6]], [3], "row 0: hole .0, 1., board .1, 3, 4."),
    ([[0, 52]], [[2, 3, 4, 5, 6]], [3], "distinct card ids in .0, 52."),
    ([[0, 1]], [[2, 3, 4]], [4], "boards of 3 cards, but num_board asks"),
])
def test_bad_hands_are_refused(holes, boards, num_board, message):
  empty = equity_tables.Tables(np.zeros(0, np.uint32), np.zeros(0, np.uint32))
  with pytest.raises(ValueError, match=message):
    equity_tables.postflop_equities(holes, boards, num_board, empty)

