"""Thesis fig. 5.4: table-lookup FSP against XFP in River poker (uniform and
defined beliefs), exploitability against wall-clock training seconds, 300 s
each, with a log-log inset. The figure shows every curve that exists, so
`--algorithms` can rerun one side.

  OPENBLAS_NUM_THREADS=1 python docs/figures/fig5_4_river.py --seconds 300
"""

from absl import app
from absl import flags

import nfsp_spiel  # noqa: F401
import figure_runs

flags.DEFINE_float("seconds", 300, "Training seconds per run.")
flags.DEFINE_list("algorithms", ["xfp", "fsp"], "Which curves to (re)run.")
GAMES = {"uniform": "river_poker(beliefs=uniform)",
         "defined": "river_poker(beliefs=defined)"}
LABELS = {"fsp_uniform": "FSP, uniform beliefs",
          "fsp_defined": "FSP, defined beliefs",
          "uniform": "XFP, uniform beliefs",
          "defined": "XFP, defined beliefs"}


def main(argv):
  del argv
  figure_runs.compare_wall_clock("fig5_4", GAMES, LABELS,
                                 "River poker: FSP and XFP",
                                 flags.FLAGS.algorithms, flags.FLAGS.seconds)


if __name__ == "__main__":
  app.run(main)
