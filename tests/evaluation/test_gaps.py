"""Best-response quality (thesis eq. 5.2) and strategy distance."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import best_response as py_best_response

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation


@pytest.mark.parametrize("name", ["kuhn_poker", "nfsp_leduc",
                                  "river_poker(min_rank=12,board=QcQdKhAsKd)"])
def test_exact_best_responses_have_quality_zero(name):
  game = pyspiel.load_game(name)
  average = policy_lib.UniformRandomPolicy(game)
  exact = [py_best_response.BestResponsePolicy(game, p, average)
           for p in (0, 1)]
  assert evaluation.best_response_quality(game, average, exact) == \
      pytest.approx(0.0, abs=1e-9)


def test_quality_of_a_poor_best_response():
  game = pyspiel.load_game("kuhn_poker")
  average = policy_lib.UniformRandomPolicy(game)
  # Playing the average itself as the "best response" loses exactly the
  # NashConv / 2 of the average: eq. 5.2 equals the exploitability then.
  quality = evaluation.best_response_quality(game, average, [average, average])
  assert quality == pytest.approx(evaluation.exploitability(game, average),
                                  abs=1e-12)
  assert quality > 0.4


def test_strategy_distance():
  game = pyspiel.load_game("kuhn_poker")
  uniform = policy_lib.UniformRandomPolicy(game)
  always_pass = lambda state: {0: 1.0}  # noqa: E731
  assert evaluation.strategy_distance(game, uniform, uniform) == 0.0
  # 12 information states, each at squared distance 0.5^2 + 0.5^2.
  assert evaluation.strategy_distance(game, uniform, always_pass) == \
      pytest.approx(12 * 0.5)
  assert evaluation.strategy_distance(game, uniform, always_pass,
                                      reduce="mean") == pytest.approx(0.5)
  with pytest.raises(ValueError, match="reduce='max'"):
    evaluation.strategy_distance(game, uniform, uniform, reduce="max")


def test_strategy_distance_on_full_river_poker():
  game = pyspiel.load_game("river_poker")
  uniform = policy_lib.UniformRandomPolicy(game)
  always_call = lambda state: {1: 1.0}  # noqa: E731
  # Every one of the 4324 information states has two legal actions (check or
  # bet; fold or call): squared distance 0.5^2 + 0.5^2.
  assert evaluation.strategy_distance(game, uniform, always_call) == \
      pytest.approx(4324 * 0.5)


def test_best_response_gaps_per_player():
  """Player 0 plays an exact best response, player 1 the average itself:
  the gaps are 0 and player 1's best-response value minus its on-policy
  value; their mean is eq. 5.2."""
  game = pyspiel.load_game("kuhn_poker")
  average = policy_lib.UniformRandomPolicy(game)
  exact = py_best_response.BestResponsePolicy(game, 0, average)
  gaps = evaluation.best_response_gaps(game, average, [exact, average])
  values = evaluation.best_response_values(game, average)
  assert gaps[0] == pytest.approx(0.0, abs=1e-9)
  assert gaps[1] == pytest.approx(values.best_response[1] -
                                  values.on_policy[1], abs=1e-12)
  assert gaps[1] > 0.1
  assert evaluation.best_response_quality(game, average, [exact, average]) \
      == pytest.approx(sum(gaps) / 2)


def _random_tabular(game, seed):
  """A tabular policy with random action distributions everywhere."""
  tabular = policy_lib.TabularPolicy(game)
  rng = np.random.default_rng(seed)
  probs = rng.random(tabular.action_probability_array.shape) ** 3
  probs *= tabular.legal_actions_mask
  tabular.action_probability_array = probs / probs.sum(axis=1, keepdims=True)
  return tabular


@pytest.mark.parametrize("name", ["kuhn_poker", "nfsp_leduc"])
@pytest.mark.parametrize("player", [0, 1])
def test_gap_by_state_adds_up_to_the_gap(name, player):
  """The per-state terms are non-negative and sum to the player's gap as
  `best_response_gaps` computes it (on nfsp_leduc through the vectorised
  public tree, an independent computation)."""
  game = pyspiel.load_game(name)
  average, learned = _random_tabular(game, 1), _random_tabular(game, 2)
  terms = evaluation.best_response_gap_by_state(game, average, learned,
                                                player)
  gap = evaluation.best_response_gaps(game, average,
                                      {player: learned})[0]
  assert gap > 0.05
  assert sum(t.gap for t in terms) == pytest.approx(gap, abs=1e-9)
  assert min(t.gap for t in terms) >= -1e-12
  assert [t.gap for t in terms] == sorted((t.gap for t in terms),
                                          reverse=True)
  assert len({t.information_state for t in terms}) == len(terms)


def test_gap_by_state_names_the_one_wrong_state():
  """A best response wrong at one information state only: that state holds
  the whole gap, with its reach and the action values that show why."""
  game = pyspiel.load_game("kuhn_poker")
  average = policy_lib.UniformRandomPolicy(game)
  exact = py_best_response.BestResponsePolicy(game, 0, average)
  # Player 0 holds the jack, first to act: against uniform play a bluff
  # (-1/2) beats passing (-1); the wrong best response passes there.
  jack = "0"
  wrong = lambda state: ({0: 1.0} if state.information_state_string(0) == jack
                         else {exact.best_response_action(
                             state.information_state_string(0)): 1.0})  # noqa: E731
  terms = evaluation.best_response_gap_by_state(game, average, wrong, 0)
  gap = evaluation.best_response_gaps(game, average, {0: wrong})[0]
  assert terms[0].information_state == jack
  assert terms[0].action_values == pytest.approx({0: -1.0, 1: -0.5})
  assert terms[0].gap == pytest.approx(gap) == pytest.approx(0.5 / 3)
  assert terms[0].reach == pytest.approx(1 / 3)
  values = terms[0].action_values
  assert terms[0].gap == pytest.approx((max(values.values()) - values[0]) / 3)
  assert all(t.gap == pytest.approx(0.0, abs=1e-12) for t in terms[1:])
