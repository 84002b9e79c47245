"""Running the example binaries in the tests of tests/examples/: a run, its
curve's rows, its checkpoint's settings, and stand-in E[HS^2] tables."""

import json
import os
import subprocess
import sys

import numpy as np

from nfsp_spiel.core import checkpoints
from nfsp_spiel.run import curves

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                        "examples")


def run(script, *flags, env=None):
  result = subprocess.run(
      [sys.executable, os.path.join(EXAMPLES, script), *flags],
      capture_output=True, text=True, timeout=300, check=False, env=env)
  assert result.returncode == 0, result.stderr[-3000:]
  return result.stdout


def curve(output_dir):
  """The rows of a run's curve.csv."""
  return curves.read_curve(os.path.join(output_dir, "curve.csv"))


def steps(output_dir):
  return [int(row["step"]) for row in curve(output_dir)]


def config(output_dir):
  """The settings a run's checkpoint holds."""
  with np.load(os.path.join(output_dir, "checkpoint.npz")) as data:
    return json.loads(str(data[checkpoints.HEADER]))["config"]


def assert_resumed(output_dir, before):
  """The curve continues `before` (the first run's rows, kept as they were,
  not moved aside for a fresh run's), from the checkpoint's step."""
  rows = curve(output_dir)
  assert rows[:len(before)] == before and len(rows) > len(before)
  assert not os.path.exists(os.path.join(output_dir, "curve.csv.1"))
  assert checkpoints.read_progress(os.path.join(
      output_dir, "checkpoint.npz"))["step"] == rows[-1]["step"]


def stand_in_tables(cache):
  """An environment whose E[HS^2] tables by board (NFSP_SPIEL_CACHE) have the
  real shapes and every hand in bucket 0: building the real ones takes
  minutes."""
  from nfsp_spiel.poker import board_buckets  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.poker import card_abstraction  # pylint: disable=g-import-not-at-top
  card_abstraction.save_tables(cache / "ehs2" / "by_board",
                               board_buckets.stand_ins(buckets=0)._asdict())
  return {**os.environ, "NFSP_SPIEL_CACHE": str(cache)}


def fails(script, *flags):
  """stderr of a run that must fail with status 1."""
  result = subprocess.run([sys.executable, os.path.join(EXAMPLES, script),
                           *flags], capture_output=True, text=True,
                          timeout=300, check=False)
  assert result.returncode == 1, (result.returncode, result.stderr[-3000:])
  return result.stderr
