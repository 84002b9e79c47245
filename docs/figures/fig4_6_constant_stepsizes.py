"""Thesis fig. 4.6: XFP with its default 1/T stepsize and constant stepsizes
in Leduc (uniform initial strategies).

  python docs/figures/fig4_6_constant_stepsizes.py --iterations 20000
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import xfp
import figure_runs

flags.DEFINE_integer("iterations", 20000, "Iterations per run.")
flags.DEFINE_list("alphas", ["0.1", "0.01", "0.001"], "Constant stepsizes.")


def main(argv):
  del argv
  game = pyspiel.load_game("leduc_poker")
  runs = {"1/T": figure_runs.run(xfp.XFPSolver(game), "fig4_6", "default",
                                 flags.FLAGS.iterations)}
  for alpha in flags.FLAGS.alphas:
    runs[f"alpha {alpha}"] = figure_runs.run(
        xfp.XFPSolver(game, alpha=float(alpha)), "fig4_6", f"alpha_{alpha}",
        flags.FLAGS.iterations)
  figure_runs.plot(runs, "fig4_6", loglog=True,
                   title="Leduc: XFP with constant stepsizes")


if __name__ == "__main__":
  app.run(main)
