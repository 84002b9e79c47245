"""The neighbour measures of a 2-D map (`evaluation.embeddings`)."""

import numpy as np
import pytest

from nfsp_spiel.evaluation import embeddings


def test_neighbour_measures_tell_clusters_from_noise():
  rng = np.random.default_rng(0)
  # Two clusters far apart, labelled by cluster: every neighbour agrees.
  points = np.concatenate([rng.normal(0, 1, (200, 2)),
                           rng.normal(50, 1, (50, 2))])
  labels = np.array([0] * 200 + [1] * 50)
  near = embeddings.neighbours(points)
  assert embeddings.majority_score(labels, near) == (1.0, 0.5)
  # Labels that ignore the map: the balanced accuracy stays near chance
  # although the majority value alone would be right 80% of the time.
  score, chance = embeddings.majority_score(rng.permutation(labels), near)
  assert abs(score - chance) < 0.1
  assert embeddings.rank_correlation(np.arange(10.0), np.arange(10.0) ** 2) == (
      pytest.approx(1.0))


def test_neighbours_and_ranks_match_brute_force():
  rng = np.random.default_rng(1)
  points = rng.normal(size=(300, 2))
  distances = ((points[:, None] - points[None]) ** 2).sum(-1)
  np.fill_diagonal(distances, np.inf)
  np.testing.assert_array_equal(embeddings.neighbours(points, k=5, chunk=64),
                                np.argsort(distances, 1)[:, :5])
  # Ties share their mean rank (Spearman's convention).
  np.testing.assert_array_equal(embeddings._ranks([3.0, 1.0, 3.0, 2.0]),
                                [2.5, 0.0, 2.5, 1.0])
  assert embeddings.rank_correlation([1, 2, 3, 4], [4, 3, 2, 1]) == (
      pytest.approx(-1.0))
