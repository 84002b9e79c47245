"""Thesis fig. 5.3: table-lookup FSP against XFP in 6- and 60-card Leduc,
exploitability against wall-clock training seconds, 300 s each, with a
log-log inset. Run fig5_3_leduc_xfp.py first for the XFP curves.

  python docs/figures/fig5_3_leduc_fsp.py --seconds 300
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
  for cards, name in ((6, "nfsp_leduc"), (60, "nfsp_leduc(ranks=30)")):
    runs[f"FSP, {cards}-card Leduc"] = figure_runs.run(
        fsp.FSPSolver(pyspiel.load_game(name), seed=0), "fig5_3",
        f"fsp_{cards}_cards", seconds=flags.FLAGS.seconds)
    xfp_curve = os.path.join(figure_runs.HERE, "data", "fig5_3",
                             f"{cards}_cards", "curve.csv")
    if os.path.exists(xfp_curve):
      runs[f"XFP, {cards}-card Leduc"] = xfp_curve
  figure_runs.plot(runs, "fig5_3", x="training_seconds", inset_loglog=True,
                   title="Leduc Hold'em: FSP and XFP")


if __name__ == "__main__":
  app.run(main)
