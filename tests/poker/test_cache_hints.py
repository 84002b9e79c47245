"""The prefetch hint compiles for the index forms the kernels use and leaves
the data and the results as they are."""

import numba
import numpy as np
import pytest

from nfsp_spiel.poker import cache_hints


@numba.njit
def _sum_ahead(values, order):
  total = 0.0
  for i in range(len(order)):
    if i + 4 < len(order):
      cache_hints.prefetch(values, order[i + 4])
    total += values[order[i]]
  return total


@numba.njit
def _sum_rows_ahead(table, rows):
  total = 0.0
  for i in range(len(rows)):
    cache_hints.prefetch(table, (rows[-1 - i], 1))
    total += table[rows[i], 1]
  return total


def test_prefetch_changes_nothing():
  rng = np.random.default_rng(0)
  values = rng.random(10_000)
  order = rng.integers(0, len(values), 500)
  before = values.copy()
  assert _sum_ahead(values, order) == pytest.approx(np.sum(values[order]))
  table = rng.random((300, 8))
  rows = rng.integers(0, 300, 100)
  assert _sum_rows_ahead(table, rows) == pytest.approx(np.sum(table[rows, 1]))
  # A strided view (a column of rows, as Smooth UCT's N(u)).
  column = table[:, 0]
  assert _sum_ahead(column, rows) == pytest.approx(np.sum(column[rows]))
  np.testing.assert_array_equal(values, before)
