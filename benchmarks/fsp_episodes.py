"""FSP's sampling loop: iterations and episodes per second, one run.

For each game, times FSP iterations (episodes sampled + Q-learning replay)
once the memories are full (2000 episodes here, so that they fill quickly;
the cost does not depend on their size), on the game's public tree (our
poker games) and, for comparison, on OpenSpiel states keyed by
information-state tensors (the path every other game takes).

  python benchmarks/fsp_episodes.py --seconds 5
"""

import time

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import fsp

FLAGS = flags.FLAGS
flags.DEFINE_float("seconds", 5.0, "Seconds per measurement.")
flags.DEFINE_list("games", ["kuhn_poker", "nfsp_leduc", "nfsp_leduc(ranks=30)",
                            "river_poker(beliefs=defined)"], "Games.")


def measure(solver, seconds):
  start, iterations, episodes = time.perf_counter(), solver.iterations, (
      solver.episodes)
  while time.perf_counter() - start < seconds:
    for _ in range(100):
      solver.iteration()
  elapsed = time.perf_counter() - start
  return ((solver.iterations - iterations) / elapsed,
          (solver.episodes - episodes) / elapsed)


def main(argv):
  del argv
  print(f"{'game':32s} {'path':>14s} {'iterations/s':>13s} {'episodes/s':>11s}")
  for name in FLAGS.games:
    game = pyspiel.load_game(name)
    for path in ("public tree", "OpenSpiel"):
      solver = fsp.FSPSolver(game, seed=0, memory_episodes=2000)
      if path == "OpenSpiel":
        if solver._tree is None:  # pylint: disable=protected-access
          continue
        solver._tree = None  # pylint: disable=protected-access
      elif solver._tree is None:  # pylint: disable=protected-access
        path = "OpenSpiel"
      while not solver.learners[0].memory.full:
        solver.iteration()
      its, eps = measure(solver, FLAGS.seconds)
      print(f"{name:32.32s} {path:>14s} {its:13,.0f} {eps:11,.0f}", flush=True)


if __name__ == "__main__":
  app.run(main)
