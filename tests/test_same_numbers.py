"""Same numbers as before the redesign (issue 27): a short seeded run of
every algorithm gives the values recorded from commit 8b7cd09.

The runs are `CASES` of tests/data/make_same_numbers.py; their values at
8b7cd09 are tests/data/same_numbers.json (that file's docstring says how
they were produced). Floats match to a relative 1e-6, integers, digests and
names exactly.
"""

import importlib.util
import json
import math
import os

import pytest

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def load_data_module(name):
  """A module of tests/data (not a package) by file."""
  spec = importlib.util.spec_from_file_location(
      name, os.path.join(DATA, name + ".py"))
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


same = load_data_module("make_same_numbers")

with open(same.JSON_PATH, encoding="utf-8") as _f:
  RECORDED = json.load(_f)

REL = 1e-6
ABS = 1e-9  # sums that are close to zero


def assert_same(got, want, where="value"):
  """`got` equals the recorded `want`: floats within REL (ABS near zero),
  everything else exactly; `where` names the mismatch."""
  if isinstance(want, dict):
    assert isinstance(got, dict), f"{where}: {got!r} is not a dict"
    assert sorted(got) == sorted(want), f"{where}: keys {sorted(got)} != {sorted(want)}"
    for key in want:
      assert_same(got[key], want[key], f"{where}[{key!r}]")
  elif isinstance(want, list):
    assert isinstance(got, list), f"{where}: {got!r} is not a list"
    assert len(got) == len(want), f"{where}: length {len(got)} != {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
      assert_same(g, w, f"{where}[{i}]")
  elif isinstance(want, float):
    assert isinstance(got, (int, float)), f"{where}: {got!r} is not a number"
    if math.isnan(want):
      assert math.isnan(got), f"{where}: {got!r} != nan"
    else:
      assert got == pytest.approx(want, rel=REL, abs=ABS), (
          f"{where}: {got!r} != {want!r} (8b7cd09)")
  else:  # int, bool, str, None: exact
    assert got == want and type(got) is type(want), (
        f"{where}: {got!r} != {want!r} (8b7cd09)")


def test_recorded_from_the_base_commit():
  assert RECORDED["_commit"] == "8b7cd09"
  assert sorted(k for k in RECORDED if not k.startswith("_")) == sorted(
      same.CASES)


@pytest.mark.parametrize("name", sorted(same.CASES))
def test_same_numbers(name):
  assert_same(same.jsonable(same.CASES[name]()), RECORDED[name], name)


def test_the_flat_constructor_of_8b7cd09_still_builds_the_same_config():
  """At 8b7cd09 `NFSPConfig` took every setting flat in its constructor, as
  tests/test_selfplay.py and tests/test_nfsp.py (and users' scripts) still
  write it; the presets are that constructor (`leduc(**changes)` was
  `cls(**changes)`). The runs above go through the preset, so this checks
  the constructor by itself."""
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  flat = dict(rl_memory_capacity=5000, sl_memory_capacity=20000,
              learn_every=16, batch_size=32, min_memory_to_learn=32,
              anticipatory=0.3, rl_learning_rate=0.05, epsilon_start=0.1,
              target_refit_every=100)
  assert nfsp.NFSPConfig(**flat) == nfsp.NFSPConfig.leduc(**flat)
