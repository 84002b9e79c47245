"""Thesis fig. 5.3, FSP curves: table-lookup FSP in 6-card and 60-card Leduc
Hold'em, exploitability against wall-clock training seconds, 300 s each.

Each script plots every curve of its figure that exists, so running the
XFP and the FSP script (in either order) gives the combined figure.

  python docs/figures/fig5_3_leduc_fsp.py --seconds 300
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import fsp
import figure_runs

flags.DEFINE_float("seconds", 300, "Training seconds per run.")
LABELS = {"fsp_6_cards": "FSP, 6-card Leduc",
          "fsp_60_cards": "FSP, 60-card Leduc",
          "6_cards": "XFP, 6-card Leduc",
          "60_cards": "XFP, 60-card Leduc"}


def main(argv):
  del argv
  for cards, name in ((6, "nfsp_leduc"), (60, "nfsp_leduc(ranks=30)")):
    game = pyspiel.load_game(name)
    figure_runs.run(fsp.FSPSolver(game, seed=0), "fig5_3", f"fsp_{cards}_cards",
                    seconds=flags.FLAGS.seconds)
  figure_runs.plot_available("fig5_3", LABELS, x="training_seconds",
                             inset_loglog=True, title="Leduc Hold'em: FSP and XFP")


if __name__ == "__main__":
  app.run(main)
