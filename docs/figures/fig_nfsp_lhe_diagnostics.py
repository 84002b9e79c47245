"""NFSP on Limit Hold'em: is it learning? The diagnostics over training.

`examples/nfsp.py --game nfsp_lhe` logs `nfsp.lhe_diagnostics` at every
evaluation (`--diagnostics`, on by default). This script draws them, one
panel per question, for each run copied to
`data/nfsp_lhe_diagnostics/<name>/curve.csv`:

* results of the average strategy in mbb/h against the SmooCT-like profile,
  the equity-threshold player, always-call and always-raise, and LBR's
  winnings against it (a lower bound on its exploitability);
* the best response's edge: each player's greedy Q policy against the
  other's current average, minus the average in the same seat (a best
  response that learns beats what it responds to);
* the average strategy's raise and fold frequencies per betting round
  (a maniac raises everywhere; a calling station never folds);
* Q's scale in chips (mean |Q| and the spread of Q over legal actions),
  the losses and the weight norms.

  python examples/nfsp.py --game nfsp_lhe --preset lhe --episodes 200000 \\
      --eval_every 10000 --checkpoint_every 50000 --eval_deals 2000 \\
      --smooct_deals 1000 --lbr_hands 200 \\
      --output_dir runs/nfsp_lhe_diag/seed0
  python docs/figures/fig_nfsp_lhe_diagnostics.py \\
      --run rewards_1_480=runs/nfsp_lhe_diag/seed0

A run's curve is copied when it goes further than the committed one;
`fig_nfsp_lhe_diagnostics.png` is drawn from every committed run (the
runs at other reward scales: `fig_nfsp_lhe_reward_scale.py`).
"""

import glob
import os

import numpy as np

import figure_runs
import figure_style

DATA = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_diagnostics")
ROUNDS = ("preflop", "flop", "turn", "river")
RESULTS = {  # column -> (label, line style)
    "mbb_per_hand_vs_smooct": ("vs SmooCT-like profile", "-"),
    "mbb_per_hand_vs_equity_threshold": ("vs equity player", "--"),
    "mbb_per_hand_vs_always_call": ("vs always-call", "-."),
    "mbb_per_hand_vs_always_raise": ("vs always-raise", ":"),
    "lbr_mbb_per_hand": ("LBR's winnings against it", (0, (1, 3))),
}
ROUND_STYLES = dict(zip(ROUNDS, ("-", "--", "-.", ":")))
PLAYER_STYLES = {0: "-", 1: "--"}


def _line(axes, rows, column, **style):
  points = [(r["step"], r[column]) for r in rows if column in r]
  if points:
    axes.plot(*zip(*points), **{"marker": "o", "markersize": 2, **style})
  return points


def draw(runs, path):
  """Draws the diagnostics of `runs` ({name: curve rows}) into `path`."""
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  figure, grid = plt.subplots(6, 1, figsize=(7.5, 17), sharex=True)
  results, edges, actions, q_scale, losses, norms = grid
  colours = dict(zip(runs, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
  for name, rows in runs.items():
    colour = colours[name]
    for column, (label, style) in RESULTS.items():
      _line(results, rows, column, color=colour, linestyle=style,
            label=f"{name}: {label}")
    for p, style in PLAYER_STYLES.items():
      points = _line(edges, rows, f"br_edge_{p}", color=colour,
                     linestyle=style, label=f"{name}: player {p}")
      errors = [r[f"br_edge_stderr_{p}"] for r in rows
                if f"br_edge_{p}" in r]
      if points:
        x, y = zip(*points)
        edges.fill_between(x, [a - e for a, e in zip(y, errors)],
                           [a + e for a, e in zip(y, errors)], color=colour,
                           alpha=0.15, linewidth=0)
      _line(q_scale, rows, f"q_spread_{p}", color=colour, linestyle=style,
            label=f"{name}: spread over legal actions, player {p}")
      _line(q_scale, rows, f"q_abs_{p}", color=colour, linestyle=style,
            alpha=0.5, label=f"{name}: mean |Q|, player {p}")
      _line(losses, rows, f"rl_loss_{p}", color=colour, linestyle=style,
            label=f"{name}: RL (TD) loss, player {p}")
      _line(losses, rows, f"sl_loss_{p}", color=colour, linestyle=style,
            alpha=0.5, label=f"{name}: SL (cross-entropy) loss, player {p}")
      _line(norms, rows, f"q_norm_{p}", color=colour, linestyle=style,
            label=f"{name}: Q network, player {p}")
      _line(norms, rows, f"average_norm_{p}", color=colour, linestyle=style,
            alpha=0.5, label=f"{name}: average network, player {p}")
    for round_name, style in ROUND_STYLES.items():
      _line(actions, rows, f"average_{round_name}_raise", color=colour,
            linestyle=style, label=f"{name}: raise, {round_name}")
      _line(actions, rows, f"average_{round_name}_fold", color=colour,
            linestyle=style, alpha=0.4, label=f"{name}: fold, {round_name}")
  results.axhline(0.0, color="grey", linewidth=0.8)
  edges.axhline(0.0, color="grey", linewidth=0.8)
  labels = (
      (results, "average strategy's result (mbb/h)"),
      (edges, "best response's edge over the average\n(mbb/h, +-1 s.e.)"),
      (actions, "average strategy's action frequency\n(self-play; raise "
                "dark, fold light)"),
      (q_scale, "Q (chips; spread dark, mean |Q| light)"),
      (losses, "loss (RL dark, SL light)"),
      (norms, "L2 weight norm (Q dark, average light)"))
  for axes, label in labels:
    axes.set_ylabel(label)
    axes.grid(True, alpha=0.3)
    figure_style.legend_outside(axes, fontsize=7)
  if any(np.nanmax(line.get_ydata(), initial=0.0) > 0
         for line in losses.get_lines()):  # none before the first update
    losses.set_yscale("log")
  norms.set_xlabel("episodes")
  results.set_title("NFSP on Limit Hold'em (NFSPConfig.lhe()): diagnostics")
  figure_style.save(figure, path)


def main():
  figure_runs.copy_run_specs(__doc__, DATA)
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  runs = {os.path.basename(os.path.dirname(path)): curves.read_curve(path)
          for path in sorted(glob.glob(os.path.join(DATA, "*",
                                                    "curve.csv")))}
  path = os.path.join(figure_runs.HERE, "fig_nfsp_lhe_diagnostics.png")
  draw(runs, path)


if __name__ == "__main__":
  main()
