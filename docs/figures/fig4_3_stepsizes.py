"""Thesis fig. 4.3 (ICML 2015 fig. 1): Hendon's unweighted stepsize
(lambda^1) against XFP's realization-weighted one (lambda^2) in Leduc, 5
random initial strategies each, to the thesis' 400k iterations.

The ten runs advance together, one log-spaced evaluation point at a time
(`figure_runs.log_points`), so that a run stopped early leaves every curve at
the same iteration. Each is checkpointed in `--run_dir` (outside git) every
`--checkpoint_minutes` and on a stop (Ctrl-C, SIGTERM), and resumes there
when the command is run again. The curves are copied to `data/fig4_3/` when
they go further than the ones there. Their `seconds` column is the wall
clock of all ten runs together.

  python docs/figures/fig4_3_stepsizes.py --iterations 400000
  python docs/figures/fig4_3_stepsizes.py --plot_only
"""

import os

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import xfp
from nfsp_spiel.run import run_directory
import figure_runs

flags.DEFINE_integer("iterations", 400000, "Iterations per run.")
flags.DEFINE_integer("seeds", 5, "Random initialisations per stepsize.")
flags.DEFINE_string("run_dir", os.path.join(
    os.path.dirname(os.path.dirname(figure_runs.HERE)), "runs", "fig4_3"),
                    "The runs' folders (checkpoint and curve).")
flags.DEFINE_float("checkpoint_minutes", 5.0, "Minutes between checkpoints "
                   "(taken at the next evaluation point).")
flags.DEFINE_bool("plot_only", False, "Redraw the PNG from the CSVs.")
VARIANTS = {"Hendon's unweighted stepsize (\u03bb\u00b9)":
                ("hendon", {"stepsize": "hendon"}),
            "XFP's realization-weighted stepsize (\u03bb\u00b2)":
                ("xfp", {"stepsize": "xfp"})}
CHUNK = 1000  # iterations between looks at the stop flag


def open_runs(game, seeds):
  """[(run folder name, RunDirectory, XFPSolver)], each resumed from its
  checkpoint where it has one."""
  runs = []
  for _, (prefix, fields) in VARIANTS.items():
    for seed in range(seeds):
      name = f"{prefix}_{seed}"
      run = run_directory.RunDirectory(
          os.path.join(flags.FLAGS.run_dir, name), keep_previous=False,
          unit="iterations",
          checkpoint_seconds=60 * flags.FLAGS.checkpoint_minutes)
      options = dict(initial_strategy="random", seed=seed, **fields)
      solver = (xfp.XFPSolver.restore(game, run.checkpoint, **options)
                if run.resuming else xfp.XFPSolver(game, **options))
      run.open_curve(solver.iterations)
      runs.append((name, run, solver))
  return runs


def train(game, seeds, iterations):
  """Advances every run to each evaluation point in turn; returns whether a
  stop signal ended it."""
  runs = open_runs(game, seeds)
  watcher = runs[0][1]
  watcher.catch_stop_signals()
  # Per run folder: the step of its last row (a resumed run's: its
  # checkpoint's), and whether this process logged it (a checkpoint must
  # follow a row of this process's).
  resumed = {name: solver.iterations for name, _, solver in runs}
  logged = {}
  points = sorted(figure_runs.log_points(iterations) | {iterations})
  for point in points:
    for name, run, solver in runs:
      while solver.iterations < point and not watcher.stop_requested:
        for _ in range(min(CHUNK, point - solver.iterations)):
          solver.iteration()
      if solver.iterations == point or watcher.stop_requested:
        if logged.get(name, resumed[name]) != solver.iterations:
          run.log(solver.iterations, exploitability=solver.exploitability(),
                  state_visits=solver.state_visits)
          logged[name] = solver.iterations
    if watcher.stop_requested or watcher.checkpoint_due() or (
        point == points[-1]):
      for name, run, solver in runs:
        if logged.get(name) == solver.iterations:
          run.save(solver.save, solver.iterations)
      print(f"iteration {point}: checkpoints in {flags.FLAGS.run_dir}",
            flush=True)
    if watcher.stop_requested:
      break
  for name, run, _ in runs:
    figure_runs.copy_further(run.directory,
                             os.path.join(figure_runs.HERE, "data", "fig4_3",
                                          name))
  return watcher.stop_requested


def main(argv):
  del argv
  if not flags.FLAGS.plot_only:
    train(pyspiel.load_game("leduc_poker"), flags.FLAGS.seeds,
          flags.FLAGS.iterations)
  figure_runs.plot_available(
      "fig4_3", figure_runs.random_start_labels(VARIANTS, flags.FLAGS.seeds),
      loglog=True, xlabel="iterations",
      title=f"Leduc, {flags.FLAGS.seeds} random initial strategies per "
      "stepsize")


if __name__ == "__main__":
  app.run(main)
