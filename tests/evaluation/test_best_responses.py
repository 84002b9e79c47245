"""Exploitability, NashConv, best-response and seat values (`best_responses`)
against OpenSpiel and closed forms."""

import collections

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability as py_exploitability

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.evaluation import best_responses

import known_policies

TINY_RIVER = "river_poker(min_rank=12,board=QcQdKhAsKd)"   # 21 holdings
SMALL_RIVER = "river_poker(min_rank=11,board=JcQdKhAsJd)"  # 55 holdings


def test_kuhn_uniform_and_equilibria():
  game = pyspiel.load_game("kuhn_poker")
  uniform = policy_lib.UniformRandomPolicy(game)
  assert evaluation.exploitability(game, uniform) == pytest.approx(
      py_exploitability.exploitability(game, uniform), abs=1e-12)
  assert evaluation.exploitability(game, uniform) == pytest.approx(
      11 / 24, abs=1e-12)
  for alpha in (0.0, 0.1, 1 / 3):
    equilibrium = known_policies.kuhn_equilibrium(game, alpha)
    assert evaluation.exploitability(game, equilibrium) == pytest.approx(
        0.0, abs=1e-12)
    values = evaluation.best_response_values(game, equilibrium)
    np.testing.assert_allclose(values.on_policy, [-1 / 18, 1 / 18], atol=1e-12)


@pytest.mark.parametrize("name", ["leduc_poker", "nfsp_leduc"])
def test_leduc_matches_openspiel(name):
  game = pyspiel.load_game(name)
  reference = pyspiel.load_game("leduc_poker")
  uniform = policy_lib.UniformRandomPolicy(game)
  expected = py_exploitability.exploitability(
      reference, policy_lib.UniformRandomPolicy(reference))
  assert evaluation.exploitability(game, uniform) == pytest.approx(
      expected, abs=1e-12)
  assert evaluation.nash_conv(game, uniform) == pytest.approx(
      2 * expected, abs=1e-12)
  random_policy = known_policies.random_tabular(game, seed=3)
  assert evaluation.exploitability(game, random_policy) == pytest.approx(
      py_exploitability.exploitability(game, random_policy), abs=1e-9)


@pytest.mark.parametrize("name,seed", [
    (TINY_RIVER, 0), (TINY_RIVER, 1), (SMALL_RIVER, 0),
    ("river_poker(min_rank=12,board=QcQdKhAsKd,max_bets=3,pot=4,bet=2)", 2),
    ("river_poker(min_rank=12,board=QcQdKhAsKd,range0=AA KK,range1=AK QQ,"
     "range_weight=0.9)", 3),
    ("river_poker(min_rank=12,board=QcQdKhAsKd,range0=AA AQ,range1=AK Q2+,"
     "range_weight=1.0)", 4),  # holdings outside the ranges never dealt
])
def test_river_best_response_equals_openspiel(name, seed):
  game = pyspiel.load_game(name)
  profile = known_policies.random_tabular(game, seed)
  ours = evaluation.best_response_values(game, profile)
  result = py_exploitability.nash_conv(game, profile,
                                       return_only_nash_conv=False)
  nash_conv = float(np.sum(result.player_improvements))
  assert evaluation.nash_conv(game, profile) == pytest.approx(nash_conv,
                                                              abs=1e-9)
  table = {key: [(a, p) for a, p in enumerate(
      profile.action_probability_array[i]) if profile.legal_actions_mask[i][a]]
           for key, i in profile.state_lookup.items()}
  for player in (0, 1):
    cpp = pyspiel.TabularBestResponse(game, player, table)
    assert ours.best_response[player] == pytest.approx(
        cpp.value_from_state(game.new_initial_state()), abs=1e-9)
  np.testing.assert_allclose(
      ours.on_policy, pyspiel.expected_returns(
          game.new_initial_state(), pyspiel.TabularPolicy(table), -1, True),
      atol=1e-9)


def _brute_force_best_response(game, profile, player):
  """Best-response value by plain enumeration of deals and information states."""
  # Sums the reach-weighted returns below each (information state, action) of
  # `player` over all deals, then maximises from the root down.
  children = collections.defaultdict(set)  # parent -> information states
  actions_of = {}
  terminal_value = collections.defaultdict(float)

  def walk(state, reach, parent):
    if state.is_terminal():
      terminal_value[parent] += reach * state.returns()[player]
      return
    if state.is_chance_node():
      for action, p in state.chance_outcomes():
        walk(state.child(action), reach * p, parent)
      return
    actor = state.current_player()
    if actor == player:
      key = state.information_state_string(player)
      children[parent].add(key)
      actions_of[key] = state.legal_actions()
      for action in state.legal_actions():
        walk(state.child(action), reach, (key, action))
    else:
      probs = profile.action_probabilities(state, actor)
      for action in state.legal_actions():
        walk(state.child(action), reach * probs[action], parent)

  walk(game.new_initial_state(), 1.0, None)

  def value(parent):
    return terminal_value[parent] + sum(
        max(value((key, a)) for a in actions_of[key])
        for key in children[parent])

  return value(None)


def test_river_best_response_equals_brute_force():
  game = pyspiel.load_game(TINY_RIVER)
  profile = known_policies.random_tabular(game, seed=7)
  ours = evaluation.best_response_values(game, profile)
  for player in (0, 1):
    assert ours.best_response[player] == pytest.approx(
        _brute_force_best_response(game, profile, player), abs=1e-12)


def test_full_river_poker_exploitability():
  game = pyspiel.load_game("river_poker(beliefs=defined)")
  uniform = policy_lib.UniformRandomPolicy(game)
  tabular = evaluation.public_tree_tabular(game, uniform)
  assert len(tabular.state_lookup) == 2 * 2 * 1081
  assert evaluation.exploitability(game, tabular) == pytest.approx(
      evaluation.exploitability(game, uniform), abs=1e-12)
  # The uniform policy is very exploitable; an always-call policy less so.
  always_call = evaluation.as_policy(game, lambda state: {1: 1.0})
  assert 0 < evaluation.exploitability(game, always_call) < \
      evaluation.exploitability(game, uniform)


def test_intractable_games_are_refused():
  game = pyspiel.load_game("nfsp_lhe")
  with pytest.raises(ValueError, match="head_to_head"):
    evaluation.exploitability(game, policy_lib.UniformRandomPolicy(game))


@pytest.mark.slow  # tabulating Tic-Tac-Toe's 294,778 states takes ~30 s
def test_seat_values_of_random_tic_tac_toe_are_known():
  """Random against random, the first player wins about 58.5% of games and
  loses about 28.8%: it expects exactly 187/630, the second seat -187/630."""
  game = pyspiel.load_game("tic_tac_toe")
  values = evaluation.seat_values(game, policy_lib.UniformRandomPolicy(game))
  np.testing.assert_allclose(values, [187 / 630, -187 / 630], atol=1e-12)


def test_seat_values_against_a_fixed_opponent_equal_openspiels_walk():
  """Kuhn: an always-bet policy's value in each seat against always-pass,
  against OpenSpiel's Python expected_game_score (another walk)."""
  from open_spiel.python.algorithms import expected_game_score  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("kuhn_poker")
  bet, check = (policy_lib.TabularPolicy(game) for _ in range(2))
  bet.action_probability_array[:] = [0.0, 1.0]
  check.action_probability_array[:] = [1.0, 0.0]
  values = evaluation.seat_values(game, bet, opponent=check)
  root = game.new_initial_state()
  expected = [expected_game_score.policy_value(root, [bet, check])[0],
              expected_game_score.policy_value(root, [check, bet])[1]]
  np.testing.assert_allclose(values, expected, atol=1e-12)
  assert values[0] == pytest.approx(1.0)  # bet, the opponent always folds


def _xfp_average(game, iterations):
  """XFP's average after `iterations` (a trained profile) as a plain table,
  without the compiled form XFP's tables carry."""
  from nfsp_spiel.fictitious_play import xfp  # pylint: disable=import-outside-toplevel
  solver = xfp.XFPSolver(game)
  for _ in range(iterations):
    solver.iteration()
  table = solver.average_policy()
  del table.sequence_form
  return table


def _profiles(game):
  """Uniform, random tables, a per-player profile of them and XFP's average
  after ten iterations, each as `nash_conv` takes it."""
  tables = [known_policies.random_tabular(game, seed)
            for seed in range(game.num_players())]
  return [policy_lib.UniformRandomPolicy(game), *tables, tables,
          _xfp_average(game, 10)]


@pytest.mark.parametrize("name", ["kuhn_poker(players=3)",
                                  "kuhn_poker(players=4)"])
def test_nash_conv_beyond_two_players_is_openspiels(name):
  """Beyond two players the best responses and values come from the game's
  `NPlayerSequenceForm` arrays: equal to OpenSpiel's tree walks."""
  game = pyspiel.load_game(name)
  for profile in _profiles(game):
    result = py_exploitability.nash_conv(
        game, evaluation.as_policy(game, profile), return_only_nash_conv=False)
    values = evaluation.best_response_values(game, profile)
    np.testing.assert_allclose(
        values.best_response - values.on_policy, result.player_improvements,
        atol=1e-9)
    assert evaluation.nash_conv(game, profile) == pytest.approx(
        result.nash_conv, abs=1e-9)


def test_nash_conv_beyond_two_players_walks_no_tree(monkeypatch):
  """Tables are read into the arrays: OpenSpiel's Python best response and
  the re-tabulation of a table (seconds on three-player Leduc) are unused."""
  game = pyspiel.load_game("kuhn_poker(players=3)")
  profile = known_policies.random_tabular(game, 0)
  expected = evaluation.nash_conv(game, profile)

  def refuse(*args, **kwargs):
    raise AssertionError("walked the tree")
  monkeypatch.setattr(best_responses.py_best_response, "BestResponsePolicy",
                      refuse)
  monkeypatch.setattr(best_responses.policies, "as_tabular", refuse)
  assert evaluation.nash_conv(game, profile) == expected
  assert evaluation.nash_conv(game, [profile] * 3) == expected


def test_a_malformed_table_beyond_two_players_is_named():
  game = pyspiel.load_game("kuhn_poker(players=3)")
  profile = policy_lib.TabularPolicy(game)
  row = profile.state_lookup["1pb"]
  profile.action_probability_array[row] = [0.7, 0.7]
  with pytest.raises(ValueError, match="sum to 1.4 at 1pb"):
    evaluation.nash_conv(game, profile)


@pytest.mark.slow
def test_nash_conv_on_three_player_leduc_is_openspiels():
  """Three-player Leduc (1.8M histories), where OpenSpiel's tree walks take
  minutes a profile (`benchmarks/nash_conv_vs_openspiel.py`): one random
  profile (the Kuhn tests cover trained ones; each Leduc profile costs CI
  five to ten minutes)."""
  game = pyspiel.load_game("leduc_poker(players=3)")
  profile = known_policies.random_tabular(game, 0)
  assert evaluation.nash_conv(game, profile) == pytest.approx(
      py_exploitability.nash_conv(game, profile), abs=1e-9)
