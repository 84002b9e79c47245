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

The preset's self-play with one hidden layer of 64 at rewards / 5 (in
float32), to see whether NFSP's machinery learns Limit Hold'em where its
best response learns against a fixed opponent
(`fig_nfsp_lhe_fixed_opponent.py`):

  python examples/nfsp.py --game nfsp_lhe --preset lhe --hidden_layers 64 \
      --reward_scale 0.2 --precision float32 --episodes 3000000 \
      --eval_every 50000 --checkpoint_every 50000 --eval_deals 2000 \
      --smooct_deals 1000 --lbr_hands 200 \
      --output_dir runs/nfsp_lhe_small/hidden_64_rewards_1_5
  python docs/figures/fig_nfsp_lhe_diagnostics.py \
      --run hidden_64_rewards_1_5=runs/nfsp_lhe_small/hidden_64_rewards_1_5

A run's curve is copied when it goes further than the committed one;
`fig_nfsp_lhe_diagnostics.png` is drawn from every committed run of the
preset's network at the preset's settings but the reward scale (the runs
at other reward scales: `fig_nfsp_lhe_reward_scale.py`),
`fig_nfsp_lhe_diagnostics_double_q.png` from the runs of
`fig_nfsp_lhe_double_q.py` (in its colours) and
`fig_nfsp_lhe_diagnostics_hidden_64.png` from the one-layer run.
"""

import glob
import os

import numpy as np

import fig_nfsp_lhe_double_q as double_q
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


def _style_key(axes, styles, **common):
  """Legend entries in black for what each line style means on `axes`."""
  for label, style in styles:
    axes.plot([], [], color="black", linestyle=style, label=label, **common)


def draw(runs, path, title):
  """Draws the diagnostics of `runs` ({name: curve rows}) into `path`:
  colour by run (named in the top panel's legend; a double-Q run in its
  colour of `fig_nfsp_lhe_double_q`), line style by what each panel's
  legend says."""
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  figure, grid = plt.subplots(6, 1, figsize=(7.5, 17), sharex=True)
  results, edges, actions, q_scale, losses, norms = grid
  cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
  if len(runs) > len(cycle):
    raise ValueError(f"{len(runs)} runs in one figure; {len(cycle)} colours")
  colours = {name: double_q.COLOURS.get(name, colour)
             for name, colour in zip(runs, cycle)}
  for name, rows in runs.items():
    colour = colours[name]
    results.plot([], [], color=colour, linewidth=3, label=name)
    for column, (_, style) in RESULTS.items():
      _line(results, rows, column, color=colour, linestyle=style)
    for p, style in PLAYER_STYLES.items():
      points = _line(edges, rows, f"br_edge_{p}", color=colour,
                     linestyle=style)
      errors = [r[f"br_edge_stderr_{p}"] for r in rows
                if f"br_edge_{p}" in r]
      if points:
        x, y = zip(*points)
        edges.fill_between(x, [a - e for a, e in zip(y, errors)],
                           [a + e for a, e in zip(y, errors)], color=colour,
                           alpha=0.15, linewidth=0)
      for axes, dark, light in ((q_scale, "q_spread", "q_abs"),
                                (losses, "rl_loss", "sl_loss"),
                                (norms, "q_norm", "average_norm")):
        _line(axes, rows, f"{dark}_{p}", color=colour, linestyle=style)
        _line(axes, rows, f"{light}_{p}", color=colour, linestyle=style,
              alpha=0.5)
    for round_name, style in ROUND_STYLES.items():
      _line(actions, rows, f"average_{round_name}_raise", color=colour,
            linestyle=style)
      _line(actions, rows, f"average_{round_name}_fold", color=colour,
            linestyle=style, alpha=0.4)
  _style_key(results, [(label, style) for label, style in RESULTS.values()])
  players = [(f"player {p}", style) for p, style in PLAYER_STYLES.items()]
  for axes in (edges, q_scale, losses, norms):
    _style_key(axes, players)
  _style_key(actions, list(ROUND_STYLES.items()))
  results.axhline(0.0, color="grey", linewidth=0.8)
  edges.axhline(0.0, color="grey", linewidth=0.8)
  labels = (
      (results, "average strategy's result (mbb/h)"),
      (edges, "best response's edge over the average\n(mbb/h, +-1 s.e.)"),
      (actions, "average strategy's action frequency\n(self-play; raise "
                "dark, fold light)"),
      (q_scale, "Q (chips; spread over legal\nactions dark, mean |Q| light)"),
      (losses, "loss (RL (TD) dark,\nSL (cross-entropy) light)"),
      (norms, "L2 weight norm\n(Q network dark, average light)"))
  for axes, label in labels:
    axes.set_ylabel(label)
    axes.grid(True, alpha=0.3)
    figure_style.legend_outside(axes, fontsize=7)
  if any(np.nanmax(line.get_ydata(), initial=0.0) > 0
         for line in losses.get_lines()):  # none before the first update
    losses.set_yscale("log")
  norms.set_xlabel("episodes")
  results.set_title(title)
  figure_style.save(figure, path)


# (file, title) of the preset's runs (the reward scales), of the runs of
# `fig_nfsp_lhe_double_q.py` (double Q at rewards / 10, its clips and
# branches) and of the one-layer network's (`figure_runs.by_network`), whose
# x-axis is fifteen times the others'.
FIGURES = (
    ("fig_nfsp_lhe_diagnostics.png",
     "NFSP on Limit Hold'em (NFSPConfig.lhe()): diagnostics"),
    ("fig_nfsp_lhe_diagnostics_double_q.png",
     "NFSP on Limit Hold'em, double Q at rewards / 10: diagnostics"),
    ("fig_nfsp_lhe_diagnostics_hidden_64.png",
     "NFSP on Limit Hold'em, one hidden layer of 64: diagnostics"))


def main():
  figure_runs.copy_run_specs(__doc__, DATA)
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  runs = {os.path.basename(os.path.dirname(path)): curves.read_curve(path)
          for path in sorted(glob.glob(os.path.join(DATA, "*",
                                                    "curve.csv")))}
  preset, one_layer = figure_runs.by_network(runs)
  groups = ({n: r for n, r in preset.items() if n not in double_q.RUNS},
            {n: r for n, r in preset.items() if n in double_q.RUNS},
            one_layer)
  for (file_name, title), chosen_runs in zip(FIGURES, groups):
    if chosen_runs:
      draw(chosen_runs, os.path.join(figure_runs.HERE, file_name), title)


if __name__ == "__main__":
  main()
