"""Runs full-width extensive-form fictitious play and writes its learning curve.

Evaluates the average profile's exploitability every `--eval_every` iterations
(and at the end; on games of more than two players its NashConv, column
`nash_conv`: fictitious play promises no Nash equilibrium there), logs it with
the wall-clock time to `<output_dir>/curve.csv`
(and TensorBoard with `--tensorboard`), draws `curve.png`, and checkpoints to
`<output_dir>/checkpoint.npz` right after an evaluation: running the same
command again resumes there, with the curve cut back to the checkpoint
(`nfsp_spiel.run.run_directory`); `--noresume` starts over.

  python examples/xfp.py --game "river_poker(beliefs=defined)" --seconds 300
  python examples/xfp.py --game nfsp_leduc --stepsize gfp --iterations 10000
  python examples/xfp.py --game "kuhn_poker(players=3)" --iterations 1000
"""

from absl import app
from absl import flags

import nfsp_spiel  # noqa: F401
from nfsp_spiel.run import curves
from nfsp_spiel.fictitious_play import n_player
from nfsp_spiel.fictitious_play import xfp
import run_flags  # examples/run_flags.py

FLAGS = flags.FLAGS
run_flags.define_flags("runs/xfp")
flags.DEFINE_string("game", "nfsp_leduc", "OpenSpiel game string; with more "
                    "than two players (e.g. \"kuhn_poker(players=3)\") the "
                    "curve's column is nash_conv instead of exploitability.")
flags.DEFINE_enum("stepsize", "xfp", xfp.STEPSIZE_RULES,
                  "xfp (eq. 4.3), hendon (unweighted) or gfp (app. B).")
flags.DEFINE_float("alpha", None, "Constant basic stepsize (default 1/(t+1)).")
flags.DEFINE_enum("initial_strategy", "uniform", xfp.INITIAL_STRATEGIES,
                  "Initial average strategy.")
flags.DEFINE_float("best_response_noise", 0.0,
                   "Probability of backing up a random action (thesis 4.5.3).")
flags.DEFINE_integer("seed", 0, "Seed of the random initial strategy / noise.")
run_flags.define_count("iterations", 1000, "Stop after this many iterations.")
flags.DEFINE_float("seconds", None, "Also stop after this wall-clock time.")
run_flags.define_count("eval_every", 10, "Iterations between evaluations.")
run_flags.define_count("checkpoint_every", 1000, "Iterations between "
                     "checkpoints (a multiple of --eval_every).")


def plot(curve, png):
  curves.plot_curves(
      {FLAGS.stepsize.upper(): curve}, png,
      metric=n_player.measure(run_flags.load_game(FLAGS.game)), loglog=True,
      title=FLAGS.game, payoff=run_flags.payoff_unit())


def main(argv):
  del argv
  if FLAGS.checkpoint_every % FLAGS.eval_every:
    raise app.UsageError(f"--checkpoint_every={FLAGS.checkpoint_every} must "
                         f"be a multiple of --eval_every={FLAGS.eval_every}: "
                         "a checkpoint follows an evaluation")
  game = run_flags.load_game(FLAGS.game)
  config = xfp.XFPConfig(
      stepsize=FLAGS.stepsize, alpha=FLAGS.alpha,
      initial_strategy=FLAGS.initial_strategy,
      best_response_noise=FLAGS.best_response_noise, seed=FLAGS.seed)
  # The curve's clock starts before compiling: compile time is part of XFP's.
  run, solver = run_flags.open_run(
      plot, lambda path: xfp.XFPSolver.restore(game, path, config),
      lambda: xfp.XFPSolver(game, config), length="iterations")
  run.open_curve(solver.iterations)
  print(f"{game} at iteration {solver.iterations}, {run.seconds:.2f} s: "
        f"{[len(k) for k in solver.form.keys]} information states")
  column = n_player.measure(game)
  if solver.iterations == 0:
    run.log(0, **{column: getattr(solver, column)()})
  while solver.iterations < FLAGS.iterations:
    solver.iteration()
    stop = run.stop_requested or (FLAGS.seconds and
                                  run.seconds >= FLAGS.seconds)
    done = stop or solver.iterations == FLAGS.iterations
    if solver.iterations % FLAGS.eval_every == 0 or done:
      row = run.log(solver.iterations, **{column: getattr(solver, column)()})
      print(f"iteration {row['step']}, {row['seconds']:.1f} s, "
            f"{column} {row[column]:.5f}", flush=True)
      if (solver.iterations % FLAGS.checkpoint_every == 0 or done or
          run.checkpoint_due()):
        run.save(solver.save, solver.iterations)
      if run.checkpoint_and_stop(solver.save, solver.iterations) or stop:
        break
  run.plot()
  print(run.summary())


if __name__ == "__main__":
  run_flags.run(main)
