"""examples/nfsp.py: NFSP-ARM and ARM by preset, Limit Hold'em's columns, and
--seeds / --sweep: a population's curve and resume through the binary itself
(the members, their rows and the bands are tests/nfsp/test_sweep.py's and
tests/run/test_nfsp_training.py's)."""

import json
import os
import subprocess
import sys

import pytest

from nfsp_spiel.run import curves

from . import binaries

# Small memories that train within 2000 Kuhn episodes.
FLAGS = ["--game=kuhn_poker", "--eval_every=1000", "--checkpoint_every=1000",
         "--replay_buffer_capacity=2000", "--reservoir_buffer_capacity=2000",
         "--min_buffer_size_to_learn=100"]


def _command(output, *flags):
  return [sys.executable, os.path.join(binaries.EXAMPLES, "nfsp.py"), *FLAGS,
          *flags, f"--output_dir={output}"]


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


# Slow (80 s): the population's resume is tests/nfsp/test_population.py's
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


@pytest.mark.parametrize("preset,column", [
    ("nfsp_arm", "exploitability"),
    # Slow: [nfsp_arm-exploitability] stays.
    pytest.param("arm", "exploitability_best_response",
                 marks=pytest.mark.slow)])
def test_nfsp_binary_trains_nfsp_arm_and_arm(tmp_path, preset, column):
  """One binary for NFSP, NFSP-ARM and plain ARM (whose own policy is
  what its curve measures)."""
  binaries.run("nfsp.py", "--game=kuhn_poker", f"--preset={preset}",
               "--episodes=3000", "--eval_every=3000",
               "--checkpoint_every=3000", "--backend=tree",
               f"--output_dir={tmp_path}")
  rows = binaries.curve(tmp_path)
  # Batched self-play ends its games in play past --episodes.
  assert len(rows) == 2 and 3000 <= rows[-1]["step"] < 3100
  # Kuhn's exploitability, a mean of best-response values: at most 2 chips.
  assert all(0 <= row[column] <= 2 for row in rows)


# Slow (30 s): LBR and the baselines are tests/evaluation/test_lbr.py's and
# tests/evaluation/test_matches.py's; this is the binary's Limit Hold'em
# columns.
@pytest.mark.slow
def test_nfsp_binary_measures_lhe_against_the_baseline_and_lbr(tmp_path):
  """Limit Hold'em has no exact best response: the curve holds mbb/h
  against the equity-threshold player and the shipped SmooCT-like profile
  (here on stand-in bucket tables), and LBR's winnings."""
  flags = ["--game=nfsp_lhe", "--preset=lhe", "--hidden_layers=16",
           "--replay_buffer_capacity=2000",
           "--reservoir_buffer_capacity=2000", "--episodes=256",
           "--eval_every=256", "--checkpoint_every=256", "--eval_deals=4",
           "--smooct_deals=4", "--lbr_hands=2",
           "--eval_policies=average,greedy_average", f"--output_dir={tmp_path}"]
  binaries.run("nfsp.py", *flags,
               env=binaries.stand_in_tables(tmp_path / "cache"))
  with open(tmp_path / "curve.csv", encoding="utf-8") as curve:
    header, *rows = curve.read().splitlines()
  assert {"mbb_per_hand_vs_equity_threshold", "lbr_mbb_per_hand",
          "mbb_per_hand_vs_smooct", "mbb_per_hand_vs_smooct_greedy_average",
          } <= set(header.split(",")) and len(rows) == 2
  result = subprocess.run(
      [sys.executable, os.path.join(binaries.EXAMPLES, "nfsp.py"), *flags,
       "--lbr_hands=3"], capture_output=True, text=True, timeout=300,
      check=False)
  assert "--lbr_hands=3: LBR plays each deal in both seats" in result.stderr



def test_a_run_branches_from_another_runs_checkpoint(tmp_path):
  """--branch_from: a fresh run continues another run's checkpoint with a
  learning setting changed, says so in branch.json, and its curve goes on
  from that run's step; a setting that shapes an array is refused."""
  parent = tmp_path / "parent"
  _run(parent, "--episodes=1000")
  child = tmp_path / "child"
  rows = _run(child, "--episodes=2000", "--td_error_clip=1",
              f"--branch_from={parent / 'checkpoint.npz'}")
  assert [row["step"] for row in rows][0] >= 2000 and len(rows) == 1
  with open(child / "branch.json", encoding="utf-8") as f:
    branch = json.load(f)
  assert branch["changed"] == {"best_response.td_error_clip": [0.0, 1.0]}
  assert 1000 <= branch["step"] < 1100
  result = subprocess.run(
      _command(tmp_path / "wider", "--episodes=2000", "--hidden_layers=9",
               f"--branch_from={parent / 'checkpoint.npz'}"),
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode != 0
  assert "a branch may change only" in result.stderr.splitlines()[-1]
  result = subprocess.run(
      _command(tmp_path / "orphan", "--branch_from=nowhere.npz"),
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode != 0 and result.stderr.splitlines()[-1] == (
      "error: --branch_from=nowhere.npz: no such checkpoint file")
