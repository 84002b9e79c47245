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
into `stop_requested`, which each binary's loop reads after every chunk of
play (about a second) as "end now, at the last consistent checkpoint": the
step just completed gets its row and a checkpoint if its evaluation is quick
(the last one took at most `STOP_WAIT_SECONDS`), else the evaluation is
skipped or, in progress, abandoned (`evaluate`) and the run keeps its last
checkpoint, the curve cut back to it (`checkpoint_and_stop`). A second signal
ends the process at once, without a traceback (status 130 for Ctrl-C; the
last checkpoint stays intact). `checkpoint_due` adds a checkpoint every
`checkpoint_seconds` of wall clock at the next logged row, so a long interval
between step-count checkpoints never risks more than that.

Keeping past checkpoints: with `keep_every`, the first checkpoint at or past
each multiple of it is also kept as `kept/<step>.npz` beside the checkpoint,
a hard link (the next save's atomic replace leaves the linked file intact;
a copy where the file system refuses links), so that a run's past states can
be measured afterwards at a precision the run's own evaluations cannot
afford (Limit Hold'em's 25,000-hand matches).
"""

import os
import shutil
import signal
import threading
import time

from nfsp_spiel.core import checkpoints
from nfsp_spiel.run import curves

CHECKPOINT_NAME = "checkpoint.npz"
KEPT_NAME = "kept"  # the folder of `keep_every`'s checkpoints
# A stop waits for an evaluation only where the last one took at most this
# long: Kuhn's and Leduc's take a second, Limit Hold'em's matches minutes.
STOP_WAIT_SECONDS = 5.0
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_WAKEUP_FDS = set()  # the write ends `catch_stop_signals` made
PLOT_NAME = "curve.png"


class RunDirectory:
  """Checkpoint, curve, plot and TensorBoard scalars of one training run.

  Use: `run = RunDirectory(directory, plot)`; restore `run.checkpoint` if
  `run.resuming`; `clocks = run.open_curve(step)` with the restored step;
  then per evaluation `run.log(step, **metrics)` and, when due,
  `run.save(solver.save, **clocks)`.
  """

  def __init__(self, directory, plot=None, resume=True, tensorboard=False,
               checkpoint=None, keep_previous=True, checkpoint_seconds=None,
               unit="steps", keep_every=None):
    """`plot(curve_csv, png)` draws the curve (None: no PNG); `resume=False`
    starts over even where a checkpoint exists (it is replaced at the first
    save); `checkpoint` puts the checkpoint elsewhere (e.g. a curve kept in
    git, its large checkpoint outside); `keep_previous=False` lets a fresh
    run delete the old curve instead of moving it aside (a curve that git
    keeps); `checkpoint_seconds`: see `checkpoint_due`; `unit`: what a step
    counts, in the plural (episodes, iterations), for the lines a stop
    prints; `keep_every`: steps between kept checkpoints (see the module
    docstring; None: none kept)."""
    if keep_every is not None and keep_every < 1:
      raise ValueError(f"keep_every={keep_every}: a number of steps, at "
                       "least 1 (or None: keep none)")
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
    self._unit = unit
    self._keep_every = keep_every
    self.stop_requested = False
    self._signals = 0  # stop signals the watcher thread has seen
    self._evaluation_seconds = None  # the last evaluation's
    self._abandonable = False  # a stop signal abandons the evaluation
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
      self._saved_step = step
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
    if self._keep_every and (step // self._keep_every >
                             (self._saved_step or 0) // self._keep_every):
      self._keep(step)
    self._saved_step = step
    return saved

  def _keep(self, step):
    """Keeps the checkpoint just saved as `kept/<step>.npz`."""
    folder = os.path.join(os.path.dirname(self.checkpoint), KEPT_NAME)
    os.makedirs(folder, exist_ok=True)
    kept = os.path.join(folder, f"{step}.npz")
    _remove(kept)  # a run redoing its steps after a crash keeps the new one
    try:
      os.link(self.checkpoint, kept)
    except OSError:
      shutil.copyfile(self.checkpoint, kept)

  def evaluate(self, measure):
    """`measure()`, the metrics of a row, or None where a stop would wait
    for them: once a stop is requested, an evaluation runs only if the last
    one took at most `STOP_WAIT_SECONDS`, and a longer one in progress is
    abandoned (the signal's handler raises through `measure`, which must
    not change what a checkpoint saves). After None the binary logs no row
    and ends through `checkpoint_and_stop`."""
    quick = (self._evaluation_seconds is not None and
             self._evaluation_seconds <= STOP_WAIT_SECONDS)
    started = time.perf_counter()
    self._abandonable = not quick
    try:
      if quick or not self.stop_requested:
        metrics = measure()
        self._evaluation_seconds = time.perf_counter() - started
        return metrics
    except _Abandoned:
      pass
    finally:
      self._abandonable = False
    return None

  def checkpoint_and_stop(self, save, step, **clocks):
    """Call after the row of `step` (or `evaluate`'s None): False while no
    stop is requested; else returns True, for the binary to end, with its
    files at the last consistent checkpoint, said in one line: `step`'s,
    saved now (unless `save` just did) where its row is logged; where it is
    not, the last one, the curve (TensorBoard, PNG) cut back to it as a
    resumed run would cut it. A signal that comes after this call is seen
    at the next chunk (binaries read `stop_requested` after each)."""
    if not self.stop_requested:
      return False
    if self._last_step == step:
      if self._saved_step != step:
        self.save(save, step, **clocks)
    elif self._saved_step is not None:
      curves.cut_curve(self.curve, self._saved_step)
      # A new logger rebuilds the TensorBoard scalars from the cut curve.
      self._logger = curves.LearningCurveLogger(
          self.directory, self._tensorboard, self.seconds)
      self.plot()
    _say(f"\nstopped: {self._kept(step)}")
    return True

  def checkpoint_due(self):
    """Whether `checkpoint_seconds` of wall clock have passed since the last
    checkpoint (or the start): a binary then checkpoints at its next row."""
    return (self._checkpoint_seconds is not None and
            time.perf_counter() - self._last_save >= self._checkpoint_seconds)

  def catch_stop_signals(self):
    """From now on the first SIGINT or SIGTERM sets `stop_requested` (the
    binary finishes its chunk and ends at the last consistent checkpoint,
    abandoning a long evaluation: `evaluate`); a second one
    ends the process at once with status 128 + the signal's number (130 for
    Ctrl-C). Only the main thread can catch signals: from another, nothing
    changes.

    A thread counts the signals as they come: Python runs a handler only
    when the main thread is between two bytecodes, so two signals that come
    during one long call into C (a TensorFlow op) would reach it as one."""
    if threading.current_thread() is not threading.main_thread():
      return
    read, write = os.pipe()
    os.set_blocking(write, False)  # the signal's C handler must not block
    previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    if previous in _WAKEUP_FDS:  # an earlier run's: its thread ends
      os.close(previous)
    _WAKEUP_FDS.add(write)
    for number in _STOP_SIGNALS:
      # A Python handler makes the C handler write the signal's number to
      # `write`; the thread acts on it.
      signal.signal(number, self._on_signal_in_main_thread)
    threading.Thread(target=self._watch_stop_signals, args=(read,),
                     name="stop signals", daemon=True).start()

  def _watch_stop_signals(self, read):
    with os.fdopen(read, "rb", buffering=0) as signals:
      for number in iter(lambda: signals.read(1), b""):
        if number[0] in _STOP_SIGNALS:  # others write to it too
          self._on_stop_signal(number[0])

  def _on_signal_in_main_thread(self, number, frame):
    """Marks the stop before the watcher thread may run, and abandons an
    evaluation `evaluate` lets a stop abandon. Python runs it in the main
    thread between two bytecodes, so it cannot land in the middle of a save
    (`checkpoints.write` renames a whole file) or a row."""
    del number, frame
    self.stop_requested = True
    if self._abandonable:
      self._abandonable = False
      raise _Abandoned

  def _on_stop_signal(self, number):
    name = signal.Signals(number).name
    self._signals += 1
    if self._signals > 1:
      _say(f"\n{name} again: stopped at once; {self._kept()}")
      # No unwinding: the checkpoint is renamed over the last one only once
      # written (`checkpoints.write`), so it is whole whatever this cuts.
      os._exit(128 + number)  # pylint: disable=protected-access
    self.stop_requested = True
    _say(f"\n{name}: stopping in {self.directory} within seconds (the same "
         f"command resumes the run); signal again to stop at once: "
         f"{self._kept()}")

  def _kept(self, step=None):
    """What a stop keeps, in words; `step`: where the run is (None: not
    known, as in the signal's thread)."""
    if self._saved_step is None:
      played = ("nothing is kept" if step is None else
                f"the {_count(step, self._unit)} played are not kept")
      return f"no checkpoint of this run yet, {played}"
    kept = f"the checkpoint at {_count(self._saved_step, self._unit)} is kept"
    if step is None:
      return f"{kept}, what came after it is lost"
    if step > self._saved_step:
      return (f"{kept}; the {_count(step - self._saved_step, self._unit)} "
              "after it are not")
    return kept

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


class _Abandoned(BaseException):
  """Raised through an evaluation a stop abandons (a BaseException, as
  KeyboardInterrupt: no `except Exception` in the evaluation holds it)."""


def _count(number, unit):
  """'1 step', '12,345 steps' for `unit` 'steps'."""
  return f"{number:,} {unit[:-1] if number == 1 else unit}"


def _say(line):
  """Writes `line` to stderr from a signal handler: unbuffered, as the run
  may be interrupted in the middle of writing to sys.stderr itself (a
  progress bar), where a second buffered write raises RuntimeError."""
  os.write(2, (line + "\n").encode())


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
