"""A training run's output folder, consistent with its checkpoint after any crash.

Every training binary (examples/nfsp.py, xfp.py, fsp.py, smooth_uct.py) keeps

  <directory>/checkpoint.npz  the last checkpoint, with the run's clocks in it
  <directory>/curve.csv       a row per evaluation (`LearningCurveLogger`)
  <directory>/curve.png       the curve, drawn by the binary's `plot`
  <directory>/tensorboard/    the same rows as TensorBoard scalars (optional)

through this one class. The rule that keeps them consistent: a run
checkpoints only right after logging a row at the same step (`save`), and
the checkpoint stores the run's clocks. A resumed run therefore cuts the curve
to the checkpoint's step (rows logged after it, and a row cut by the crash,
are logged again as the run redoes them), continues the clocks from the
checkpoint's, rebuilds the TensorBoard scalars from the cut curve and redraws
the PNG. A fresh run (no checkpoint, or `resume=False`) starts a fresh curve;
the files of the run that was there before are moved aside, not deleted
(`curve.csv.1`, `curve.png.1`, `tensorboard.1`; the next free number). A
temporary checkpoint left by a crash in the middle of a save is removed.

Stopping: `catch_stop_signals` turns the first SIGINT (Ctrl-C) or SIGTERM
into `stop_requested`, which each binary's loop reads as "log a row and
checkpoint at the step just completed, then end"; a second signal stops at
once (the last checkpoint stays intact). `checkpoint_due` adds a checkpoint
every `checkpoint_seconds` of wall clock at the next logged row, so a long
interval between step-count checkpoints never risks more than that.
"""

import os
import shutil
import signal
import sys
import threading
import time

from nfsp_spiel.core import checkpoints
from nfsp_spiel.run import curves

CHECKPOINT_NAME = "checkpoint.npz"
PLOT_NAME = "curve.png"


class RunDirectory:
  """Checkpoint, curve, plot and TensorBoard scalars of one training run.

  Use: `run = RunDirectory(directory, plot)`; restore `run.checkpoint` if
  `run.resuming`; `clocks = run.open_curve(step)` with the restored step;
  then per evaluation `run.log(step, **metrics)` and, when due,
  `run.save(solver.save, **clocks)`.
  """

  def __init__(self, directory, plot=None, resume=True, tensorboard=False,
               checkpoint=None, keep_previous=True, checkpoint_seconds=None):
    """`plot(curve_csv, png)` draws the curve (None: no PNG); `resume=False`
    starts over even where a checkpoint exists (it is replaced at the first
    save); `checkpoint` puts the checkpoint elsewhere (e.g. a curve kept in
    git, its large checkpoint outside); `keep_previous=False` lets a fresh
    run delete the old curve instead of moving it aside (a curve that git
    keeps); `checkpoint_seconds`: see `checkpoint_due`."""
    self.directory = os.fspath(directory)
    os.makedirs(self.directory, exist_ok=True)
    self.checkpoint = os.fspath(checkpoint or os.path.join(self.directory,
                                                           CHECKPOINT_NAME))
    os.makedirs(os.path.dirname(self.checkpoint), exist_ok=True)
    self.curve = os.path.join(self.directory, curves.CSV_NAME)
    self.png = os.path.join(self.directory, PLOT_NAME)
    self.found_checkpoint = os.path.exists(self.checkpoint)
    self.resuming = resume and self.found_checkpoint
    self._plot = plot
    self._tensorboard = tensorboard
    self._started = time.perf_counter()  # restoring and compiling count
    self._logger = None
    self._last_step = None
    self._checkpoint_seconds = checkpoint_seconds
    self._last_save = self._started
    self._saved_step = None
    self.stop_requested = False
    self.kept_previous = []  # where a fresh run moved the old run's files
    _remove(checkpoints.temporary_path(self.checkpoint))
    if not self.resuming:  # a fresh run starts a fresh curve
      files = (self.curve, self.png,
               os.path.join(self.directory, curves.TENSORBOARD_NAME))
      old = [path for path in files if os.path.exists(path)]
      if keep_previous:
        self.kept_previous = _move_aside(old, files)
      else:
        for path in old:
          _remove(path)

  def open_curve(self, step):
    """Opens the curve once the checkpoint at `step` is restored (a fresh
    run: step 0); returns the clocks the checkpoint stored (`save`'s
    `clocks`, {} for a fresh run)."""
    clocks = {}
    seconds = 0.0
    if self.resuming:
      curves.cut_curve(self.curve, step)
      clocks = checkpoints.read_progress(self.checkpoint)
      rows = curves.read_curve(self.curve) if os.path.exists(
          self.curve) else []
      # Checkpoints older than this module kept no clock: the last row's.
      seconds = clocks.pop("seconds", rows[-1]["seconds"] if rows else 0.0)
      clocks.pop("step", None)
    seconds += time.perf_counter() - self._started
    self._logger = curves.LearningCurveLogger(self.directory,
                                              self._tensorboard, seconds)
    if self.resuming:
      self.plot()
    return clocks

  @property
  def seconds(self):
    """Wall-clock seconds of the run, including the runs it resumes."""
    return self._logger.seconds

  def log(self, step, **metrics):
    """Writes the curve's row for `step` (see `LearningCurveLogger.log`)."""
    row = self._logger.log(step, **metrics)
    self._last_step = step
    return row

  def save(self, save, step, **clocks):
    """Checkpoints through `save(path, progress=...)` with `step` and the
    run's clocks (wall clock and `clocks`, e.g. training seconds); `step`
    must be the last logged row's, so that a resumed run's curve ends at
    its checkpoint."""
    if step != self._last_step:
      raise ValueError(f"checkpoint at step {step}, but the curve's last "
                       f"row is step {self._last_step}: log a row first")
    saved = save(self.checkpoint,
                 progress={"step": step, "seconds": self.seconds, **clocks})
    self._last_save = time.perf_counter()
    self._saved_step = step
    return saved

  def checkpoint_and_stop(self, save, step, **clocks):
    """Call right after logging the row of `step`: False while no stop is
    requested; else checkpoints `step` (unless `save` just did) and returns
    True, for the binary to end. A signal that comes after this call is
    seen at the next row (binaries read `stop_requested` to make that row
    come after the step in progress)."""
    if not self.stop_requested:
      return False
    if self._saved_step != step:
      self.save(save, step, **clocks)
    return True

  def checkpoint_due(self):
    """Whether `checkpoint_seconds` of wall clock have passed since the last
    checkpoint (or the start): a binary then checkpoints at its next row."""
    return (self._checkpoint_seconds is not None and
            time.perf_counter() - self._last_save >= self._checkpoint_seconds)

  def catch_stop_signals(self):
    """From now on the first SIGINT or SIGTERM sets `stop_requested` (the
    binary finishes its step, logs, checkpoints and ends); a second one
    raises KeyboardInterrupt. Only the main thread can catch signals: from
    another, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
      return
    for number in (signal.SIGINT, signal.SIGTERM):
      signal.signal(number, self._on_stop_signal)

  def _on_stop_signal(self, number, frame):
    del frame
    if self.stop_requested:
      raise KeyboardInterrupt
    self.stop_requested = True
    print(f"\n{signal.Signals(number).name}: stopping after the current step "
          f"with a checkpoint in {self.directory} (the same command resumes "
          "it); signal again to stop at once, losing what came after the "
          "last checkpoint", file=sys.stderr, flush=True)

  def plot(self):
    """Redraws the PNG from the curve (if it has a row); returns its path."""
    if self._plot and os.path.exists(self.curve) and curves.read_curve(
        self.curve):
      self._plot(self.curve, self.png)
    return self.png


  def summary(self):
    """Where the run's files are, with the checkpoint's size (NFSP's reach
    hundreds of MB: the memories are saved whole)."""
    text = f"curve: {self.curve}, {self.png}"
    if os.path.exists(self.checkpoint):
      size = os.path.getsize(self.checkpoint) / 2**20
      text += f"; checkpoint: {self.checkpoint} ({size:,.1f} MB)"
    return text


def _remove(path):
  if os.path.isdir(path):
    shutil.rmtree(path)
  elif os.path.exists(path):
    os.remove(path)


def _move_aside(paths, files):
  """Renames each of `paths` to `<path>.<n>` with the first n free for every
  one of the run's `files` (so one earlier run's files share a number);
  returns the new paths."""
  number = 1
  while any(os.path.exists(f"{path}.{number}") for path in files):
    number += 1
  moved = [f"{path}.{number}" for path in paths]
  for path, new in zip(paths, moved):
    os.replace(path, new)
  return moved
