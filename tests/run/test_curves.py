"""The learning-curve logger and plots."""

import os

import matplotlib.image
import matplotlib.pyplot as plt
import numpy as np
import pyspiel
import pytest

from nfsp_spiel.run import curves


def test_csv_rows_resume_and_plot(tmp_path):
  run = tmp_path / "xfp"
  logger = curves.LearningCurveLogger(str(run))
  for step in (1, 10, 100):
    logger.log(step, exploitability=1.0 / step, episodes=step * 2)
  # A resumed run appends, and its clock continues from the last row.
  resumed = curves.LearningCurveLogger(str(run))
  assert resumed.seconds >= curves.read_curve(resumed.path)[-1]["seconds"]
  resumed.log(1000, exploitability=0.001, episodes=2000)
  rows = curves.read_curve(os.path.join(run, "curve.csv"))
  assert [r["step"] for r in rows] == [1, 10, 100, 1000]
  assert [r["exploitability"] for r in rows] == [1.0, 0.1, 0.01, 0.001]
  assert all(b["seconds"] >= a["seconds"] for a, b in zip(rows, rows[1:]))
  with pytest.raises(ValueError, match="differ from the curve's columns"):
    resumed.log(2000, nash_conv=0.1)

  other = curves.LearningCurveLogger(str(tmp_path / "fsp"))
  for step in (1, 10, 100, 1000):
    other.log(step, exploitability=0.5 / step ** 0.5, episodes=step)
  png = curves.plot_curves(
      {"XFP": os.path.join(run, "curve.csv"),
       "FSP": other.path}, str(tmp_path / "curves.png"), loglog=True,
      title="Leduc")
  image = matplotlib.image.imread(png)
  assert image.shape[0] > 100 and image.shape[1] > 100
  with pytest.raises(ValueError, match="not 'step' and 'return'"):
    curves.plot_curves({"XFP": other.path}, str(tmp_path / "x.png"),
                           metric="return")


def test_tensorboard_scalars(tmp_path):
  logger = curves.LearningCurveLogger(str(tmp_path), tensorboard=True)
  logger.log(1, exploitability=0.5)
  event_files = os.listdir(tmp_path / "tensorboard")
  assert event_files and event_files[0].startswith("events.out.tfevents")


@pytest.mark.parametrize("cut", ["100,", "100,12.5,0.0", "1000,3.0,0.00"])
def test_a_row_cut_by_a_crash_is_dropped_and_the_run_resumes(tmp_path, cut):
  """A full disk or a kill mid-write leaves a last row without its line end
  (possibly with every field, the last one cut short): reading the curve
  leaves it out, and reopening the folder rewrites the curve without it, so
  the next row starts on a line of its own."""
  logger = curves.LearningCurveLogger(str(tmp_path))
  for step in (1, 10):
    logger.log(step, exploitability=1.0 / step)
  with open(logger.path, "a", newline="") as f:
    f.write(cut)
  assert [r["step"] for r in curves.read_curve(logger.path)] == [1, 10]
  resumed = curves.LearningCurveLogger(str(tmp_path))
  resumed.log(100, exploitability=0.01)
  rows = curves.read_curve(resumed.path)
  assert [(r["step"], r["exploitability"]) for r in rows] == [
      (1, 1.0), (10, 0.1), (100, 0.01)]
  with open(resumed.path) as f:
    assert len(f.read().splitlines()) == 4  # header and three rows


def test_a_header_cut_by_a_crash_starts_the_curve_again(tmp_path):
  with open(tmp_path / "curve.csv", "w") as f:
    f.write("step,seco")
  logger = curves.LearningCurveLogger(str(tmp_path))
  logger.log(5, exploitability=0.5)
  assert curves.read_curve(logger.path) == [
      {"step": 5.0, "seconds": pytest.approx(logger.seconds, abs=1.0),
       "exploitability": 0.5}]


def test_cut_curve_keeps_the_rows_up_to_the_checkpoint(tmp_path):
  logger = curves.LearningCurveLogger(str(tmp_path))
  for step in (1, 10, 100, 1000):
    logger.log(step, exploitability=1.0 / step)
  curves.cut_curve(logger.path, 100)
  assert [r["step"] for r in curves.read_curve(logger.path)] == [1, 10, 100]
  curves.cut_curve(str(tmp_path / "none.csv"), 5)  # nothing to cut


def test_log_points_leave_out_what_log_axes_cannot_show(tmp_path):
  """The inset and the reference slope draw only x > 0 and y > 0 (step 0,
  connected, became a flat segment from the plot's edge); the main axes keep
  step 0 on a symlog axis (`test_step_0_stays_in_sight_on_log_axes`)."""
  assert curves.log_points([0, 10, 100, 1000], [0.5, 0.2, 0.0,
                                                           0.1]) == (
                                                               [10, 1000],
                                                               [0.2, 0.1])
  logger = curves.LearningCurveLogger(str(tmp_path))
  logger.log(0, exploitability=0.9)
  logger.log(1, exploitability=0.5)  # one point left on log axes: a marker
  title = "river_poker(" + ",".join(["range0=AA KK QQ JJ TT 99"] * 6) + ")"
  png = curves.plot_curves({"one point": logger.path},
                               str(tmp_path / "curve.png"), loglog=True,
                               title=title, inset_loglog=True)
  assert os.path.getsize(png) > 0


def _curve(directory, rows):
  """A curve CSV of `rows` ({column: value} each, step first)."""
  logger = curves.LearningCurveLogger(str(directory))
  for row in rows:
    logger.log(**row)
  return logger.path


def _figure(*args, **kwargs):
  """`curve_figure`, closed once the test has read it."""
  figure = curves.curve_figure(*args, **kwargs)
  plt.close(figure)
  return figure


# Smooth UCT's Limit Hold'em curve: the greedy profile against each baseline.
LHE_ROWS = [
    {"step": step * 100_000_000, "training_seconds": step * 100.0,
     **{column: value for name, mean in (("always_call", 700.0),
                                         ("always_raise", 1800.0),
                                         ("equity_threshold", -500.0))
        for column, value in ((f"mbb_per_hand_vs_{name}", mean + 10 * step),
                              (f"mbb_stderr_vs_{name}", 50.0 + step))}}
    for step in (1, 2, 3)]


def test_axes_are_labelled_with_units(tmp_path):
  path = _curve(tmp_path, [{"step": s, "exploitability": 1 / s}
                           for s in (1, 10, 100)])
  axes, = _figure({"XFP": path}, loglog=True).axes
  assert axes.get_xlabel() == "iterations"
  assert axes.get_ylabel() == "exploitability (chips/hand)"
  axes, = _figure({"XFP": path}, x="seconds", payoff="payoff/game").axes
  assert axes.get_xlabel() == "wall-clock time (s)"
  assert axes.get_ylabel() == "exploitability (payoff/game)"
  axes, = _figure({"LHE": _curve(tmp_path / "lhe", LHE_ROWS)},
                  metric="mbb_per_hand_vs_always_call").axes
  assert axes.get_ylabel().startswith("winnings (mbb/h)")


def test_the_payoff_unit_is_chips_per_hand_in_poker():
  assert curves.payoff_unit(pyspiel.load_game("leduc_poker")) == "chips/hand"
  assert curves.payoff_unit(pyspiel.load_game("tic_tac_toe")) == "payoff/game"


def test_step_0_stays_in_sight_on_log_axes(tmp_path):
  """The starting strategy's point, at step 0, sits at the symlog axis' 0
  tick, unconnected; the curve proper starts at the first positive step."""
  path = _curve(tmp_path, [{"step": s, "exploitability": 2 / (s + 1)}
                           for s in (0, 50_000, 100_000, 1_000_000)])
  axes, = _figure({"NFSP": path}, loglog=True).axes
  assert axes.get_xscale() == "symlog" and axes.get_yscale() == "log"
  drawn = [(list(line.get_xdata()), list(line.get_ydata()))
           for line in axes.get_lines()]
  assert ([0.0], [2.0]) in drawn
  assert ([50_000.0, 100_000.0, 1_000_000.0],
          [2 / 50_001, 2 / 100_001, 2 / 1_000_001]) in drawn
  # The axis turns logarithmic at the decade below the first positive step.
  assert axes.xaxis.get_transform().linthresh == 10_000


def test_standard_errors_are_shaded(tmp_path):
  """Each mbb/h column with an `mbb_stderr_vs_...` beside it gets a band of
  +-1 standard error around its line."""
  path = _curve(tmp_path, LHE_ROWS)
  axes, = _figure({"Smooth UCT": path},
                  metric=curves.EVERY_METRIC).axes
  assert "standard error" in axes.get_ylabel()
  bands = axes.collections
  assert len(bands) == 3
  low, high = bands[2].get_paths()[0].get_extents().intervaly
  values = [r["mbb_per_hand_vs_equity_threshold"] for r in LHE_ROWS]
  errors = [r["mbb_stderr_vs_equity_threshold"] for r in LHE_ROWS]
  assert low == pytest.approx(min(v - e for v, e in zip(values, errors)))
  assert high == pytest.approx(max(v + e for v, e in zip(values, errors)))


@pytest.mark.parametrize("column,columns,expected", [
    ("mbb_per_hand_vs_always_call",
     ["step", "mbb_per_hand_vs_always_call", "mbb_stderr_vs_always_call"],
     "mbb_stderr_vs_always_call"),
    ("lbr_mbb_per_hand", ["step", "lbr_mbb_per_hand", "lbr_mbb_stderr"],
     "lbr_mbb_stderr"),
    ("exploitability", ["step", "exploitability", "exploitability_stderr"],
     "exploitability_stderr"),
    ("mean_squared_error", ["step", "mean_squared_error", "standard_error"],
     "standard_error"),
    ("exploitability", ["step", "exploitability", "br_gap_0",
                        "standard_error"], None),
    ("exploitability", ["step", "exploitability"], None),
])
def test_stderr_column(column, columns, expected):
  assert curves.stderr_column(column, columns) == expected


def test_every_metric_is_drawn_one_panel_per_unit(tmp_path):
  """NFSP's Limit Hold'em curve: winnings against the baseline (each
  policy) and LBR's in one panel, the two losses in theirs."""
  rows = [{"step": step, "mbb_per_hand_vs_equity_threshold": -1000.0 + step,
           "lbr_mbb_per_hand": 3000.0 - step,
           "mbb_per_hand_vs_equity_threshold_greedy_average": -2000.0,
           "rl_loss": 0.01, "sl_loss": 0.5} for step in (0, 1, 2)]
  figure = _figure({"NFSP": _curve(tmp_path, rows)},
                   metric=curves.EVERY_METRIC,
                   column_labels={"lbr_mbb_per_hand": "LBR"},
                   xlabel="episodes")
  winnings, losses = figure.axes
  assert winnings.get_ylabel() == "winnings (mbb/h)"
  assert [line.get_label() for line in winnings.get_lines()] == [
      "mbb_per_hand_vs_equity_threshold", "LBR",
      "mbb_per_hand_vs_equity_threshold_greedy_average"]
  assert winnings.get_legend().get_title().get_text() == "NFSP"
  assert losses.get_ylabel() == "training losses"
  assert [list(line.get_ydata()) for line in losses.get_lines()] == [
      [0.01] * 3, [0.5] * 3]
  assert losses.get_xlabel() == "episodes" and not winnings.get_xlabel()


def test_the_exploitability_panel_holds_the_exploitability_alone(tmp_path):
  """NFSP's Leduc curve (the quick start's): the exploitability alone in the
  first panel; the best-response gaps and M_SL's exploitability, of the same
  unit but noisier, in a panel of diagnostics; the losses in theirs."""
  rows = [{"step": step, "exploitability": 2.0 / step, "br_gap_0": 0.1,
           "br_gap_1": 0.2, "exploitability_sl_memory": 3.0 / step,
           "rl_loss": 0.01, "sl_loss": 0.9} for step in (1, 2, 3)]
  labels = {"exploitability": "average policy", "br_gap_0": "gap 0"}
  exploitability, diagnostics, losses = _figure(
      {"NFSP": _curve(tmp_path, rows)}, metric=curves.EVERY_METRIC,
      column_labels=labels).axes
  assert exploitability.get_ylabel() == "exploitability (chips/hand)"
  assert [line.get_label() for line in exploitability.get_lines()] == [
      "average policy"]
  assert diagnostics.get_ylabel() == "diagnostics (chips/hand)"
  assert [line.get_label() for line in diagnostics.get_lines()] == [
      "gap 0", "br_gap_1", "exploitability_sl_memory"]
  assert losses.get_ylabel() == "training losses"
  # Alone in its panel, a diagnostic says both what and which panel.
  rows = [{"step": 1, "exploitability": 2.0, "br_gap_0": 0.1}]
  assert [axes.get_ylabel() for axes in _figure(
      {"NFSP": _curve(tmp_path / "one", rows)},
      metric=curves.EVERY_METRIC).axes] == [
          "exploitability (chips/hand)",
          "diagnostics: best-response gap\n(chips/hand)"]


def test_every_metric_of_several_runs_names_the_run(tmp_path):
  runs = {name: _curve(tmp_path / name, [{"step": 1, "exploitability": 0.5,
                                          "average_change": 0.1}])
          for name in ("CFR", "XFP")}
  exploitability, change = _figure(runs, metric=curves.EVERY_METRIC).axes
  assert [line.get_label() for line in change.get_lines()] == [
      "CFR: average_change", "XFP: average_change"]
  assert exploitability.get_ylabel() == "exploitability (chips/hand)"


def test_log_axes_take_a_curve_of_its_start_and_a_metric_of_nans(tmp_path):
  """A run stopped after its first evaluation, with a loss that no update
  has reported yet (nan): the start is drawn at 0, the loss's panel is
  empty and linear (a log axis of no positive value cannot be drawn)."""
  path = _curve(tmp_path, [{"step": 0, "exploitability": 0.5,
                            "rl_loss": float("nan")}])
  exploitability, loss = _figure({"NFSP": path}, metric=curves.EVERY_METRIC,
                                 loglog=True).axes
  assert exploitability.get_xscale() == "symlog"
  assert ([0.0], [0.5]) in [(list(line.get_xdata()), list(line.get_ydata()))
                            for line in exploitability.get_lines()]
  assert loss.get_yscale() == "linear"
  assert [text.get_text() for text in loss.texts] == [
      "no values logged yet"]
  png = curves.plot_curves({"NFSP": path}, str(tmp_path / "curve.png"),
                               metric=curves.EVERY_METRIC, loglog=True)
  assert os.path.getsize(png) > 0


def test_a_population_is_drawn_thin_with_the_mean_and_its_band(tmp_path):
  """A population's curve (examples/nfsp.py --seeds): each member's line,
  thin, at its own steps, and the mean of the seeds with +-1 standard error
  of the mean (ddof 1) shaded."""
  rows = []
  for step, values in ((1000, [0.5, 0.3, 0.4]), (2000, [0.2, 0.1, 0.3])):
    row = {"step": step}
    for k, value in enumerate(values):
      row.update(curves.member_columns(
          {"step": step + k, "exploitability": value}, f"seed{2 * k}"))
    rows.append({**row, **curves.band_columns("exploitability", values)})
  assert rows[0]["exploitability/low"] == pytest.approx(0.4 - 0.1 / 3 ** 0.5)
  path = _curve(tmp_path, rows)
  assert curves.metric_columns(curves.read_curve(path)[0]) == [
      "exploitability"]
  axes, = _figure({"NFSP": path}).axes
  members, mean = axes.get_lines()[:3], axes.get_lines()[3]
  assert [list(line.get_xdata()) for line in members] == [
      [1000, 2000], [1001, 2001], [1002, 2002]]
  assert all(line.get_linewidth() < mean.get_linewidth() for line in members)
  assert mean.get_label() == "mean of 3 seeds \u00b1 standard error"
  assert list(mean.get_ydata()) == pytest.approx([0.4, 0.2])
  low, high = axes.collections[0].get_paths()[0].get_extents().intervaly
  assert (low, high) == pytest.approx((0.2 - 0.1 / 3 ** 0.5,
                                       0.4 + 0.1 / 3 ** 0.5))


# Seed bands over separate runs: each seed's points paired by evaluation.

def test_points_pair_by_index_when_the_grids_agree():
  a = [(0, 1.0), (1003, 0.5), (2001, 0.25)]
  b = [(0, 3.0), (1030, 0.7), (2050, 0.45)]  # a lockstep's overshoot
  assert list(curves.shared_points([a, b])) == [list(p) for p in zip(a, b)]


def test_a_stopped_runs_extra_point_is_passed_over():
  """Seed a stopped at 41.38M (logged there, then went on): its later
  points still pair with the same evaluations of b, and a's stop point with
  nothing."""
  a = [(41_000_010, 0.10), (41_375_955, 0.11), (41_500_020, 0.12),
       (42_000_003, 0.13)]
  b = [(41_000_002, 0.20), (41_500_001, 0.21), (42_000_030, 0.22)]
  pairs = list(curves.shared_points([a, b]))
  assert pairs == [[a[0], b[0]], [a[2], b[1]], [a[3], b[2]]]
  steps, means, _, _ = curves.mean_and_band([a, b])
  assert means == pytest.approx([0.15, 0.165, 0.175])
  assert steps[1] == pytest.approx(41_500_010.5)


def test_runs_stopped_together_pair_their_stop_points_at_the_end():
  """Three runs stopped at once (steps close, off the grid) and never
  resumed: their last points pair, within the tolerance."""
  a = [(0, 1.0), (250_010, 0.5), (401_000, 0.4)]
  b = [(0, 1.1), (250_002, 0.6), (398_000, 0.3)]
  c = [(0, 0.9), (250_030, 0.7), (405_500, 0.2)]
  assert [p[-1] for p in curves.shared_points([a, b, c])] == \
      [c[0], c[1], c[2]]
  # Resumed, the stop points (closer to each other than to the next
  # evaluation) still pair, and the next evaluation pairs after them.
  resumed = [curve + [(500_000 + k, 0.1)] for k, curve in enumerate((a, b, c))]
  pairs = list(curves.shared_points(resumed))
  assert [[step for step, _ in pair] for pair in pairs[2:]] == \
      [[401_000, 398_000, 405_500], [500_000, 500_001, 500_002]]


def test_runs_stopped_together_early_and_resumed():
  """Stop points further apart than the tolerance (270k-305k, early) are
  all passed over once the runs go on."""
  a = [(0, 1.0), (250_010, 0.5), (305_159, 0.45), (500_020, 0.4)]
  b = [(0, 1.1), (250_002, 0.6), (300_103, 0.55), (500_001, 0.3)]
  c = [(0, 0.9), (250_030, 0.7), (270_047, 0.65), (500_012, 0.2)]
  pairs = list(curves.shared_points([a, b, c]))
  assert [[step for step, _ in pair] for pair in pairs] == [
      [0, 0, 0], [250_010, 250_002, 250_030], [500_020, 500_001, 500_012]]


def test_different_grids_pair_where_they_meet():
  a = [(0, 1.0), (1000, 0.5), (2000, 0.4), (3000, 0.3)]
  b = [(0, 1.0), (2000, 0.5), (4000, 0.2)]
  pairs = list(curves.shared_points([a, b]))
  assert [[step for step, _ in pair] for pair in pairs] == [[0, 0],
                                                            [2000, 2000]]


def test_table_prints_each_rows_step_seconds_and_columns(tmp_path):
  logger = curves.LearningCurveLogger(str(tmp_path), seconds=0.0)
  logger.log(0, exploitability=1.5, rl_loss=0.25)
  logger.log(12000, exploitability=0.0625, rl_loss=0.125)
  lines = curves.table(logger.path, ["exploitability"], "episodes").split("\n")
  assert lines[0] == "    episodes   seconds exploitability"
  assert [line.split()[0] for line in lines[1:]] == ["0", "12,000"]
  assert [line.split()[2] for line in lines[1:]] == ["1.5000", "0.0625"]


@pytest.mark.parametrize("limits, labelled", [
    ((0.7, 3.5), [0.7, 1.0, 1.5, 2.0, 3.0]),   # under a decade: more labels
    ((0.05, 3.5), [0.05, 0.1, 0.2, 0.5, 1.0, 2.0])])  # 2 and 5 a decade
def test_log_axes_label_plain_numbers_enough_to_read(limits, labelled):
  figure, axes = plt.subplots()
  axes.set_yscale("log")
  axes.set_ylim(0.7, 3.5)
  curves.readable_log_ticks(axes)
  axes.set_ylim(*limits)  # as a line drawn after the call would move them
  figure.canvas.draw()
  axis = axes.yaxis
  ticks = [(t, axis.get_major_formatter()) for t in axis.get_majorticklocs()]
  ticks += [(t, axis.get_minor_formatter()) for t in axis.get_minorticklocs()]
  shown = sorted(round(t, 6) for t, label in ticks
                 if limits[0] <= t <= limits[1] and label(t))
  assert shown == labelled
  plt.close(figure)


def test_a_curve_takes_new_columns_and_keeps_its_rows(tmp_path):
  # A run resumed by code that logs one more diagnostic keeps its curve.
  logger = curves.LearningCurveLogger(str(tmp_path))
  logger.log(1, exploitability=1.0)
  resumed = curves.LearningCurveLogger(str(tmp_path))
  resumed.log(10, q_abs=3.0, exploitability=0.5)
  resumed.log(100, q_abs=2.0, exploitability=0.25)
  rows = curves.read_curve(resumed.path)
  assert [r["exploitability"] for r in rows] == [1.0, 0.5, 0.25]
  assert np.isnan(rows[0]["q_abs"]) and rows[2]["q_abs"] == 2.0
  with open(resumed.path) as f:
    assert f.readline().strip() == "step,seconds,q_abs,exploitability"
  with pytest.raises(ValueError, match=r"\['q_abs'\] missing"):
    resumed.log(1000, exploitability=0.1)
