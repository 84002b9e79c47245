"""examples/xfp.py: a run, its curve and its resume."""

import os

from . import binaries

def test_xfp_runs_and_resumes(tmp_path):
  binaries.run("xfp.py", "--game=kuhn_poker", "--iterations=50",
               "--eval_every=25", f"--output_dir={tmp_path}")
  before = binaries.curve(tmp_path)
  assert binaries.steps(tmp_path) == [0, 25, 50]
  binaries.run("xfp.py", "--game=kuhn_poker", "--iterations=100",
               "--eval_every=25", f"--output_dir={tmp_path}")
  binaries.assert_resumed(tmp_path, before)
  rows = binaries.curve(tmp_path)
  assert binaries.steps(tmp_path) == [0, 25, 50, 75, 100]
  # XFP on Kuhn: from the uniform profile's 0.458 to below 0.05.
  assert rows[0]["exploitability"] > 0.45 > 0.05 > rows[-1]["exploitability"]
  assert (tmp_path / "curve.png").exists()


def test_xfp_keeps_checkpoints_when_asked(tmp_path):
  binaries.run("xfp.py", "--game=kuhn_poker", "--iterations=100",
               "--eval_every=25", "--checkpoint_every=25",
               "--keep_checkpoints_every=50", f"--output_dir={tmp_path}")
  assert sorted(os.listdir(tmp_path / "kept")) == ["100.npz", "50.npz"]
