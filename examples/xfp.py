"""Runs full-width extensive-form fictitious play and writes its learning curve.

Evaluates the average profile's exploitability every `--eval_every` iterations
(and at the end), logs it with the wall-clock time to `<output_dir>/curve.csv`
(and TensorBoard with `--tensorboard`), draws `curve.png`, and checkpoints to
`<output_dir>/checkpoint.npz`: running the same command again resumes there.

  python examples/xfp.py --game "river_poker(beliefs=defined)" --seconds 300
  python examples/xfp.py --game nfsp_leduc --stepsize gfp --iterations 10000
"""

import os
import time

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import xfp

FLAGS = flags.FLAGS
flags.DEFINE_string("game", "nfsp_leduc", "OpenSpiel game string.")
flags.DEFINE_enum("stepsize", "xfp", xfp.STEPSIZE_RULES,
                  "xfp (eq. 4.3), hendon (unweighted) or gfp (app. B).")
flags.DEFINE_float("alpha", None, "Constant basic stepsize (default 1/(t+1)).")
flags.DEFINE_enum("initial_strategy", "uniform", xfp.INITIAL_STRATEGIES,
                  "Initial average strategy.")
flags.DEFINE_float("best_response_noise", 0.0,
                   "Probability of backing up a random action (thesis 4.5.3).")
flags.DEFINE_integer("seed", 0, "Seed of the random initial strategy / noise.")
flags.DEFINE_integer("iterations", 1000, "Stop after this many iterations.")
flags.DEFINE_float("seconds", None, "Also stop after this wall-clock time.")
flags.DEFINE_integer("eval_every", 10, "Iterations between evaluations.")
flags.DEFINE_integer("checkpoint_every", 1000, "Iterations between checkpoints.")
flags.DEFINE_string("output_dir", "runs/xfp", "Folder for the curve and "
                    "checkpoint; an existing checkpoint there is resumed.")
flags.DEFINE_bool("tensorboard", False, "Also write TensorBoard scalars.")


def main(argv):
  del argv
  game = pyspiel.load_game(FLAGS.game)
  config = xfp.XFPConfig(
      stepsize=FLAGS.stepsize, alpha=FLAGS.alpha,
      initial_strategy=FLAGS.initial_strategy,
      best_response_noise=FLAGS.best_response_noise, seed=FLAGS.seed)
  checkpoint = os.path.join(FLAGS.output_dir, "checkpoint.npz")
  # The curve's clock starts before compiling: compile time is part of XFP's.
  logger = evaluation.LearningCurveLogger(FLAGS.output_dir, FLAGS.tensorboard)
  start = time.perf_counter()
  if os.path.exists(checkpoint):
    solver = xfp.XFPSolver.restore(game, checkpoint, config)
    print(f"resumed {game} at iteration {solver.iterations}")
  else:
    solver = xfp.XFPSolver(game, config)
  print(f"compiled {game} in {time.perf_counter() - start:.2f} s: "
        f"{[len(k) for k in solver.form.keys]} information states")
  if solver.iterations == 0:
    logger.log(0, exploitability=solver.exploitability())
  while solver.iterations < FLAGS.iterations:
    solver.iteration()
    out_of_time = FLAGS.seconds and logger.seconds >= FLAGS.seconds
    done = out_of_time or solver.iterations == FLAGS.iterations
    if solver.iterations % FLAGS.checkpoint_every == 0 or done:
      solver.save(checkpoint)
    if solver.iterations % FLAGS.eval_every == 0 or done:
      row = logger.log(solver.iterations,
                       exploitability=solver.exploitability())
      print(f"iteration {row['step']}, {row['seconds']:.1f} s, "
            f"exploitability {row['exploitability']:.5f}", flush=True)
    if out_of_time:
      break
  png = evaluation.plot_curves(
      {f"{FLAGS.stepsize.upper()}": logger.path},
      os.path.join(FLAGS.output_dir, "curve.png"), loglog=True,
      title=str(game))
  print(f"curve: {logger.path}, {png}; checkpoint: {checkpoint}")


if __name__ == "__main__":
  app.run(main)
