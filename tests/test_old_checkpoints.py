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
"""

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
