"""Thesis fig. 5.1 and 5.2: FSP's approximation errors in Leduc Hold'em.

Fig. 5.1: the best-response quality of FSP's Q-learning (eq. 5.2) over the
iterations; fig. 5.2: the squared distance of FSP's counting-model average to
'perfect' XFP averages of the same best responses, updated every 10, 100 and
1000 iterations.

  python docs/figures/fig5_1_5_2_fsp_diagnostics.py --iterations 100000
"""

import os

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import fsp
import figure_runs

flags.DEFINE_integer("iterations", 100000, "FSP iterations.")
INTERVALS = (10, 100, 1000)


def main(argv):
  del argv
  solver = fsp.FSPSolver(pyspiel.load_game("nfsp_leduc"), seed=0)
  directory = os.path.join(figure_runs.HERE, "data", "fig5_1_5_2")
  path = os.path.join(directory, evaluation.curves.CSV_NAME)
  if os.path.exists(path):
    os.remove(path)
  logger = evaluation.LearningCurveLogger(directory)
  when = figure_runs.log_points(flags.FLAGS.iterations, 50)
  for k in range(1, flags.FLAGS.iterations + 1):
    solver.iteration()
    for interval in INTERVALS:
      if k % interval == 0:
        solver.update_exact_average(str(interval))
    if k in when and k >= max(INTERVALS):
      logger.log(k, best_response_quality=solver.best_response_quality(),
                 exploitability=solver.exploitability(),
                 **{f"error_{i}": solver.average_error(str(i))
                    for i in INTERVALS})
  figure_runs.plot({"FSP (Q-learning)": path}, "fig5_1",
                   metric="best_response_quality", loglog=True,
                   title="Leduc: best-response quality (eq. 5.2)")
  figure_runs.plot({f"perfect average every {i}": (path, f"error_{i}")
                    for i in INTERVALS}, "fig5_2", loglog=True,
                   metric="squared error",
                   title="Leduc: FSP's average vs XFP's perfect averages")


if __name__ == "__main__":
  app.run(main)
