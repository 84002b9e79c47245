"""Thesis fig. 4.6: XFP with its default 1/T stepsize and constant stepsizes
in Leduc (uniform initial strategies).

  python docs/figures/fig4_6_constant_stepsizes.py --iterations 20000
  python docs/figures/fig4_6_constant_stepsizes.py --plot_only
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import xfp
import figure_runs
import figure_style

flags.DEFINE_integer("iterations", 20000, "Iterations per run.")
flags.DEFINE_list("alphas", ["0.1", "0.01", "0.001"], "Constant stepsizes.")
flags.DEFINE_bool("plot_only", False, "Redraw the PNG from the CSVs.")


def main(argv):
  del argv
  if not flags.FLAGS.plot_only:
    game = pyspiel.load_game("leduc_poker")
    figure_runs.run(xfp.XFPSolver(game), "fig4_6", "default",
                    flags.FLAGS.iterations)
    for alpha in flags.FLAGS.alphas:
      figure_runs.run(xfp.XFPSolver(game, alpha=float(alpha)), "fig4_6",
                      f"alpha_{alpha}", flags.FLAGS.iterations)
  labels = {"default": "XFP, stepsize 1/T",
            **{f"alpha_{alpha}": f"XFP, constant stepsize {alpha}"
               for alpha in flags.FLAGS.alphas}}
  # Darker for a smaller stepsize: 1/T, tending to 0, darkest.
  order = sorted(flags.FLAGS.alphas, key=float, reverse=True)
  figure_runs.plot_available(
      "fig4_6", labels, loglog=True, styles=figure_style.shades(
          "XFP", [labels[f"alpha_{alpha}"] for alpha in order] +
          [labels["default"]]),
      title="Leduc: XFP with constant stepsizes")


if __name__ == "__main__":
  app.run(main)
