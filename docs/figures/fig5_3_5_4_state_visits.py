"""Thesis figs. 5.3 and 5.4 (ICML 2015 figs. 2 and 3) on the axis the papers
argue on: exploitability against the work done, counted in states, not seconds.

The papers explain FSP's lead in 60-card Leduc and River poker by cost: XFP
"performs computation at each state" of the game (about 15M in 60-card
Leduc, 10M in River poker) every iteration, FSP only on the information
states its sampled episodes reach (thesis 5.6.2). This package's XFP does
that work in array products, so fast that it wins on wall-clock time in
every game (`fig5_3_leduc.py`, `fig5_4_river.py`); the work itself is
counted here in both solvers:

* `xfp.XFPSolver.state_visits`: per iteration, two best responses over
  every game state and an update of every information state (the papers'
  model of a full-width iteration);
* `fsp.FSPSolver.state_visits`: the decisions its episodes play, the
  Q-values its replays update and the counts its average model adds.

FSP runs `--iterations`; XFP runs until it has done as much work. Curves go
to `data/fig5_3_visits/` and `data/fig5_4_visits/`, one PNG each.

  python docs/figures/fig5_3_5_4_state_visits.py --iterations 300000
  python docs/figures/fig5_3_5_4_state_visits.py --plot_only
"""

import math

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import fsp
from nfsp_spiel.fictitious_play import xfp
import figure_runs
import figure_style

flags.DEFINE_integer("iterations", 300_000, "FSP iterations per game.")
flags.DEFINE_bool("plot_only", False, "Redraw the PNGs from the CSVs.")
FIGURES = {
    "fig5_3_visits": ("Leduc Hold'em: exploitability per unit of work",
                      {"6_cards": ("nfsp_leduc", "6-card Leduc"),
                       "60_cards": ("nfsp_leduc(ranks=30)", "60-card Leduc")}),
    "fig5_4_visits": ("River poker: exploitability per unit of work",
                      {"uniform": ("river_poker(beliefs=uniform)",
                                   "uniform beliefs"),
                       "defined": ("river_poker(beliefs=defined)",
                                   "defined beliefs")}),
}


def main(argv):
  del argv
  for figure, (title, games) in FIGURES.items():
    labels = {}
    for name, (game_string, label) in games.items():
      labels[f"fsp_{name}"], labels[f"xfp_{name}"] = (f"FSP, {label}",
                                                      f"XFP, {label}")
      if flags.FLAGS.plot_only:
        continue
      game = pyspiel.load_game(game_string)
      learner = fsp.FSPSolver(game, seed=0)
      figure_runs.run(learner, figure, f"fsp_{name}", flags.FLAGS.iterations)
      solver = xfp.XFPSolver(game)
      iterations = math.ceil(learner.state_visits /
                             solver.state_visits_per_iteration)
      figure_runs.run(solver, figure, f"xfp_{name}", iterations)
    figure_runs.plot_available(
        figure, labels, x="state_visits", loglog=True,
        xlabel="work (state visits, the papers' cost model)", title=title,
        styles=figure_style.settings(labels.values(), [
            label for _, label in games.values()]))


if __name__ == "__main__":
  app.run(main)
