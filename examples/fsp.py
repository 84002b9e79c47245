"""Runs table-lookup Fictitious Self-Play and writes its learning curve.

Trains for `--seconds` of wall-clock time (the papers' budget: 300 s) or
`--iterations`, evaluating the average profile every `--eval_seconds` of
training (evaluation time is excluded from the training clock, as in the
papers), with the best-response quality of thesis eq. 5.2. Writes
`<output_dir>/curve.csv` and `curve.png`, checkpoints to
`<output_dir>/checkpoint.npz`, and resumes from it when run again.

  python examples/fsp.py --game "river_poker(beliefs=defined)" --seconds 30
"""

import os
import time

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import fsp

FLAGS = flags.FLAGS
flags.DEFINE_string("game", "river_poker(beliefs=defined)", "Game string.")
flags.DEFINE_float("seconds", 30.0, "Training seconds (wall clock).")
flags.DEFINE_integer("iterations", None, "Stop after this many iterations.")
flags.DEFINE_float("eval_seconds", 2.0, "Training seconds between evaluations.")
flags.DEFINE_integer("memory_episodes", 40000, "RL memory per player.")
flags.DEFINE_float("mixing_gamma", 10.0, "Mixing correction gamma (0: 1/k).")
flags.DEFINE_bool("count_actions", False,
                  "Count the one-hot action instead of the policy.")
flags.DEFINE_integer("seed", 0, "Random seed.")
flags.DEFINE_string("output_dir", "runs/fsp", "Curve and checkpoint folder.")
flags.DEFINE_bool("tensorboard", False, "Also write TensorBoard scalars.")


def main(argv):
  del argv
  game = pyspiel.load_game(FLAGS.game)
  config = fsp.FSPConfig(memory_episodes=FLAGS.memory_episodes,
                         mixing_gamma=FLAGS.mixing_gamma or None,
                         count_policy=not FLAGS.count_actions, seed=FLAGS.seed)
  checkpoint = os.path.join(FLAGS.output_dir, "checkpoint.npz")
  logger = evaluation.LearningCurveLogger(FLAGS.output_dir, FLAGS.tensorboard)
  rows = evaluation.read_curve(logger.path) if os.path.exists(
      logger.path) else []
  training = rows[-1]["training_seconds"] if rows else 0.0
  if os.path.exists(checkpoint):
    solver = fsp.FSPSolver.restore(game, checkpoint, config)
    print(f"resumed at iteration {solver.iterations}, {training:.1f} s")
  else:
    solver = fsp.FSPSolver(game, config)
  next_eval = training
  while training < FLAGS.seconds and (
      FLAGS.iterations is None or solver.iterations < FLAGS.iterations):
    start = time.perf_counter()
    for _ in range(100):
      solver.iteration()
    training += time.perf_counter() - start
    done = training >= FLAGS.seconds or (
        FLAGS.iterations is not None and solver.iterations >= FLAGS.iterations)
    if training >= next_eval or done:
      next_eval = training + FLAGS.eval_seconds
      row = logger.log(solver.iterations, training_seconds=training,
                       episodes=solver.episodes,
                       exploitability=solver.exploitability(),
                       best_response_quality=solver.best_response_quality())
      solver.save(checkpoint)
      print(f"iteration {row['step']}, {training:.1f} s training, "
            f"{row['episodes']:.0f} episodes, exploitability "
            f"{row['exploitability']:.4f}, BR quality "
            f"{row['best_response_quality']:.4f}", flush=True)
  png = evaluation.plot_curves({"FSP": logger.path},
                               os.path.join(FLAGS.output_dir, "curve.png"),
                               x="training_seconds", inset_loglog=True,
                               title=str(game))
  print(f"curve: {logger.path}, {png}; checkpoint: {checkpoint}")


if __name__ == "__main__":
  app.run(main)
