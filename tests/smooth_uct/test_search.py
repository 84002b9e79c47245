"""Smooth UCT and extensive-form UCT."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability as py_exploitability

import nfsp_spiel  # noqa: F401
from nfsp_spiel import smooth_uct


def test_kuhn_smooth_uct_converges():
  game = pyspiel.load_game("kuhn_poker")
  search = smooth_uct.SmoothUCT(game, seed=0, threads=1)
  search.run(300_000)
  # Measured with seed 0: 0.0035 after 300k episodes (uniform: 0.458).
  value = search.exploitability()
  assert value < 0.01
  tabular = search.average_policy().to_tabular()
  assert isinstance(tabular, policy_lib.TabularPolicy)
  assert py_exploitability.exploitability(game, tabular) == pytest.approx(
      value, abs=1e-12)


def test_eta_one_is_plain_uct():
  game = pyspiel.load_game("leduc_poker")
  smooth = smooth_uct.SmoothUCT(game, smooth_uct.SmoothUCTConfig(
      c=20.0, gamma=0.1, eta0=1.0, d=0.0), seed=4, threads=1)
  uct = smooth_uct.SmoothUCT(game, smooth_uct.SmoothUCTConfig.uct(20.0),
                             seed=4, threads=1)
  smooth.run(50_000)
  uct.run(50_000)
  np.testing.assert_array_equal(smooth.action_counts, uct.action_counts)
  np.testing.assert_array_equal(smooth.q, uct.q)


def test_ucb_selection_by_hand():
  counts = np.array([10.0])
  action_counts = np.array([[6.0, 3.0, 1.0]])
  q = np.array([[0.5, 0.6, -1.0]])
  # eta = 1: UCB picks argmax q + c sqrt(log 10 / n): 0.5 + 0.876, 0.6 +
  # 1.239, -1 + 2.146 with c = 1.
  ucb = q[0] + np.sqrt(np.log(10) / action_counts[0])
  picks = {smooth_uct.select(0, 3, counts, action_counts, q, 0.0, 1.0, 0.0,
                             1.0) for _ in range(20)}
  assert picks == {int(np.argmax(ucb))}
  # eta = 0 (eta0 = gamma = 0): samples the average N(u, a) / N(u).
  draws = [smooth_uct.select(0, 3, counts, action_counts, q, 0.0, 0.0, 0.0,
                             1.0) for _ in range(20000)]
  np.testing.assert_allclose(np.bincount(draws, minlength=3) / 20000,
                             [0.6, 0.3, 0.1], atol=0.015)


def test_visit_counts_add_up():
  game = pyspiel.load_game("kuhn_poker")
  search = smooth_uct.SmoothUCT(game, seed=1, threads=1)
  search.run(20_000)
  np.testing.assert_array_equal(search.counts, search.action_counts.sum(1))
  # Player 0 acts first in every episode and its first decision is always in
  # its tree (expanded or selected): its root states are visited once each.
  roots = search.form.levels[0][0] + search.tree.offset[0]
  assert search.counts[roots].sum() == 20_000


def test_checkpoint_round_trip(tmp_path):
  game = pyspiel.load_game("leduc_poker")
  search = smooth_uct.SmoothUCT(game, smooth_uct.SmoothUCTConfig.leduc(),
                                seed=2, threads=1)
  search.run(30_000)
  path = search.save(tmp_path / "uct.npz")
  resumed = smooth_uct.SmoothUCT.restore(
      game, path, smooth_uct.SmoothUCTConfig.leduc(), seed=2, threads=1)
  search.run(30_000)
  resumed.run(30_000)
  np.testing.assert_array_equal(search.q, resumed.q)
  np.testing.assert_array_equal(search.action_counts, resumed.action_counts)
  assert resumed.episodes == 60_000


def test_threads_share_the_tables():
  """Two threads run the episodes between them into one set of tables, each
  from its own seed: player 0's root states count every episode but the
  updates lost where both threads wrote one row at once (Kuhn's 12 rows are
  the worst case; BUILD_NOTES measures 0.2-0.5% there)."""
  game = pyspiel.load_game("kuhn_poker")
  threaded = smooth_uct.SmoothUCT(game, seed=1, threads=2)
  threaded.run(200_000)
  assert threaded.episodes == 200_000
  roots = threaded.form.levels[0][0] + threaded.tree.offset[0]
  assert 0.95 * 200_000 <= threaded.counts[roots].sum() <= 200_000
  lost = np.abs(threaded.counts - threaded.action_counts.sum(1))
  assert lost.sum() <= 0.05 * threaded.counts.sum()
  single = smooth_uct.SmoothUCT(game, seed=1, threads=1)
  single.run(200_000)
  assert not np.array_equal(threaded.q, single.q)


def test_threaded_search_agrees_in_distribution_with_one_thread():
  """Twelve seeds of Kuhn (200k episodes each) with one thread and with two:
  the mean exploitability agrees within 4 standard errors of the difference
  (measured: |z| <= 1.2 in six repetitions), and each information state's
  mean average policy within 4.5 standard errors plus 0.01. The 0.01 is for
  the nearly pure states, whose spread between seeds is ~1e-4: there the
  threads' lost updates (BUILD_NOTES: 0.2-0.5% of Kuhn's) move the mean by a few
  of those standard errors. Threads that drew one seed, or ran every
  episode twice, or half of them alone, would move the exploitability."""
  game = pyspiel.load_game("kuhn_poker")
  samples = {}
  for threads in (1, 2):
    values, policies = [], []
    for seed in range(12):
      search = smooth_uct.SmoothUCT(game, seed=seed, threads=threads)
      search.run(200_000)
      values.append(search.exploitability())
      policies.append(search.action_counts[:, 0] /
                      search.action_counts.sum(axis=1))
    samples[threads] = np.column_stack([values, policies])
  one, two = samples[1], samples[2]
  stderr = np.sqrt(one.var(0, ddof=1) / 12 + two.var(0, ddof=1) / 12)
  difference = np.abs(one.mean(0) - two.mean(0))
  assert difference[0] < 4 * stderr[0], (one[:, 0], two[:, 0])
  np.testing.assert_array_less(difference[1:], 4.5 * stderr[1:] + 0.01)


def test_threads_must_be_a_positive_whole_number():
  game = pyspiel.load_game("kuhn_poker")
  with pytest.raises(ValueError, match="threads=0: must be a whole number"):
    smooth_uct.SmoothUCT(game, threads=0)
  assert smooth_uct.SmoothUCT(game).threads == smooth_uct.all_cores()


@pytest.mark.parametrize("kwargs,match", [
    ({"c": -1.0}, "c=-1.0"),
    ({"eta0": 1.5}, "eta0=1.5"),
    ({"gamma": -0.1}, "gamma=-0.1"),
    ({"d": -1.0}, "d=-1.0"),
    ({"c": float("nan")}, "c=nan: the exploration constant must be a finite"),
    ({"c": float("inf")}, "c=inf"),
    ({"d": float("nan")}, "d=nan"),
    ({"gamma": float("nan")}, "gamma=nan"),
    ({"exploration_cap": float("inf")}, "exploration_cap=inf"),
])
def test_bad_config(kwargs, match):
  with pytest.raises(ValueError, match=match):
    smooth_uct.SmoothUCTConfig(**kwargs)


@pytest.mark.parametrize("episodes", [2.7, -1, "10", True])
def test_run_takes_a_whole_number_of_episodes(episodes):
  search = smooth_uct.SmoothUCT(pyspiel.load_game("kuhn_poker"))
  with pytest.raises(ValueError, match=f"num_episodes={episodes!r}: must be "
                     "a whole number"):
    search.run(episodes)
  search.run(10.0)
  assert search.episodes == 10 and isinstance(search.episodes, int)


def test_games_without_information_state_strings():
  with pytest.raises(ValueError, match="information-state strings"):
    smooth_uct.SmoothUCT(pyspiel.load_game("pig"))


def test_agent_and_bot_play_the_average_policy():
  from open_spiel.python import rl_environment  # pylint: disable=g-import-not-at-top
  from open_spiel.python.algorithms import evaluate_bots  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("leduc_poker")
  search = smooth_uct.SmoothUCT(game, smooth_uct.SmoothUCTConfig.leduc(), seed=0)
  search.run(200_000)
  env = rl_environment.Environment(game)
  agents = [search.agent(p) for p in (0, 1)]
  average = search.average_policy()
  time_step = env.reset()
  while not time_step.last():
    player = time_step.observations["current_player"]
    output = agents[player].step(time_step)
    expected = average.action_probabilities(env.get_state)
    for action, p in expected.items():
      assert output.probs[action] == pytest.approx(p)
    time_step = env.step([output.action])
  bots = [search.bot(p, seed=p) for p in (0, 1)]
  returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                        np.random)
  assert sum(returns) == pytest.approx(0.0)


def test_poker_exploration_schedule():
  """Eq. 3.2 with k = 1: c is the largest pot reachable from the round's
  start, capped at C."""
  game = pyspiel.load_game("nfsp_leduc")
  config = smooth_uct.SmoothUCTConfig(c=18.0, exploration_cap=100.0,
                                      exploration_k=1.0)
  search = smooth_uct.SmoothUCT(game, config)
  form = search.form
  # Round 1 starts with a pot of 2 that can grow to 2 * 13 = 26; round 2
  # starts with 2, 6 or 10 (check-check, one or two raises called) and can
  # add 2 * 8: 18, 22 or 26.
  c0 = search.exploration[:len(form.keys[0])]
  assert set(np.round(c0, 6)) == {18.0, 22.0, 26.0}
  capped = smooth_uct.SmoothUCT(game, smooth_uct.SmoothUCTConfig(
      exploration_cap=10.0, exploration_k=0.5))
  assert capped.exploration.max() == 10.0  # every value capped at C
  loose = smooth_uct.SmoothUCT(game, smooth_uct.SmoothUCTConfig(
      exploration_cap=100.0, exploration_k=0.5))
  # k = 0.5: round 1 2 + 12 = 14; round 2 2 + 8, 6 + 8, 10 + 8.
  assert set(np.round(loose.exploration, 6)) == {10.0, 14.0, 18.0}
  loose.run(10_000)
  with pytest.raises(ValueError, match="contributions"):
    smooth_uct.SmoothUCT(pyspiel.load_game("leduc_poker"), config)


def test_agent_tells_apart_information_states_that_share_a_tensor():
  """nfsp_leduc's 30-dim tensor drops suits: the jack of spades and of hearts
  share a tensor while the search plays them apart. With the full state in
  the time step the agent plays `average_policy()` exactly at every state;
  without it, it refuses rather than play one suit's strategy for both."""
  from open_spiel.python import rl_environment  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_leduc")
  search = smooth_uct.SmoothUCT(game, smooth_uct.SmoothUCTConfig.leduc(), seed=0)
  search.run(20_000)
  average = search.average_policy()
  agents = [search.agent(p, seed=p) for p in (0, 1)]
  env = rl_environment.Environment(game, include_full_state=True, seed=1)
  checked = 0
  for _ in range(200):
    time_step = env.reset()
    while not time_step.last():
      player = time_step.observations["current_player"]
      output = agents[player].step(time_step)
      expected = average.action_probabilities(env.get_state)
      np.testing.assert_allclose(
          [output.probs[a] for a in expected], list(expected.values()))
      checked += 1
      time_step = env.step([output.action])
  assert checked > 500
  plain = rl_environment.Environment(game, seed=1)
  with pytest.raises(ValueError, match="include_full_state=True"):
    for _ in range(200):
      time_step = plain.reset()
      while not time_step.last():
        player = time_step.observations["current_player"]
        time_step = plain.step([agents[player].step(time_step).action])
