"""Learning curves: a CSV logger every training loop uses, and the plots.

`LearningCurveLogger` appends one row per evaluation (step, wall-clock seconds,
any metrics) to `<directory>/curve.csv`, flushing every row so that a killed
run loses nothing; reopening the same directory resumes the curve (wall-clock
continues from the last row unless told where; a last row cut by a crash or a
full disk is dropped, and readers never see it). With `tensorboard=True` it
also writes the rows as TensorBoard scalars, rebuilt from the CSV whenever
the directory is reopened, so that both always hold the same rows. Training
binaries open their curve through `nfsp_spiel.run_directory`, which keeps it
consistent with their checkpoint. `plot_curves` draws one or several runs on
one chart, optionally log-log like the papers' figures, and saves a PNG.
"""

import csv
import os
import shutil
import textwrap
import time

import matplotlib

matplotlib.use("Agg")  # files only; no display needed
import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
from matplotlib import ticker  # pylint: disable=g-import-not-at-top

CSV_NAME = "curve.csv"
TENSORBOARD_NAME = "tensorboard"


class LearningCurveLogger:
  """Appends evaluation rows to `<directory>/curve.csv` (and TensorBoard)."""

  def __init__(self, directory, tensorboard=False, seconds=None):
    """`seconds`: where the clock starts (default: the curve's last row)."""
    os.makedirs(directory, exist_ok=True)
    self.path = os.path.join(directory, CSV_NAME)
    self._fields = None
    self._offset = seconds or 0.0  # seconds spent by the runs this resumes
    rows = []
    if os.path.exists(self.path):
      header, rows, complete = _complete_rows(self.path)
      if not complete:  # a row cut by a crash or a full disk: drop it
        _rewrite(self.path, [header] + rows if header else [])
      if header:
        self._fields = header
      if rows and seconds is None:
        self._offset = float(rows[-1][header.index("seconds")])
    self._start = time.perf_counter()
    self._writer = None
    if tensorboard:
      from nfsp_spiel.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
      events = os.path.join(directory, TENSORBOARD_NAME)
      shutil.rmtree(events, ignore_errors=True)  # rebuilt from the CSV
      self._writer = tf.summary.create_file_writer(events)
      for row in rows:
        values = dict(zip(self._fields, map(float, row)))
        self._write_scalars(int(values.pop("step")),
                            {k: v for k, v in values.items()
                             if k != "seconds"})

  @property
  def seconds(self):
    """Wall-clock seconds of this run, including the runs it resumes."""
    return self._offset + time.perf_counter() - self._start

  def log(self, step, **metrics):
    """Writes one row: `step`, the wall-clock seconds and `metrics`."""
    row = {"step": step, "seconds": round(self.seconds, 3), **metrics}
    if self._fields is None:
      self._fields = list(row)
      with open(self.path, "w", newline="") as f:
        csv.DictWriter(f, self._fields).writeheader()
    elif list(row) != self._fields:
      raise ValueError(f"metrics {sorted(metrics)} differ from the curve's "
                       f"columns {self._fields[2:]} in {self.path}")
    with open(self.path, "a", newline="") as f:
      csv.DictWriter(f, self._fields).writerow(row)
    if self._writer is not None:
      self._write_scalars(step, metrics)
    return row

  def _write_scalars(self, step, metrics):
    from nfsp_spiel.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
    with self._writer.as_default():
      for name, value in metrics.items():
        tf.summary.scalar(name, value, step=step)
    self._writer.flush()


def read_curve(path):
  """The complete rows of a curve CSV as dicts of floats (a last row cut by a
  crash or a full disk is left out)."""
  header, rows, _ = _complete_rows(path)
  return [dict(zip(header, map(float, row))) for row in rows]


def cut_curve(path, last_step):
  """Keeps the complete rows of a curve CSV up to `last_step` (a resumed run's
  checkpoint step), so that the resumed run neither repeats nor skips one."""
  if not os.path.exists(path):
    return
  header, rows, _ = _complete_rows(path)
  if header:
    step = header.index("step")
    _rewrite(path, [header] + [r for r in rows if float(r[step]) <= last_step])


def _complete_rows(path):
  """(header, complete rows, whether the file held nothing else): a row
  counts when its line ended and every field is a number."""
  with open(path, newline="") as f:
    text = f.read()
  lines = text.splitlines(keepends=True)
  ended = [line for line in lines if line.endswith("\n")]
  parsed = list(csv.reader(ended))
  header = parsed[0] if parsed else None
  rows = [row for row in parsed[1:]
          if len(row) == len(header) and all(map(_is_number, row))]
  return header, rows, len(rows) == len(parsed) - 1 and len(ended) == len(
      lines)


def _is_number(text):
  try:
    float(text)
  except ValueError:
    return False
  return True


def _rewrite(path, rows):
  """Replaces the CSV by `rows`, atomically."""
  temporary = path + ".tmp"
  with open(temporary, "w", newline="") as f:
    csv.writer(f).writerows(rows)
  os.replace(temporary, path)


def plot_curves(runs, output, metric="exploitability", x="step", loglog=False,
                title=None, reference_slope=None, inset_loglog=False,
                xlabel=None):
  """Plots `metric` against `x` for {label: csv path} runs; saves a PNG.

  A run may also be {label: (csv path, its own metric)}.

  `reference_slope` adds a dashed c * x^slope line through the first run's
  last point (e.g. -0.5 for an O(k^-1/2) rate on a log-log plot);
  `inset_loglog` adds a log-log inset of the same curves (thesis fig. 5.3).
  """
  if not runs:
    raise ValueError("plot_curves needs at least one run")
  figure, axes = plt.subplots(figsize=(6, 4))
  curves = {}
  for label, run in runs.items():
    path, column = run if isinstance(run, tuple) else (run, metric)
    rows = read_curve(path)
    if rows and (column not in rows[0] or x not in rows[0]):
      raise ValueError(f"{path} has columns {sorted(rows[0])}, not "
                       f"{x!r} and {column!r}")
    xs, ys = [r[x] for r in rows], [r[column] for r in rows]
    curves[label] = log_points(xs, ys) if loglog else (xs, ys)
    # A curve of a few points gets markers: one point alone draws no line.
    axes.plot(*curves[label], label=label,
              marker="o" if len(xs) < 10 else None, markersize=3)
  if inset_loglog:
    inset = axes.inset_axes([0.5, 0.22, 0.46, 0.36])
    for xs, ys in curves.values():
      inset.loglog(*log_points(xs, ys))
    _readable_log_ticks(inset)
    inset.tick_params(labelsize=6)
  if reference_slope is not None:
    xs, ys = log_points(*next(iter(curves.values())))
    scale = ys[-1] / xs[-1] ** reference_slope
    axes.plot(xs, [scale * v ** reference_slope for v in xs], "k--",
              linewidth=0.8, label=f"O({x}^{reference_slope:g})")
  if loglog:
    axes.set_xscale("log")
    axes.set_yscale("log")
    _readable_log_ticks(axes)
  axes.set_xlabel(xlabel or {"step": "iterations",
                             "seconds": "seconds"}.get(x, x))
  axes.set_ylabel(metric)
  if title:  # game strings (River poker's) can be long: wrap, never clip
    axes.set_title("\n".join(textwrap.wrap(title, 64)), fontsize=9)
  axes.grid(True, which="both", alpha=0.3)
  axes.legend()
  figure.tight_layout()
  figure.savefig(output, dpi=120)
  plt.close(figure)
  return output


def log_points(xs, ys):
  """The points a log-log axis can show: x > 0 and y > 0 (step 0, the
  starting point, would otherwise draw a flat segment from the edge)."""
  kept = [(v, y) for v, y in zip(xs, ys) if v > 0 and y > 0]
  return [v for v, _ in kept], [y for _, y in kept]


def _readable_log_ticks(axes):
  """Plain numbers (0.2, 0.5, 1) rather than '2 x 10^-1' where a log axis
  spans less than two decades, labelling 2 and 5 between the decades; wider
  axes keep their powers of ten and unlabelled minor ticks."""
  for axis, (low, high) in ((axes.xaxis, axes.get_xlim()),
                            (axes.yaxis, axes.get_ylim())):
    plain = ticker.FuncFormatter(lambda value, _: f"{value:g}")
    if low > 0 and high / low < 100:
      axis.set_major_formatter(plain)
      axis.set_minor_locator(ticker.LogLocator(subs=(2.0, 5.0)))
      axis.set_minor_formatter(plain)
    else:
      axis.set_minor_formatter(ticker.NullFormatter())
