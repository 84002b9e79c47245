"""Thesis fig. 3.3: Smooth UCT (c 18, d 0.002) and UCT (c 20) in Leduc,
exploitability of the average policy against episodes, with OpenSpiel's C++
outcome-sampling MCCFR (exploration 0.6; one episode per iteration) for
reference.

  python docs/figures/fig3_3_leduc_smooth_uct.py --episodes 500000000
  python docs/figures/fig3_3_leduc_smooth_uct.py --plot_only
"""

import os

from absl import app
from absl import flags
import numpy as np
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.run import curves
from nfsp_spiel import smooth_uct
import figure_runs
import figure_style

flags.DEFINE_integer("episodes", 500_000_000, "Episodes of each UCT run.")
flags.DEFINE_integer("mccfr_iterations", 50_000_000, "OS-MCCFR iterations.")
flags.DEFINE_bool("plot_only", False, "Redraw the PNG from the CSVs.")
LABELS = {"smooth_uct": "Smooth UCT", "uct": "UCT",
          "os_mccfr": "OS-MCCFR (OpenSpiel C++)"}


def curve(name, advance, exploitability, total):
  """Logs `exploitability` at log-spaced episode counts up to `total`."""
  directory = os.path.join(figure_runs.HERE, "data", "fig3_3", name)
  path = os.path.join(directory, curves.CSV_NAME)
  if os.path.exists(path):
    os.remove(path)
  logger = curves.LearningCurveLogger(directory)
  done = 0
  for target in np.unique(np.geomspace(10_000, total, 25).astype(np.int64)):
    advance(int(target - done))
    done = int(target)
    logger.log(done, exploitability=exploitability())
  return path


def plot():
  """The PNG from the curves, with the thesis' two levels at 5e8 episodes."""
  paper = figure_style.paper("thesis-fig3.3")
  at = figure_style.sci(paper["episodes"])
  references = [
      (paper["suct"], f"thesis: Smooth UCT {paper['suct']} at {at} episodes",
       figure_style.colour("Smooth UCT"), paper["episodes"]),
      (paper["os"], f"thesis: alternating OS {paper['os']} at {at} episodes",
       figure_style.colour("OS-MCCFR"), paper["episodes"])]
  figure_runs.plot_available("fig3_3", LABELS, loglog=True, xlabel="episodes",
                             references=references,
                             title="Leduc: Smooth UCT, UCT and OS-MCCFR")


def main(argv):
  del argv
  if not flags.FLAGS.plot_only:
    game = pyspiel.load_game("leduc_poker")
    for name, config in (("smooth_uct", smooth_uct.SmoothUCTConfig.leduc()),
                         ("uct", smooth_uct.SmoothUCTConfig.uct(20.0))):
      search = smooth_uct.SmoothUCT(game, config, seed=0)
      curve(name, search.run, search.exploitability, flags.FLAGS.episodes)
    solver = pyspiel.OutcomeSamplingMCCFRSolver(game, 0.6, 0)
    curve("os_mccfr", lambda n: [solver.run_iteration() for _ in range(n)],
          lambda: pyspiel.exploitability(game, solver.average_policy()),
          flags.FLAGS.mccfr_iterations)
  plot()


if __name__ == "__main__":
  app.run(main)
