"""Thesis fig. 4.5: XFP, GFP and OpenSpiel's CFR in Leduc, log-log, uniform
initial strategies, with an O(k^-1/2) reference slope.

  python docs/figures/fig4_5_xfp_gfp_cfr.py --iterations 20000
  python docs/figures/fig4_5_xfp_gfp_cfr.py --plot_only
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import xfp
import figure_runs

flags.DEFINE_integer("iterations", 20000, "Iterations per algorithm.")
flags.DEFINE_bool("plot_only", False, "Redraw the PNG from the CSVs.")
LABELS = {"xfp": "XFP", "gfp": "GFP", "cfr": "CFR (OpenSpiel)"}


class CFR:
  """OpenSpiel's C++ CFR with the iteration()/exploitability() interface."""

  def __init__(self, game):
    self.game, self.solver = game, pyspiel.CFRSolver(game)

  def iteration(self):
    self.solver.evaluate_and_update_policy()

  def exploitability(self):
    return pyspiel.exploitability(self.game, self.solver.average_policy())


def main(argv):
  del argv
  if not flags.FLAGS.plot_only:
    game = pyspiel.load_game("leduc_poker")
    iterations = flags.FLAGS.iterations
    figure_runs.run(xfp.XFPSolver(game), "fig4_5", "xfp", iterations)
    figure_runs.run(xfp.XFPSolver(game, stepsize="gfp"), "fig4_5", "gfp",
                    iterations)
    figure_runs.run(CFR(game), "fig4_5", "cfr", iterations)
  figure_runs.plot_available("fig4_5", LABELS, loglog=True,
                             reference_slope=-0.5,
                             title="Leduc: XFP, GFP and CFR")


if __name__ == "__main__":
  app.run(main)
