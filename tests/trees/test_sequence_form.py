"""The sequence form beyond two players (`NPlayerSequenceForm`): best
responses, values and NashConv against OpenSpiel's tree walks, and the
two-player form's values on a two-player game."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import expected_game_score
from open_spiel.python.algorithms import exploitability as py_exploitability

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.trees import sequence_form


@pytest.mark.parametrize("name", ["kuhn_poker(players=3)",
                                  "kuhn_poker(players=4)"])
def test_n_player_values_are_openspiels(name):
  """Best responses against the others' joint reach, on-policy values and
  NashConv of random profiles, against OpenSpiel's tree walks."""
  game = pyspiel.load_game(name)
  form = sequence_form.NPlayerSequenceForm(game)
  rng = np.random.default_rng(0)
  profile = [form.random_strategy(p, rng) for p in range(game.num_players())]
  tabular = form.to_tabular(profile)
  best, on_policy = form.values(profile)
  for p in range(game.num_players()):
    assert best[p] == pytest.approx(py_exploitability.best_response(
        game, tabular, p)["best_response_value"], abs=1e-12)
  np.testing.assert_allclose(on_policy, expected_game_score.policy_value(
      game.new_initial_state(), [tabular] * game.num_players()), atol=1e-12)
  assert evaluation.nash_conv(game, tabular) == pytest.approx(
      py_exploitability.nash_conv(game, tabular), abs=1e-12)


def test_n_player_form_of_a_two_player_game_is_the_two_player_form():
  """The product over opponents reduces to the opponent's reach: on Leduc
  both forms give the same values."""
  game = pyspiel.load_game("leduc_poker")
  general, two = sequence_form.NPlayerSequenceForm(game), (
      sequence_form.SequenceForm(game))
  rng = np.random.default_rng(2)
  profile = [two.random_strategy(p, rng) for p in (0, 1)]
  for got, expected in zip(general.values(profile), two.values(profile)):
    np.testing.assert_allclose(got, expected, atol=1e-12)
