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


@pytest.mark.parametrize("name", ["kuhn_poker", "kuhn_poker(players=3)"])
def test_tie_break_weighs_histories_by_openspiels_reach_to_the_bit(name):
  """The tie-breaker's one walk per game gives each of the responder's
  histories, per information state in depth-first order, the others' reach
  multiplied from the deepest move up: the floats a recursive walk makes."""
  game = pyspiel.load_game(name)
  form = (sequence_form.SequenceForm(game) if game.num_players() == 2
          else sequence_form.NPlayerSequenceForm(game))
  rng = np.random.default_rng(3)
  strategies = [form.random_strategy(p, rng)
                for p in range(game.num_players())]
  for player in range(game.num_players()):
    expected = {}

    def walk(state, path, player=player, expected=expected):
      if state.is_terminal():
        return
      actor = state.current_player()
      if actor == player:
        reach = 1.0
        for probability in reversed(path):
          reach = reach * probability
        expected.setdefault(form.row_of(
            player, state.information_state_string(player)), []).append(
                (state.history_str(), reach))
      if state.is_chance_node():
        moves = state.chance_outcomes()
      elif actor == player:
        moves = [(action, 1.0) for action in state.legal_actions()]
      else:
        probs = strategies[actor][form.row_of(
            actor, state.information_state_string(actor))]
        moves = [(action, probs[action]) for action in state.legal_actions()]
      for action, probability in moves:
        walk(state.child(action), path + [probability])

    walk(game.new_initial_state(), [])
    tie_walk = sequence_form._responder_walk(form, player)  # pylint: disable=protected-access
    reach = tie_walk.reach(strategies)
    got = {row: [(tie_walk.states[i].history_str(), reach[i]) for i in rows]
           for row, rows in tie_walk.rows.items()}
    assert got == expected  # exact float equality, in walk order
