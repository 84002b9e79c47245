"""Tracks OpenSpiel's C++ CFR with nfsp_spiel's evaluation module.

Every `--eval_every` iterations: the exploitability of CFR's average policy,
its strategy distance to the previous average, and the best-response quality
(thesis eq. 5.2) of CFR's current policy as a "learned best response" to the
average, all logged to a learning curve (CSV, optional TensorBoard; OpenSpiel's
CFR has no checkpoint, so every run starts a fresh curve); at the end a log-log PNG of the curve and a duplicate match of the average policy
against the uniform policy, in mbb/h.

  python examples/evaluate_cfr.py --game nfsp_leduc --iterations 100
"""

from absl import app
from absl import flags
import pyspiel
from open_spiel.python import policy as policy_lib

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import run_directory
import run_flags  # examples/run_flags.py

FLAGS = flags.FLAGS
run_flags.define_flags("runs/evaluate_cfr", resumable=False)
flags.DEFINE_string("game", "nfsp_leduc", "OpenSpiel game string.")
run_flags.define_count("iterations", 100, "CFR iterations.")
run_flags.define_count("eval_every", 10, "Iterations between evaluations.")
flags.DEFINE_integer("match_deals", 5000,
                     "Duplicate deals of the final match (0: no match).")


def cpp_policy(solver_policy):
  """OpenSpiel C++ policies as a callable for `evaluation.as_policy`."""
  return lambda state: dict(solver_policy.get_state_policy(state))


def plot(curve, png):
  evaluation.plot_curves({"CFR": curve}, png, loglog=True, title=FLAGS.game)


def main(argv):
  del argv
  game = run_flags.load_game(FLAGS.game)
  solver = pyspiel.CFRSolver(game)
  run = run_directory.RunDirectory(FLAGS.output_dir, plot, resume=False,
                                   tensorboard=FLAGS.tensorboard)
  run.open_curve(0)
  previous = policy_lib.UniformRandomPolicy(game)
  for iteration in range(1, FLAGS.iterations + 1):
    solver.evaluate_and_update_policy()
    if iteration % FLAGS.eval_every and iteration != FLAGS.iterations:
      continue
    average = evaluation.as_tabular(game, cpp_policy(solver.average_policy()))
    current = cpp_policy(solver.current_policy())
    row = run.log(
        iteration,
        exploitability=evaluation.exploitability(game, average),
        average_change=evaluation.strategy_distance(game, previous, average),
        current_br_quality=evaluation.best_response_quality(
            game, average, [current, current]))
    print(", ".join(f"{k} {v:.4g}" for k, v in row.items()), flush=True)
    previous = average
  run.plot()
  print(run.summary())
  if FLAGS.match_deals:
    result = evaluation.head_to_head(game, previous,
                                     policy_lib.UniformRandomPolicy(game),
                                     num_deals=FLAGS.match_deals)
    mbb = (f", {result.mbb_per_hand:.0f} +- {result.mbb_stderr:.0f} mbb/h"
           if result.mbb_per_hand is not None else "")
    print(f"CFR average vs uniform over {result.num_deals} duplicate deals: "
          f"{result.mean:.4f} +- {result.stderr:.4f} per game{mbb}")


if __name__ == "__main__":
  app.run(main)
