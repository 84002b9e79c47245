"""The best-response test against a fixed opponent (`nfsp.fixed_opponent`)."""

import dataclasses
import os

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.games import poker
from nfsp_spiel.nfsp import average_profile
from nfsp_spiel.nfsp import drivers
from nfsp_spiel.nfsp import fixed_opponent
from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp.config import NFSPConfig
from nfsp_spiel.run import curves
from nfsp_spiel.run import nfsp_training
from nfsp_spiel.run import run_directory


@pytest.fixture(scope="module")
def game():
  return pyspiel.load_game("nfsp_lhe")


def test_fixed_player_raises_where_legal_else_calls():
  player = fixed_opponent.FixedActionPlayer(1, 4, poker.RAISE)
  legal = np.array([[1, 1, 1], [1, 1, 0], [0, 1, 1]], np.float32)
  actions, _ = player.act(np.zeros((3, 4)), legal, None)
  np.testing.assert_array_equal(actions, [poker.RAISE, poker.CALL,
                                          poker.RAISE])
  assert player.record_steps(None, actions, None) == 0


def test_unknown_opponent_is_refused_by_name():
  with pytest.raises(ValueError, match="opponent='always_fold'"):
    fixed_opponent.Against("always_fold")


def test_a_frozen_average_needs_its_checkpoint_and_nothing_else_takes_one():
  with pytest.raises(ValueError, match="profile='': opponent='average'"):
    fixed_opponent.Against("average")
  with pytest.raises(ValueError, match="profile='run.npz'"):
    fixed_opponent.Against("always_raise", profile="run.npz")
  with pytest.raises(ValueError, match="warm_start=True"):
    fixed_opponent.Against("always_raise", warm_start=True)


def test_references_are_the_baselines_matches_in_seat_0(game):
  setting = fixed_opponent.Against("always_raise", num_deals=200, seed=5)
  references = fixed_opponent.references(game, setting)
  chips = batched_matches.play_profile(
      (baselines.AlwaysCall(game), baselines.AlwaysRaise(game)), 200, 5)
  # A caller against a raiser: one bet per round, every hand shown down
  # for 10 + 10 + 10 + 20 + 20 = 70 chips each (or split).
  assert set(np.abs(chips)) <= {0.0, 70.0}
  assert references["always_call"] == pytest.approx(100 * chips.mean())
  equity = batched_matches.play_profile(
      (baselines.EquityThreshold(game), baselines.AlwaysRaise(game)), 200, 5)
  assert references["equity_threshold"] == pytest.approx(100 * equity.mean())


def test_a_small_learner_comes_to_beat_always_raise_by_far(game):
  """From an untrained network that folds often to a raiser, 1,500 episodes
  of Q-learning (one hidden layer, rewards per small blind) must gain more
  than three standard errors on the same 1,000 deals."""
  config = NFSPConfig.lhe(hidden_layers=(64,), replay_buffer_capacity=20_000,
                          reservoir_buffer_capacity=20_000,
                          reward_scale=0.2, precision="float32")
  setting = fixed_opponent.Against("always_raise", num_deals=1000, seed=1)
  run = fixed_opponent.FixedOpponentRun(game, config, setting)
  first = run.metrics()
  run.play(1500)
  last = run.metrics()
  assert run.episodes >= 1500
  gain = last["mbb_per_hand"] - first["mbb_per_hand"]
  assert gain > 3 * np.hypot(first["mbb_stderr"], last["mbb_stderr"])
  assert np.isfinite(last["rl_loss"]) and last["q_norm"] > 0
  # What the greedy policy did in the matches: a distribution per round it
  # reached, and Q's scale in chips at its decisions.
  for metrics in (first, last):
    assert sum(metrics[f"greedy_preflop_{a}"]
               for a in ("fold", "call", "raise")) == pytest.approx(1.0)
    assert metrics["q_spread"] > 0 and np.isfinite(metrics["q_abs"])
  assert last["greedy_preflop_fold"] < first["greedy_preflop_fold"]


def _tiny_config(**changes):
  return NFSPConfig.lhe(hidden_layers=(8,), replay_buffer_capacity=2_000,
                        reservoir_buffer_capacity=2_000, learn_every=16,
                        min_buffer_size_to_learn=64, reward_scale=0.2,
                        precision="float32", **changes)


SETTING = fixed_opponent.Against("always_raise", num_deals=60, seed=2,
                                 num_games=16)


def _train(game, directory, episodes, setting=SETTING, config=None):
  """`nfsp_training.train` of the test (`config`, default `_tiny_config()`)
  in `directory` (a row every 100 episodes), resumed where it has a
  checkpoint; returns the curve's rows."""
  run = run_directory.RunDirectory(directory, keep_previous=False)
  loop = fixed_opponent.FixedOpponentRun(game, config or _tiny_config(),
                                         setting)
  if run.resuming:
    loop.restore(run.checkpoint)
  run.open_curve(loop.episodes)
  nfsp_training.train(run, loop, episodes, 100, 100)
  return curves.read_curve(run.curve)


@pytest.fixture(scope="module")
def self_play_run(game, tmp_path_factory):
  """(driver, the path of its checkpoint): a short NFSP self-play run of the
  tiny config, whose average strategy the frozen-average test plays."""
  driver = drivers.makers(game, _tiny_config(), 4,
                          drivers.DriverSettings(num_games=16))[0]()
  driver.play(200)
  path = str(tmp_path_factory.mktemp("self_play") / "checkpoint.npz")
  return driver, driver.save(path)


def _against_average(path, warm_start=True):
  return dataclasses.replace(SETTING, opponent="average", profile=path,
                             warm_start=warm_start)


@pytest.mark.parametrize("frozen_average", [False, True])
def test_a_resumed_run_takes_the_same_steps_as_one_never_stopped(
    game, tmp_path, self_play_run, frozen_average):
  setting = _against_average(self_play_run[1]) if frozen_average else SETTING
  whole = _train(game, tmp_path / "whole", 300, setting)
  _train(game, tmp_path / "split", 200, setting)
  split = _train(game, tmp_path / "split", 300, setting)
  assert [r["step"] for r in split] == [r["step"] for r in whole]
  for a, b in zip(whole, split):
    for key in ("mbb_per_hand", "q_abs", "q_norm", "sgd_updates",
                "rl_loss", "reference_equity_threshold"):
      np.testing.assert_equal(a[key], b[key], err_msg=key)  # NaN: no loss yet
  assert whole[-1]["sgd_updates"] > 0 and whole[-1]["rl_loss"] > 0
  # Learning changed the network between the split and the end.
  assert whole[-1]["q_norm"] != whole[-2]["q_norm"]


@pytest.fixture(scope="module")
def saved_run(game, tmp_path_factory):
  """(run, the path of its checkpoint) after a few episodes."""
  run = fixed_opponent.FixedOpponentRun(game, _tiny_config(), SETTING)
  run.play(20)
  return run, run.save(str(tmp_path_factory.mktemp("run") / "checkpoint.npz"))


def test_a_checkpoint_of_other_settings_is_refused(game, saved_run):
  run, path = saved_run
  others = [(_tiny_config(rl_learning_rate=0.01), SETTING),
            (_tiny_config(), dataclasses.replace(SETTING,
                                                 opponent="always_call")),
            (_tiny_config(), dataclasses.replace(SETTING, num_deals=50))]
  for config, setting in others:
    other = fixed_opponent.FixedOpponentRun(game, config, setting)
    with pytest.raises(checkpoints.CheckpointError):
      other.restore(path)
    assert other.episodes == 0
  same = fixed_opponent.FixedOpponentRun(game, _tiny_config(), SETTING)
  assert same.restore(path).episodes == run.episodes


def test_a_run_is_restored_from_its_checkpoint_alone(game, saved_run):
  run, path = saved_run
  again = fixed_opponent.FixedOpponentRun.from_checkpoint(game, path)
  assert (again.config, again.setting) == (run.config, run.setting)
  assert again.episodes == run.episodes > 0
  states = np.eye(again.learner.state_size, dtype=np.float32)[:5]
  np.testing.assert_array_equal(
      again.learner.best_response_learner.q_values(states),
      run.learner.best_response_learner.q_values(states))


def test_a_frozen_average_plays_seat_1_and_the_learner_starts_from_seat_0(
    game, self_play_run):
  """The opponent acts from the run's seat-1 average network, the evaluation
  plays that profile, and a warm start copies seat 0's Q and target
  networks (a cold start does not)."""
  parent, path = self_play_run
  run = fixed_opponent.FixedOpponentRun(game, _tiny_config(),
                                        _against_average(path))
  states = np.eye(run.learner.state_size, dtype=np.float32)[:40:3]
  legal = np.ones((len(states), 3), np.float32)
  np.testing.assert_allclose(
      run.fixed.average.probabilities(states, legal, "average"),
      parent.agents[1].average_policy.probabilities(states, legal),
      rtol=1e-5, atol=1e-6)
  learner, theirs = (run.learner.best_response_learner,
                     parent.agents[0].best_response_learner)
  np.testing.assert_array_equal(learner.q_values(states),
                                theirs.q_values(states))
  for name, network in learner.networks().items():
    for ours, other in zip(network.numpy_weights(),
                           theirs.networks()[name].numpy_weights()):
      np.testing.assert_array_equal(ours, other)
  cold = fixed_opponent.FixedOpponentRun(
      game, _tiny_config(), _against_average(path, warm_start=False))
  assert not np.array_equal(cold.learner.best_response_learner.q_values(
      states), theirs.q_values(states))
  # The opponent samples its moves: over many games, its frequencies.
  many = np.repeat(states[:1], 4000, axis=0)
  actions, _ = run.fixed.act(many, np.ones((4000, 3)), None)
  np.testing.assert_allclose(
      np.bincount(actions, minlength=3) / 4000,
      run.fixed.average.probabilities(states[:1], legal[:1], "average")[0],
      atol=0.03)
  metrics = run.metrics()
  chips = batched_matches.play_profile(
      (run._greedy, average_profile.from_checkpoint(game, path)),  # pylint: disable=protected-access
      SETTING.num_deals, SETTING.seed)
  assert metrics["mbb_per_hand"] == pytest.approx(100 * chips.mean())


def test_a_frozen_average_run_refuses_another_profile_and_reloads_alone(
    game, self_play_run, tmp_path):
  _, path = self_play_run
  run = fixed_opponent.FixedOpponentRun(game, _tiny_config(),
                                        _against_average(path))
  run.play(20)
  saved = run.save(str(tmp_path / "checkpoint.npz"))
  other = fixed_opponent.FixedOpponentRun(
      game, _tiny_config(), _against_average(path, warm_start=False))
  with pytest.raises(checkpoints.CheckpointError, match="warm_start"):
    other.restore(saved)
  again = fixed_opponent.FixedOpponentRun.from_checkpoint(game, saved)
  assert again.setting == run.setting and again.episodes == run.episodes
  linked = tmp_path / "linked"
  linked.symlink_to(os.path.dirname(path))
  through_link = fixed_opponent.FixedOpponentRun(
      game, _tiny_config(), _against_average(
          str(linked / os.path.basename(path))))
  assert through_link.restore(saved).episodes == run.episodes
  leduc = drivers.makers(pyspiel.load_game("nfsp_leduc"), NFSPConfig(), 0,
                         drivers.DriverSettings(num_games=4))[0]()
  leduc_path = leduc.save(str(tmp_path / "leduc.npz"))
  with pytest.raises(ValueError, match="holds a profile of nfsp_leduc"):
    fixed_opponent.FixedOpponentRun(game, _tiny_config(),
                                    _against_average(leduc_path))
