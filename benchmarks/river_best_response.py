"""Exact River poker exploitability: ours against OpenSpiel's tools, one run.

For reduced decks (`min_rank`), the same seeded random tabular policy is
evaluated by our vectorised best response (`nfsp_spiel.evaluation`), by
OpenSpiel's C++ `pyspiel.exploitability` and, on the smallest decks, by its
Python `exploitability`. The full game (which OpenSpiel cannot walk here) is
timed for ours alone, for both belief presets. Prints a table.

  python benchmarks/river_best_response.py --min_ranks 12,11,10
"""

import time

from absl import app
from absl import flags
import numpy as np
import pyspiel
from open_spiel.python.algorithms import exploitability as py_exploitability

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.evaluation import best_responses

FLAGS = flags.FLAGS
flags.DEFINE_list("min_ranks", ["12", "11", "10"],
                  "Reduced decks to compare with OpenSpiel (2..14).")
flags.DEFINE_integer("python_max_cards", 16,
                     "Largest deck also run through OpenSpiel's Python tool.")
flags.DEFINE_integer("seed", 0, "Seed of the random policy.")

# A board of the reduced deck: the papers' board shape, highest ranks.
_BOARDS = {14: None, 13: None, 12: "QcQdKhAsKd", 11: "JcQdKhAsJd",
           10: "TcJdQhKsAh", 9: "9cTdJhQsKc", 8: "8c9dThJsQc"}


def random_policy(game, seed):
  """A seeded random, plain OpenSpiel TabularPolicy (no compiled arrays
  attached: our evaluation reads it state by state, like any user policy)."""
  tabular = evaluation.public_tree_tabular(game, lambda s: {1: 1.0}).__copy__()
  rng = np.random.default_rng(seed)
  probs = rng.random(tabular.action_probability_array.shape) ** 3
  probs *= tabular.legal_actions_mask
  tabular.action_probability_array = probs / probs.sum(1, keepdims=True)
  return tabular


def timed(function, *args):
  start = time.perf_counter()
  value = function(*args)
  return value, time.perf_counter() - start


def main(argv):
  del argv
  print(f"{'game':58s} {'holdings':>8s} {'ours s':>8s} {'C++ s':>8s} "
        f"{'Python s':>9s} {'C++/ours':>9s} {'|diff|':>9s}  exploitability")
  for min_rank in map(int, FLAGS.min_ranks):
    game = pyspiel.load_game(
        f"river_poker(min_rank={min_rank},board={_BOARDS[min_rank]})")
    policy = random_policy(game, FLAGS.seed)
    best_responses.public_tree_form.cache_clear()  # time the tree build too
    ours, ours_s = timed(evaluation.exploitability, game, policy)
    table = {key: [(a, p) for a, p in enumerate(
        policy.action_probability_array[i]) if policy.legal_actions_mask[i][a]]
             for key, i in policy.state_lookup.items()}
    cpp, cpp_s = timed(pyspiel.exploitability, game, table)
    python_s = float("nan")
    if 4 * (15 - min_rank) <= FLAGS.python_max_cards:
      python, python_s = timed(py_exploitability.exploitability, game, policy)
      assert abs(python - ours) < 1e-9, (python, ours)
    print(f"{str(game):58.58s} {len(game.hands):8d} {ours_s:8.3f} "
          f"{cpp_s:8.2f} {python_s:9.2f} {cpp_s / ours_s:9.0f} "
          f"{abs(cpp - ours):9.1e}  {ours:.6f}")
  for beliefs in ("uniform", "defined"):
    game = pyspiel.load_game(f"river_poker(beliefs={beliefs})")
    policy = random_policy(game, FLAGS.seed)
    best_responses.public_tree_form.cache_clear()
    ours, ours_s = timed(evaluation.exploitability, game, policy)
    again, again_s = timed(evaluation.exploitability, game, policy)
    assert again == ours
    print(f"{str(game):58.58s} {len(game.hands):8d} {ours_s:8.3f} "
          f"{'-':>8s} {'-':>9s} {'-':>9s} {'-':>9s}  {ours:.6f} "
          f"(again, tree cached: {again_s:.3f} s)")


if __name__ == "__main__":
  app.run(main)
