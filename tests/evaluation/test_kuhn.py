"""Kuhn's equilibrium family and the distance to it."""

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib

from nfsp_spiel import evaluation


def test_family_members_are_equilibria_at_distance_zero():
  game = pyspiel.load_game("kuhn_poker")
  for alpha in (0.0, 0.2, 1 / 3):
    nash = evaluation.kuhn.equilibrium(game, alpha)
    assert evaluation.exploitability(game, nash) == pytest.approx(0, abs=1e-12)
    assert evaluation.kuhn.nash_mse(game, nash) == pytest.approx(0, abs=1e-9)
  uniform = policy_lib.UniformRandomPolicy(game)
  assert evaluation.kuhn.nash_mse(game, uniform) > 0.05
  with pytest.raises(ValueError, match="alpha=0.5"):
    evaluation.kuhn.equilibrium(game, 0.5)
  with pytest.raises(ValueError, match="needs kuhn_poker"):
    evaluation.kuhn.nash_mse(pyspiel.load_game("leduc_poker"), uniform)
