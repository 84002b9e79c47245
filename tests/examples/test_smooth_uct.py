"""examples/smooth_uct.py on Kuhn, Leduc and two- and three-player Limit
Hold'em: runs, presets by game, resume, --seconds and the greedy profile."""

import os
import subprocess
import sys

import numpy as np
import pytest

from . import binaries

def test_smooth_uct_runs_and_resumes(tmp_path):
  out = binaries.run("smooth_uct.py", "--episodes=2e4", "--eval_every=1e4",
                     f"--output_dir={tmp_path}")
  assert binaries.steps(tmp_path) == [10000, 20000]
  assert binaries.config(tmp_path)["c"] == 1.75  # the thesis' Kuhn preset
  size = os.path.getsize(tmp_path / "checkpoint.npz") / 2**20
  assert out.splitlines()[-1].endswith(f"checkpoint.npz ({size:,.1f} MB)")
  before = binaries.curve(tmp_path)
  binaries.run("smooth_uct.py", "--episodes=40_000", "--eval_every=10000",
               f"--output_dir={tmp_path}")
  binaries.assert_resumed(tmp_path, before)
  assert binaries.steps(tmp_path) == [10000, 20000, 30000, 40000]
  # Kuhn's uniform profile is 0.458 from a Nash equilibrium.
  assert 0 <= binaries.curve(tmp_path)[-1]["exploitability"] < 0.3


def test_smooth_uct_takes_the_games_parameters(tmp_path):
  """Leduc gets the thesis' Leduc parameters (Kuhn's gave exploitability 1.4
  there); a game the thesis did not tune for needs --preset."""
  binaries.run("smooth_uct.py", "--game=leduc_poker", "--episodes=1000",
               "--eval_every=1000", f"--output_dir={tmp_path}")
  assert binaries.config(tmp_path)["c"] == 18.0
  result = subprocess.run(
      [sys.executable, os.path.join(binaries.EXAMPLES, "smooth_uct.py"),
       "--game=river_poker", f"--output_dir={tmp_path / 'river'}"],
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode == 1
  assert ("tuned Smooth UCT on Kuhn, Leduc and Limit Hold'em only; choose "
          "--preset") in result.stderr + result.stdout


def test_smooth_uct_on_three_player_limit_holdem_resumes(tmp_path):
  """nfsp_lhe3: the hashed-table search (a small table here), evaluated
  against two copies of each fixed baseline, checkpointed and resumed."""
  command = [sys.executable, os.path.join(binaries.EXAMPLES, "smooth_uct.py"),
             "--game=nfsp_lhe3", "--eval_every=10000", "--eval_deals=5",
             "--capacity=65536", "--threads=1",
             f"--output_dir={tmp_path / 'run'}"]
  environment = binaries.stand_in_tables(tmp_path / "cache")
  output = tmp_path / "run"
  before = []
  for episodes in (10000, 20000):
    result = subprocess.run(command + [f"--episodes={episodes}"],
                            capture_output=True, text=True, timeout=300,
                            check=False, env=environment)
    assert result.returncode == 0, result.stderr[-3000:]
    if before:
      binaries.assert_resumed(output, before)
    before = binaries.curve(output)
  assert binaries.config(output)["c"] == 36.0  # the lhe3 preset
  assert binaries.steps(output) == [10000, 20000]
  # The greedy profile against two copies of each baseline, in mbb/h.
  assert all(-1e5 < row["mbb_per_hand_vs_always_call"] < 1e5
             for row in binaries.curve(output))


# Slow: test_smooth_uct_runs_and_resumes (Leduc) stays.
@pytest.mark.slow
def test_smooth_uct_on_limit_holdem_runs_and_resumes(tmp_path):
  """nfsp_lhe: the E[HS^2] search, evaluated against the baselines in mbb/h,
  stopped by --seconds, resumed. The tables in the cache are stand-ins of
  the real shapes (building the real ones takes minutes)."""
  command = [sys.executable, os.path.join(binaries.EXAMPLES, "smooth_uct.py"),
             "--game=nfsp_lhe", "--eval_every=20000", "--eval_deals=10",
             f"--output_dir={tmp_path / 'run'}"]
  environment = binaries.stand_in_tables(tmp_path / "cache")

  def run(*flags):
    result = subprocess.run(command + list(flags), capture_output=True,
                            text=True, timeout=300, check=False,
                            env=environment)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout

  run("--episodes=40000")
  assert binaries.config(tmp_path / "run")["c"] == 24.0  # the lhe preset
  assert all(-1e5 < row["mbb_per_hand_vs_equity_threshold"] < 1e5
             for row in binaries.curve(tmp_path / "run"))

  def curve():
    with open(tmp_path / "run" / "curve.csv", encoding="utf-8") as csv:
      header, *rows = csv.read().splitlines()
    return header.split(","), [row.split(",") for row in rows]

  # --seconds bounds the whole run's training clock, which the first run
  # started (its JIT compilation included): 1.5 s more of it.
  header, rows = curve()
  spent = float(rows[-1][header.index("training_seconds")])
  profile = tmp_path / "profile.npz"
  before = binaries.curve(tmp_path / "run")
  run("--episodes=1e9", "--eval_every=1e9", f"--seconds={spent + 1.5}",
      f"--greedy_profile={profile}")
  binaries.assert_resumed(tmp_path / "run", before)
  header, rows = curve()
  assert {"mbb_per_hand_vs_always_call", "mbb_stderr_vs_always_raise",
          "training_seconds"} <= set(header)
  steps = [int(row[0]) for row in rows]
  # The clock stopped the third evaluation's chunk (10^6 episodes each).
  assert steps[:2] == [20000, 40000] and len(steps) == 3
  assert 40000 < steps[2] < 1e8 and (steps[2] - 40000) % 1_000_000 == 0
  with np.load(profile) as data:
    assert f'"episodes": {steps[2]}' in str(data["settings"])
  # A run resumed past --episodes leaves an earlier snapshot alone (figure
  # scripts keep one profile per episode count).
  earlier = tmp_path / "earlier.npz"
  earlier.write_bytes(b"the 40000-episode snapshot")
  out = run("--episodes=40000", f"--greedy_profile={earlier}")
  assert f"greedy profile not written: the run is at {steps[2]}" in out
  assert earlier.read_bytes() == b"the 40000-episode snapshot"
