"""examples/nfsp.py --seeds / --sweep: a population's curve, checkpoint and
errors, through the binary itself."""

import os
import subprocess
import sys

import pytest

from nfsp_spiel.run import curves

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, "examples")
# Small memories that train within 2000 Kuhn episodes.
FLAGS = ["--game=kuhn_poker", "--eval_every=1000", "--checkpoint_every=1000",
         "--rl_memory=2000", "--sl_memory=2000", "--min_memory_to_learn=100"]


def _command(output, *flags):
  return [sys.executable, os.path.join(EXAMPLES, "nfsp.py"), *FLAGS, *flags,
          f"--output_dir={output}"]


def _run(output, *flags):
  result = subprocess.run(_command(output, *flags), capture_output=True,
                          text=True, timeout=300, check=False)
  assert result.returncode == 0, result.stderr[-3000:]
  return curves.read_curve(os.path.join(output, "curve.csv"))


@pytest.fixture(scope="module")
def population(tmp_path_factory):
  """(folder, rows) of an uninterrupted run of seeds 0 and 2."""
  output = tmp_path_factory.mktemp("population")
  return output, _run(output, "--seeds=0,2", "--episodes=2000")


def test_the_curve_holds_each_member_and_the_mean_with_its_band(population):
  output, rows = population
  assert [row["step"] for row in rows][0] == 0 and len(rows) == 3
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
  assert os.path.getsize(output / "curve.png") > 0


def test_a_member_is_the_run_of_its_seed(population, tmp_path):
  """Member seed0 evaluates at the single run's episode counts and finds
  its exploitability to the last bit."""
  _, rows = population
  single = _run(tmp_path, "--seed=0", "--episodes=2000")
  assert [row["step"] for row in single] == [row["step/seed0"] for row in rows]
  assert [row["exploitability"] for row in single] == [
      row["exploitability/seed0"] for row in rows]


# Slow (80 s): the population's resume is tests/test_population.py's
# test_resume_continues_exactly; this is the binary's, through the same
# open_run every binary's resume tests cover.
@pytest.mark.slow
def test_a_resumed_population_loses_nothing(population, tmp_path):
  _, uninterrupted = population
  _run(tmp_path, "--seeds=0,2", "--episodes=1000")
  resumed = _run(tmp_path, "--seeds=0,2", "--episodes=2000")
  columns = [c for c in resumed[0] if "seconds" not in c and "loss" not in c]
  assert [[row[c] for c in columns] for row in resumed] == [
      [row[c] for c in columns] for row in uninterrupted]


def test_a_bad_sweep_is_one_line(tmp_path):
  result = subprocess.run(_command(tmp_path, "--seeds=0,2",
                                   "--sweep=learning_rat=0.1,0.2"),
                          capture_output=True, text=True, timeout=300,
                          check=False)
  assert result.returncode == 1 and "Traceback" not in result.stderr
  last = result.stderr.strip().splitlines()[-1]
  assert last.startswith("--sweep=learning_rat=0.1,0.2: give name=value1,"
                         "value2,... with a name of ") and "eta" in last


def test_learn_locksteps_is_refused_where_it_does_not_apply(tmp_path):
  """Grouped learning sets one batched run's learning: one line naming the
  flag, not a silently ignored setting."""
  result = subprocess.run(_command(tmp_path, "--seeds=0,2",
                                   "--learn_locksteps=8"),
                          capture_output=True, text=True, timeout=300,
                          check=False)
  assert result.returncode == 1 and "Traceback" not in result.stderr
  assert result.stderr.strip().splitlines()[-1].endswith(
      "--learn_locksteps=8 sets one batched self-play run's learning "
      "(--driver=selfplay, no --actors, --seeds or --sweep)")
