"""Thesis fig. 3.4: Smooth UCT's long-term learning curves in Leduc.

Thesis sec. 3.5.2: Smooth UCT with fig. 3.3's parameters
(`smooth_uct.SmoothUCTConfig.leduc()`:
c 18, gamma 0.1, eta0 0.9, d 0.002) run for 10^10 episodes "struggles with
convergence to a perfect Nash equilibrium"; with gamma = 0 in the mixing
schedule (eq. 3.1) it "appears to stabilise ... at an exploitability of
around 0.017".

The runs (one core each, resumable: the same command continues a stopped
run from its checkpoint):

  gamma_0.1  python examples/smooth_uct.py --game leduc_poker --preset leduc \
                 --episodes 1e10 --eval_every 2.5e8 --seed 0 --gamma 0.1 \
                 --output_dir runs/fig3_4/gamma_0.1
  gamma_0    ... --gamma 0 --output_dir runs/fig3_4/gamma_0

  python docs/figures/fig3_4_leduc_long.py --runs runs/fig3_4   # copy, plot
  python docs/figures/fig3_4_leduc_long.py                      # plot only
"""

import argparse
import os

import figure_runs
import figure_style

FIGURE = "fig3_4"
LABELS = {"gamma_0.1": "Smooth UCT, gamma 0.1 (fig. 3.3's schedule)",
          "gamma_0": "Smooth UCT, gamma 0"}


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--runs", help="folder of the runs' output folders, "
                      "whose curve.csv files are copied to data/fig3_4/ "
                      "where they go further than the committed ones")
  args = parser.parse_args()
  data = os.path.join(figure_runs.HERE, "data", FIGURE)
  for run in LABELS:
    if args.runs:
      figure_runs.copy_further(os.path.join(args.runs, run),
                               os.path.join(data, run))
  curves = {LABELS[run]: os.path.join(data, run, "curve.csv")
            for run in LABELS
            if os.path.exists(os.path.join(data, run, "curve.csv"))}
  paper = figure_style.paper("thesis-fig3.4")
  shades = figure_style.shades("Smooth UCT", list(LABELS.values()))
  figure_runs.plot(
      curves, FIGURE, loglog=True, xlabel="episodes", styles=shades,
      references=[(paper["level"], f"thesis: gamma {paper['gamma_stable']} "
                   f"stabilises around {paper['level']}",
                   shades[LABELS["gamma_0"]]["color"], None)],
      title="Leduc: Smooth UCT's long-term learning curves")


if __name__ == "__main__":
  main()
