"""Thesis fig. 5.4 (XFP curves): XFP in River poker with uniform and defined
beliefs, exploitability against wall-clock training seconds, 300 s each.

  python docs/figures/fig5_4_river_xfp.py --seconds 300
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import xfp
import figure_runs

flags.DEFINE_float("seconds", 300, "Training seconds per run.")


def main(argv):
  del argv
  runs = {}
  for beliefs in ("uniform", "defined"):
    game = pyspiel.load_game(f"river_poker(beliefs={beliefs})")
    runs[f"XFP, {beliefs} beliefs"] = figure_runs.run(
        xfp.XFPSolver(game), "fig5_4", beliefs, seconds=flags.FLAGS.seconds)
  figure_runs.plot(runs, "fig5_4_xfp", x="training_seconds", loglog=True,
                   title="River poker: XFP")


if __name__ == "__main__":
  app.run(main)
