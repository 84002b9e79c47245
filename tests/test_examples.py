"""The example binaries run end to end with small flags."""

import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, "examples")


def _run(script, *flags):
  result = subprocess.run(
      [sys.executable, os.path.join(EXAMPLES, script), *flags],
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode == 0, result.stderr[-3000:]
  return result.stdout


def test_play_games():
  out = _run("play_games.py", "--games_per_title=20", "--cfr_iterations=1")
  for name in ("river_poker", "nfsp_leduc", "nfsp_lhe"):
    assert f"== {name}" in out
  assert "OpenSpiel's C++ CFR" in out


def test_evaluate_cfr(tmp_path):
  out = _run("evaluate_cfr.py", "--game=kuhn_poker", "--iterations=40",
             "--eval_every=20", "--match_deals=200",
             f"--output_dir={tmp_path}")
  assert "step 40" in out and "mbb/h" in out
  assert (tmp_path / "curve.csv").exists() and (tmp_path / "curve.png").exists()
  last = out.splitlines()[1]
  exploitability = float(last.split("exploitability ")[1].split(",")[0])
  assert exploitability < 0.05  # CFR after 40 iterations of Kuhn
