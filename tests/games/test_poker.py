"""Every bad game parameter fails at load_game, naming the parameter and value."""

import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel.games import nfsp_leduc
from nfsp_spiel.games import river_poker


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
    ("river_poker", {"pot": 0},
     r"pot=0: expected an integer from 1 to 2\^31 - 1 \(a C\+\+ int\)"),
    ("river_poker", {"bet": -1}, r"bet=-1: expected an integer from 1 to"),
    ("river_poker", {"max_bets": -1},
     r"max_bets=-1: expected an integer from 0 to 536870897"),
    ("river_poker", {"max_bets": 2**31 - 1},
     r"max_bets=2147483647: expected an integer from 0 to 536870897"),
    ("river_poker", {"min_rank": 15},
     r"min_rank=15: expected an integer from 2 to 14 \(10 T"),
    ("river_poker", {"min_rank": 12}, r"board='KhTc7d5sJh'.*min_rank=12"),
    ("river_poker", {"min_rank": 13, "board": "AhAdAcKhKd"},
     r"min_rank=13 with board='AhAdAcKhKd' leaves 3 cards.*need 4"),
    ("river_poker", {"range_weight": 0.5},
     r"range_weight=0.5: weighs range0/range1, and neither is given"),
    ("river_poker", {"range_weight": 0.5, "beliefs": "defined"},
     r"range_weight=0.5: weighs range0/range1"),
    ("river_poker", {"range0": "AA", "range1": "KK", "beliefs": "defined"},
     r"beliefs='defined': range0 and range1 are both given"),
    ("nfsp_leduc", {"ranks": 1}, r"ranks=1: expected an integer from 2 to 100"),
    ("nfsp_leduc", {"ranks": 101}, r"ranks=101: .* from 2 to 100"),
    ("nfsp_leduc", {"suits": 0}, r"suits=0: expected an integer from 1 to 4"),
    ("nfsp_leduc", {"suits": 5}, r"suits=5: .* from 1 to 4"),
    ("nfsp_leduc", {"ranks": 2, "suits": 1},
     r"ranks=2, suits=1: a deck of 2 cards.*at least 3"),
    ("nfsp_leduc", {"players": 3}, r"Unknown parameter 'players'"),
    ("nfsp_lhe", {"stack": 100}, r"Unknown parameter 'stack'"),
])
def test_bad_parameters_fail_at_load_game(name, params, match):
  with pytest.raises((ValueError, pyspiel.SpielError), match=match):
    pyspiel.load_game(name, params)


@pytest.mark.parametrize("game_class,name", [
    (river_poker.RiverPokerGame, "pot"),
    (river_poker.RiverPokerGame, "bet"),
    (river_poker.RiverPokerGame, "max_bets"),
    (river_poker.RiverPokerGame, "min_rank"),
    (nfsp_leduc.NfspLeducGame, "ranks"),
    (nfsp_leduc.NfspLeducGame, "suits"),
])
def test_integers_beyond_a_cpp_int(game_class, name):
  """OpenSpiel refuses 2^31 before a game sees it: pybind cannot cast it from
  a dict, the game-string parser fails on it. A game built directly from a
  dict refuses it by name (pybind's "Unable to cast" came from
  pyspiel.Game.__init__), and a value that is not an int likewise."""
  short_name = game_class({}).get_type().short_name
  with pytest.raises((RuntimeError, pyspiel.SpielError)):
    pyspiel.load_game(short_name, {name: 2**31})
  with pytest.raises((RuntimeError, pyspiel.SpielError)):
    pyspiel.load_game(f"{short_name}({name}={2**31})")
  for value in (2**31, 3.0, True):
    with pytest.raises(ValueError, match=(
        rf"{name}={value!r}: expected an integer from \d+ to \S+")):
      game_class({name: value})


def test_wrong_parameter_type():
  with pytest.raises(pyspiel.SpielError, match="min_rank"):
    pyspiel.load_game("river_poker(min_rank=Q)")


def test_observation_types_we_do_not_provide():
  game = pyspiel.load_game("nfsp_leduc")
  with pytest.raises(ValueError, match="only the perfect-recall information"):
    game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
