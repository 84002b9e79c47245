"""An NFSP run in a run folder (`run.nfsp_training`): its evaluation, its
rows and checkpoints, its resume, and a population's curve; beyond two
players its NashConv, against OpenSpiel's `nash_conv`."""

import numpy as np
from open_spiel.python.algorithms import exploitability as openspiel_exploitability
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp import agents_for
from nfsp_spiel.nfsp import NFSPConfig
from nfsp_spiel.nfsp import NFSPPolicy
from nfsp_spiel.nfsp import population
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.nfsp import sweep
from nfsp_spiel.run import curves
from nfsp_spiel.run import nfsp_training
from nfsp_spiel.run import run_directory

# Small memories that train within 1000 Kuhn episodes.
CONFIG = NFSPConfig.leduc().replace(replay_buffer_capacity=2000,
                                    reservoir_buffer_capacity=2000,
                                    min_buffer_size_to_learn=100)
SETTINGS = nfsp_training.EvaluationSettings()
EVAL_EVERY = 500


@pytest.fixture(scope="module")
def kuhn():
  return pyspiel.load_game("kuhn_poker")


def _single(game, seed=0):
  """A maker of one run's loop: fresh, or restored from a path."""

  def make(path):
    agents = agents_for(game, CONFIG, seed)
    driver = (selfplay.SelfPlay.restore(game, path, agents, seed=seed)
              if path else selfplay.SelfPlay(game, agents, seed=seed))
    return nfsp_training.SingleLoop(game, driver, SETTINGS, seed)

  return make


def _population(game, seeds):
  members = sweep.population_members(CONFIG, seeds)
  configs = [member.config for member in members]

  def make(path):
    driver = (population.Population.restore(game, path, configs, seeds)
              if path else population.Population(game, configs, seeds))
    return nfsp_training.PopulationLoop(game, members, driver, SETTINGS)

  return make


def _train(folder, make, episodes):
  """The curve's rows after training `make`'s loop to `episodes` in
  `folder`, resuming its checkpoint where there is one."""
  run = run_directory.RunDirectory(folder)
  loop = make(run.checkpoint if run.resuming else None)
  run.open_curve(loop.episodes)
  nfsp_training.train(run, loop, episodes, EVAL_EVERY, EVAL_EVERY)
  return curves.read_curve(run.curve)


@pytest.fixture(scope="module")
def single(kuhn, tmp_path_factory):
  """(folder, rows) of an uninterrupted run of seed 0."""
  folder = tmp_path_factory.mktemp("single")
  return folder, _train(folder, _single(kuhn), 2 * EVAL_EVERY)


@pytest.fixture(scope="module")
def seeds_0_and_2(kuhn, tmp_path_factory):
  folder = tmp_path_factory.mktemp("population")
  return _train(folder, _population(kuhn, [0, 2]), 2 * EVAL_EVERY)


def test_a_run_logs_at_zero_every_eval_every_and_checkpoints_at_the_end(
    single):
  folder, rows = single
  steps = [row["step"] for row in rows]
  # Batched self-play stops at the lockstep that reaches the target.
  assert steps[0] == 0 and EVAL_EVERY <= steps[1] < 2 * EVAL_EVERY <= steps[2]
  assert len(rows) == 3
  assert {"exploitability", "br_gap_0", "br_gap_1",
          "exploitability_sl_memory", "rl_loss", "sl_loss"} <= set(rows[0])
  assert all(0 < row["exploitability"] < 1 for row in rows)
  progress = checkpoints.read_progress(folder / "checkpoint.npz")
  assert progress["step"] == steps[-1]


# Slow: the NFSP binary's resume: tests/run/test_run_directory.py's
# test_ctrl_c_...[nfsp].
@pytest.mark.slow
def test_a_resumed_run_loses_nothing(kuhn, single, tmp_path):
  _, uninterrupted = single
  _train(tmp_path, _single(kuhn), EVAL_EVERY)
  resumed = _train(tmp_path, _single(kuhn), 2 * EVAL_EVERY)
  columns = [c for c in resumed[0] if "seconds" not in c and "loss" not in c]
  assert [[row[c] for c in columns] for row in resumed] == [
      [row[c] for c in columns] for row in uninterrupted]


# Slow: its fixture trains a population for 60 s; the band's arithmetic is
# tests/run/test_curves.py's.
@pytest.mark.slow
def test_the_population_curve_holds_each_member_and_each_groups_band(
    seeds_0_and_2):
  rows = seeds_0_and_2
  assert len(rows) == 3 and rows[0]["step"] == 0
  for row in rows:
    values = [row["exploitability/seed0"], row["exploitability/seed2"]]
    mean = sum(values) / 2
    error = abs(values[0] - values[1]) / 2  # ddof 1 over sqrt(2)
    assert row["exploitability/mean"] == pytest.approx(mean)
    assert row["exploitability/low"] == pytest.approx(mean - error)
    assert row["exploitability/high"] == pytest.approx(mean + error)
    # The row is where every member has reached; each logs its own count.
    assert row["step"] == min(row["step/seed0"], row["step/seed2"])
    assert {"br_gap_0/seed2", "rl_loss/seed0"} <= set(row)


# Slow: the population's exactness is tests/nfsp/test_population.py's.
@pytest.mark.slow
def test_a_member_is_the_run_of_its_seed(single, seeds_0_and_2):
  """Member seed0 evaluates at the single run's episode counts and finds
  its exploitability to the last bit."""
  _, rows = single
  assert [row["step"] for row in rows] == [
      row["step/seed0"] for row in seeds_0_and_2]
  assert [row["exploitability"] for row in rows] == [
      row["exploitability/seed0"] for row in seeds_0_and_2]


def test_evaluate_measures_each_policy(kuhn):
  agents = agents_for(kuhn, CONFIG)
  settings = nfsp_training.EvaluationSettings(
      policies=("average", "best_response"), diagnostics=False)
  metrics = nfsp_training.evaluate(kuhn, agents, settings)
  assert metrics == {
      kind_column: evaluation.exploitability(
          kuhn, NFSPPolicy(kuhn, agents, kind).to_tabular())
      for kind, kind_column in (("average", "exploitability"),
                                ("best_response",
                                 "exploitability_best_response"))}
  assert settings.main_column(kuhn, CONFIG) == "exploitability"
  diagnosed = nfsp_training.evaluate(
      kuhn, agents, nfsp_training.EvaluationSettings(),
      diagnostics=lambda average: {"seen": 1.0})
  assert set(diagnosed) == {"exploitability", "seen"}


def test_each_game_has_its_metric(kuhn):
  lhe = pyspiel.load_game("nfsp_lhe")
  assert nfsp_training.column(kuhn, "greedy_average") == (
      "exploitability_greedy_average")
  assert nfsp_training.column(lhe, "average") == nfsp_training.LHE_METRIC
  assert nfsp_training.metric(pyspiel.load_game(
      "universal_poker")) == "mbb_per_hand_vs_random"
  assert [nfsp_training.learn_locksteps(game) for game in (kuhn, lhe)] == [
      1, 8]
  assert nfsp_training.learn_locksteps(lhe, 2) == 2


def test_an_odd_number_of_lbr_hands_is_refused():
  with pytest.raises(ValueError, match="^lbr_hands=3: LBR plays each deal "
                     "in both seats, so an even number$"):
    nfsp_training.EvaluationSettings(lbr_hands=3)


def test_the_training_run_logs_openspiels_nash_conv():
  game = pyspiel.load_game("kuhn_poker(players=3)")
  agents = agents_for(game, NFSPConfig.leduc(
      replay_buffer_capacity=20_000, reservoir_buffer_capacity=20_000,
      min_buffer_size_to_learn=32), seed=1)
  metrics = nfsp_training.evaluate(game, agents, SETTINGS)
  assert nfsp_training.metric(game) == "nash_conv"
  expected = openspiel_exploitability.nash_conv(
      game, NFSPPolicy(game, agents).to_tabular())
  assert metrics["nash_conv"] == pytest.approx(expected, abs=1e-9)
  assert {"br_gap_0", "br_gap_1", "br_gap_2"} <= metrics.keys()
  assert np.isfinite(list(metrics.values())).all()


def test_two_players_keep_exploitability():
  assert nfsp_training.metric(pyspiel.load_game("kuhn_poker")) == (
      "exploitability")
