"""docs/figures/fig_fictitious_play_3p.py: the slope it reports for each
three-player curve."""

import pytest

FIGURE_SCRIPT = "fig_fictitious_play_3p"


def _power_law(exponent, steps):
  return [{"step": float(s), "nash_conv": 3.0 * s ** exponent} for s in steps]


def test_the_slope_of_a_power_law_is_its_exponent(figure_script):
  rows = [{"step": 0.0, "nash_conv": 2.0}] + _power_law(
      -0.7, range(10, 20_001, 10))
  assert figure_script.slope(rows) == pytest.approx(-0.7)


def test_the_slope_reads_the_last_decade_only(figure_script):
  early = _power_law(-0.2, range(10, 1_000, 10))
  late = [{"step": row["step"], "nash_conv": row["nash_conv"] * 1e-3}
          for row in _power_law(-1.5, range(1_000, 10_001, 100))]
  assert figure_script.slope(early + late) == pytest.approx(-1.5)


def test_a_curve_shorter_than_a_decade_has_no_slope(figure_script):
  assert figure_script.slope(_power_law(-0.5, range(100, 900, 10))) is None
  assert figure_script.slope(_power_law(-0.5, [100, 2_000])) is None
