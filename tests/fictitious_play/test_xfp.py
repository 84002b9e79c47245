"""XFP, Hendon's fictitious play and GFP on compiled games."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import expected_game_score
from open_spiel.python.algorithms import exploitability as py_exploitability
from open_spiel.python.algorithms import fictitious_play
from open_spiel.python.algorithms import get_all_states

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.trees import sequence_form
from nfsp_spiel.fictitious_play import xfp


def test_kuhn_converges_to_the_nash_family():
  game = pyspiel.load_game("kuhn_poker")
  solver = xfp.XFPSolver(game)
  for _ in range(1000):
    solver.iteration()
  # Measured: 0.0067 after 1000 iterations (0.022 after 100), and a mean
  # squared error of 1.5e-4 to the closest equilibrium (9.7e-4 after 100).
  assert solver.exploitability() < 0.008
  assert evaluation.kuhn.nash_mse(game, solver.average_policy()) < 2e-4
  # The exploitability agrees with OpenSpiel's tool on the same policy.
  assert solver.exploitability() == pytest.approx(
      py_exploitability.exploitability(game, solver.average_policy()),
      abs=1e-12)


def test_update_is_realization_equivalent_to_mixing():
  """Thm. 7: x_new = (1 - a) x_pi + a x_beta for every sequence (brute force)."""
  game = pyspiel.load_game("leduc_poker")
  solver = xfp.XFPSolver(game, initial_strategy="random", seed=1)
  form = solver.form
  for _ in range(5):
    old = [s.copy() for s in solver.strategies]
    responses = [r for _, r in solver.exact_best_responses()]
    solver.iteration()
    alpha = 1.0 / (solver.iterations + 1)
    for p in (0, 1):
      np.testing.assert_allclose(
          form.reach(p, solver.strategies[p]),
          (1 - alpha) * form.reach(p, old[p]) +
          alpha * form.reach(p, responses[p]), atol=1e-12)


def _tabular_arrays(form, tabular_callable, player):
  """A callable policy's probabilities as `form`'s strategy array."""
  probs = np.zeros(form.legal[player].shape)
  for row, state in enumerate(form.states[player]):
    for action, p in tabular_callable(state):
      probs[row, action] = p
  return probs


def test_same_update_as_openspiel_given_the_same_best_responses():
  """Our eq. 4.3 update of OpenSpiel's average towards OpenSpiel's best
  responses gives OpenSpiel's next average to the bit."""
  game = pyspiel.load_game("kuhn_poker")
  theirs = fictitious_play.XFPSolver(game)
  form = sequence_form.SequenceForm(game)
  for _ in range(30):
    before = [_tabular_arrays(form, theirs._policies[p], p) for p in (0, 1)]  # pylint: disable=protected-access
    theirs.iteration()
    alpha = 1.0 / (theirs._iterations + 1)  # pylint: disable=protected-access
    for p in (0, 1):
      response = _tabular_arrays(form, theirs._best_responses[p], p)  # pylint: disable=protected-access
      ours = xfp.realization_weighted_update(
          alpha, before[p], response, form.infoset_reach(p, before[p]),
          form.infoset_reach(p, response))
      np.testing.assert_array_equal(
          ours, _tabular_arrays(form, theirs._policies[p], p))  # pylint: disable=protected-access
      # The stepsize form is the same update up to rounding.
      step = xfp.realization_weighted_step(
          alpha, form.infoset_reach(p, before[p]),
          form.infoset_reach(p, response))
      np.testing.assert_allclose(
          ours, before[p] + step[:, None] * (response - before[p]),
          atol=1e-15)


def test_variants_differ_where_they_should():
  game = pyspiel.load_game("leduc_poker")
  runs = {rule: xfp.XFPSolver(game, stepsize=rule) for rule in
          xfp.STEPSIZE_RULES}
  for solver in runs.values():
    solver.iteration()
  form = runs["xfp"].form
  start = form.uniform(0)
  response = xfp.XFPSolver(game).exact_best_responses()[0][1]
  unreached = form.infoset_reach(0, response) == 0
  # XFP leaves states its best response never reaches; Hendon's unweighted
  # update moves every state by 1/2 towards the best response.
  np.testing.assert_allclose(runs["xfp"].strategies[0][unreached],
                             start[unreached])
  np.testing.assert_allclose(runs["hendon"].strategies[0],
                             start + 0.5 * (response - start))
  # GFP's local stepsize is at least alpha at every state (eq. B.5) and so
  # moves states XFP leaves alone.
  moved = np.abs(runs["gfp"].strategies[0] - start).sum(1)
  towards = np.abs(response - start).sum(1)
  assert np.all(moved >= 0.5 * towards - 1e-12)
  assert np.any(moved[unreached] > 0)
  for rule in ("hendon", "gfp"):
    assert not np.allclose(runs[rule].strategies[0], runs["xfp"].strategies[0])


def _sequence_paths(form, player):
  """For every sequence id, its list of (information state, action)."""
  owner = {int(form.sequence[player][row, action]): (row, action)
           for row, action in np.argwhere(form.sequence[player] >= 0)}
  paths = {0: []}
  for sequence in sorted(owner):
    row, action = owner[sequence]
    paths[sequence] = paths[int(form.parent_sequence[player][row])] + [
        (row, action)]
  return paths


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_gfp_is_the_switching_process(name):
  """App. B: GFP's update (eq. B.3/B.4) is realization-equivalent to playing
  the average and, before each own move, switching to the best response for
  the rest of the game with probability alpha. Brute force over sequences:
  x_new(sigma) = (1-a)^L x_pi(sigma) + sum_j a (1-a)^j x_pi(sigma[:j])
  x_beta(sigma[j:])."""
  game = pyspiel.load_game(name)
  form = sequence_form.SequenceForm(game)
  rng = np.random.default_rng(0)
  for player in (0, 1):
    average = form.random_strategy(player, rng)
    response = form.best_response(
        player, form.random_strategy(1 - player, rng))[1]
    alpha = 0.3
    x_new = form.reach(player, xfp.gfp_update(form, player, average, response,
                                              alpha))
    for sequence, path in _sequence_paths(form, player).items():
      pi = [average[row, action] for row, action in path]
      beta = [response[row, action] for row, action in path]
      length = len(path)
      expected = (1 - alpha) ** length * np.prod(pi) + sum(
          alpha * (1 - alpha) ** j * np.prod(pi[:j]) * np.prod(beta[j:])
          for j in range(length))
      assert x_new[sequence] == pytest.approx(expected, abs=1e-12)


def test_compiled_tree_reproduces_openspiel_counts():
  for name, infostates in (("kuhn_poker", 12), ("leduc_poker", 936)):
    game = pyspiel.load_game(name)
    form = sequence_form.SequenceForm(game)
    states = get_all_states.get_all_states(game, include_terminals=True,
                                           include_chance_states=True)
    assert form.num_states == len(states)
    assert len(form.keys[0]) + len(form.keys[1]) == infostates
    assert len(policy_lib.TabularPolicy(game).state_lookup) == infostates


def test_noisy_best_responses_and_random_initialisation():
  game = pyspiel.load_game("kuhn_poker")
  clean = xfp.XFPSolver(game, initial_strategy="random", seed=3)
  noisy = xfp.XFPSolver(game, initial_strategy="random", seed=3,
                        best_response_noise=0.3)
  again = xfp.XFPSolver(game, initial_strategy="random", seed=3,
                        best_response_noise=0.3)
  np.testing.assert_array_equal(clean.strategies[0], noisy.strategies[0])
  for _ in range(300):
    for solver in (clean, noisy, again):
      solver.iteration()
  np.testing.assert_array_equal(noisy.strategies[0], again.strategies[0])
  assert noisy.exploitability() > clean.exploitability()
  assert noisy.exploitability() < 0.2  # still learning (thesis fig. 4.7)


def test_average_policy_is_an_openspiel_tabular_policy():
  game = pyspiel.load_game("nfsp_leduc")
  solver = xfp.XFPSolver(game)
  for _ in range(20):
    solver.iteration()
  average = solver.average_policy()
  assert isinstance(average, policy_lib.TabularPolicy)
  # Evaluated on arrays through the evaluation module, and by OpenSpiel.
  assert evaluation.exploitability(game, average) == pytest.approx(
      py_exploitability.exploitability(game, average), abs=1e-12)


def test_checkpoint_round_trip(tmp_path):
  game = pyspiel.load_game("kuhn_poker")
  solver = xfp.XFPSolver(game, initial_strategy="random", seed=2)
  for _ in range(10):
    solver.iteration()
  path = solver.save(tmp_path / "xfp.npz")
  with pytest.raises(ValueError, match="initial_strategy: 'random' there, "
                     "'uniform' here, seed: 2 there, 0 here"):
    xfp.XFPSolver.restore(game, path)
  resumed = xfp.XFPSolver.restore(game, path, initial_strategy="random",
                                  seed=2)
  for _ in range(10):
    solver.iteration()
    resumed.iteration()
  assert resumed.iterations == 20
  np.testing.assert_array_equal(solver.strategies[0], resumed.strategies[0])
  with pytest.raises(FileNotFoundError, match="no checkpoint at"):
    xfp.XFPSolver.restore(game, tmp_path / "missing.npz")
  with pytest.raises(ValueError, match="holds XFP on kuhn_poker"):
    xfp.XFPSolver.restore(pyspiel.load_game("leduc_poker"), path)


@pytest.mark.parametrize("name,match", [
    ("goofspiel(players=3,num_cards=3)", "XFPSolver needs a sequential game "
     "with information-state strings; .* has dynamics .*SIMULTANEOUS"),
    ("matrix_rps", "dynamics"),
    ("matrix_pd", "utility"),
])
def test_bad_games(name, match):
  with pytest.raises(ValueError, match=match):
    xfp.XFPSolver(pyspiel.load_game(name))


@pytest.mark.parametrize("kwargs,match", [
    ({"stepsize": "cfr"}, "stepsize='cfr'"),
    ({"alpha": 1.5}, "alpha=1.5"),
    ({"initial_strategy": "zeros"}, "initial_strategy='zeros'"),
    ({"best_response_noise": -0.1}, "best_response_noise=-0.1"),
])
def test_bad_config(kwargs, match):
  with pytest.raises(ValueError, match=match):
    xfp.XFPConfig(**kwargs)


def test_xfp_counts_the_papers_work_per_iteration():
  """Two best responses over every state, an update of every information
  state: Leduc's 9457 states and 936 information states per iteration."""
  solver = xfp.XFPSolver(pyspiel.load_game("leduc_poker"))
  for _ in range(3):
    solver.iteration()
  assert solver.state_visits == 3 * (2 * 9457 + 936)


def test_sixty_card_leduc_and_river_poker_compile_small():
  game = pyspiel.load_game("nfsp_leduc(ranks=30)")
  solver = xfp.XFPSolver(game)
  # 3 + 15 * 60 public decision nodes per player, times 60 cards.
  assert solver.form.legal[0].shape == ((3 + 15 * 60) * 60, 3)
  first = solver.exploitability()
  for _ in range(5):
    solver.iteration()
  assert solver.exploitability() < first
  river = xfp.XFPSolver(pyspiel.load_game("river_poker(beliefs=defined)"))
  for _ in range(100):
    river.iteration()
  assert river.exploitability() < 0.02  # measured 0.0172 after 100


def test_light_policy_agrees_with_the_tabular_one():
  game = pyspiel.load_game("nfsp_leduc")
  solver = xfp.XFPSolver(game, initial_strategy="random", seed=4)
  for _ in range(5):
    solver.iteration()
  light, tabular = solver.policy(), solver.average_policy()
  for key, row in tabular.state_lookup.items():
    state = tabular.states[row]
    probs = light.action_probabilities(state)
    for action, p in probs.items():
      assert p == pytest.approx(tabular.action_probability_array[row][action])
  assert evaluation.exploitability(game, light) == pytest.approx(
      py_exploitability.exploitability(game, tabular), abs=1e-12)


def _largest_difference(tables, other):
  return max(abs(probs[a] - other[p][key][a]) for p, table in enumerate(tables)
             for key, probs in table.items() for a in probs)


@pytest.mark.parametrize("name,iterations", [
    ("kuhn_poker", 50),
    pytest.param("leduc_poker", 20, marks=pytest.mark.slow),  # Kuhn's stays
    ("kuhn_poker(players=3)", 50),
    # 1.8M histories: OpenSpiel's solver takes minutes an iteration.
    pytest.param("leduc_poker(players=3)", 2, marks=pytest.mark.slow)])
def test_average_policy_tables_match_openspiels_xfp(name, iterations):
  """OpenSpiel's fictitious_play.XFPSolver, iteration by iteration, ties
  included: on Kuhn, OpenSpiel's best response bets with the Queen at
  iterations 3 to 5, where its sums put betting 2.8e-17 above passing (both
  -1/18); taking the lowest tied action instead parts by 0.25 there. With
  three players each best response is to the product of the other two's
  reach, and NashConv is the measure."""
  game = pyspiel.load_game(name)
  ours, theirs = xfp.XFPSolver(game), fictitious_play.XFPSolver(game)
  for _ in range(iterations):
    ours.iteration()
    theirs.iteration()
    tables = theirs.average_policy_tables()
    assert [t.keys() for t in ours.average_policy_tables()] == [
        t.keys() for t in tables]
    assert _largest_difference(ours.average_policy_tables(), tables) < 1e-12
  assert ours.nash_conv() == pytest.approx(
      py_exploitability.nash_conv(game, theirs.average_policy()), abs=1e-12)


def test_openspiels_kuhn_check_holds_for_this_solver():
  """OpenSpiel's test of its XFPSolver, on this one: the average after 100
  iterations, read from average_policy_tables(), is worth -1/18 to player 0
  within 1e-3 (3.5e-4 off, as OpenSpiel's; 1.1e-3 off when ties went to the
  lowest action)."""
  game = pyspiel.load_game("kuhn_poker")
  solver = xfp.XFPSolver(game)
  for _ in range(100):
    solver.iteration()
  tabular = policy_lib.TabularPolicy(game)
  for table in solver.average_policy_tables():
    for key, probs in table.items():
      for action, probability in probs.items():
        tabular.policy_for_key(key)[action] = probability
  value = expected_game_score.policy_value(game.new_initial_state(),
                                           [tabular, tabular])
  np.testing.assert_allclose(value, [-1 / 18, 1 / 18], atol=1e-3)


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_tie_break_makes_openspiels_choices_against_pure_strategies(name):
  """Against pure strategies most states are unreached, all actions worth 0:
  OpenSpiel's best response, and the tie-breaker, take the first."""
  game = pyspiel.load_game(name)
  form = sequence_form.SequenceForm(game)
  rng = np.random.default_rng(5)
  for _ in range(2):
    pure = []
    for p in (0, 1):
      weights = form.random_strategy(p, rng)
      pure.append((weights == weights.max(1, keepdims=True)).astype(float))
    for p in (0, 1):
      _, response = form.best_response(
          p, pure[1 - p],
          break_ties=sequence_form.OpenSpielTieBreak(form, p, pure))
      theirs = py_exploitability.best_response(
          game, form.to_tabular(pure), p)["best_response_action"]
      assert {key: int(np.argmax(response[form.row_of(p, key)]))
              for key in theirs} == theirs


def test_metagame_of_the_oracles():
  """save_oracles and get_empirical_metagame as in OpenSpiel's alpharank
  example: entry [i, j] is the expected return of oracle i against oracle j,
  here exact (OpenSpiel samples it), from OpenSpiel's own oracles."""
  game = pyspiel.load_game("kuhn_poker")
  ours = xfp.XFPSolver(game, save_oracles=True)
  theirs = fictitious_play.XFPSolver(game, save_oracles=True)
  for _ in range(3):
    ours.iteration()
    theirs.iteration()
  meta_games = ours.get_empirical_metagame(100, seed=1)
  assert [m.shape for m in meta_games] == [(4, 4), (4, 4)]
  for i, first in enumerate(theirs._oracles[0]):  # pylint: disable=protected-access
    for j, second in enumerate(theirs._oracles[1]):  # pylint: disable=protected-access
      joint = fictitious_play.JointPolicy(game, {0: first, 1: second})
      expected = expected_game_score.policy_value(game.new_initial_state(),
                                                   [joint, joint])
      for p in (0, 1):
        assert meta_games[p][i, j] == pytest.approx(expected[p], abs=1e-12)
  with pytest.raises(ValueError, match="save_oracles=True"):
    xfp.XFPSolver(game).get_empirical_metagame(10)


def test_metagame_of_three_players_oracles():
  """With three players the meta-game has an axis per player, as
  OpenSpiel's: entry [i, j, k] of player p's is its expected return when the
  players play their oracles i, j and k."""
  game = pyspiel.load_game("kuhn_poker(players=3)")
  solver = xfp.XFPSolver(game, save_oracles=True)
  for _ in range(2):
    solver.iteration()
  meta_games = solver.get_empirical_metagame(100)
  assert [m.shape for m in meta_games] == [(3, 3, 3)] * 3
  form = solver.form
  for entry in [(0, 0, 0), (1, 2, 0), (2, 0, 1)]:
    profile = [solver.oracles[p][i] for p, i in enumerate(entry)]
    expected = expected_game_score.policy_value(
        game.new_initial_state(), [form.to_tabular(profile)] * 3)
    for p in range(3):
      assert meta_games[p][entry] == pytest.approx(expected[p], abs=1e-12)


def test_three_player_kuhn_nash_conv_falls_and_checkpoints(tmp_path):
  game = pyspiel.load_game("kuhn_poker(players=3)")
  solver = xfp.XFPSolver(game)
  start = solver.nash_conv()
  for _ in range(100):
    solver.iteration()
  # Measured: 2.0625 for the uniform start, 0.078 after 100 iterations.
  assert solver.nash_conv() < start / 20
  assert solver.exploitability() == pytest.approx(solver.nash_conv() / 3)
  assert solver.state_visits_per_iteration == 3 * 617 + 48
  path = solver.save(tmp_path / "xfp3.npz")
  resumed = xfp.XFPSolver.restore(game, path)
  for _ in range(5):
    solver.iteration()
    resumed.iteration()
  for p in range(3):
    np.testing.assert_array_equal(solver.strategies[p], resumed.strategies[p])
