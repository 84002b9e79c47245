"""Thesis fig. 4.7: XFP in Leduc when each backward-induction step backs up a
uniform-random action's value with probability epsilon.

  python docs/figures/fig4_7_noisy_best_responses.py --iterations 20000
  python docs/figures/fig4_7_noisy_best_responses.py --plot_only
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import xfp
import figure_runs
import figure_style

flags.DEFINE_integer("iterations", 20000, "Iterations per run.")
flags.DEFINE_list("noise", ["0", "0.05", "0.1", "0.2", "0.4"], "Epsilons.")
flags.DEFINE_bool("plot_only", False, "Redraw the PNG from the CSVs.")


def main(argv):
  del argv
  if not flags.FLAGS.plot_only:
    game = pyspiel.load_game("leduc_poker")
    for noise in flags.FLAGS.noise:
      figure_runs.run(
          xfp.XFPSolver(game, best_response_noise=float(noise), seed=0),
          "fig4_7", f"noise_{noise}", flags.FLAGS.iterations)
  labels = {f"noise_{noise}": f"XFP, epsilon {noise}"
            for noise in flags.FLAGS.noise}
  # Darker for less noise: the noiseless run darkest.
  order = sorted(flags.FLAGS.noise, key=float, reverse=True)
  figure_runs.plot_available(
      "fig4_7", labels, loglog=True, styles=figure_style.shades(
          "XFP", [labels[f"noise_{noise}"] for noise in order]),
      title="Leduc: XFP with noisy best responses")


if __name__ == "__main__":
  app.run(main)
