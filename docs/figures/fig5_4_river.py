"""Thesis fig. 5.4: table-lookup FSP against XFP in River poker (uniform and
defined beliefs), exploitability against wall-clock training seconds, 300 s
each, with a log-log inset. The figure shows every curve that exists, so
`--algorithms` can rerun one side.

  OPENBLAS_NUM_THREADS=1 python docs/figures/fig5_4_river.py --seconds 300
  python docs/figures/fig5_4_river.py --algorithms=   # redraw the PNG

The stars are the thesis' defined-belief levels (FSP's at 33 s, XFP's at
300 s); ICML 2015 fig. 3's, in their labels, sum the players'
best-response values where these curves take their mean.
"""

from absl import app
from absl import flags

import nfsp_spiel  # noqa: F401
import figure_runs
import figure_style

flags.DEFINE_float("seconds", 300, "Training seconds per run.")
flags.DEFINE_list("algorithms", ["xfp", "fsp"], "Which curves to (re)run.")
GAMES = {"uniform": "river_poker(beliefs=uniform)",
         "defined": "river_poker(beliefs=defined)"}
LABELS = {"fsp_uniform": "FSP, uniform beliefs",
          "fsp_defined": "FSP, defined beliefs",
          "uniform": "XFP, uniform beliefs",
          "defined": "XFP, defined beliefs"}


def paper_points():
  """(x, y, label, colour, marker) of the papers' defined-belief levels."""
  thesis = figure_style.paper("thesis-fig5.4")
  icml = figure_style.paper("icml2015-fig3")
  return [
      (thesis["seconds"], thesis["fsp"],
       f"thesis: FSP {thesis['fsp']} at {thesis['seconds']} s (ICML 2015: "
       f"{icml['fsp']} at {icml['seconds']} s, {figure_style.ICML_SUM})",
       figure_style.colour("FSP"), "*"),
      (300, thesis["xfp"], f"thesis: XFP still above {thesis['xfp']} at "
       f"300 s (ICML 2015: {icml['xfp']})", figure_style.colour("XFP"), "*")]


def main(argv):
  del argv
  figure_runs.compare_wall_clock(
      "fig5_4", GAMES, LABELS, "River poker: FSP and XFP",
      flags.FLAGS.algorithms, flags.FLAGS.seconds, points=paper_points(),
      styles=figure_style.settings(LABELS.values(), ("uniform", "defined")))


if __name__ == "__main__":
  app.run(main)
