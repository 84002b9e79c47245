"""The situations of Limit Hold'em decisions (`evaluation.lhe_situations`)
that the thesis' figs. 6.7 and 6.8 pick: made hands, straight draws,
initiative, and the betting read off `nfsp_lhe`'s information state."""

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel.evaluation import lhe_situations
from nfsp_spiel.games.cards import parse_cards


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
def test_made_hand(hole, board, hand):
  assert lhe_situations.made_hand(parse_cards(hole),
                                  parse_cards(board)) == hand


@pytest.mark.parametrize("hole, board, draw", [
    ("9h8d", "7c6s2d", True),     # open-ended
    ("9h8d", "6c5s2d", True),     # gutshot (7 completes it)
    ("Ah2d", "3c4sKd", True),     # to the wheel
    ("9h8d", "7c6s5d", False),    # made already
    ("AhKd", "7c6s5d", False),    # the board's draw, not the hand's
    ("AhKd", "9c4s2d", False),
])
def test_straight_draw(hole, board, draw):
  assert lhe_situations.straight_draw(parse_cards(hole),
                                      parse_cards(board)) == draw


def test_initiative_follows_who_raised_last():
  # Player 1 acts first preflop, player 0 first after the flop.
  assert lhe_situations.has_initiative(["r"], 1)
  assert not lhe_situations.has_initiative(["r"], 0)
  assert lhe_situations.has_initiative(["rr"], 0)
  assert lhe_situations.has_initiative(["rc", "r"], 0)
  assert lhe_situations.has_initiative(["rc", "cr"], 1)
  assert lhe_situations.has_initiative(["rc", "crr"], 0)
  assert not lhe_situations.has_initiative(["cc"], 0)
  assert not lhe_situations.has_initiative(["cc"], 1)


def test_betting_is_read_per_round():
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
  rounds = lhe_situations.betting(state, 0)
  assert rounds == ["rc", "cr"]
  situation = _situation(rounds=tuple(rounds), round=1, hand="pair",
                         player=0)
  rule = dict((label[0], rule)
              for label, rule, _ in lhe_situations.GROUPS[0])["C"]
  assert rule(situation)


def _situation(**fields):
  """A `Situation` with `fields`, the others None."""
  return lhe_situations.Situation(**{
      **dict.fromkeys(lhe_situations.Situation._fields), **fields})


def test_sampled_situations_are_the_policys_decisions():
  game = pyspiel.load_game("nfsp_lhe")

  def uniform(state, player):
    del player
    legal = state.legal_actions()
    return {a: 1 / len(legal) for a in legal}

  uniform.action_probabilities = uniform
  found = lhe_situations.sample_situations(game, uniform, 20, seed=0)
  assert {player: len(situations) for player, situations in found.items()
          } == {0: 20, 1: 20}
  for player, situations in found.items():
    for s in situations:
      assert s.player == player and s.round == len(s.rounds) - 1
      assert s.hand == lhe_situations.made_hand(s.hole, s.board)
      assert s.probabilities.sum() == pytest.approx(1.0)
      assert 0 <= s.equity <= 1 and s.pot >= 1.5 / 2  # the blinds, big bets


def test_groups_and_features_measured_by_neighbours():
  """Two rounds apart on the map, a group that is all of its round: the
  neighbours name each round and find the group's members."""
  situations = [_situation(round=r, rounds=("rc",) * r + ("cr" if r else "c",),
                           initiative=False, pot=2.0 ** r,
                           probabilities=np.eye(3)[1 + (k % 2)],
                           hand="flush", equity=k / 10)
                for r in (0, 3) for k in range(10)]
  near = np.array([[(i + j) % 10 + 10 * (i // 10) for j in range(1, 4)]
                   for i in range(20)])
  rows = {row["feature"]: row for row in
          lhe_situations.measure_features(situations, near)}
  assert rows["round"]["score"] == 1.0 and rows["round"]["chance"] == 0.5
  assert rows["pot"]["score"] == pytest.approx(1.0)
  rows, members = lhe_situations.measure_groups(1, situations, near)
  flushes = dict(zip((row["group"][0] for row in rows), rows))["C"]
  # Flushes facing a check: the 10 round-0 states ("c" so far), all of it.
  assert flushes["members"] == 10 and flushes["share"] == 1.0
  assert flushes["enrichment"] == 1.0
  assert list(members["C: flushes facing a check"]) == list(range(10))
