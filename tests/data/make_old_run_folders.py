"""Run folders written by commit 22fff18's binaries, and how they continued.

`tests/data/run_folders_22fff18/` was written by this file from a pristine
checkout of commit 22fff18 (the last main whose FSP checkpoints lacked the
work counter `state_visits`), not from a working tree:

    git -C /work/main worktree add /tmp/base_22fff18 22fff18
    cd /work/main && . .venv/bin/activate
    NFSP_SPIEL_BASE=/tmp/base_22fff18 PYTHONPATH=/tmp/base_22fff18 \\
        nice python tests/data/make_old_run_folders.py

For every binary of examples/, the base's binary trains a tiny run to
`first` steps and keeps its folder (checkpoint and curve; evaluate_cfr.py
did not checkpoint then, so its folder is a curve alone); the same command
with `--<length>=<then>` continues a copy, and expected.json holds that
curve without its wall-clock columns. `tests/test_old_checkpoints.py` runs
the current binary on a copy of each folder and compares.
"""

import collections
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_old_checkpoints as old  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position

COMMIT = "22fff18"
FOLDER = os.path.join(HERE, f"run_folders_{COMMIT}")
EXPECTED = os.path.join(FOLDER, "expected.json")

# `flags` are the base's and the current binary's; `current_flags` only the
# current binary's (Smooth UCT's --threads came later: one thread is the
# base's search, repeatable from a seed).
Case = collections.namedtuple(
    "Case", "script flags length first then current_flags", defaults=[()])
CASES = {
    "xfp": Case("xfp.py", ["--game=kuhn_poker", "--eval_every=5",
                           "--checkpoint_every=10"], "iterations", 20, 30),
    "fsp": Case("fsp.py", ["--game=nfsp_leduc", "--memory_episodes=50",
                           "--eval_seconds=0"], "iterations", 300, 400),
    "smooth_uct": Case("smooth_uct.py", ["--game=kuhn_poker",
                                         "--eval_every=1000"],
                       "episodes", 2000, 3000, ["--threads=1"]),
    "nfsp": Case("nfsp.py", [*old.BINARY_FLAGS, "--rl_memory=300"],
                 "episodes", 400, 600),
    "evaluate_cfr": Case("evaluate_cfr.py", ["--game=kuhn_poker",
                                             "--eval_every=10",
                                             "--match_deals=0"],
                         "iterations", 20, 30),
}


def run(folder, case, steps, flags=()):
  """The case's binary on `folder` to `steps`; returns its stdout."""
  return old.run_binary(folder, [*case.flags, *flags,
                                 f"--{case.length}={steps}"], case.script)


def make(name):
  """The base's run to `first`, its checkpoint and curve kept."""
  out = os.path.join(FOLDER, name)
  shutil.rmtree(out, ignore_errors=True)
  run(out, CASES[name], CASES[name].first)
  for entry in os.listdir(out):
    if entry not in ("checkpoint.npz", "curve.csv"):
      path = os.path.join(out, entry)
      (shutil.rmtree if os.path.isdir(path) else os.remove)(path)


def main(names):
  old.same.import_from_base()
  expected = old.same.read_recorded(EXPECTED, COMMIT)
  for name in names or CASES:
    make(name)
    with tempfile.TemporaryDirectory() as scratch:
      copy = os.path.join(scratch, name)
      shutil.copytree(os.path.join(FOLDER, name), copy)
      run(copy, CASES[name], CASES[name].then)
      expected[name] = old.read_curve(os.path.join(copy, "curve.csv"))
    print(f"{name}: {len(expected[name])} rows", flush=True)
  old.same.write_recorded(EXPECTED, expected)


if __name__ == "__main__":
  main(sys.argv[1:])
