"""XFP and FSP on three-player Kuhn and Leduc poker: NashConv of the
average profile over iterations.

Beyond two-player zero-sum games fictitious play promises no Nash
equilibrium (docs/xfp.md, "Beyond two players"); NashConv, the sum over
players of what a best response gains against the others' average
strategies (exact on the game's arrays, equal to OpenSpiel's `nash_conv`),
says how far each average profile is from one. The runs, each resumed by
its command (XFP from the uniform profile; FSP seed 0 with its default
constants, evaluated every few seconds of training):

  python examples/xfp.py --game "kuhn_poker(players=3)" --iterations 20000 \\
      --eval_every 10 --checkpoint_every 1000 \\
      --output_dir runs/fictitious_play_3p/xfp_kuhn3
  python examples/fsp.py --game "kuhn_poker(players=3)" --iterations 200000 \\
      --seconds 100000 --eval_seconds 3 \\
      --output_dir runs/fictitious_play_3p/fsp_kuhn3
  python examples/xfp.py --game "leduc_poker(players=3)" --iterations 5000 \\
      --eval_every 10 --checkpoint_every 500 \\
      --output_dir runs/fictitious_play_3p/xfp_leduc3
  python examples/fsp.py --game "leduc_poker(players=3)" \\
      --iterations 1000000 --seconds 100000 --eval_seconds 20 \\
      --output_dir runs/fictitious_play_3p/fsp_leduc3
  python docs/figures/fig_fictitious_play_3p.py   # copies the curves, draws

This script copies each run's curve to `data/fictitious_play_3p/<run>/`
when it goes further than the committed one, draws
`fig_fictitious_play_3p.png` (one panel per game, log-log, the uniform
profile's NashConv, XFP's first point, as a level) and prints each curve's
ends and its log-log slope over its last decade of iterations (`slope`).
"""

import argparse
import os

import numpy as np

import figure_runs
import figure_style
import nfsp_runs

DATA = os.path.join(figure_runs.HERE, "data", "fictitious_play_3p")
# game in words -> {run folder: its method's label}
GAMES = {
    "three-player Kuhn poker": {"xfp_kuhn3": "XFP (full width)",
                                "fsp_kuhn3": "FSP (sampled, seed 0)"},
    "three-player Leduc poker": {"xfp_leduc3": "XFP (full width)",
                                 "fsp_leduc3": "FSP (sampled, seed 0)"},
}
NASH_CONV = "NashConv (chips per hand, summed over players)"


def slope(rows):
  """The least-squares slope of log NashConv on log iterations over the
  curve's last decade (its rows from a tenth of its last step on), or None
  where the curve is shorter than a decade."""
  last = rows[-1]["step"]
  tail = [(row["step"], row["nash_conv"]) for row in rows
          if row["step"] >= last / 10]
  if rows[0]["step"] > last / 10 or len(tail) < 3:
    return None
  steps, values = np.log(np.array(tail)).T
  return float(np.polyfit(steps, values, 1)[0])


def draw(curves, path):
  """`curves` ({game: {run: rows}}) as one log-log panel per game."""
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  figure, panels = plt.subplots(1, len(GAMES), figsize=(11, 4.2))
  for axes, (game, labels) in zip(panels, GAMES.items()):
    for run, label in labels.items():
      rows = curves[game].get(run)
      if not rows:
        continue
      points = [(r["step"], r["nash_conv"]) for r in rows if r["step"] > 0]
      axes.plot(*zip(*points), color=figure_style.colour(label), marker="o",
                markersize=2, label=label)
      if rows[0]["step"] == 0 and run.startswith("xfp"):
        figure_style.reference_level(axes, rows[0]["nash_conv"],
                                     "uniform random profile")
    figure_style.log_axes(axes)
    axes.grid(True, alpha=0.3, which="both")
    axes.set_xlabel("iterations")
    axes.set_title(game)
    figure_style.legend_outside(axes, below=True)
  panels[0].set_ylabel("\n".join(figure_style.wrap_label(NASH_CONV)))
  figure.suptitle("Fictitious play beyond two players (no equilibrium "
                  "promised)")
  figure_style.save(figure, path)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--runs", default=os.path.join(
      nfsp_runs.ROOT, "runs", "fictitious_play_3p"))
  args = parser.parse_args()
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  drawn = {}
  for game, labels in GAMES.items():
    drawn[game] = {}
    for run in labels:
      figure_runs.copy_further(os.path.join(args.runs, run),
                               os.path.join(DATA, run))
      path = os.path.join(DATA, run, curves.CSV_NAME)
      if os.path.exists(path):
        drawn[game][run] = curves.read_curve(path)
  draw(drawn, os.path.join(figure_runs.HERE, "fig_fictitious_play_3p.png"))
  for game, runs in drawn.items():
    for run, rows in runs.items():
      gradient = slope(rows)
      print(f"{game}, {GAMES[game][run]}: NashConv {rows[0]['nash_conv']:.4f}"
            f" at iteration {rows[0]['step']:,.0f}, "
            f"{rows[-1]['nash_conv']:.4f} at {rows[-1]['step']:,.0f}; "
            + ("log-log slope over the last decade "
               f"{gradient:.2f}" if gradient is not None
               else "shorter than a decade"))


if __name__ == "__main__":
  main()
