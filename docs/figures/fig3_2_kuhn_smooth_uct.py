"""Thesis fig. 3.2: Smooth UCT and UCT in Kuhn poker, mean squared error of
the average policy to the closest Nash equilibrium of Kuhn's family, against
episodes; several seeded runs each (the thesis used 50).

  python docs/figures/fig3_2_kuhn_smooth_uct.py --episodes 20000000 --runs 10
  python docs/figures/fig3_2_kuhn_smooth_uct.py --plot_only --runs 10
"""

import os

from absl import app
from absl import flags
import numpy as np
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import smooth_uct
from nfsp_spiel.run import curves
import figure_runs

flags.DEFINE_integer("episodes", 20_000_000, "Episodes per run.")
flags.DEFINE_integer("runs", 10, "Seeded runs per algorithm.")
flags.DEFINE_bool("plot_only", False, "Redraw the PNG from the CSVs.")
NAMES = ("Smooth UCT", "UCT")


def _directory(name):
  return os.path.join(figure_runs.HERE, "data", "fig3_2",
                      name.replace(" ", "_").lower())


def plot(runs):
  """The PNG from the curves of `runs` seeded runs each."""
  figure_runs.plot(
      {f"{name} (mean of {runs} runs)": os.path.join(_directory(name),
                                                     curves.CSV_NAME)
       for name in NAMES}, "fig3_2", metric="mean_squared_error",
      loglog=True, xlabel="episodes",
      ylabel="MSE of the average policy to the closest Nash equilibrium "
      "(squared action probabilities)",
      title="Kuhn poker: Smooth UCT and UCT")


def main(argv):
  del argv
  if flags.FLAGS.plot_only:
    plot(flags.FLAGS.runs)
    return
  game = pyspiel.load_game("kuhn_poker")
  configs = {"Smooth UCT": smooth_uct.SmoothUCTConfig(),
             "UCT": smooth_uct.SmoothUCTConfig.uct(2.0)}
  points = sorted(figure_runs.log_points(flags.FLAGS.episodes // 1000, 30))
  for name, config in configs.items():
    mse = np.zeros((flags.FLAGS.runs, len(points)))
    for seed in range(flags.FLAGS.runs):
      search = smooth_uct.SmoothUCT(game, config, seed=seed)
      for j, thousands in enumerate(points):
        search.run(thousands * 1000 - search.episodes)
        mse[seed, j] = evaluation.kuhn.nash_mse(game, search.average_policy())
    directory = _directory(name)
    path = os.path.join(directory, curves.CSV_NAME)
    if os.path.exists(path):
      os.remove(path)
    logger = curves.LearningCurveLogger(directory)
    for j, thousands in enumerate(points):
      logger.log(thousands * 1000, mean_squared_error=mse[:, j].mean(),
                 standard_error=mse[:, j].std(ddof=1) / np.sqrt(len(mse)))
  plot(flags.FLAGS.runs)


if __name__ == "__main__":
  app.run(main)
