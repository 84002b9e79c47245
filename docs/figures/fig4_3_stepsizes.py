"""Thesis fig. 4.3: Hendon's unweighted stepsize (lambda^1) against XFP's
realization-weighted one (lambda^2) in Leduc, 5 random initial strategies.

The thesis ran 400k iterations; `--iterations` (default 20k) fits this machine.
  python docs/figures/fig4_3_stepsizes.py
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
import figure_runs

flags.DEFINE_integer("iterations", 20000, "Iterations per run.")
flags.DEFINE_integer("seeds", 5, "Random initialisations per stepsize.")


def main(argv):
  del argv
  game = pyspiel.load_game("leduc_poker")
  runs = figure_runs.random_start_runs(
      game, "fig4_3", {"lambda1 (Hendon)": ("hendon", {"stepsize": "hendon"}),
                       "lambda2 (XFP)": ("xfp", {"stepsize": "xfp"})},
      flags.FLAGS.seeds, flags.FLAGS.iterations)
  figure_runs.plot(runs, "fig4_3", loglog=True,
                   title="Leduc: unweighted vs realization-weighted FP")


if __name__ == "__main__":
  app.run(main)
