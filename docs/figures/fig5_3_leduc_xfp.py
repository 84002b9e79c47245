"""Thesis fig. 5.3 (XFP curves): XFP in 6-card and 60-card Leduc Hold'em,
exploitability against wall-clock training seconds, 300 s each.

  python docs/figures/fig5_3_leduc_xfp.py --seconds 300
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
  for cards, name in ((6, "nfsp_leduc"), (60, "nfsp_leduc(ranks=30)")):
    runs[f"XFP, {cards}-card Leduc"] = figure_runs.run(
        xfp.XFPSolver(pyspiel.load_game(name)), "fig5_3", f"{cards}_cards",
        seconds=flags.FLAGS.seconds)
  figure_runs.plot(runs, "fig5_3_xfp", x="training_seconds", loglog=True,
                   title="Leduc Hold'em: XFP")


if __name__ == "__main__":
  app.run(main)
