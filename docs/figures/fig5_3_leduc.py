"""Thesis fig. 5.3: table-lookup FSP against XFP in 6- and 60-card Leduc
Hold'em, exploitability against wall-clock training seconds, 300 s each,
with a log-log inset. The figure shows every curve that exists, so
`--algorithms` can rerun one side.

  OPENBLAS_NUM_THREADS=1 python docs/figures/fig5_3_leduc.py --seconds 300
  python docs/figures/fig5_3_leduc.py --algorithms=   # redraw the PNG
"""

from absl import app
from absl import flags

import nfsp_spiel  # noqa: F401
import figure_runs
import figure_style

flags.DEFINE_float("seconds", 300, "Training seconds per run.")
flags.DEFINE_list("algorithms", ["xfp", "fsp"], "Which curves to (re)run.")
GAMES = {"6_cards": "nfsp_leduc", "60_cards": "nfsp_leduc(ranks=30)"}
LABELS = {"fsp_6_cards": "FSP, 6-card Leduc",
          "fsp_60_cards": "FSP, 60-card Leduc",
          "6_cards": "XFP, 6-card Leduc",
          "60_cards": "XFP, 60-card Leduc"}


def main(argv):
  del argv
  figure_runs.compare_wall_clock(
      "fig5_3", GAMES, LABELS, "Leduc Hold'em: FSP and XFP",
      flags.FLAGS.algorithms, flags.FLAGS.seconds,
      styles=figure_style.settings(LABELS.values(), ("6-card", "60-card")))


if __name__ == "__main__":
  app.run(main)
