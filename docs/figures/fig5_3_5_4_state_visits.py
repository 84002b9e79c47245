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

FSP runs `--iterations`; XFP runs until it has done as much work as FSP's
curve (its last row). An XFP iteration costs as much as hundreds of
thousands of FSP iterations in 60-card Leduc and River poker, so FSP runs
long enough for several XFP iterations to fall inside its curve: an
equal-work comparison of more than XFP's first two points. FSP's runs are
checkpointed in `--run_dir` (outside git) and resume there when run again,
with a larger `--iterations` too; a stopped run (Ctrl-C, SIGTERM) keeps its
last checkpoint. Their curves are copied to `data/fig5_3_visits/` and
`data/fig5_4_visits/` when they go further than the ones there, XFP's
written there; one PNG each.

  python docs/figures/fig5_3_5_4_state_visits.py --iterations 300000
  python docs/figures/fig5_3_5_4_state_visits.py --games 60_cards \\
      --iterations 700000
  python docs/figures/fig5_3_5_4_state_visits.py --plot_only
"""

import math
import os

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import fsp
from nfsp_spiel.fictitious_play import xfp
from nfsp_spiel.run import curves
from nfsp_spiel.run import run_directory
import figure_runs
import figure_style

flags.DEFINE_integer("iterations", 300_000, "FSP iterations per game.")
flags.DEFINE_list("games", None, "Only these games (6_cards, 60_cards, "
                  "uniform, defined); default: all.")
flags.DEFINE_string("run_dir", os.path.join(
    os.path.dirname(os.path.dirname(figure_runs.HERE)), "runs",
    "fig5_visits"), "FSP's run folders (checkpoint and curve).")
flags.DEFINE_float("checkpoint_minutes", 5.0, "Minutes between FSP's "
                   "checkpoints (and at the end or a stop).")
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


def train_fsp(game, figure, label, iterations):
  """FSP (seed 0) to `iterations`, resumed from its checkpoint in
  `--run_dir`, its exploitability and work logged at `figure_runs.log_points`;
  copies the curve to data/ where it goes further. Returns the work (state
  visits) of the last row of the curve in data/ and whether a stop signal
  ended the run."""
  directory = os.path.join(flags.FLAGS.run_dir, figure, label)
  run = run_directory.RunDirectory(
      directory, keep_previous=False, unit="iterations",
      checkpoint_seconds=60 * flags.FLAGS.checkpoint_minutes)
  solver = (fsp.FSPSolver.restore(game, run.checkpoint, seed=0)
            if run.resuming else fsp.FSPSolver(game, seed=0))
  run.open_curve(solver.iterations)
  run.catch_stop_signals()
  print(f"{figure}/{label}: from iteration {solver.iterations}", flush=True)
  when = figure_runs.log_points(iterations)
  while solver.iterations < iterations:
    solver.iteration()
    step = solver.iterations
    if step in when or step == iterations or run.stop_requested:
      run.log(step, exploitability=solver.exploitability(),
              state_visits=solver.state_visits)
      if run.checkpoint_due() or step == iterations:
        run.save(solver.save, step)
      print(f"{label}: iteration {step}, {solver.state_visits:.3g} visits",
            flush=True)
      if run.checkpoint_and_stop(solver.save, step):
        break
  run.plot()
  data = os.path.join(figure_runs.HERE, "data", figure, label)
  figure_runs.copy_further(directory, data)
  return curves.read_curve(os.path.join(data, curves.CSV_NAME))[-1][
      "state_visits"], run.stop_requested


def plot(figure, title, games, labels):
  figure_runs.plot_available(
      figure, labels, x="state_visits", loglog=True,
      xlabel="work (state visits, the papers' cost model)", title=title,
      styles=figure_style.settings(labels.values(), [
          label for _, label in games.values()]))


def main(argv):
  del argv
  stopped = False
  for figure, (title, games) in FIGURES.items():
    labels = {}
    for name, (_, label) in games.items():
      labels[f"fsp_{name}"], labels[f"xfp_{name}"] = (f"FSP, {label}",
                                                      f"XFP, {label}")
    for name, (game_string, _) in games.items():
      if flags.FLAGS.plot_only or stopped or (
          flags.FLAGS.games and name not in flags.FLAGS.games):
        continue
      game = pyspiel.load_game(game_string)
      work, stopped = train_fsp(game, figure, f"fsp_{name}",
                                flags.FLAGS.iterations)
      solver = xfp.XFPSolver(game)
      figure_runs.run(solver, figure, f"xfp_{name}",
                      math.ceil(work / solver.state_visits_per_iteration))
    plot(figure, title, games, labels)


if __name__ == "__main__":
  app.run(main)
