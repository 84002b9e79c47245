"""Runs table-lookup Fictitious Self-Play and writes its learning curve.

Trains for `--seconds` of wall-clock time (the papers' budget: 300 s) or
`--iterations`, evaluating the average profile every `--eval_seconds` of
training (evaluation time is excluded from the training clock, as in the
papers), with the best-response quality of thesis eq. 5.2; on games of more
than two players the measure is NashConv, column `nash_conv` (fictitious play
promises no Nash equilibrium there). Writes
`<output_dir>/curve.csv` and `curve.png`, checkpoints to
`<output_dir>/checkpoint.npz` after every evaluation, and resumes from it
when run again (`--noresume` starts over): curve and training clock continue
from the checkpoint's (`nfsp_spiel.run.run_directory`).

  python examples/fsp.py --game "river_poker(beliefs=defined)" --seconds 30
  python examples/fsp.py --game "kuhn_poker(players=3)" --seconds 30
"""

import time

from absl import flags

import nfsp_spiel  # noqa: F401
from nfsp_spiel.run import curves
from nfsp_spiel.fictitious_play import fsp
from nfsp_spiel.fictitious_play import n_player
import run_flags  # examples/run_flags.py

FLAGS = flags.FLAGS
run_flags.define_flags("runs/fsp")
flags.DEFINE_string("game", "river_poker(beliefs=defined)", "Game string; "
                    "with more than two players (e.g. \"kuhn_poker(players=3)"
                    "\") the curve's column is nash_conv instead of "
                    "exploitability.")
flags.DEFINE_float("seconds", 30.0, "Training seconds (wall clock).")
run_flags.define_count("iterations", None, "Stop after this many iterations.")
flags.DEFINE_float("eval_seconds", 2.0, "Training seconds between evaluations.")
run_flags.define_count("memory_episodes", 40000, "RL memory per player.")
flags.DEFINE_float("mixing_gamma", 10.0, "Mixing correction gamma (0: 1/k).")
flags.DEFINE_bool("count_actions", False,
                  "Count the one-hot action instead of the policy.")
flags.DEFINE_integer("seed", 0, "Random seed.")


def plot(curve, png):
  """Exploitability (NashConv beyond two players) and the best responses'
  quality against training time."""
  curves.plot_curves(
      {"FSP": curve}, png, metric=curves.EVERY_METRIC,
      x="training_seconds", inset_loglog=True, title=FLAGS.game,
      payoff=run_flags.payoff_unit())


def main(argv):
  del argv
  game = run_flags.load_game(FLAGS.game)
  config = fsp.FSPConfig(memory_episodes=FLAGS.memory_episodes,
                         mixing_gamma=FLAGS.mixing_gamma or None,
                         count_policy=not FLAGS.count_actions, seed=FLAGS.seed)
  run, solver = run_flags.open_run(
      plot, lambda path: fsp.FSPSolver.restore(game, path, config),
      lambda: fsp.FSPSolver(game, config), length="iterations")
  # The training clock (evaluations excluded) continues from the checkpoint.
  training = run.open_curve(solver.iterations).get("training_seconds", 0.0)
  print(f"{game} at iteration {solver.iterations}, {training:.1f} s training")
  column = n_player.measure(game)
  next_eval = training
  while training < FLAGS.seconds and (
      FLAGS.iterations is None or solver.iterations < FLAGS.iterations):
    start = time.perf_counter()
    for _ in range(100):
      solver.iteration()
    training += time.perf_counter() - start
    done = run.stop_requested or training >= FLAGS.seconds or (
        FLAGS.iterations is not None and solver.iterations >= FLAGS.iterations)
    if training >= next_eval or done:
      next_eval = training + FLAGS.eval_seconds
      row = run.log(solver.iterations, training_seconds=training,
                    episodes=solver.episodes,
                    **{column: getattr(solver, column)()},
                    best_response_quality=solver.best_response_quality())
      run.save(solver.save, solver.iterations, training_seconds=training)
      print(f"iteration {row['step']}, {training:.1f} s training, "
            f"{row['episodes']:.0f} episodes, {column} "
            f"{row[column]:.4f}, BR quality "
            f"{row['best_response_quality']:.4f}", flush=True)
      if run.checkpoint_and_stop(solver.save, solver.iterations,
                                 training_seconds=training):
        break
  run.plot()
  print(run.summary())


if __name__ == "__main__":
  run_flags.run(main)
