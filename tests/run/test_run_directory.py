"""Curves stay consistent with checkpoints after any crash, in every binary.

The four training binaries share `nfsp_spiel.run.run_directory`: these tests
crash them (a checkpoint older than the curve's last rows, a row cut
mid-write, a temporary checkpoint left behind, SIGKILL at a random moment)
and check that the resumed curve is exactly the rows up to the checkpoint
followed by the resumed run's, once each, with the clocks continuing.
"""

import glob
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from nfsp_spiel.core import checkpoints
from nfsp_spiel.run import curves
from nfsp_spiel.run import run_directory

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                        "examples")

# Per binary: its flags, the flag of its target step, and whether a run is
# deterministic (a resumed run then logs the values an uninterrupted one
# did; NFSP's TensorFlow arithmetic may reorder float sums across threads,
# and Smooth UCT is deterministic on one thread only).
BINARIES = {
    "xfp": (["--game=kuhn_poker", "--eval_every=10", "--checkpoint_every=30"],
            "--iterations", True),
    "fsp": (["--game=kuhn_poker", "--memory_episodes=1000", "--seconds=1e9",
             "--eval_seconds=0"], "--iterations", True),
    # One thread: with more, the threads' interleaving varies the tables.
    "smooth_uct": (["--game=kuhn_poker", "--eval_every=2000", "--threads=1"],
                   "--episodes", True),
    "nfsp": (["--game=kuhn_poker", "--eval_every=500", "--checkpoint_every=1000",
              "--num_games=16", "--nodiagnostics"], "--episodes", False),
    # OpenSpiel's RL loop, with the diagnostics beside exploitability.
    "nfsp_rl_environment": (["--game=kuhn_poker", "--eval_every=500",
                             "--checkpoint_every=1000",
                             "--driver=rl_environment"], "--episodes", False),
    # Two Ray actors and a learner (a local Ray instance per run).
    "nfsp_actors": (["--game=kuhn_poker", "--eval_every=500",
                     "--checkpoint_every=1000", "--num_games=16",
                     "--nodiagnostics", "--actors=2"], "--episodes", False),
}
# The binaries whose curve steps are the same in every run (a Ray run's
# evaluations fall on the first actor chunk past each --eval_every). A Ray
# run keeps its curve through the same calls of examples/nfsp.py, so the
# SIGKILL test alone covers it (a Ray start costs ~15 s a run).
SINGLE_PROCESS = [b for b in BINARIES if b != "nfsp_actors"]
# The steps S1 < S2 < S3 each crash test runs to (FSP evaluates every 100).
TARGETS = {"xfp": (30, 60, 90), "fsp": (200, 400, 600),
           "smooth_uct": (4000, 8000, 12000), "nfsp": (1000, 2000, 3000),
           "nfsp_rl_environment": (1000, 2000, 3000),
           "nfsp_actors": (1000, 2000, 3000)}


def _slow(binaries, slow):
  """`binaries` as parameters, those in `slow` marked slow."""
  return [pytest.param(b, marks=pytest.mark.slow) if b in slow else b
          for b in binaries]


def _command(binary, output, target, *extra):
  flags, target_flag, _ = BINARIES[binary]
  script = "nfsp" if binary.startswith("nfsp") else binary
  return [sys.executable, os.path.join(EXAMPLES, f"{script}.py"), *flags,
          f"{target_flag}={target}", f"--output_dir={output}", *extra]


def _run(binary, output, target, *extra):
  result = subprocess.run(_command(binary, output, target, *extra),
                          capture_output=True, text=True, timeout=300,
                          check=False)
  assert result.returncode == 0, result.stderr[-3000:]
  return result.stdout


def _rows(output):
  return curves.read_curve(os.path.join(output, "curve.csv"))


def _steps(rows):
  return [row["step"] for row in rows]


def _assert_consistent(rows, kept, checkpoint_progress):
  """`rows` start with exactly `kept` (the rows up to the checkpoint), no
  step repeats or runs backwards, and the clock continues from the
  checkpoint's."""
  steps = _steps(rows)
  assert steps == sorted(set(steps)), steps
  np.testing.assert_equal(rows[:len(kept)], kept)  # NaN losses included
  assert all(row["step"] > checkpoint_progress["step"]
             for row in rows[len(kept):])
  seconds = [row["seconds"] for row in rows]
  assert seconds == sorted(seconds)
  assert rows[len(kept)]["seconds"] >= checkpoint_progress["seconds"]


# Slow: [xfp] and NFSP's; [fsp] and [smooth_uct] stay (the NFSP binary's
# resume: test_ctrl_c_...[nfsp]).
@pytest.mark.parametrize("binary", _slow(
    SINGLE_PROCESS, ("xfp", "nfsp", "nfsp_rl_environment")))
def test_resume_after_a_crash_cuts_the_curve_to_the_checkpoint(tmp_path,
                                                               binary):
  """A crash after rows were logged past the last checkpoint, while a row was
  being written and while a checkpoint was being saved: the resumed curve
  holds the rows up to the checkpoint, then the resumed run's, once each."""
  output = str(tmp_path / binary)
  first, second, third = TARGETS[binary]
  extra = ["--tensorboard"] if binary in ("xfp", "nfsp") else []
  _run(binary, output, first, *extra)
  checkpoint = os.path.join(output, "checkpoint.npz")
  old_checkpoint = str(tmp_path / "old.npz")
  shutil.copy(checkpoint, old_checkpoint)
  kept = _rows(output)
  _run(binary, output, second, *extra)
  uninterrupted = _rows(output)
  assert len(uninterrupted) > len(kept)
  # The crash: the checkpoint at `second` never landed, a row was cut
  # mid-write, a temporary checkpoint was left behind, no PNG was drawn.
  shutil.copy(old_checkpoint, checkpoint)
  with open(os.path.join(output, "curve.csv"), "a") as f:
    f.write(f"{second + 1},1")
  temporary = checkpoints.temporary_path(checkpoint)
  with open(temporary, "wb") as f:
    f.write(b"PK\x03\x04 half a zip")
  os.remove(os.path.join(output, "curve.png"))

  out = _run(binary, output, third, *extra)
  assert "resumed from" in out
  rows = _rows(output)
  _assert_consistent(rows, kept, checkpoints.read_progress(old_checkpoint))
  assert not os.path.exists(temporary)
  assert os.path.exists(os.path.join(output, "curve.png"))
  if BINARIES[binary][2]:  # deterministic: the redone rows are the same
    redone = {row["step"]: row for row in rows}
    for row in uninterrupted:
      assert {k: v for k, v in redone[row["step"]].items() if "seconds"
              not in k} == {k: v for k, v in row.items() if "seconds" not in k}
  if binary == "fsp":  # the training clock continues from the checkpoint's
    training = [row["training_seconds"] for row in rows]
    assert training == sorted(training)
  if extra:
    assert _tensorboard_steps(output) == _steps(rows)
  if binary == "nfsp_rl_environment":
    assert {"br_gap_0", "br_gap_1", "exploitability_sl_memory"} <= set(rows[0])
    assert all(row["br_gap_0"] >= -1e-9 for row in rows)


# The run directory decides this before any driver starts: one NFSP driver,
# and that one slow (the other binaries stay).
@pytest.mark.parametrize("binary", _slow([b for b in SINGLE_PROCESS
                                          if b != "nfsp_rl_environment"],
                                         ("nfsp",)))
def test_a_run_without_checkpoint_starts_a_fresh_curve(tmp_path, binary):
  """A run that crashed before its first checkpoint left a curve: the next
  run starts a fresh one (and its clocks from zero), as does --noresume."""
  output = str(tmp_path / binary)
  first, second, _ = TARGETS[binary]
  _run(binary, output, second)
  os.remove(os.path.join(output, "checkpoint.npz"))
  # The old curve's clocks read a million seconds: a run that continued
  # them would log more.
  before = _rows(output)
  with open(os.path.join(output, "curve.csv"), "w") as f:
    f.write(",".join(before[0]) + "\n")
    for row in before:
      f.write(",".join(str(v + 1e6 if "seconds" in k else v)
                       for k, v in row.items()) + "\n")
  out = _run(binary, output, first)
  assert "no checkpoint in" in out
  assert "the earlier run's curve is kept as curve.csv.1" in out
  assert _steps(curves.read_curve(
      os.path.join(output, "curve.csv.1"))) == _steps(before)
  rows = _rows(output)
  assert 1 < len(rows) < len(before)
  assert _steps(rows) == _steps(before)[:len(rows)]  # one series, no repeat
  assert all(v < 1e6 for row in rows for k, v in row.items()
             if "seconds" in k)
  out = _run(binary, output, first, "--noresume")
  assert "--noresume: a fresh run" in out
  assert _steps(_rows(output)) == _steps(rows)


# Slow: NFSP's (Ray's 120 s; Ray runs only in the slow run); [xfp], [fsp],
# [smooth_uct] stay, and the NFSP binary resumes in test_ctrl_c_...[nfsp].
@pytest.mark.parametrize("binary", _slow(
    list(BINARIES), ("nfsp", "nfsp_rl_environment", "nfsp_actors")))
def test_killed_at_a_random_moment_and_resumed(tmp_path, binary):
  """SIGKILL at a random moment after the first checkpoint: the resumed run
  finishes with every evaluation in its curve once, in order."""
  output = str(tmp_path / binary)
  first, _, third = TARGETS[binary]
  process = subprocess.Popen(_command(binary, output, 100 * third),
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
  checkpoint = os.path.join(output, "checkpoint.npz")
  deadline = time.time() + 120
  while not os.path.exists(checkpoint) and time.time() < deadline:
    time.sleep(0.05)
  time.sleep(random.Random(binary).uniform(0.0, 1.0))
  process.send_signal(signal.SIGKILL)
  process.wait()
  progress = checkpoints.read_progress(checkpoint)
  kept = [row for row in _rows(output) if row["step"] <= progress["step"]]
  _run(binary, output, progress["step"] + first)
  rows = _rows(output)
  _assert_consistent(rows, kept, progress)
  assert rows[-1]["step"] >= progress["step"] + first


# Ctrl-C reaches evaluate_cfr too (OpenSpiel's CFR, checkpointed through its
# own serialisation).
INTERRUPTIBLE = {**BINARIES, "evaluate_cfr": (
    ["--game=kuhn_poker", "--eval_every=10", "--checkpoint_every=1000000",
     "--match_deals=0"], "--iterations", True)}
TARGETS["evaluate_cfr"] = (20, 40, 60)


# NFSP's RL-environment and Ray drivers stop through the same loop of
# examples/nfsp.py as its batched driver: they run with `pytest -m slow`.
@pytest.mark.parametrize("binary", [
    pytest.param(b, marks=pytest.mark.slow)
    if b in ("nfsp_rl_environment", "nfsp_actors") else b
    for b in INTERRUPTIBLE])
def test_ctrl_c_checkpoints_the_last_step_and_resumes_with_nothing_lost(
    tmp_path, binary):
  """SIGINT before the first scheduled checkpoint (the issue's quick start:
  checkpoints every 10^6 episodes): the binary logs and checkpoints the step
  it completed and exits 0; the same command resumes with every row kept,
  and a deterministic binary's rows at the evaluation steps are those of an
  uninterrupted run."""
  flags, target_flag, deterministic = INTERRUPTIBLE[binary]
  script = "nfsp" if binary.startswith("nfsp") else binary
  first, _, third = TARGETS[binary]
  output = str(tmp_path / binary)
  command = [sys.executable, os.path.join(EXAMPLES, f"{script}.py"), *flags,
             f"--output_dir={output}"]
  checkpoint_every = (["--checkpoint_every=100000000"] if "--checkpoint_every"
                      in " ".join(flags) else [])
  process = subprocess.Popen(
      command + checkpoint_every + [f"{target_flag}={1000 * third}"],
      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
  deadline = time.time() + 180
  while time.time() < deadline and (
      not os.path.exists(os.path.join(output, "curve.csv")) or
      len(_rows(output)) < 2):
    time.sleep(0.05)
  process.send_signal(signal.SIGINT)
  out, err = process.communicate(timeout=180)
  assert process.returncode == 0, err[-3000:]
  kept = _rows(output)
  progress = checkpoints.read_progress(os.path.join(output, "checkpoint.npz"))
  assert progress["step"] == kept[-1]["step"] < 1000 * third
  # Evaluations here take milliseconds: the stop waits for the chunk's.
  assert {f"stopped: the checkpoint at {int(progress['step']):,} {unit} is "
          "kept" for unit in ("episodes", "iterations")} & set(
              err.splitlines())
  resumed = subprocess.run(command + checkpoint_every + [
      f"{target_flag}={progress['step'] + first}"], capture_output=True,
                           text=True, timeout=300, check=False)
  assert resumed.returncode == 0, resumed.stderr[-3000:]
  assert "resumed from" in resumed.stdout
  rows = _rows(output)
  _assert_consistent(rows, kept, progress)
  if deterministic and binary != "fsp":  # FSP evaluates on a clock
    target = f"{target_flag}={rows[-1]['step']}"
    subprocess.run(command + checkpoint_every + [target, "--noresume"],
                   capture_output=True, text=True, timeout=300, check=True)
    uninterrupted = {row["step"]: row for row in _rows(output)}
    # Clocks differ, and evaluate_cfr's average_change is the distance to
    # the previous row's average: the row Ctrl-C added is the previous one.
    same = lambda row: {k: v for k, v in row.items()  # noqa: E731
                        if "seconds" not in k and k != "average_change"}
    for row in rows:
      if row["step"] in uninterrupted:
        assert same(row) == same(uninterrupted[row["step"]]), row["step"]


def _tensorboard_steps(output):
  """The steps of the exploitability scalars in the TensorBoard events."""
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  steps = []
  for path in sorted(glob.glob(os.path.join(output, "tensorboard", "*"))):
    for event in tf.compat.v1.train.summary_iterator(path):
      steps += [float(event.step) for value in event.summary.value
                if value.tag == "exploitability"]
  return steps


# ---- the mechanism itself ----


def _saver(arrays):
  def save(path, progress):
    return checkpoints.write(path, checkpoints.header("test", None, {}),
                             arrays, progress)
  return save


def test_checkpoint_only_after_the_row_of_its_step(tmp_path):
  run = run_directory.RunDirectory(tmp_path, lambda curve, png: None)
  run.open_curve(0)
  run.log(10, exploitability=0.5)
  with pytest.raises(ValueError, match="checkpoint at step 20.*step 10"):
    run.save(_saver({}), 20)
  run.save(_saver({}), 10, training_seconds=1.5)
  progress = checkpoints.read_progress(run.checkpoint)
  assert progress["step"] == 10 and progress["training_seconds"] == 1.5
  assert progress["seconds"] >= 0


def test_kept_checkpoints_survive_the_next_saves(tmp_path):
  """`keep_every=100`: the first checkpoint at or past each multiple of 100
  is kept under kept/, unchanged by later saves, also across a resume."""
  def run_to(run, steps):
    for step in steps:
      run.log(step, exploitability=1.0 / step)
      run.save(_saver({"at": np.array(step)}), step)

  run = run_directory.RunDirectory(tmp_path, lambda c, p: None, keep_every=100)
  run.open_curve(0)
  run_to(run, [50, 100, 150, 210])
  resumed = run_directory.RunDirectory(tmp_path, lambda c, p: None,
                                       keep_every=100)
  resumed.open_curve(210)
  run_to(resumed, [260, 330])
  kept = tmp_path / run_directory.KEPT_NAME
  assert sorted(os.listdir(kept)) == ["100.npz", "210.npz", "330.npz"]
  for name in os.listdir(kept):
    with np.load(kept / name) as data:
      assert int(data["at"]) == int(name.split(".")[0])
  with pytest.raises(ValueError, match="keep_every=0"):
    run_directory.RunDirectory(tmp_path / "x", keep_every=0)


def test_resume_continues_the_checkpoints_clock(tmp_path):
  drawn = []
  run = run_directory.RunDirectory(tmp_path, lambda c, p: drawn.append(p))
  run.open_curve(0)
  run.log(10, exploitability=0.5)
  run.save(_saver({}), 10, training_seconds=7.0)
  run.log(20, exploitability=0.25)
  # The checkpoint says 100 s: the rows past it are cut, the clock goes on.
  write = checkpoints.write
  write(run.checkpoint, checkpoints.header("test", None, {}), {},
        {"step": 10, "seconds": 100.0, "training_seconds": 7.0})
  resumed = run_directory.RunDirectory(tmp_path, lambda c, p: drawn.append(p))
  assert resumed.resuming and not drawn
  assert resumed.open_curve(10) == {"training_seconds": 7.0}
  assert drawn == [resumed.png]  # redrawn from the cut curve
  assert _steps(_rows(str(tmp_path))) == [10]
  assert 100.0 <= resumed.seconds < 110.0
  assert resumed.log(20, exploitability=0.25)["seconds"] >= 100.0


def _old_run(directory):
  """A run's curve, PNG and TensorBoard scalars, without a checkpoint."""
  run = run_directory.RunDirectory(directory, lambda c, p: None,
                                   tensorboard=True)
  run.open_curve(0)
  run.log(1, exploitability=0.5)
  with open(run.png, "w") as f:
    f.write("old plot")
  return run


def test_fresh_run_moves_the_old_curve_aside(tmp_path):
  """Nothing of an earlier run is deleted: its files get the first number
  free for all three, so each earlier run's files share one."""
  old = _old_run(tmp_path)
  rows = _rows(str(tmp_path))
  os.remove(old.png)  # the second run has no PNG: curve.png.2 stays free
  with open(f"{old.png}.1", "w") as f:
    f.write("a run before that")
  fresh = run_directory.RunDirectory(tmp_path, lambda c, p: None,
                                     tensorboard=True)
  assert not fresh.resuming
  assert not os.path.exists(fresh.curve) and not os.path.exists(fresh.png)
  assert not os.path.exists(tmp_path / "tensorboard")
  assert fresh.kept_previous == [f"{fresh.curve}.2",
                                 str(tmp_path / "tensorboard.2")]
  assert curves.read_curve(f"{fresh.curve}.2") == rows
  assert open(f"{fresh.png}.1").read() == "a run before that"


def test_a_fresh_run_may_delete_a_curve_git_keeps(tmp_path):
  _old_run(tmp_path)
  fresh = run_directory.RunDirectory(tmp_path, lambda c, p: None,
                                     keep_previous=False)
  assert fresh.kept_previous == [] and sorted(os.listdir(tmp_path)) == []


def test_checkpoint_due_after_its_wall_clock_interval(tmp_path):
  never = run_directory.RunDirectory(tmp_path / "never")
  assert not never.checkpoint_due()
  run = run_directory.RunDirectory(tmp_path / "run", checkpoint_seconds=0.2)
  run.open_curve(0)
  assert not run.checkpoint_due()
  time.sleep(0.25)
  assert run.checkpoint_due()
  run.log(1, exploitability=0.5)
  run.save(_saver({}), 1)
  assert not run.checkpoint_due()  # the interval counts from the last save


# A run checkpointed at step 1, then in a long step (a minute of sleep).
_IN_A_LONG_STEP = """
import sys, time
from nfsp_spiel.core import checkpoints
from nfsp_spiel.run import run_directory
run = run_directory.RunDirectory(sys.argv[1])
run.open_curve(0)
run.log(1, exploitability=0.5)
run.save(lambda path, progress: checkpoints.write(path, {}, {}, progress), 1)
run.catch_stop_signals()
print("in the long step", flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGTERM])
def test_the_first_stop_signal_requests_a_stop_the_second_ends_at_once(
    tmp_path, second):
  """A second Ctrl-C raised KeyboardInterrupt: a 30-line traceback."""
  process = subprocess.Popen([sys.executable, "-c", _IN_A_LONG_STEP,
                              str(tmp_path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
  assert process.stdout.readline() == "in the long step\n"
  process.send_signal(signal.SIGINT)
  time.sleep(0.5)  # the first handler has run (the step goes on)
  assert process.poll() is None
  start = time.perf_counter()
  process.send_signal(second)
  _, err = process.communicate(timeout=30)
  assert time.perf_counter() - start < 2
  assert process.returncode == 128 + second
  kept = "the checkpoint at 1 step is kept, what came after it is lost"
  assert err.strip().splitlines() == [
      f"SIGINT: stopping in {tmp_path} within seconds (the same command "
      f"resumes the run); signal again to stop at once: {kept}", "",
      f"{signal.Signals(second).name} again: stopped at once; {kept}"]
  assert checkpoints.read_progress(str(tmp_path / "checkpoint.npz"))[
      "step"] == 1


# A run checkpointed at step 1, with a row at step 2 past it, then in a long
# evaluation at step 3 (a minute of short sleeps: Python code, as a match is).
_IN_A_LONG_EVALUATION = """
import sys, time
from nfsp_spiel.core import checkpoints
from nfsp_spiel.run import run_directory
run = run_directory.RunDirectory(sys.argv[1], tensorboard=True)
save = lambda path, progress: checkpoints.write(path, {}, {}, progress)
run.open_curve(0)
run.log(1, exploitability=0.5)
run.save(save, 1)
run.log(2, exploitability=0.25)
run.catch_stop_signals()
def evaluation():
  print("in the long evaluation", flush=True)
  for _ in range(6000):
    time.sleep(0.01)
  return {"exploitability": 0.125}
assert run.evaluate(evaluation) is None
assert run.checkpoint_and_stop(save, 3)
"""


def test_a_stop_abandons_a_long_evaluation_at_the_last_checkpoint(tmp_path):
  """Ctrl-C in a Limit Hold'em evaluation waited 4.5 minutes for it: now the
  evaluation is abandoned within a second, the run keeps its checkpoint and
  its curve, TensorBoard and PNG are cut back to it."""
  process = subprocess.Popen([sys.executable, "-c", _IN_A_LONG_EVALUATION,
                              str(tmp_path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
  assert process.stdout.readline() == "in the long evaluation\n"
  start = time.perf_counter()
  process.send_signal(signal.SIGINT)
  _, err = process.communicate(timeout=30)
  # Seconds, not the evaluation's minute (more than one: a loaded machine).
  assert time.perf_counter() - start < 10
  assert process.returncode == 0, err
  assert err.strip().splitlines()[-1] == (
      "stopped: the checkpoint at 1 step is kept; the 2 steps after it are "
      "not")
  assert _steps(_rows(str(tmp_path))) == [1] == _tensorboard_steps(
      str(tmp_path))
  assert checkpoints.read_progress(str(tmp_path / "checkpoint.npz"))[
      "step"] == 1


def test_a_stop_waits_only_for_a_quick_evaluation(tmp_path, monkeypatch):
  run = run_directory.RunDirectory(tmp_path)
  run.open_curve(0)
  measured = []
  measure = lambda: measured.append(1) or {"exploitability": 0.5}  # noqa: E731
  run.stop_requested = True
  assert run.evaluate(measure) is None and not measured  # none timed yet
  run.stop_requested = False
  assert run.evaluate(measure) == {"exploitability": 0.5}
  run.stop_requested = True
  assert run.evaluate(measure) == {"exploitability": 0.5}  # it was quick
  monkeypatch.setattr(run_directory, "STOP_WAIT_SECONDS", 0.0)
  assert run.evaluate(measure) is None and len(measured) == 2


# A game whose evaluation is a match of --eval_deals deals (no best response
# is computed): Leduc's deck and rounds in universal_poker.
_MATCHED_GAME = (
    "universal_poker(betting=limit,numPlayers=2,numRounds=2,blind=1 1,"
    "raiseSize=2 4,firstPlayer=1 1,maxRaises=2 2,numSuits=2,numRanks=3,"
    "numHoleCards=1,numBoardCards=0 1)")


@pytest.mark.slow  # two NFSP runs, about 20 s
def test_ctrl_c_in_a_long_nfsp_evaluation_stops_within_seconds(tmp_path):
  """A resumed NFSP run whose evaluation would take hours (10^8 deals):
  SIGINT in it ends the binary within seconds at the checkpoint it resumed
  from, the curve ending there."""
  output = str(tmp_path / "run")
  command = [sys.executable, os.path.join(EXAMPLES, "nfsp.py"),
             f"--game={_MATCHED_GAME}", "--eval_every=500",
             "--checkpoint_every=500", "--num_games=16",
             f"--output_dir={output}"]
  subprocess.run(command + ["--episodes=500", "--eval_deals=100"],
                 capture_output=True, timeout=300, check=True)
  process = subprocess.Popen(
      command + ["--episodes=100000", "--eval_deals=100000000"],
      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
      env={**os.environ, "PYTHONUNBUFFERED": "1"})
  for line in process.stdout:
    if "at episode" in line:  # resumed; the chunk to 1,000 then evaluates
      break
  time.sleep(3)
  start = time.perf_counter()
  process.send_signal(signal.SIGINT)
  _, err = process.communicate(timeout=60)
  seconds = time.perf_counter() - start
  assert process.returncode == 0, err[-3000:]
  assert seconds < 15
  step = int(checkpoints.read_progress(
      os.path.join(output, "checkpoint.npz"))["step"])
  assert 500 <= step < 1000
  assert _rows(output)[-1]["step"] == step
  assert re.search(rf"stopped: the checkpoint at {step:,} episodes is kept; "
                   r"the \d+ episodes after it are not", err)


def test_tensorboard_is_rebuilt_from_the_curve(tmp_path):
  logger = curves.LearningCurveLogger(str(tmp_path), tensorboard=True)
  for step in (1, 2, 3):
    logger.log(step, exploitability=1.0 / step)
  curves.cut_curve(logger.path, 2)
  reopened = curves.LearningCurveLogger(str(tmp_path), tensorboard=True)
  reopened.log(3, exploitability=0.3)
  assert _tensorboard_steps(str(tmp_path)) == [1.0, 2.0, 3.0]
  np.testing.assert_allclose(
      [row["exploitability"] for row in _rows(str(tmp_path))],
      [1.0, 0.5, 0.3])
