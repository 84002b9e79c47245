"""The figure scripts' seed bands pair each seed's points by evaluation."""

import importlib.util
import os
import sys

import pytest

FIGURES = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "docs", "figures")
sys.path.insert(0, FIGURES)
_SPEC = importlib.util.spec_from_file_location(
    "figure_runs", os.path.join(FIGURES, "figure_runs.py"))
figure_runs = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(figure_runs)


def test_points_pair_by_index_when_the_grids_agree():
  a = [(0, 1.0), (1003, 0.5), (2001, 0.25)]
  b = [(0, 3.0), (1030, 0.7), (2050, 0.45)]  # a lockstep's overshoot
  assert list(figure_runs.shared_points([a, b])) == [list(p) for p in zip(a, b)]


def test_a_stopped_runs_extra_point_is_passed_over():
  """Seed a stopped at 41.38M (logged there, then went on): its later
  points still pair with the same evaluations of b, and a's stop point with
  nothing."""
  a = [(41_000_010, 0.10), (41_375_955, 0.11), (41_500_020, 0.12),
       (42_000_003, 0.13)]
  b = [(41_000_002, 0.20), (41_500_001, 0.21), (42_000_030, 0.22)]
  pairs = list(figure_runs.shared_points([a, b]))
  assert pairs == [[a[0], b[0]], [a[2], b[1]], [a[3], b[2]]]
  steps, means, _, _ = figure_runs.mean_and_band([a, b])
  assert means == pytest.approx([0.15, 0.165, 0.175])
  assert steps[1] == pytest.approx(41_500_010.5)


def test_runs_stopped_together_pair_their_stop_points_at_the_end():
  """Three runs stopped at once (steps close, off the grid) and never
  resumed: their last points pair, within the tolerance."""
  a = [(0, 1.0), (250_010, 0.5), (401_000, 0.4)]
  b = [(0, 1.1), (250_002, 0.6), (398_000, 0.3)]
  c = [(0, 0.9), (250_030, 0.7), (405_500, 0.2)]
  assert [p[-1] for p in figure_runs.shared_points([a, b, c])] == \
      [c[0], c[1], c[2]]
  # Resumed, the stop points (closer to each other than to the next
  # evaluation) still pair, and the next evaluation pairs after them.
  resumed = [curve + [(500_000 + k, 0.1)] for k, curve in enumerate((a, b, c))]
  pairs = list(figure_runs.shared_points(resumed))
  assert [[step for step, _ in pair] for pair in pairs[2:]] == \
      [[401_000, 398_000, 405_500], [500_000, 500_001, 500_002]]


def test_runs_stopped_together_early_and_resumed():
  """Stop points further apart than the tolerance (270k-305k, early) are
  all passed over once the runs go on."""
  a = [(0, 1.0), (250_010, 0.5), (305_159, 0.45), (500_020, 0.4)]
  b = [(0, 1.1), (250_002, 0.6), (300_103, 0.55), (500_001, 0.3)]
  c = [(0, 0.9), (250_030, 0.7), (270_047, 0.65), (500_012, 0.2)]
  pairs = list(figure_runs.shared_points([a, b, c]))
  assert [[step for step, _ in pair] for pair in pairs] == [
      [0, 0, 0], [250_010, 250_002, 250_030], [500_020, 500_001, 500_012]]


def test_different_grids_pair_where_they_meet():
  a = [(0, 1.0), (1000, 0.5), (2000, 0.4), (3000, 0.3)]
  b = [(0, 1.0), (2000, 0.5), (4000, 0.2)]
  pairs = list(figure_runs.shared_points([a, b]))
  assert [[step for step, _ in pair] for pair in pairs] == [[0, 0],
                                                            [2000, 2000]]
