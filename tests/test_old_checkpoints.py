"""Checkpoints written by commit 8b7cd09 (before the redesign of issue 27)
still load with the current code and continue exactly as they did there.

tests/data/checkpoints_8b7cd09/ holds the files (NFSP agents' `save` and
`nfsp.save_agents`, `selfplay.SelfPlay` with DQN in bytes and bits and with
ARM, XFP, FSP on Kuhn and Leduc, Smooth UCT on Leduc, and run folders of
examples/nfsp.py with both drivers) and expected.json, the values each run
gave at 8b7cd09 after being restored and continued; both were written by
tests/data/make_old_checkpoints.py (its docstring says how). Each test
restores through the public paths from a copy of the folder, continues the
same way and compares (floats to a relative 1e-6, everything else exactly).

tests/data/run_folders_22fff18/ holds run folders that every binary of
examples/ wrote at commit 22fff18, and the curves those binaries continued
them to (tests/data/make_old_run_folders.py); the current binaries continue
copies of them to the same curves.
"""

import csv
import json
import os
import shutil

import pytest

from test_same_numbers import assert_same
from test_same_numbers import load_data_module

old = load_data_module("make_old_checkpoints")

with open(old.EXPECTED, encoding="utf-8") as _f:
  EXPECTED = json.load(_f)


def test_written_by_the_base_commit_and_small():
  assert EXPECTED["_commit"] == "8b7cd09"
  assert sorted(k for k in EXPECTED if not k.startswith("_")) == sorted(
      old.CASES)
  total = 0
  for folder, _, files in os.walk(old.FOLDER):
    for name in files:
      size = os.path.getsize(os.path.join(folder, name))
      assert size <= 400_000, (name, size)
      total += size
  assert total <= 2_500_000


@pytest.mark.parametrize("name", sorted(old.CASES))
def test_old_checkpoint_continues_as_before(name, tmp_path):
  copy = tmp_path / "checkpoints"
  shutil.copytree(old.FOLDER, copy)
  _, resume = old.CASES[name]
  assert_same(old.same.jsonable(resume(str(copy))), EXPECTED[name], name)


runs = load_data_module("make_old_run_folders")

with open(runs.EXPECTED, encoding="utf-8") as _f:
  EXPECTED_RUNS = json.load(_f)


def _rows(curve):
  with open(curve, encoding="utf-8") as f:
    return list(csv.DictReader(f))


def test_run_folders_written_by_their_commit_and_small():
  assert EXPECTED_RUNS["_commit"] == "22fff18"
  assert sorted(k for k in EXPECTED_RUNS if not k.startswith("_")) == sorted(
      runs.CASES)
  total = sum(os.path.getsize(os.path.join(folder, name))
              for folder, _, files in os.walk(runs.FOLDER) for name in files)
  assert total <= 500_000


@pytest.mark.parametrize("name", sorted(runs.CASES))
def test_old_run_folder_resumes_as_before(name, tmp_path):
  """The current binary continues the old run folder to the same curve; the
  rows the old run logged keep their clocks (resumed, not redone)."""
  case = runs.CASES[name]
  folder = tmp_path / name
  shutil.copytree(os.path.join(runs.FOLDER, name), folder)
  logged = _rows(folder / "curve.csv")
  runs.run(str(folder), case, case.then, case.current_flags)
  curve = folder / "curve.csv"
  assert_same(old.read_curve(curve), EXPECTED_RUNS[name], name)
  if os.path.exists(os.path.join(runs.FOLDER, name, "checkpoint.npz")):
    kept = _rows(curve)[:len(logged)]
    assert [row["seconds"] for row in kept] == [
        row["seconds"] for row in logged]
  else:  # a binary that did not checkpoint then: a fresh run
    assert _rows(f"{curve}.1") == logged
