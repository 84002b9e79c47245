"""Measures of a 2-D map of points (a t-SNE map) by each point's nearest
neighbours there, in numpy alone: `neighbours` (exact, by chunked
distances), `majority_score` (how well the neighbours' majority names a
point's value, as a balanced accuracy) and `rank_correlation` (Spearman's,
ties sharing their mean rank)."""

import numpy as np

NEIGHBOURS = 10


def neighbours(points, k=NEIGHBOURS, chunk=1024):
  """Each point's k nearest other points on the map (indices; exact, by
  distances computed a chunk of rows at a time)."""
  points = np.asarray(points, np.float64)
  near = np.empty((len(points), k), np.int64)
  for start in range(0, len(points), chunk):
    rows = np.arange(start, min(start + chunk, len(points)))
    distances = ((points[rows, None, :] - points[None, :, :]) ** 2).sum(-1)
    distances[np.arange(len(rows)), rows] = np.inf  # not its own neighbour
    nearest = np.argpartition(distances, k, axis=1)[:, :k]
    order = np.take_along_axis(distances, nearest, 1).argsort(1)
    near[rows] = np.take_along_axis(nearest, order, 1)
  return near


def majority_score(values, near):
  """The balanced accuracy of naming each point's value by its neighbours'
  majority (the mean over values of how often a point with that value is
  named right), and that of always naming one value (1 / values)."""
  values = np.asarray(values)
  kinds = np.unique(values)
  votes = np.stack([(values[near] == kind).sum(1) for kind in kinds], 1)
  predicted = kinds[votes.argmax(1)]
  recalls = [(predicted[values == kind] == kind).mean() for kind in kinds]
  return float(np.mean(recalls)), 1 / len(kinds)


def _ranks(values):
  """Ranks from 0, tied values sharing their mean rank."""
  values = np.asarray(values, np.float64)
  order = np.argsort(values, kind="stable")
  ranks = np.empty(len(values))
  ranks[order] = np.arange(len(values))
  _, starts, counts = np.unique(values[order], return_index=True,
                                return_counts=True)
  for start, count in zip(starts, counts):
    ranks[order[start:start + count]] = start + (count - 1) / 2
  return ranks


def rank_correlation(x, y):
  """Spearman's rank correlation (NaN where a side is constant or there
  are fewer than 3 points)."""
  if len(x) < 3 or np.std(x) == 0 or np.std(y) == 0:
    return float("nan")
  return float(np.corrcoef(_ranks(x), _ranks(y))[0, 1])
