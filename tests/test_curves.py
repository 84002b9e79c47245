"""The learning-curve logger and plots."""

import os

import matplotlib.image
import pytest

from nfsp_spiel import evaluation


def test_csv_rows_resume_and_plot(tmp_path):
  run = tmp_path / "xfp"
  logger = evaluation.LearningCurveLogger(str(run))
  for step in (1, 10, 100):
    logger.log(step, exploitability=1.0 / step, episodes=step * 2)
  # A resumed run appends, and its clock continues from the last row.
  resumed = evaluation.LearningCurveLogger(str(run))
  assert resumed.seconds >= evaluation.read_curve(resumed.path)[-1]["seconds"]
  resumed.log(1000, exploitability=0.001, episodes=2000)
  rows = evaluation.read_curve(os.path.join(run, "curve.csv"))
  assert [r["step"] for r in rows] == [1, 10, 100, 1000]
  assert [r["exploitability"] for r in rows] == [1.0, 0.1, 0.01, 0.001]
  assert all(b["seconds"] >= a["seconds"] for a, b in zip(rows, rows[1:]))
  with pytest.raises(ValueError, match="differ from the curve's columns"):
    resumed.log(2000, nash_conv=0.1)

  other = evaluation.LearningCurveLogger(str(tmp_path / "fsp"))
  for step in (1, 10, 100, 1000):
    other.log(step, exploitability=0.5 / step ** 0.5, episodes=step)
  png = evaluation.plot_curves(
      {"XFP": os.path.join(run, "curve.csv"),
       "FSP": other.path}, str(tmp_path / "curves.png"), loglog=True,
      title="Leduc")
  image = matplotlib.image.imread(png)
  assert image.shape[0] > 100 and image.shape[1] > 100
  with pytest.raises(ValueError, match="not 'step' and 'return'"):
    evaluation.plot_curves({"XFP": other.path}, str(tmp_path / "x.png"),
                           metric="return")


def test_tensorboard_scalars(tmp_path):
  logger = evaluation.LearningCurveLogger(str(tmp_path), tensorboard=True)
  logger.log(1, exploitability=0.5)
  event_files = os.listdir(tmp_path / "tensorboard")
  assert event_files and event_files[0].startswith("events.out.tfevents")


@pytest.mark.parametrize("cut", ["100,", "100,12.5,0.0", "1000,3.0,0.00"])
def test_a_row_cut_by_a_crash_is_dropped_and_the_run_resumes(tmp_path, cut):
  """A full disk or a kill mid-write leaves a last row without its line end
  (possibly with every field, the last one cut short): reading the curve
  leaves it out, and reopening the folder rewrites the curve without it, so
  the next row starts on a line of its own."""
  logger = evaluation.LearningCurveLogger(str(tmp_path))
  for step in (1, 10):
    logger.log(step, exploitability=1.0 / step)
  with open(logger.path, "a", newline="") as f:
    f.write(cut)
  assert [r["step"] for r in evaluation.read_curve(logger.path)] == [1, 10]
  resumed = evaluation.LearningCurveLogger(str(tmp_path))
  resumed.log(100, exploitability=0.01)
  rows = evaluation.read_curve(resumed.path)
  assert [(r["step"], r["exploitability"]) for r in rows] == [
      (1, 1.0), (10, 0.1), (100, 0.01)]
  with open(resumed.path) as f:
    assert len(f.read().splitlines()) == 4  # header and three rows


def test_a_header_cut_by_a_crash_starts_the_curve_again(tmp_path):
  with open(tmp_path / "curve.csv", "w") as f:
    f.write("step,seco")
  logger = evaluation.LearningCurveLogger(str(tmp_path))
  logger.log(5, exploitability=0.5)
  assert evaluation.read_curve(logger.path) == [
      {"step": 5.0, "seconds": pytest.approx(logger.seconds, abs=1.0),
       "exploitability": 0.5}]


def test_cut_curve_keeps_the_rows_up_to_the_checkpoint(tmp_path):
  logger = evaluation.LearningCurveLogger(str(tmp_path))
  for step in (1, 10, 100, 1000):
    logger.log(step, exploitability=1.0 / step)
  evaluation.cut_curve(logger.path, 100)
  assert [r["step"] for r in evaluation.read_curve(logger.path)] == [1, 10, 100]
  evaluation.cut_curve(str(tmp_path / "none.csv"), 5)  # nothing to cut


def test_log_axes_leave_out_what_they_cannot_show(tmp_path):
  """Step 0 (the starting point) and zero values have no place on a log
  axis: drawn, they became a flat segment from the plot's edge."""
  assert evaluation.curves.log_points([0, 10, 100, 1000], [0.5, 0.2, 0.0,
                                                           0.1]) == (
                                                               [10, 1000],
                                                               [0.2, 0.1])
  logger = evaluation.LearningCurveLogger(str(tmp_path))
  logger.log(0, exploitability=0.9)
  logger.log(1, exploitability=0.5)  # one point left on log axes: a marker
  title = "river_poker(" + ",".join(["range0=AA KK QQ JJ TT 99"] * 6) + ")"
  png = evaluation.plot_curves({"one point": logger.path},
                               str(tmp_path / "curve.png"), loglog=True,
                               title=title, inset_loglog=True)
  assert os.path.getsize(png) > 0
