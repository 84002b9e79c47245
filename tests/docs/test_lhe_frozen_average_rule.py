"""The rule of docs/figures/fig_nfsp_lhe_frozen_average.py (written before
its data): does a warm-started best response climb against the frozen
average, and does clipping its TD error slow it?"""

import pytest

FIGURE_SCRIPT = "fig_nfsp_lhe_frozen_average"


@pytest.fixture(name="rule")
def fixture_rule(figure_script):
  return figure_script


def _curve(values, se=20.0, spacing=25_000):
  return [{"step": float(i * spacing + (3 if i else 0)), "mbb_per_hand": v,
           "mbb_stderr": se} for i, v in enumerate(values)]


def test_a_run_climbs_falls_or_is_flat_by_the_larger_margin(rule):
  assert rule.climbs(_curve([0.0, 30.0, 80.0, 100.0, 120.0])) == 1
  assert rule.climbs(_curve([0.0, 30.0, 40.0, 50.0, -120.0])) == -1
  # 60 above is past MIN_GAIN but not past twice the combined s.e. of 40s.
  assert rule.climbs(_curve([0.0, 10.0, 20.0, 30.0, 60.0], se=40.0)) == 0
  assert rule.climbs(_curve([0.0, 200.0, 300.0])) is None  # before 100k


def test_the_unclipped_run_ahead_means_the_clip_slows_it(rule):
  lines = rule.verdict({"clip1": _curve([0.0, 10.0, 20.0, 30.0, 40.0]),
                        "clip0": _curve([0.0, 100.0, 200.0, 250.0, 300.0])})
  assert lines[0].startswith("clip1: flat")
  assert lines[1].startswith("clip0: climbs (+300 +- 20 mbb/h at 100,003")
  assert lines[2].endswith(": the clip slows the best response")
  assert "unclipped +300, clipped +40" in lines[2]


def test_neither_climbing_reads_as_nothing_more_found(rule):
  lines = rule.verdict({"clip1": _curve([0.0, 10.0, 20.0, 30.0, 40.0]),
                        "clip0": _curve([0.0, -10.0, 20.0, -30.0, 10.0])})
  assert lines[-1].endswith("neither climbs: with its target still, the "
                            "best response finds no more than it had")


def test_both_climbing_alike_reads_as_the_clip_not_slowing_it(rule):
  lines = rule.verdict({"clip1": _curve([0.0, 100.0, 200.0, 250.0, 300.0]),
                        "clip0": _curve([0.0, 100.0, 180.0, 260.0, 320.0])})
  assert lines[-1].endswith("the clip does not slow it")


def test_runs_of_unequal_length_are_compared_at_the_last_shared_x(rule):
  lines = rule.verdict({"clip1": _curve([0.0, 10.0, 20.0, 30.0, 40.0]),
                        "clip0": _curve([0.0, 100.0, 200.0, 250.0, 300.0,
                                         400.0])})
  assert "at 100,003 episodes: unclipped +300, clipped +40" in lines[-1]
  short = rule.verdict({"clip1": _curve([0.0, 10.0]),
                        "clip0": _curve([0.0, 100.0, 200.0, 250.0, 300.0])})
  assert short[-1] == "does the clip slow the best response: too short"
