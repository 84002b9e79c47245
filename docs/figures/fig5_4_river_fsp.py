"""Thesis fig. 5.4, FSP curves: table-lookup FSP in River poker with uniform
and defined beliefs, exploitability against wall-clock training seconds.

Each script plots every curve of its figure that exists, so running the
XFP and the FSP script (in either order) gives the combined figure.

  python docs/figures/fig5_4_river_fsp.py --seconds 300
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import fsp
import figure_runs

flags.DEFINE_float("seconds", 300, "Training seconds per run.")
LABELS = {"fsp_uniform": "FSP, uniform beliefs",
          "fsp_defined": "FSP, defined beliefs",
          "uniform": "XFP, uniform beliefs",
          "defined": "XFP, defined beliefs"}


def main(argv):
  del argv
  for beliefs in ("uniform", "defined"):
    game = pyspiel.load_game(f"river_poker(beliefs={beliefs})")
    figure_runs.run(fsp.FSPSolver(game, seed=0), "fig5_4", f"fsp_{beliefs}",
                    seconds=flags.FLAGS.seconds)
  figure_runs.plot_available("fig5_4", LABELS, x="training_seconds",
                             inset_loglog=True, title="River poker: FSP and XFP")


if __name__ == "__main__":
  app.run(main)
