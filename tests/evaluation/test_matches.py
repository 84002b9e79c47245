"""Duplicate head-to-head matches."""

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.evaluation import matches

import known_policies



def test_self_play_is_zero_within_its_standard_error():
  game = pyspiel.load_game("nfsp_leduc")
  uniform = policy_lib.UniformRandomPolicy(game)
  result = evaluation.head_to_head(game, uniform, uniform, num_deals=4000)
  assert abs(result.mean) < 3 * result.stderr
  assert result.mbb_per_hand == pytest.approx(1000 * result.mean)


def test_duplicate_replays_the_same_cards():
  game = pyspiel.load_game("nfsp_leduc")
  always_call = lambda state: {1: 1.0}  # noqa: E731
  # Two identical deterministic players: each deal's two games cancel.
  result = evaluation.head_to_head(game, always_call, always_call,
                                   num_deals=500)
  assert result.mean == 0.0 and result.stderr == 0.0


def test_equilibrium_beats_uniform_in_kuhn():
  game = pyspiel.load_game("kuhn_poker")
  equilibrium = known_policies.kuhn_equilibrium(game, 0.2)
  result = evaluation.head_to_head(game, equilibrium,
                                   policy_lib.UniformRandomPolicy(game),
                                   num_deals=20000, progress=False)
  assert result.mean > 3 * result.stderr
  # Against uniform, the equilibrium's value is known exactly.
  values = evaluation.best_response_values(
      game, [equilibrium, policy_lib.UniformRandomPolicy(game)]).on_policy
  swapped = evaluation.best_response_values(
      game, [policy_lib.UniformRandomPolicy(game), equilibrium]).on_policy
  expected = (values[0] + swapped[1]) / 2
  assert result.mean == pytest.approx(expected, abs=4 * result.stderr)


def test_bots_per_seat_and_units():
  game = pyspiel.load_game("river_poker")
  bots = {p: pyspiel.make_uniform_random_bot(p, 0) for p in (0, 1)}
  always_raise = lambda state: {max(state.legal_actions()): 1.0}  # noqa: E731
  result = evaluation.head_to_head(game, always_raise, bots, num_deals=300)
  assert result.mbb_per_hand == pytest.approx(1000 * result.mean / 0.5)
  assert evaluation.big_blind(pyspiel.load_game("nfsp_lhe")) == 10.0


@pytest.mark.parametrize("kwargs,match", [
    ({"num_deals": 0}, "at least one deal"),
])
def test_bad_matches(kwargs, match):
  game = pyspiel.load_game("kuhn_poker")
  uniform = policy_lib.UniformRandomPolicy(game)
  with pytest.raises(ValueError, match=match):
    evaluation.head_to_head(game, uniform, uniform, **kwargs)
  with pytest.raises(ValueError, match="made for one seat"):
    matches.head_to_head(game, uniform, pyspiel.make_uniform_random_bot(0, 0))
  with pytest.raises(ValueError, match="two-player"):
    three = pyspiel.load_game("kuhn_poker(players=3)")
    evaluation.head_to_head(three, uniform, uniform)


@pytest.mark.parametrize("bad,match", [
    ({0: 0.3, 1: 0.3}, r"probabilities sum to 0.6 at seat 0's state '\d'"),
    ({0: 0.5, 1: 0.25, 2: 0.25}, r"probability 0.25 to action 2 at seat 0"),
    ({0: 1.5, 1: -0.5}, r"probability -0.5 to action 1"),
])
def test_matches_refuse_malformed_policies(bad, match):
  """A policy's illegal action or a distribution that does not sum to 1
  stops a match (as it stops `exploitability`) instead of being played or
  renormalised."""
  game = pyspiel.load_game("kuhn_poker")
  uniform = policy_lib.UniformRandomPolicy(game)
  with pytest.raises(ValueError, match=match):
    evaluation.head_to_head(game, lambda state: bad, uniform, num_deals=3)
