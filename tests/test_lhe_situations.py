"""The game situations that docs/figures/fig_nfsp_lhe_tsne.py picks for the
thesis' figs. 6.7 and 6.8: made hands, straight draws, initiative, and the
betting read off `nfsp_lhe`'s information state."""

import importlib.util
import os
import sys

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel.games.cards import parse_cards

FIGURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "docs",
                       "figures")


@pytest.fixture(scope="module")
def tsne():
  sys.path.insert(0, FIGURES)
  try:
    spec = importlib.util.spec_from_file_location(
        "fig_nfsp_lhe_tsne", os.path.join(FIGURES, "fig_nfsp_lhe_tsne.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
  finally:
    sys.path.remove(FIGURES)
  return module


@pytest.mark.parametrize("hole, board, hand", [
    ("AhKd", "", "high card"),
    ("7h7d", "", "pair"),
    ("AhKd", "Kc9s2d", "pair"),
    ("AhQd", "9c9s2d", "board pair"),
    ("AhKd", "AcKs2d", "two pair or better"),
    ("7h7d", "7c2s3d", "two pair or better"),
    ("AhKd", "QcJsTd", "straight"),
    ("Ah2d", "3c4s5d", "straight"),  # the wheel: the ace plays low
    ("AhKh", "2h7h9h", "flush"),
    ("AhKh", "2h7h9c5d", "high card"),
])
def test_made_hand(tsne, hole, board, hand):
  assert tsne.made_hand(parse_cards(hole), parse_cards(board)) == hand


@pytest.mark.parametrize("hole, board, draw", [
    ("9h8d", "7c6s2d", True),     # open-ended
    ("9h8d", "6c5s2d", True),     # gutshot (7 completes it)
    ("Ah2d", "3c4sKd", True),     # to the wheel
    ("9h8d", "7c6s5d", False),    # made already
    ("AhKd", "7c6s5d", False),    # the board's draw, not the hand's
    ("AhKd", "9c4s2d", False),
])
def test_straight_draw(tsne, hole, board, draw):
  assert tsne.straight_draw(parse_cards(hole), parse_cards(board)) == draw


def test_initiative_follows_who_raised_last(tsne):
  # Player 1 acts first preflop, player 0 first after the flop.
  assert tsne.has_initiative(["r"], 1)
  assert not tsne.has_initiative(["r"], 0)
  assert tsne.has_initiative(["rr"], 0)
  assert tsne.has_initiative(["rc", "r"], 0)
  assert tsne.has_initiative(["rc", "cr"], 1)
  assert tsne.has_initiative(["rc", "crr"], 0)
  assert not tsne.has_initiative(["cc"], 0)
  assert not tsne.has_initiative(["cc"], 1)


def test_betting_is_read_per_round(tsne):
  game = pyspiel.load_game("nfsp_lhe")
  state = game.new_initial_state()
  for _ in range(4):  # the hole cards
    state.apply_action(state.legal_actions()[0])
  for action in (2, 1):  # small blind raises, big blind calls
    state.apply_action(action)
  for _ in range(3):  # the flop
    state.apply_action(state.legal_actions()[0])
  state.apply_action(1)  # big blind checks
  state.apply_action(2)  # small blind bets
  assert state.current_player() == 0
  rounds = tsne.betting(state, 0)
  assert rounds == ["rc", "cr"]
  situation = dict(rounds=tuple(rounds), round=1, hand="pair", player=0)
  rule = dict((label[0], rule) for label, rule, _ in tsne.GROUPS[0])["C"]
  assert rule(tsne.Situation(**{**dict.fromkeys(tsne.Situation._fields),
                                **situation}))


def test_neighbour_measures_tell_clusters_from_noise(tsne):
  rng = np.random.default_rng(0)
  # Two clusters far apart, labelled by cluster: every neighbour agrees.
  points = np.concatenate([rng.normal(0, 1, (200, 2)),
                           rng.normal(50, 1, (50, 2))])
  labels = np.array([0] * 200 + [1] * 50)
  near = tsne.neighbours(points)
  assert tsne.majority_score(labels, near) == (1.0, 0.5)
  # Labels that ignore the map: the balanced accuracy stays near chance
  # although the majority value alone would be right 80% of the time.
  score, chance = tsne.majority_score(rng.permutation(labels), near)
  assert abs(score - chance) < 0.1
  assert tsne.rank_correlation(np.arange(10.0), np.arange(10.0) ** 2) == (
      pytest.approx(1.0))


def test_neighbours_and_ranks_match_brute_force(tsne):
  rng = np.random.default_rng(1)
  points = rng.normal(size=(300, 2))
  distances = ((points[:, None] - points[None]) ** 2).sum(-1)
  np.fill_diagonal(distances, np.inf)
  np.testing.assert_array_equal(tsne.neighbours(points, k=5, chunk=64),
                                np.argsort(distances, 1)[:, :5])
  # Ties share their mean rank (Spearman's convention).
  np.testing.assert_array_equal(tsne._ranks([3.0, 1.0, 3.0, 2.0]),
                                [2.5, 0.0, 2.5, 1.0])
  assert tsne.rank_correlation([1, 2, 3, 4], [4, 3, 2, 1]) == (
      pytest.approx(-1.0))
