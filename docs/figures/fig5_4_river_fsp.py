"""Thesis fig. 5.4: table-lookup FSP against XFP in River poker (uniform and
defined beliefs), exploitability against wall-clock training seconds, 300 s
each, with a log-log inset. Run fig5_4_river_xfp.py first for the XFP curves.

  python docs/figures/fig5_4_river_fsp.py --seconds 300
"""

import os

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import fsp
import figure_runs

flags.DEFINE_float("seconds", 300, "Training seconds per run.")


def main(argv):
  del argv
  runs = {}
  for beliefs in ("uniform", "defined"):
    game = pyspiel.load_game(f"river_poker(beliefs={beliefs})")
    runs[f"FSP, {beliefs} beliefs"] = figure_runs.run(
        fsp.FSPSolver(game, seed=0), "fig5_4", f"fsp_{beliefs}",
        seconds=flags.FLAGS.seconds)
    xfp_curve = os.path.join(figure_runs.HERE, "data", "fig5_4", beliefs,
                             "curve.csv")
    if os.path.exists(xfp_curve):
      runs[f"XFP, {beliefs} beliefs"] = xfp_curve
  figure_runs.plot(runs, "fig5_4", x="training_seconds", inset_loglog=True,
                   title="River poker: FSP and XFP")


if __name__ == "__main__":
  app.run(main)
