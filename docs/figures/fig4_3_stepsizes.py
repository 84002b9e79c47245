"""Thesis fig. 4.3: Hendon's unweighted stepsize (lambda^1) against XFP's
realization-weighted one (lambda^2) in Leduc, 5 random initial strategies.

The thesis ran 400k iterations; `--iterations` (default 20k) fits this machine.
  python docs/figures/fig4_3_stepsizes.py
  python docs/figures/fig4_3_stepsizes.py --plot_only
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
import figure_runs

flags.DEFINE_integer("iterations", 20000, "Iterations per run.")
flags.DEFINE_integer("seeds", 5, "Random initialisations per stepsize.")
flags.DEFINE_bool("plot_only", False, "Redraw the PNG from the CSVs.")
VARIANTS = {"lambda1 (Hendon)": ("hendon", {"stepsize": "hendon"}),
            "lambda2 (XFP)": ("xfp", {"stepsize": "xfp"})}


def main(argv):
  del argv
  if not flags.FLAGS.plot_only:
    figure_runs.random_start_runs(pyspiel.load_game("leduc_poker"), "fig4_3",
                                  VARIANTS, flags.FLAGS.seeds,
                                  flags.FLAGS.iterations)
  figure_runs.plot_available(
      "fig4_3", figure_runs.random_start_labels(VARIANTS, flags.FLAGS.seeds),
      loglog=True, title="Leduc: unweighted vs realization-weighted FP, "
      f"{flags.FLAGS.seeds} random initial strategies each")


if __name__ == "__main__":
  app.run(main)
