"""examples/fsp.py: a run, its training clock and its resume."""

from . import binaries

def test_fsp_runs_and_resumes(tmp_path):
  binaries.run("fsp.py", "--game=kuhn_poker", "--seconds=0.5",
               "--eval_seconds=0.2", "--memory_episodes=1000",
               f"--output_dir={tmp_path}")
  before = binaries.curve(tmp_path)
  binaries.run("fsp.py", "--game=kuhn_poker", "--seconds=1.0",
               "--eval_seconds=0.2", "--memory_episodes=1000",
               f"--output_dir={tmp_path}")
  binaries.assert_resumed(tmp_path, before)
  rows = binaries.curve(tmp_path)
  # The training clock goes on from the first run's, to the second's 1 s.
  training = [row["training_seconds"] for row in rows]
  assert training == sorted(training) and 1.0 <= training[-1] < 2.0
  assert all(0 <= row["exploitability"] < 0.5 for row in rows)  # Kuhn's
  assert (tmp_path / "curve.png").exists()
