"""Thesis fig. 4.4: XFP and GFP with scaled and normalised stepsizes in Leduc.

Thesis sec. 4.5.2: GFP's update (eq. B.2) weights the old average by
(1 - a)^(D+1), D the depth of a player's information-state tree (3 in Leduc),
so its effective stepsize 1 - (1 - a)^(D+1) is larger than XFP's a. To tell
the update from the stepsize, the thesis adds "XFP scaled" (a multiplied by
(1 - (1 - a)^(D+1)) / a, GFP's effective stepsize) and "GFP normalised" (a
multiplied by a / (1 - (1 - a)^(D+1)), XFP's), a = 1/(t+1), each with 3 random
initial strategies (as fig. 4.3). Its finding: GFP beats XFP, and scaling
XFP's stepsize hurts, so the gain is not merely the larger stepsize.

The game is `nfsp_leduc` (Leduc on its public tree), not `leduc_poker`: on a
walked tree XFP breaks best-response ties as OpenSpiel does, by walking the
tied states, and the scaled stepsize's near-pure early averages make ties so
common that a run took 30x longer; ties go to the lowest action here.

  python docs/figures/fig4_4_scaled_stepsizes.py --iterations 10000
  python docs/figures/fig4_4_scaled_stepsizes.py --plot_only
"""

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import xfp
import figure_runs
import figure_style

flags.DEFINE_integer("iterations", 10000, "Iterations per run.")
flags.DEFINE_integer("seeds", 3, "Random initialisations per variant "
                     "(thesis: 3).")
flags.DEFINE_bool("plot_only", False, "Redraw the PNG from the CSVs.")


def effective_gfp_stepsize(alpha, depth):
  """GFP's weight on the best response at the root: 1 - (1 - a)^(D+1)."""
  return 1 - (1 - alpha) ** (depth + 1)


def variants(depth):
  """(label, stepsize rule, basic stepsize as a function of t) per line."""
  basic = lambda t: 1.0 / (t + 1)
  return (
      ("XFP", "xfp", None),
      ("XFP scaled", "xfp",
       lambda t: effective_gfp_stepsize(basic(t), depth)),
      ("GFP", "gfp", None),
      ("GFP normalised", "gfp",
       lambda t: basic(t) ** 2 / effective_gfp_stepsize(basic(t), depth)),
  )


def information_state_depth(game):
  """D: the most levels of any player's information-state tree, minus one."""
  form = xfp.XFPSolver(game).form
  return max(len(levels) for levels in form.levels) - 1


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_leduc")
  depth = information_state_depth(game)
  print(f"D = {depth}")
  runs = {label: (label.lower().replace(" ", "_"),
                  {"stepsize": rule, "alpha": alpha})
          for label, rule, alpha in variants(depth)}
  if not flags.FLAGS.plot_only:
    figure_runs.random_start_runs(game, "fig4_4", runs, flags.FLAGS.seeds,
                                  flags.FLAGS.iterations)
  labels = figure_runs.random_start_labels(runs, flags.FLAGS.seeds)
  # A method's other stepsize: its colour, dotted.
  styles = {label: {**figure_style.line_style(label), "linestyle": ":"}
            for label in labels.values()
            if "scaled" in label or "normalised" in label}
  figure_runs.plot_available(
      "fig4_4", labels, loglog=True, styles=styles,
      title="Leduc: XFP and GFP, scaled and normalised stepsizes, "
      f"{flags.FLAGS.seeds} random initial strategies each")


if __name__ == "__main__":
  app.run(main)
