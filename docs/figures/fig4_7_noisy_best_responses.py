"""Thesis fig. 4.7: XFP in Leduc when each backward-induction step backs up a
uniform-random action's value with probability epsilon.

  python docs/figures/fig4_7_noisy_best_responses.py --iterations 20000
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import xfp
import figure_runs

flags.DEFINE_integer("iterations", 20000, "Iterations per run.")
flags.DEFINE_list("noise", ["0", "0.05", "0.1", "0.2", "0.4"], "Epsilons.")


def main(argv):
  del argv
  game = pyspiel.load_game("leduc_poker")
  runs = {}
  for noise in flags.FLAGS.noise:
    runs[f"epsilon {noise}"] = figure_runs.run(
        xfp.XFPSolver(game, best_response_noise=float(noise), seed=0),
        "fig4_7", f"noise_{noise}", flags.FLAGS.iterations)
  figure_runs.plot(runs, "fig4_7", loglog=True,
                   title="Leduc: XFP with noisy best responses")


if __name__ == "__main__":
  app.run(main)
