"""Thesis fig. 5.3: table-lookup FSP against XFP in 6- and 60-card Leduc
Hold'em, exploitability against wall-clock training seconds, 300 s each,
with a log-log inset. The figure shows every curve that exists, so
`--algorithms` can rerun one side.

  OPENBLAS_NUM_THREADS=1 python docs/figures/fig5_3_leduc.py --seconds 300
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
LABELS = {"fsp_6_cards": "FSP, 6-card Leduc",
          "fsp_60_cards": "FSP, 60-card Leduc",
          "6_cards": "XFP, 6-card Leduc",
          "60_cards": "XFP, 60-card Leduc"}


def main(argv):
  del argv
  for algorithm in flags.FLAGS.algorithms:
    for cards, name in ((6, "nfsp_leduc"), (60, "nfsp_leduc(ranks=30)")):
      game = pyspiel.load_game(name)
      prefix = "" if algorithm == "xfp" else "fsp_"
      figure_runs.run(SOLVERS[algorithm](game), "fig5_3", prefix + f"{cards}_cards",
                      seconds=flags.FLAGS.seconds)
  figure_runs.plot_available("fig5_3", LABELS, x="training_seconds",
                             inset_loglog=True, title="Leduc Hold'em: FSP and XFP")


if __name__ == "__main__":
  app.run(main)
