"""Thesis fig. 5.4: table-lookup FSP against XFP in River poker (uniform and
defined beliefs), exploitability against wall-clock training seconds, 300 s
each, with a log-log inset. The figure shows every curve that exists, so
`--algorithms` can rerun one side.

  OPENBLAS_NUM_THREADS=1 python docs/figures/fig5_4_river.py --seconds 300
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import fsp
from nfsp_spiel import xfp
import figure_runs

flags.DEFINE_float("seconds", 300, "Training seconds per run.")
flags.DEFINE_list("algorithms", ["xfp", "fsp"], "Which curves to (re)run.")
SOLVERS = {"xfp": xfp.XFPSolver,
           "fsp": lambda game: fsp.FSPSolver(game, seed=0)}
LABELS = {"fsp_uniform": "FSP, uniform beliefs",
          "fsp_defined": "FSP, defined beliefs",
          "uniform": "XFP, uniform beliefs",
          "defined": "XFP, defined beliefs"}


def main(argv):
  del argv
  for algorithm in flags.FLAGS.algorithms:
    for beliefs in ("uniform", "defined"):
      game = pyspiel.load_game(f"river_poker(beliefs={beliefs})")
      prefix = "" if algorithm == "xfp" else "fsp_"
      figure_runs.run(SOLVERS[algorithm](game), "fig5_4", prefix + beliefs,
                      seconds=flags.FLAGS.seconds)
  figure_runs.plot_available("fig5_4", LABELS, x="training_seconds",
                             inset_loglog=True, title="River poker: FSP and XFP")


if __name__ == "__main__":
  app.run(main)
