"""The compiled hand ranks and check-down equities against eval7."""

import itertools

import eval7
import numpy as np
import pytest

from nfsp_spiel.games import cards
from nfsp_spiel.poker import hand_ranks


def _eval7(hand):
  return eval7.evaluate([eval7.Card(cards.card_str(c)) for c in hand])


@pytest.mark.parametrize("size", [5, 6, 7])
def test_order_matches_eval7(size):
  rng = np.random.default_rng(size)
  hands = np.array([rng.choice(52, size, replace=False) for _ in range(5000)])
  ours = hand_ranks.rank_hands(hands)
  theirs = np.array([_eval7(h) for h in hands])
  i, j = rng.integers(0, len(hands), (2, 100000))
  np.testing.assert_array_equal(np.sign(ours[i] - ours[j]),
                                np.sign(theirs[i] - theirs[j]))


def test_every_five_card_hand():
  ranks = hand_ranks.rank_hands(np.array(list(itertools.combinations(
      range(52), 5))))
  assert len(np.unique(ranks)) == 7462  # the distinct five-card hand values
  categories = np.bincount(ranks >> 20, minlength=9)
  # high card, pair, two pair, trips, straight, flush, full house, quads, SF
  np.testing.assert_array_equal(categories, [1302540, 1098240, 123552, 54912,
                                             10200, 5108, 3744, 624, 40])


def test_wheel_and_second_set():
  wheel = [cards.card_id(c) for c in ("Ah", "2c", "3d", "4s", "5h", "Kc", "Qd")]
  six_high = [cards.card_id(c) for c in ("6h", "2c", "3d", "4s", "5h", "Kc",
                                         "Qd")]
  low, high = hand_ranks.rank_hands(np.array([wheel, six_high]))
  assert 4 << 20 <= low < high < 5 << 20  # both straights, the wheel lower
  two_sets = [cards.card_id(c) for c in ("Kh", "Kc", "Kd", "Qs", "Qh", "Qc",
                                         "2d")]
  kings_full = [cards.card_id(c) for c in ("Kh", "Kc", "Kd", "Qs", "Qh", "3c",
                                           "2d")]
  ours = hand_ranks.rank_hands(np.array([two_sets, kings_full]))
  assert ours[0] == ours[1]
  assert _eval7(two_sets) == _eval7(kings_full)


def _slow_scores(hole, board, holdings):
  """Win/tie share per holding by eval7 over every run-out."""
  deck = [c for c in range(52) if c not in hole and c not in board]
  out = []
  for holding in holdings:
    if set(holding) & (set(hole) | set(board)):
      out.append(np.nan)
      continue
    rest = [c for c in deck if c not in holding]
    results = []
    for runout in itertools.combinations(rest, 5 - len(board)):
      mine = _eval7(list(hole) + list(board) + list(runout))
      theirs = _eval7(list(holding) + list(board) + list(runout))
      results.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    out.append(np.mean(results))
  return np.array(out)


@pytest.mark.parametrize("hole,board", [
    ("AhKh", "Qh7h2cTd"), ("7c7d", "7h2s9d"), ("5s4s", "AhKd3c9s8s")])
def test_checkdown_scores_exact(hole, board):
  hole, board = cards.parse_cards(hole), cards.parse_cards(board)
  rng = np.random.default_rng(0)
  everyone = cards.holdings(range(52))
  holdings = everyone[rng.choice(len(everyone), 6 if len(board) == 3 else 40,
                                 replace=False)]
  holdings = np.vstack([holdings, [sorted(hole)]])  # a clash: NaN
  np.testing.assert_allclose(
      hand_ranks.checkdown_scores(hole, board, holdings),
      _slow_scores(hole, board, holdings), atol=1e-12)


def test_checkdown_sampled_preflop():
  everyone = cards.holdings(range(52))
  aces = hand_ranks.checkdown_scores(cards.parse_cards("AhAd"), [], everyone,
                                     samples=3000, seed=1)
  # Pocket aces win ~85.2% against a random holding (a standard figure).
  assert abs(np.nanmean(aces) - 0.852) < 0.01
  with pytest.raises(ValueError, match="samples=0: 5 board cards are missing"):
    hand_ranks.checkdown_scores(cards.parse_cards("AhAd"), [], everyone)


def _ranked_scores(hole, board, holdings):
  """checkdown_scores by ranking every (run-out, holding) hand with
  rank_hands, no shortcut (the suitless ranks are checked against this)."""
  deck = [c for c in range(52) if c not in hole and c not in board]
  out = np.full(len(holdings), np.nan)
  runouts = list(itertools.combinations(deck, 5 - len(board)))
  for i, holding in enumerate(holdings):
    if set(holding) & (set(hole) | set(board)):
      continue
    fair = [r for r in runouts if not set(r) & set(holding)]
    mine = hand_ranks.rank_hands(np.array([[*hole, *board, *r] for r in fair]))
    theirs = hand_ranks.rank_hands(np.array([[*holding, *board, *r]
                                             for r in fair]))
    out[i] = np.mean((mine > theirs) + 0.5 * (mine == theirs))
  return out


@pytest.mark.parametrize("hole,board", [
    ("AhKh", "Qh7h2hTd"),  # three hearts on the turn, a fourth may come
    ("2c3d", "Qh7h2hTh"),  # four hearts: one heart in hand flushes
    ("5s4s", "AhKh3h9h8h"),  # five hearts on the board: everyone flushes
    ("9c9d", "9h9sKd5c"),  # quads and full houses, no flush suit
    ("AsKd", "Qs7s2h")])  # a flop: two spades, both may come
def test_checkdown_scores_against_every_holding(hole, board):
  """Every holding, including those that flush only with the run-out, for
  boards with 2 to 5 cards of one suit: the suitless-rank shortcut equals
  ranking every hand."""
  hole, board = cards.parse_cards(hole), cards.parse_cards(board)
  holdings = cards.holdings(range(52))
  if len(board) == 3:  # a flop's every run-out: a sample of holdings
    holdings = holdings[np.random.default_rng(1).choice(len(holdings), 60,
                                                        replace=False)]
  np.testing.assert_allclose(hand_ranks.checkdown_scores(hole, board,
                                                         holdings),
                             _ranked_scores(hole, board, holdings),
                             atol=1e-12)
