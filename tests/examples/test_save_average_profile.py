"""examples/save_average_profile.py: the saved profile measures what the
run's curve measured of its agents at the checkpoint; bad flags are one
line."""

import os
import subprocess
import sys

import pytest

from . import binaries


def test_the_saved_profile_scores_the_curves_last_row(tmp_path):
  run = tmp_path / "run"
  binaries.run("nfsp.py", "--game=kuhn_poker", "--episodes=1000",
               "--eval_every=1000", "--checkpoint_every=1000",
               "--replay_buffer_capacity=2000",
               "--reservoir_buffer_capacity=2000",
               "--min_buffer_size_to_learn=100", f"--output_dir={run}")
  output = binaries.run("save_average_profile.py",
                        f"--checkpoint={run / 'checkpoint.npz'}",
                        f"--output={tmp_path / 'kuhn.npz'}")
  last = binaries.curve(run)[-1]
  assert f"after {int(last['step']):,} episodes" in output
  printed = dict(line.split(": ") for line in output.splitlines()[1:])
  assert float(printed["exploitability"]) == pytest.approx(
      last["exploitability"], rel=1e-5)
  assert (tmp_path / "kuhn.npz").exists()


@pytest.mark.parametrize("flags,error", [
    (["--checkpoint=nowhere.npz"], "error: --checkpoint='nowhere.npz': no "
                                   "such file"),
    (["--member=0"], "error: --member=0: checkpoint="),
])
def test_bad_flags_are_one_line(tmp_path, flags, error):
  checkpoint = tmp_path / "agents.npz"
  code = ("import pyspiel, nfsp_spiel\nfrom nfsp_spiel import nfsp\n"
          "game = pyspiel.load_game('kuhn_poker')\n"
          f"nfsp.save_agents({str(checkpoint)!r}, game, "
          "nfsp.agents_for(game, nfsp.NFSPConfig.leduc()))")
  subprocess.run([sys.executable, "-c", code], check=True, timeout=300)
  result = subprocess.run(
      [sys.executable, os.path.join(binaries.EXAMPLES,
                                    "save_average_profile.py"),
       f"--checkpoint={checkpoint}", f"--output={tmp_path / 'out.npz'}",
       *flags], capture_output=True, text=True, timeout=300, check=False,
      cwd=tmp_path)
  assert result.returncode == 1
  assert result.stderr.startswith(error), result.stderr[-2000:]
  assert len(result.stderr.strip().splitlines()) == 1
