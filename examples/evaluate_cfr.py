"""Tracks OpenSpiel's C++ CFR with nfsp_spiel's evaluation module.

Every `--eval_every` iterations: the exploitability of CFR's average policy,
its strategy distance to the previous average, and the best-response quality
(thesis eq. 5.2) of CFR's current policy as a "learned best response" to the
average, all logged to a learning curve (CSV, optional TensorBoard); at the
end a log-log PNG of the curve and a duplicate match of the average policy
against the uniform policy, in mbb/h. The solver is checkpointed (OpenSpiel's
own serialisation of its regret and average tables, exact) every
`--checkpoint_every` iterations, at the end and on Ctrl-C: the same command
resumes (`examples/run_flags.py`).

  python examples/evaluate_cfr.py --game nfsp_leduc --iterations 100
"""

from absl import app
from absl import flags
import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib

import nfsp_spiel  # noqa: F401
from nfsp_spiel.core import checkpoints
from nfsp_spiel import evaluation
from nfsp_spiel.run import curves
import run_flags  # examples/run_flags.py

FLAGS = flags.FLAGS
run_flags.define_flags("runs/evaluate_cfr")
flags.DEFINE_string("game", "nfsp_leduc", "OpenSpiel game string.")
run_flags.define_count("iterations", 100, "CFR iterations.")
run_flags.define_count("eval_every", 10, "Iterations between evaluations.")
run_flags.define_count("checkpoint_every", 100, "Iterations between "
                       "checkpoints (a multiple of --eval_every).")
flags.DEFINE_integer("match_deals", 5000,
                     "Duplicate deals of the final match (0: no match).")


def cpp_policy(solver_policy):
  """OpenSpiel C++ policies as a callable for `evaluation.as_policy`."""
  return lambda state: dict(solver_policy.get_state_policy(state))


def plot(curve, png):
  """Exploitability, the current policy's best-response quality and the
  average's change per evaluation: every metric logged."""
  curves.plot_curves(
      {"CFR": curve}, png, metric=curves.EVERY_METRIC, loglog=True,
      title=FLAGS.game,
      payoff=run_flags.payoff_unit())


class CFRRun:
  """OpenSpiel's CFRSolver with its iteration count, saved and restored
  through its own text serialisation (hexadecimal floats: exact)."""

  def __init__(self, game, solver=None, iterations=0):
    self.game = game
    self.solver = solver or pyspiel.CFRSolver(game)
    self.iterations = iterations

  def iteration(self):
    self.solver.evaluate_and_update_policy()
    self.iterations += 1

  def save(self, path, progress=None):
    return checkpoints.write(
        path, checkpoints.header("cfr", self.game, {}),
        {"solver": np.array(self.solver.__getstate__()),
         "iterations": np.array(self.iterations)}, progress)

  @classmethod
  def restore(cls, game, path):
    data = checkpoints.read(path, checkpoints.header("cfr", game, {}))
    solver = pyspiel.CFRSolver.__new__(pyspiel.CFRSolver)
    solver.__setstate__(str(data["solver"]))
    return cls(game, solver, int(data["iterations"]))


def main(argv):
  del argv
  if FLAGS.checkpoint_every % FLAGS.eval_every:
    raise app.UsageError(f"--checkpoint_every={FLAGS.checkpoint_every} must "
                         f"be a multiple of --eval_every={FLAGS.eval_every}: "
                         "a checkpoint follows an evaluation")
  game = run_flags.load_game(FLAGS.game)
  run, cfr = run_flags.open_run(
      plot, lambda path: CFRRun.restore(game, path), lambda: CFRRun(game),
      length="iterations")
  run.open_curve(cfr.iterations)
  # The strategy distance of the next row is to the last row's average.
  previous = (policy_lib.UniformRandomPolicy(game) if cfr.iterations == 0
              else evaluation.as_tabular(
                  game, cpp_policy(cfr.solver.average_policy())))
  while cfr.iterations < FLAGS.iterations:
    cfr.iteration()
    done = run.stop_requested or cfr.iterations == FLAGS.iterations
    if cfr.iterations % FLAGS.eval_every and not done:
      continue
    average = evaluation.as_tabular(game,
                                    cpp_policy(cfr.solver.average_policy()))
    current = cpp_policy(cfr.solver.current_policy())
    row = run.log(
        cfr.iterations,
        exploitability=evaluation.exploitability(game, average),
        average_change=evaluation.strategy_distance(game, previous, average),
        current_br_quality=evaluation.best_response_quality(
            game, average, [current, current]))
    print(", ".join(f"{k} {v:.4g}" for k, v in row.items()), flush=True)
    previous = average
    if (cfr.iterations % FLAGS.checkpoint_every == 0 or done or
        run.checkpoint_due()):
      run.save(cfr.save, cfr.iterations)
    if run.checkpoint_and_stop(cfr.save, cfr.iterations):
      break
  run.plot()
  print(run.summary())
  if FLAGS.match_deals and not run.stop_requested:
    result = evaluation.head_to_head(game, previous,
                                     policy_lib.UniformRandomPolicy(game),
                                     num_deals=FLAGS.match_deals)
    mbb = (f", {result.mbb_per_hand:.0f} +- {result.mbb_stderr:.0f} mbb/h"
           if result.mbb_per_hand is not None else "")
    print(f"CFR average vs uniform over {result.num_deals} duplicate deals: "
          f"{result.mean:.4f} +- {result.stderr:.4f} per game{mbb}")


if __name__ == "__main__":
  run_flags.run(main)
