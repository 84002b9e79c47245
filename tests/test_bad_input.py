"""Every bad game parameter fails at load_game, naming the parameter and value."""

import pyspiel
import pytest

import nfsp_spiel  # noqa: F401


@pytest.mark.parametrize("name,params,match", [
    ("river_poker", {"foo": 1}, r"Unknown parameter 'foo'"),
    ("river_poker", {"board": "KhKh7d5sJh"}, r"board='KhKh7d5sJh'.*twice"),
    ("river_poker", {"board": "KhTc7d5s"}, r"board='KhTc7d5s': expected 5"),
    ("river_poker", {"board": "KxTc7d5sJh"}, r"board='KxTc7d5sJh'.*suit"),
    ("river_poker", {"board": "KhTc7d5sJ"}, r"board='KhTc7d5sJ'.*two-letter"),
    ("river_poker", {"range0": "QQ-XX"}, r"range0: malformed range token"),
    ("river_poker", {"range1": " , "}, r"range1=' , ': empty range"),
    ("river_poker", {"range0": "KhTc"}, r"range0='KhTc': no holding"),
    ("river_poker", {"range0": "AhKd", "range1": "AhKc", "range_weight": 1.0},
     r"range0='AhKd', range1='AhKc'.*no pair of non-overlapping holdings"),
    ("river_poker", {"beliefs": "expert"}, r"beliefs='expert'.*'uniform' or"),
    ("river_poker", {"range_weight": 1.5}, r"range_weight=1.5.*\[0, 1\]"),
    ("river_poker", {"pot": 0}, r"pot=0.*positive"),
    ("river_poker", {"bet": -1}, r"bet=-1.*positive"),
    ("river_poker", {"max_bets": -1}, r"max_bets=-1"),
    ("river_poker", {"min_rank": 15}, r"min_rank=15.*from 2 to 14"),
    ("river_poker", {"min_rank": 12}, r"board='KhTc7d5sJh'.*min_rank=12"),
    ("river_poker", {"min_rank": 13, "board": "AhAdAcKhKd"},
     r"min_rank=13 with board='AhAdAcKhKd' leaves 3 cards.*need 4"),
    ("river_poker", {"range_weight": 0.5},
     r"range_weight=0.5: weighs range0/range1, and neither is given"),
    ("river_poker", {"range_weight": 0.5, "beliefs": "defined"},
     r"range_weight=0.5: weighs range0/range1"),
    ("river_poker", {"range0": "AA", "range1": "KK", "beliefs": "defined"},
     r"beliefs='defined': range0 and range1 are both given"),
    ("nfsp_leduc", {"ranks": 1}, r"ranks=1.*\[2, 100\]"),
    ("nfsp_leduc", {"ranks": 101}, r"ranks=101"),
    ("nfsp_leduc", {"suits": 0}, r"suits=0.*\[1, 4\]"),
    ("nfsp_leduc", {"suits": 5}, r"suits=5"),
    ("nfsp_leduc", {"ranks": 2, "suits": 1},
     r"ranks=2, suits=1: a deck of 2 cards.*at least 3"),
    ("nfsp_leduc", {"players": 3}, r"Unknown parameter 'players'"),
    ("nfsp_lhe", {"stack": 100}, r"Unknown parameter 'stack'"),
])
def test_bad_parameters_fail_at_load_game(name, params, match):
  with pytest.raises((ValueError, pyspiel.SpielError), match=match):
    pyspiel.load_game(name, params)


def test_wrong_parameter_type():
  with pytest.raises(pyspiel.SpielError, match="min_rank"):
    pyspiel.load_game("river_poker(min_rank=Q)")


def test_observation_types_we_do_not_provide():
  game = pyspiel.load_game("nfsp_leduc")
  with pytest.raises(ValueError, match="only the perfect-recall information"):
    game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
