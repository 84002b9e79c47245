"""The linear probe of docs/figures/nfsp_lhe_equity_probe.py and its rule
(written before its data)."""

import numpy as np
import pytest

FIGURE_SCRIPT = "nfsp_lhe_equity_probe"


@pytest.fixture(name="probe")
def fixture_probe(figure_script):
  return figure_script


def test_the_probe_reads_a_linear_code_and_not_noise(probe):
  rng = np.random.default_rng(0)
  rounds = rng.integers(0, 4, 4000)
  equities = rng.random(4000)
  noise = rng.normal(size=(4000, 16))
  coded = np.concatenate([noise, 3.0 * equities[:, None] - 1.0], axis=1)
  assert min(probe.probe_r2(coded, equities, rounds)) > 0.99
  assert max(probe.probe_r2(noise, equities, rounds)) < 0.05


def _rows(probe, values):
  """Rows of both networks at kept checkpoints every 250k whose R^2 in
  every round and for both players is the value given."""
  rows = []
  for i, value in enumerate(values):
    for network in probe.NETWORKS:
      for player in (0, 1):
        rows += probe._rows(i * 250_000 if i else probe.UNTRAINED,  # pylint: disable=protected-access
                            network, player, [value] * 4)
  return rows


@pytest.mark.parametrize("values, reading", [
    ([0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45], "still learns hand strength"),
    ([0.1, 0.2, 0.4, 0.41, 0.42, 0.42, 0.42],
     "learns hand strength, then stalls"),
    ([0.1, 0.2, 0.21, 0.2, 0.22, 0.21, 0.22], "does not learn hand strength"),
])
def test_the_rule_reads_the_trend_over_the_run_and_its_end(probe, values,
                                                          reading):
  # The first value is the untrained network's, not a kept checkpoint.
  line = probe.verdict(_rows(probe, values), "q_network")
  assert line.startswith(f"q_network: {reading} (R^2 0.200 at 250,000")
  assert line.endswith(f"untrained {values[0]:.3f})")


def test_too_few_checkpoints_give_no_verdict(probe):
  assert probe.verdict(_rows(probe, [0.1, 0.2, 0.3]), "q_network") == (
      "q_network: too few kept checkpoints (2)")
