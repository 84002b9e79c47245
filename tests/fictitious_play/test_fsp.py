"""Table-lookup FSP: counting model, Q-learning, convergence, agents, input."""

import re

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import exploitability as py_exploitability

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.fictitious_play import fsp
from nfsp_spiel.trees import sequence_form
from nfsp_spiel.fictitious_play import xfp


def test_counting_model_gives_the_xfp_average_on_exact_best_responses():
  """Counting each best response's policy with its realization weight (the
  expectation of sampled counts) reproduces XFP's average exactly."""
  game = pyspiel.load_game("kuhn_poker")
  solver = xfp.XFPSolver(game)
  form = solver.form
  table = fsp.InfoStateTable(form, 0)
  model = fsp.CountingModel(0, table, np.random.default_rng(0))
  contribution = lambda strategy: (  # noqa: E731
      form.infoset_reach(0, strategy)[:, None] * strategy)
  model.add(table.class_of_row, contribution(solver.strategies[0]))
  for _ in range(50):
    response = solver.exact_best_responses()[0][1]
    model.add(table.class_of_row, contribution(response))
    solver.iteration()
  counted = model.policy_table()[table.class_of_row]
  np.testing.assert_allclose(counted, solver.strategies[0], atol=1e-12)


def test_q_learning_finds_the_best_response_values_on_kuhn():
  """Against a fixed (uniform) opponent, Q-learning from exploratory episodes
  converges to the exact best-response value and actions."""
  game = pyspiel.load_game("kuhn_poker")
  # A decaying stepsize, so that the values settle (the default decays
  # slowly, as FSP's best responses must track a moving average).
  solver = fsp.FSPSolver(game, seed=1, replay_episodes=30, q_stepsize=0.05,
                         q_stepsize_decay=1.0, memory_episodes=30000)
  learner = solver.learners[0]
  for _ in range(30000):  # player 0 explores uniformly, player 1 is uniform
    solver._episode([False, False], store=(True, False))  # pylint: disable=protected-access
  for k in range(1, 20001):
    learner.replay(k)
  form = solver.form
  uniform = form.uniform(1)
  exact_value, exact_response = form.best_response(0, uniform)
  # The three root states (cards) each have chance 1/3.
  roots = [solver.tables[0].class_of_row[row] for row in form.levels[0][0]]
  learned_value = np.mean([learner.q[c][solver.tables[0].legal[c]].max()
                           for c in roots])
  # Measured: 0.503 against the exact 0.5.
  assert learned_value == pytest.approx(exact_value, abs=0.03)
  greedy = np.where(solver.tables[0].legal, learner.q, -np.inf).argmax(1)
  exact_greedy = exact_response.argmax(1)
  # Same actions wherever the exact values are not near ties.
  payoffs = form._sequence_payoffs(0, uniform)  # pylint: disable=protected-access
  for row, cls in enumerate(solver.tables[0].class_of_row):
    values = payoffs[form.sequence[0][row]]
    if abs(values[0] - values[1]) > 0.3:
      assert greedy[cls] == exact_greedy[row]


def test_fsp_on_kuhn_converges():
  game = pyspiel.load_game("kuhn_poker")
  solver = fsp.FSPSolver(game, seed=0)
  first = solver.exploitability()
  for _ in range(20000):
    solver.iteration()
  # Measured with seed 0: 0.0728 after 20000 iterations (uniform: 0.458).
  assert first == pytest.approx(11 / 24)
  assert solver.exploitability() < 0.09
  # The memories (40000 episodes) are still filling: alternating episodes
  # only, one per player per iteration.
  assert solver.episodes == 2 * 20000


def test_diagnostics_improve_on_leduc():
  game = pyspiel.load_game("nfsp_leduc")
  solver = fsp.FSPSolver(game, seed=0)
  qualities, errors = [], []
  for block in range(3):
    for _ in range(2000):
      solver.iteration()
    solver.update_exact_average()
    qualities.append(solver.best_response_quality())
    errors.append(solver.average_error())
  assert all(q >= -1e-12 for q in qualities)  # no better than exact BRs
  assert qualities[-1] < qualities[0]         # fig. 5.1: they improve
  assert all(np.isfinite(errors))


def test_agents_play_in_an_openspiel_rl_loop():
  """The learners are rl_agent.AbstractAgents keyed by the env's tensors."""
  game = pyspiel.load_game("river_poker(min_rank=11,board=JcQdKhAsJd)")
  solver = fsp.FSPSolver(game, seed=0)
  env = rl_environment.Environment(game)
  agents = [solver.learners[0], solver.average_models[1]]
  before = solver.learners[0].memory.size
  for _ in range(20):
    time_step = env.reset()
    while not time_step.last():
      player = time_step.observations["current_player"]
      output = agents[player].step(time_step)
      assert np.isclose(sum(output.probs), 1.0)
      time_step = env.step([output.action])
    for agent in agents:
      agent.step(time_step)
  assert solver.learners[0].memory.size == before + 20


def test_policies_are_openspiel_policies():
  game = pyspiel.load_game("nfsp_leduc")
  solver = fsp.FSPSolver(game, seed=0)
  for _ in range(100):
    solver.iteration()
  average = solver.average_policy()
  light = solver.policy()
  assert isinstance(light, sequence_form.SequenceFormPolicy)
  assert len(average.state_lookup) == 936
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  assert evaluation.exploitability(game, average) == pytest.approx(
      solver.exploitability(), abs=1e-12)


@pytest.mark.parametrize("kwargs,match", [
    ({"memory_episodes": 0}, "memory_episodes=0"),
    ({"temperature": -1.0}, "temperature=-1.0"),
    ({"q_stepsize": 0.0}, "q_stepsize=0.0"),
    ({"q_stepsize_decay": -0.1}, "q_stepsize_decay=-0.1"),
    ({"replay_episodes": 0}, "replay_episodes=0"),
    ({"mixing_gamma": -10.0}, "mixing_gamma=-10.0"),
])
def test_bad_config(kwargs, match):
  with pytest.raises(ValueError, match=match):
    fsp.FSPConfig(**kwargs)


@pytest.mark.parametrize("name,match", [
    ("tic_tac_toe", "FSPSolver needs a game with information-state tensors.*"
     + re.escape("provides_information_state_tensor=False")),
    ("goofspiel(players=3,num_cards=3)", "FSPSolver needs a sequential game "
     "with information-state strings; .* has dynamics .*SIMULTANEOUS"),
])
def test_games_fsp_cannot_solve(name, match):
  with pytest.raises(ValueError, match=match):
    fsp.FSPSolver(pyspiel.load_game(name))


def test_fsp_on_three_player_kuhn_lowers_nash_conv():
  """Every part is per player: on three-player Kuhn poker FSP's average
  moves far from the uniform policy's NashConv, through the memories'
  filling (250 iterations: two opponents store each alternating episode)
  and past it. Its measures are OpenSpiel's on the same policies."""
  game = pyspiel.load_game("kuhn_poker(players=3)")
  uniform = py_exploitability.nash_conv(
      game, policy_lib.UniformRandomPolicy(game))
  solver = fsp.FSPSolver(game, seed=0, memory_episodes=500)
  assert solver.nash_conv() == pytest.approx(uniform, abs=1e-12)
  for _ in range(600):
    solver.iteration()
  assert all(learner.memory.full for learner in solver.learners)
  # Measured with seed 0: 0.518 (uniform: 2.0625).
  assert solver.nash_conv() < 0.3 * uniform
  average = solver.average_policy()
  assert solver.nash_conv() == pytest.approx(
      py_exploitability.nash_conv(game, average), abs=1e-12)
  best = solver.best_response_strategies()
  # The gaps on arrays, and from OpenSpiel's tree walks (tabular policies).
  assert solver.best_response_quality() == pytest.approx(
      evaluation.best_response_quality(
          game, average, [solver.form.to_tabular(best)] * 3), abs=1e-12)


@pytest.mark.parametrize("name", ["kuhn_poker", "nfsp_leduc",
                                  "kuhn_poker(players=3)"])
def test_checkpoint_resumes_exactly(tmp_path, name):
  game = pyspiel.load_game(name)
  solver = fsp.FSPSolver(game, seed=3, memory_episodes=500)
  for _ in range(700):  # past the point where the memories are full
    solver.iteration()
  path = solver.save(tmp_path / "fsp.npz")
  resumed = fsp.FSPSolver.restore(game, path, seed=3, memory_episodes=500)
  for _ in range(300):
    solver.iteration()
    resumed.iteration()
  np.testing.assert_array_equal(solver.learners[1].q, resumed.learners[1].q)
  np.testing.assert_array_equal(solver.average_models[0].counts,
                                resumed.average_models[0].counts)
  assert resumed.iterations == 1000 and resumed.episodes == solver.episodes
  assert resumed.state_visits == solver.state_visits
  with pytest.raises(ValueError, match="memory_episodes: 500 there, 40000 "
                     "here"):
    fsp.FSPSolver.restore(game, path, seed=3)
  with pytest.raises(FileNotFoundError, match="no checkpoint at"):
    fsp.FSPSolver.restore(game, tmp_path / "nothing.npz")


def test_state_visits_count_decisions_q_updates_and_counts():
  """One iteration on Kuhn before the memories fill: two alternating
  episodes, each stored in the opponent's memory (its L_p decisions) and
  counted for the best responder (one unit of count mass per decision);
  each learner then replays its one stored episode 30 times."""
  solver = fsp.FSPSolver(pyspiel.load_game("kuhn_poker"), seed=5)
  solver.iteration()
  stored = sum(int(learner.memory.lengths[0]) for learner in solver.learners)
  counted = sum(model.counts.sum() for model in solver.average_models)
  assert [learner.memory.size for learner in solver.learners] == [1, 1]
  # Decisions (stored + counted) + 30 replays of each stored episode +
  # the counting updates.
  assert solver.state_visits == stored + counted + 30 * stored + counted


def test_sampling_policies_match_the_tables():
  """The sampling loop's per-state policies equal the learners' tables."""
  game = pyspiel.load_game("nfsp_leduc")
  solver = fsp.FSPSolver(game, seed=0)
  for _ in range(500):
    solver.iteration()
  best = solver.learners[0].policy_table()
  average = solver.average_models[0].policy_table()
  for row in range(0, len(best), 7):
    _, probs = solver._choose(0, row, True)  # pylint: disable=protected-access
    np.testing.assert_allclose(probs, best[row], atol=1e-12)
    _, probs = solver._choose(0, row, False)  # pylint: disable=protected-access
    np.testing.assert_allclose(probs, average[row], atol=1e-12)


def test_mixing_is_icml_2015s_and_saturates_until_gamma_over_p():
  """eta_k (ICML 2015 sec. 5.2): alpha_k = 1/(k+1) while the RL memories
  fill (one alternating episode per memory per iteration), then
  min(1, gamma * alpha_k / p), p = (n + m) / memory size, which stays at 1
  until k + 1 = gamma / p (figs. 5.1/5.2's bump; BUILD_NOTES.md)."""
  game = pyspiel.load_game("kuhn_poker")
  solver = fsp.FSPSolver(game, seed=0, memory_episodes=300)
  for _ in range(299):
    solver.iteration()
  assert not solver.learners[0].memory.full
  assert solver.mixing(299) == pytest.approx(1 / 300)
  assert solver.episodes == 2 * 299
  solver.iteration()  # the 300th alternating episode fills each memory
  assert all(learner.memory.full for learner in solver.learners)
  gamma_over_p = 10 / (3 / 300)  # = 1000
  assert [solver.mixing(k) for k in (300, 500, 998)] == [1.0, 1.0, 1.0]
  assert solver.mixing(1999) == pytest.approx(gamma_over_p / 2000)
  for _ in range(100):  # n = 2 from sigma and m = 1 per player once full
    solver.iteration()
  assert solver.episodes == 2 * 300 + 4 * 100
  unmixed = fsp.FSPSolver(game, seed=0, memory_episodes=300,
                          mixing_gamma=None)
  assert unmixed.mixing(500) == pytest.approx(1 / 501)
