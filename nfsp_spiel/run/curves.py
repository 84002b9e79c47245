"""Learning curves: a CSV logger every training loop uses, and the plots.

`LearningCurveLogger` appends one row per evaluation (step, wall-clock seconds,
any metrics) to `<directory>/curve.csv`, flushing every row so that a killed
run loses nothing; reopening the same directory resumes the curve (wall-clock
continues from the last row unless told where; a last row cut by a crash or a
full disk is dropped, and readers never see it). With `tensorboard=True` it
also writes the rows as TensorBoard scalars, rebuilt from the CSV whenever
the directory is reopened, so that both always hold the same rows. Training
binaries open their curve through `nfsp_spiel.run.run_directory`, which keeps it
consistent with their checkpoint. `plot_curves` draws one or several runs,
one metric or every metric of their CSVs (a panel per unit), with axes in
units, standard-error bands where the CSV logs them, optionally log-log like
the papers' figures, and saves a PNG; `curve_figure` is the figure itself.
A population's curve (several runs in one CSV, `member_columns` and
`band_columns`) is drawn as each member's line, thin, and the mean over its
seeds with its band.
"""

import collections
import csv
import fractions
import math
import os
import re
import shutil
import statistics
import textwrap
import time

import matplotlib

matplotlib.use("Agg")  # files only; no display needed
import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
from matplotlib import ticker  # pylint: disable=g-import-not-at-top

from nfsp_spiel.poker.stakes import big_blind  # pylint: disable=g-import-not-at-top

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
      from nfsp_spiel.core.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
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
      self._widen(list(row), metrics)
    with open(self.path, "a", newline="") as f:
      csv.DictWriter(f, self._fields).writerow(row)
    if self._writer is not None:
      self._write_scalars(step, metrics)
    return row

  def _widen(self, fields, metrics):
    """Takes `fields` as the curve's columns where they hold all of the old
    ones (a run resumed by code that logs more diagnostics): the earlier
    rows get "nan" in the new columns, the file rewritten atomically. A
    column dropped raises."""
    if not set(self._fields) <= set(fields):
      raise ValueError(f"metrics {sorted(metrics)} differ from the curve's "
                       f"columns {self._fields[2:]} in {self.path}: "
                       f"{sorted(set(self._fields) - set(fields))} missing")
    _, rows, _ = _complete_rows(self.path)
    old = [dict(zip(self._fields, row)) for row in rows]
    _rewrite(self.path, [fields] + [[row.get(name, "nan") for name in fields]
                                    for row in old])
    self._fields = fields

  def _write_scalars(self, step, metrics):
    from nfsp_spiel.core.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
    with self._writer.as_default():
      for name, value in metrics.items():
        tf.summary.scalar(name, value, step=step)
    self._writer.flush()


def read_curve(path):
  """The complete rows of a curve CSV as dicts of floats (a last row cut by a
  crash or a full disk is left out)."""
  return _columns_and_rows(path)[1]


def table(path, columns, step="step"):
  """A curve CSV's complete rows as text: a header line (`step` names the
  steps), then per row the step, the seconds and `columns`' values."""
  lines = [f"{step:>12} {'seconds':>9} {' '.join(columns)}"]
  for row in read_curve(path):
    lines.append(f"{int(row['step']):>12,} {row['seconds']:>9.1f} "
                 + " ".join(f"{row[column]:.4f}" for column in columns))
  return "\n".join(lines)


def _columns_and_rows(path):
  """A curve CSV's columns (none where it is empty) and `read_curve`'s rows."""
  header, rows, _ = _complete_rows(path)
  return header or [], [dict(zip(header, map(float, row))) for row in rows]


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


# A run's `metric` that stands for every metric column its CSV holds.
EVERY_METRIC = "every metric"

# Columns that measure progress (what `x` can be), never drawn as metrics.
X_LABELS = {"step": "iterations", "episodes": "episodes",
            "seconds": "wall-clock time (s)",
            "training_seconds": "training time (s, evaluations excluded)",
            "state_visits": "state visits"}

# What a metric column measures: (column pattern, quantity, unit, signed,
# panel); the first pattern that matches counts. PAYOFF stands for the game's
# payoff unit: OpenSpiel's exploitability is the mean of the players'
# best-response values, in the game's payoffs (chips per hand in poker).
# Columns of one unit share a panel, a quantity without a unit has a panel of
# its own; a named panel (DIAGNOSTICS, LOSSES) holds its columns whatever
# their units, so that a run's headline exploitability is not drawn among
# the noisier diagnostics of the same unit. Signed quantities (winnings) keep
# a linear y axis on log-log plots, where their negative values would vanish.
PAYOFF = "payoff"
CHIPS_PER_HAND = "chips/hand"
DIAGNOSTICS = "diagnostics"
LOSSES = "training losses"
QUANTITIES = (
    (r"exploitability_sl_memory", "exploitability", PAYOFF, False,
     DIAGNOSTICS),
    (r"exploitability(_.+)?", "exploitability", PAYOFF, False, None),
    (r"br_gap_\d+", "best-response gap", PAYOFF, False, DIAGNOSTICS),
    (r"(current_)?br_quality|best_response_quality",
     "best-response quality", PAYOFF, False, None),
    (r"(lbr_)?mbb_per_hand(_.+)?", "winnings", "mbb/h", True, None),
    (r"mean_squared_error", "mean squared error", "", False, None),
    (r"average_change", "change of the average strategy (squared L2)", "",
     False, None),
    (r"rl_loss", "RL loss", "", False, LOSSES),
    (r"sl_loss", "SL cross-entropy loss", "nats", False, LOSSES),
)


def payoff_unit(game):
  """The unit of `game`'s payoffs per game played, for exploitability axes."""
  if big_blind(game) is None:
    return "payoff/game"
  return CHIPS_PER_HAND


def _quantity(column, payoff):
  """(quantity, unit, signed, panel) of a metric column; a column the table
  does not know is its own quantity, without a unit or a named panel."""
  for pattern, name, unit, signed, panel in QUANTITIES:
    if re.fullmatch(pattern, column):
      return name, payoff if unit == PAYOFF else unit, signed, panel
  return column, "", False, None


def _is_stderr(column):
  """Whether a column holds a standard error (matches', LBR's, fig. 3.2's)."""
  return "stderr" in column.split("_") or column == "standard_error"


def metric_columns(columns, x="step"):
  """The columns of a curve that are metrics: not progress, not errors; a
  population's columns of one metric count once, by the metric's name."""
  metrics = dict.fromkeys(c.split(POPULATION_SEPARATOR)[0] for c in columns)
  return [c for c in metrics
          if c not in X_LABELS and c != x and not _is_stderr(c)]


# A population's curve (examples/nfsp.py --seeds: several runs, one CSV)
# holds each member's metrics as `<metric>/<member>` (its progress too:
# `step/<member>`, where its line is drawn; members stop at their own
# episode counts) and a group's mean with a band of +-1 standard error of the
# mean as `<metric>/<group>,mean`, `,low`, `,high` (`<metric>/mean` without
# groups). A group is a sweep point: its members differ in seed alone, and
# a member's name is `<group>,<seed's name>`.
POPULATION_SEPARATOR = "/"
BAND = ("mean", "low", "high")


def member_columns(metrics, member):
  """{column: value} of one population member's `metrics`."""
  return {f"{name}{POPULATION_SEPARATOR}{member}": value
          for name, value in metrics.items()}


def band_columns(metric, values, group=""):
  """{column: value}: the mean of a group's `values` of `metric` and its
  band, +-1 standard error of the mean across the members (ddof 1; nan for
  a group of one, whose spread nothing measures)."""
  mean = statistics.fmean(values)
  error = (statistics.stdev(values) / math.sqrt(len(values))
           if len(values) > 1 else math.nan)
  return dict(zip(band_names(metric, group),
                  (mean, mean - error, mean + error)))


def band_names(metric, group=""):
  """The columns of a group's mean, low and high of `metric`."""
  prefix = f"{metric}{POPULATION_SEPARATOR}{group + ',' if group else ''}"
  return [prefix + name for name in BAND]


def mean_and_band(curves, tolerance=0.05):
  """The mean over seeds of `curves` (each [(episodes, value), ...], logged
  at the same points) and its band, at the points all of them reached
  (`shared_points`): (episodes, means, lows, highs). A point's episode count
  is the seeds' mean (runs log at the first episode end past a point, so
  counts differ by a few episodes)."""
  points = []
  for point in shared_points(curves, tolerance):
    band = band_columns("value", [value for _, value in point])
    points.append((statistics.fmean(step for step, _ in point),
                   *(band[name] for name in band_names("value"))))
  return tuple(list(column) for column in zip(*points))


def shared_points(curves, tolerance=0.05):
  """The points of `curves` (each [(episodes, value), ...]) that all of them
  share, one from each, in order (a k-way merge): points whose episode
  counts lie within `tolerance` (relative) of each other. A run that was
  stopped logged an extra point off the evaluation grid (`run_directory`:
  the step it stopped at); the lowest run's point is passed over where its
  next point lies at least as close to the others' as it does, or where the
  points are not within `tolerance` and it has a next one, so that a stop
  shifts no later pairing. Ends where the lowest run ends."""
  at = [0] * len(curves)
  while all(i < len(curve) for i, curve in zip(at, curves)):
    steps = [curve[i][0] for i, curve in zip(at, curves)]
    lowest = steps.index(min(steps))
    spread = max(steps) - min(steps)
    apart = spread > tolerance * max(max(steps), 1)
    following = at[lowest] + 1
    if following < len(curves[lowest]) and (
        apart or abs(curves[lowest][following][0] - max(steps)) <= spread):
      at[lowest] = following
      continue
    if apart:
      return
    yield [curve[i] for i, curve in zip(at, curves)]
    at = [i + 1 for i in at]


def _population(metric, columns):
  """{group: its members' names} of `metric`'s population columns, and the
  groups that have a band."""
  members, banded = {}, set()
  prefix = metric + POPULATION_SEPARATOR
  for column in columns:
    if column.startswith(prefix):
      member = column[len(prefix):]
      group, _, name = member.rpartition(",")
      if name in BAND:
        banded.add(group)
      else:
        members.setdefault(group, []).append(member)
  return members, banded


def stderr_column(column, columns):
  """The standard-error column logged beside `column`, or None:
  `<column>_stderr`, `mbb_stderr...` beside `mbb_per_hand...` (matches and
  LBR), or `standard_error` beside a curve's only metric (fig. 3.2)."""
  candidates = [f"{column}_stderr",
                column.replace("mbb_per_hand", "mbb_stderr")]
  if metric_columns(columns) == [column]:
    candidates.append("standard_error")
  return next((c for c in candidates if c != column and c in columns), None)


def plot_curves(runs, output, *args, **kwargs):
  """Draws `curve_figure(runs, ...)` and saves it as a PNG at `output`."""
  figure = curve_figure(runs, *args, **kwargs)
  figure.savefig(output, dpi=120)
  plt.close(figure)
  return output


def curve_figure(runs, metric="exploitability", x="step", loglog=False,
                 title=None, reference_slope=None, inset_loglog=False,
                 xlabel=None, column_labels=None, payoff=CHIPS_PER_HAND,
                 styles=None):
  """A figure of `metric` against `x` for {label: csv path} runs.

  A run may also be {label: (csv path, its own metric)}; `metric` (or a run's
  own) `EVERY_METRIC` draws every metric column of the run's CSV, named in
  the legend by `column_labels` ({column: label}) or by the column. Metrics
  of different units go to panels of their own, one above the other; a
  metric with a standard-error column beside it (`stderr_column`) is drawn
  with a band of +-1 standard error. A metric that a population logged
  (`member_columns`, `band_columns`) is drawn as each member's line, thin,
  and each group's mean with its band, in the group's colour.

  `loglog`: log axes, like the papers' figures; a step-0 point (the starting
  strategy) stays in sight as an unconnected hollow marker on a symlog x
  axis, linear from 0 to the decade below the first positive step.
  `payoff`: the unit of exploitability (`payoff_unit(game)`).
  `reference_slope` adds a dashed c * x^slope line through the first run's
  last point (e.g. -0.5 for an O(k^-1/2) rate on a log-log plot);
  `inset_loglog` adds a log-log inset of the same curves (thesis fig. 5.3);
  both to the first panel. `styles` ({run label: line properties, e.g.
  color and linestyle}) draws a run's lines so, its band in its colour: a
  method keeps one colour across figures; runs not named take the cycle's.
  """
  if not runs:
    raise ValueError("plot_curves needs at least one run")
  lines = _lines(runs, metric, x, column_labels or {}, payoff, styles or {})
  panels = _panels(lines) or {"": []}  # a curve with no rows yet
  figure, grid = plt.subplots(len(panels), 1, sharex=True, squeeze=False,
                              figsize=(6, 1.4 + 2.6 * len(panels)))
  start_decade = _start_decade([line.xs for line in lines]) if loglog else None
  for axes, (label, panel_lines) in zip(grid[:, 0], panels.items()):
    _draw_panel(axes, label, panel_lines, loglog, start_decade)
  top = grid[0, 0]
  first_panel = next(iter(panels.values()))
  if inset_loglog:
    _inset(top, first_panel)
  if reference_slope is not None:
    xs, ys = log_points(first_panel[0].xs, first_panel[0].ys)
    scale = ys[-1] / xs[-1] ** reference_slope
    power = fractions.Fraction(reference_slope).limit_denominator(10)
    top.plot(xs, [scale * v ** reference_slope for v in xs], "k--",
             linewidth=0.8, label=f"$O(n^{{{power}}})$, n "
             f"{xlabel or X_LABELS.get(x, x)}")
  # One run of every metric: the legends name the metrics, the run heads them.
  one_run = len(runs) == 1 and _metric_of(next(iter(runs.values())),
                                         metric) == EVERY_METRIC
  for axes in grid[:, 0]:
    if axes.get_legend_handles_labels()[0]:  # none before the first row
      axes.legend(fontsize=8, title_fontsize=8,
                  title=next(iter(runs)) if one_run and axes is top else None)
  grid[-1, 0].set_xlabel(xlabel or X_LABELS.get(x, x))
  if title:  # game strings (River poker's) can be long: wrap, never clip
    top.set_title("\n".join(textwrap.wrap(title, 64)), fontsize=9)
  figure.tight_layout()
  return figure


def _draw_panel(axes, label, lines, loglog, start_decade):
  """One unit's lines on `axes`, labelled `label` (and the band's meaning)."""
  # A log axis needs a positive value (a loss not yet reported is nan).
  log_y = loglog and any(y > 0 for line in lines if not line.signed
                         for y in line.ys)
  colours = {}  # a population group's lines share its first line's colour
  for line in lines:
    colour = _draw(axes, line, loglog, log_y, colours.get(line.group))
    if line.group is not None:
      colours.setdefault(line.group, colour)
  if not any(math.isfinite(y) for line in lines for y in line.ys):
    axes.text(0.5, 0.5, "no values logged yet", ha="center",
              transform=axes.transAxes, color="grey")
  if loglog:
    _log_scales(axes, start_decade, log_y)
  else:  # 1e5 episodes' plain labels, 100000 to 200000, would run together
    axes.ticklabel_format(axis="x", style="sci", scilimits=(-4, 4))
  banded = any(line.band for line in lines)
  # Several quantities name one axis: wrapped, the label fits its panel.
  axes.set_ylabel("\n".join(
      textwrap.wrap(label, 36) +
      (["shaded: \u00b11 standard error"] if banded else [])))
  axes.grid(True, which="both", alpha=0.3)


# One column of one run: its points, band ((lows, highs), None where the CSV
# has none), legend label (None: not in the legend), what it measures
# (`quantity`, with its named panel or None), the population group whose
# colour it shares (None: its own), whether it is a population member's line
# (drawn thin) and its run's line properties (`curve_figure`'s `styles`;
# None: the cycle's).
_Line = collections.namedtuple(
    "_Line", "label xs ys band quantity unit signed panel group thin style",
    defaults=(None, False, None))


def _metric_of(run, metric):
  """The metric a run draws: its own where it names one, else `metric`."""
  return run[1] if isinstance(run, tuple) else metric


def _lines(runs, metric, x, column_labels, payoff, styles):
  """A `_Line` per run and metric column drawn, in the runs' order."""
  lines = []
  for label, run in runs.items():
    first = len(lines)
    path = run[0] if isinstance(run, tuple) else run
    columns, rows = _columns_and_rows(path)
    every = _metric_of(run, metric) == EVERY_METRIC
    for column in (metric_columns(columns, x) if every
                   else [_metric_of(run, metric)]):
      if column not in columns and _population(column, columns)[0]:
        lines += _population_lines(label if len(runs) > 1 else "", column,
                                   columns, rows, x, payoff)
        continue
      if rows and (column not in columns or x not in columns):
        raise ValueError(f"{path} has columns {sorted(columns)}, not "
                         f"{x!r} and {column!r}")
      name = column_labels.get(column, column) if every else label
      if every and len(runs) > 1:
        name = f"{label}: {name}"
      stderr = stderr_column(column, columns)
      ys = [r[column] for r in rows]
      band = ([y - r[stderr] for y, r in zip(ys, rows)],
              [y + r[stderr] for y, r in zip(ys, rows)]) if stderr else None
      lines.append(_Line(name, [r[x] for r in rows], ys, band,
                         *_quantity(column, payoff)))
    # Every column of one run in one style would read as one line.
    if label in styles and not every:
      lines[first:] = [line._replace(style=styles[label])
                       for line in lines[first:]]
  return lines


def _population_lines(run, metric, columns, rows, x, payoff):
  """A population's lines of `metric`: per group, each member's (thin, at
  its own progress where the CSV logs it) and the mean with its band."""
  members, banded = _population(metric, columns)
  lines = []
  for group, names in members.items():
    head = ": ".join(filter(None, (run, group)))
    prefix = f"{head}: " if head else ""
    column = lambda name: metric + POPULATION_SEPARATOR + name  # noqa: E731
    for k, name in enumerate(names):
      own_x = x + POPULATION_SEPARATOR + name
      lines.append(_Line(
          f"{prefix}each seed" if k == 0 else None,
          [r[own_x if own_x in columns else x] for r in rows],
          [r[column(name)] for r in rows], None, *_quantity(metric, payoff),
          group=(run, group), thin=True))
    if group in banded:
      mean, low, high = band_names(metric, group)
      lines.append(_Line(
          f"{prefix}mean of {len(names)} seeds \u00b1 standard error",
          [r[x] for r in rows], [r[mean] for r in rows],
          ([r[low] for r in rows], [r[high] for r in rows]),
          *_quantity(metric, payoff), group=(run, group)))
  return lines


def _panels(lines):
  """{y-axis label: its lines}: one panel per named panel (`QUANTITIES`), else
  per unit, or per quantity where it has none, in the order the lines come.
  A panel is labelled by its quantities (a named one by its name, before
  its quantity if it holds one), with their unit where they share one."""
  panels = {}
  for line in lines:
    panels.setdefault((line.panel, line.panel or line.unit or line.quantity),
                      []).append(line)
  labelled = {}
  for (name, _), panel in panels.items():
    names = list(dict.fromkeys(line.quantity for line in panel))
    units = {line.unit for line in panel}
    unit = units.pop() if len(units) == 1 else ""
    label = ", ".join(names)
    if name:  # its quantity may be another panel's: "diagnostics: ..."
      label = name if len(names) > 1 else f"{name}: {label}"
    labelled[label + (f" ({unit})" if unit else "")] = panel
  return labelled


def _draw(axes, line, loglog, log_y, colour=None):
  """One line with its band, in its style's colour, else `colour` (None: the
  next); on log axes, the points they can show, a step-0 point apart
  (connected, it would draw a slope of nothing). Returns the colour drawn."""
  lows, highs = line.band or ([None] * len(line.xs),) * 2
  points = list(zip(line.xs, line.ys, lows, highs))
  start = [p for p in points if loglog and p[0] == 0]
  if loglog:
    points = [p for p in points if p[0] > 0 and (p[1] > 0 or not log_y)]
    start = [p for p in start if p[1] > 0 or not log_y]
  xs, ys, lows, highs = (list(v) for v in zip(*points)) if points else (
      [],) * 4
  # A curve of a few points gets markers: one point alone draws no line.
  style = dict(linewidth=0.6, alpha=0.5, markersize=2) if line.thin else dict(
      markersize=3)
  style = {"color": colour, **style, **(line.style or {})}
  drawn, = axes.plot(xs, ys, label=line.label,
                     marker="o" if len(line.xs) < 10 else None, **style)
  if line.band:
    axes.fill_between(xs, lows, highs, color=drawn.get_color(), alpha=0.2,
                      linewidth=0)
  for v, y, low, high in start:
    axes.errorbar([v], [y], yerr=None if low is None else [[y - low],
                                                           [high - y]],
                  fmt="o", markersize=4, markerfacecolor="none",
                  color=drawn.get_color(), alpha=drawn.get_alpha())
  return drawn.get_color()


def _start_decade(xs_of_lines):
  """Where a symlog x axis turns logarithmic when a curve starts at step 0:
  the decade at or below the first positive x (1 before there is one); None
  when none starts at 0 (a plain log axis shows every point)."""
  xs = [v for xs in xs_of_lines for v in xs]
  if 0 not in xs:
    return None
  positive = [v for v in xs if v > 0]
  return 10.0 ** math.floor(math.log10(min(positive))) if positive else 1.0


def _log_scales(axes, start_decade, log_y):
  if start_decade is None:
    axes.set_xscale("log")
  else:  # 0, then the decades: the start gets half a decade's width
    axes.set_xscale("symlog", linthresh=start_decade, linscale=0.5)
    # Ticks at 0 and from `start_decade` up: those below it, squeezed into
    # the linear half decade, would overlap the 0.
    high = axes.get_xlim()[1]
    decades = [start_decade * 10 ** k for k in range(
        int(math.ceil(math.log10(high / start_decade))) + 1)]
    axes.xaxis.set_major_locator(ticker.FixedLocator([0] + decades))
    axes.xaxis.set_minor_locator(ticker.FixedLocator(
        [m * decade for decade in decades for m in range(2, 10)]))
  if log_y:
    axes.set_yscale("log")
  readable_log_ticks(axes)


def _inset(axes, lines):
  """A log-log inset of `lines` (thesis fig. 5.3), in the upper right,
  which curves falling from a start at the left leave empty."""
  inset = axes.inset_axes([0.5, 0.46, 0.46, 0.4])
  for line in lines:
    inset.loglog(*log_points(line.xs, line.ys), **(line.style or {}))
  readable_log_ticks(inset)
  inset.tick_params(which="both", labelsize=6)


def log_points(xs, ys):
  """The points a log-log axis can show: x > 0 and y > 0 (the inset and the
  reference slope draw these; the main axes keep step 0 on a symlog axis)."""
  kept = [(v, y) for v, y in zip(xs, ys) if v > 0 and y > 0]
  return [v for v, _ in kept], [y for _, y in kept]


def _plain_number(value, _=None):
  """A tick's number: 0.2, 500, and 5x10^8 where %g would write 5e+08."""
  text = f"{value:g}"
  if "e" not in text:
    return text
  mantissa, exponent = text.split("e")
  power = f"10^{{{int(exponent)}}}"
  return f"${power}$" if mantissa == "1" else f"${mantissa}\\times{power}$"


class _MinorLogLocator(ticker.LogLocator):
  """Minor ticks at 2 and 5 in each decade, and at 1.5, 3 and 7 as well
  where the axis spans less than a decade (it would show one or two
  labels): chosen when drawn, since lines drawn after the call move the
  limits."""

  def tick_values(self, vmin, vmax):
    narrow = 0 < vmin and vmax < 10 * vmin
    self.set_params(subs=(1.5, 2.0, 3.0, 5.0, 7.0) if narrow else (2.0, 5.0))
    return super().tick_values(vmin, vmax)


def readable_log_ticks(axes):
  """Plain numbers (0.2, 0.5, 1) rather than '2 x 10^-1' where a log axis
  spans less than two decades, labelling 2 and 5 between the decades (and
  1.5, 3 and 7 where it spans less than one, which would show one or two
  labels); wider axes keep their powers of ten and unlabelled minor ticks."""
  for axis, (low, high) in ((axes.xaxis, axes.get_xlim()),
                            (axes.yaxis, axes.get_ylim())):
    if axis.get_scale() != "log":  # linear winnings, symlog from step 0
      continue
    plain = ticker.FuncFormatter(_plain_number)
    if low > 0 and high / low < 100:
      axis.set_major_formatter(plain)
      axis.set_minor_locator(_MinorLogLocator())
      axis.set_minor_formatter(plain)
    else:
      axis.set_minor_formatter(ticker.NullFormatter())
