"""examples/nfsp.py --seeds / --sweep: a population's curve and resume
through the binary itself (the members, their rows and the bands are
tests/test_sweep.py's and tests/test_nfsp_training.py's)."""

import os
import subprocess
import sys

import pytest

from nfsp_spiel.run import curves

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                        "examples")
# Small memories that train within 2000 Kuhn episodes.
FLAGS = ["--game=kuhn_poker", "--eval_every=1000", "--checkpoint_every=1000",
         "--replay_buffer_capacity=2000", "--reservoir_buffer_capacity=2000",
         "--min_buffer_size_to_learn=100"]


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


# Slow: its fixture trains a population for 60 s; the band's arithmetic is
# tests/run/test_curves.py's.
@pytest.mark.slow
def test_the_curve_holds_each_member_and_the_mean_with_its_band(population):
  output, rows = population
  assert [row["step"] for row in rows][0] == 0 and len(rows) == 3
  for row in rows:
    members = [row["exploitability/seed0"], row["exploitability/seed2"]]
    assert row["exploitability/mean"] == pytest.approx(sum(members) / 2)
    assert row["step"] == min(row["step/seed0"], row["step/seed2"])
  assert os.path.getsize(output / "curve.png") > 0


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
