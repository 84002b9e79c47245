"""NFSP on Limit Hold'em: which reward scale learns? Seed 0 at three scales.

`NFSPConfig.lhe()` divides chips by 480 (the largest pot, as Heinrich's
Leduc code divides by Leduc's 26); the thesis (sec. 6.5) maps monetary units
to rewards 1:1, its unit the small blind (sec. 2.3.1: bets of 2 and 4,
outcomes within +-48), i.e. 1/5 per OpenSpiel chip. At 1/480 the Q network's
weights hardly move (`fig_nfsp_lhe_diagnostics.png`), so the scale is a
suspect. Three runs differ only in `--reward_scale`:

  python examples/nfsp.py --game nfsp_lhe --preset lhe \\
      --reward_scale <scale> --episodes 1000000 --eval_every 10000 \\
      --checkpoint_every 20000 --eval_deals 2000 --smooct_deals 1000 \\
      --lbr_hands 200 --output_dir runs/nfsp_lhe_scale/<name>
  python docs/figures/fig_nfsp_lhe_reward_scale.py \\
      --run rewards_1_48=runs/nfsp_lhe_scale/r1_48 \\
      --run rewards_1_5=runs/nfsp_lhe_scale/r1_5

with 0.00208333 (`rewards_1_480`, the preset), 0.0208333 (`rewards_1_48`)
and 0.2 (`rewards_1_5`, the thesis'); `rewards_1_5_float32` repeats the
last with `--precision float32` (whether bfloat16 is why it diverged). Curves
live in `data/nfsp_lhe_diagnostics/<name>/` beside the diagnostics they log
(`fig_nfsp_lhe_diagnostics.png` draws every one; this figure those the rule
names).

The rule, written before the data of the 1/48 and 1/5 runs: evaluations are
matched by their nearest multiple of 10,000 episodes; at the last `LAST`
evaluations the three runs share, at least `JUDGED_AT` episodes, each run's
result against the SmooCT-like profile is the mean of those evaluations,
its standard error their sample deviation over sqrt(`LAST`). A scale is
*better* than 1/480 if its mean is higher by more than both twice the
combined standard error and `MIN_GAIN` mbb/h, *worse* if lower by as much,
else *no different at this x*. The preset's scale changes to the better
scale with the largest gain, provided LBR's winnings against it are not
*worse* by the same test (higher by that margin); otherwise it stays. Below
`JUDGED_AT` shared episodes the verdict is "too short". A run whose training
diverged has the error in `<name>/diverged.txt`, drawn as a cross at its
last evaluation. Beside the verdict
(not part of it): the Q network's relative weight change since episode 0
and the best response's edge, the mechanism the scale is suspected of.
"""

import os

import figure_runs
import figure_style
import nfsp_runs

DATA = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_diagnostics")
BASELINE = "rewards_1_480"
SCALES = {  # data folder -> legend label
    BASELINE: "rewards / 480 (the preset)",
    "rewards_1_48": "rewards / 48",
    "rewards_1_5": "rewards / 5 (thesis: 1 per small blind)",
}
COLOURS = {BASELINE: figure_style.COLOURS["NFSP"], "rewards_1_48": "#66a61e",
           "rewards_1_5": "#e7298a"}
SPACING = 10_000  # --eval_every of the three runs
JUDGED_AT = 50_000  # episodes shared by the three runs
LAST = 3  # evaluations averaged
MIN_GAIN = 100.0  # mbb/h
SMOOCT = os.path.join(figure_runs.HERE, "data", "smooct_lhe", "curve.csv")


def _by_slot(rows):
  """Evaluation rows keyed by their nearest multiple of `SPACING`."""
  return {round(r["step"] / SPACING): r for r in rows
          if "mbb_per_hand_vs_smooct" in r}


def _mean_se(rows, column):
  return figure_runs.mean_and_se([r[column] for r in rows])


def _compare(a, b):
  return figure_runs.compare_means(a, b, MIN_GAIN)


def verdict(runs):
  """The rule above on `runs` ({data folder: curve rows}); returns text."""
  slots = {name: _by_slot(rows) for name, rows in runs.items()}
  missing = [name for name in SCALES if not slots.get(name)]
  if missing:
    return f"too short: no evaluations of {', '.join(missing)}"
  shared = sorted(set.intersection(*(set(s) for s in slots.values())))
  if len(shared) < LAST or shared[-1] * SPACING < JUDGED_AT:
    reached = shared[-1] * SPACING if shared else 0
    return (f"too short: the runs share {reached:,} episodes of "
            f"{JUDGED_AT:,}")
  last = shared[-LAST:]
  at = {name: [slots[name][k] for k in last] for name in SCALES}
  smooct = {name: _mean_se(at[name], "mbb_per_hand_vs_smooct")
            for name in SCALES}
  lbr = {name: _mean_se(at[name], "lbr_mbb_per_hand") for name in SCALES}
  words = {1: "better than", -1: "worse than", 0: "no different from"}
  lines, better = [], []
  for name in SCALES:
    if name == BASELINE:
      continue
    order = _compare(smooct[name], smooct[BASELINE])
    lbr_worse = _compare(lbr[name], lbr[BASELINE]) == 1
    lines.append(f"{SCALES[name]} is {words[order]} 1/480 "
                 f"({smooct[name][0]:+.0f} +- {smooct[name][1]:.0f} vs "
                 f"{smooct[BASELINE][0]:+.0f} +- {smooct[BASELINE][1]:.0f} "
                 f"mbb/h vs SmooCT; LBR {lbr[name][0]:.0f} vs "
                 f"{lbr[BASELINE][0]:.0f})")
    if order == 1 and not lbr_worse:
      better.append((smooct[name][0] - smooct[BASELINE][0], name))
  where = f"at {last[0] * SPACING:,}-{last[-1] * SPACING:,} episodes"
  choice = (f"change the preset to {SCALES[max(better)[1]]}" if better
            else "keep 1/480")
  return f"{choice} {where}: " + "; ".join(lines)


def mechanism(rows):
  """(relative Q weight change since episode 0, mean best-response edge) at
  the run's last evaluation, both players averaged."""
  first, last = rows[0], [r for r in rows if "q_norm_0" in r][-1]
  change = sum(last[f"q_norm_{p}"] / first[f"q_norm_{p}"] - 1
               for p in (0, 1)) / 2
  edge = (last["br_edge_0"] + last["br_edge_1"]) / 2
  return change, edge


def draw(runs, path, always_call):
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  figure, (vs, lbr, edge, weights) = plt.subplots(4, 1, figsize=(7.2, 11),
                                                   sharex=True)
  for name, label in SCALES.items():
    rows = runs.get(name, [])
    if not rows:
      continue
    colour = COLOURS[name]
    first = rows[0]
    diverged = nfsp_runs.diverged(DATA, name) is not None
    for axes, column in ((vs, "mbb_per_hand_vs_smooct"),
                         (lbr, "lbr_mbb_per_hand")):
      points = [(r["step"], r[column]) for r in rows if column in r]
      axes.plot(*zip(*points), color=colour, marker="o", markersize=3,
                label=label)
      if diverged:
        axes.plot(*points[-1], color=colour, marker="x", markersize=10,
                  linestyle="none", label=f"{label}: training diverged "
                  "(NaN loss) before the next evaluation")
    points = [(r["step"], (r["br_edge_0"] + r["br_edge_1"]) / 2)
              for r in rows if "br_edge_0" in r]
    edge.plot(*zip(*points), color=colour, marker="o", markersize=3,
              label=label)
    for p, style in ((0, "-"), (1, "--")):
      points = [(r["step"], 100 * (r[f"q_norm_{p}"] / first[f"q_norm_{p}"]
                                   - 1)) for r in rows if "q_norm_0" in r]
      weights.plot(*zip(*points), color=colour, linestyle=style,
                   label=f"{label}, player {p}")
  figure_style.reference_level(vs, always_call, "always-call's result")
  edge.axhline(0.0, color="grey", linewidth=0.8)
  for axes, ylabel in (
      (vs, "average strategy vs the SmooCT-like\nprofile (mbb/h)"),
      (lbr, "LBR's winnings against the\naverage strategy (mbb/h)"),
      (edge, "best response's edge over the\naverage, mean of players "
             "(mbb/h)"),
      (weights, "Q network's weight norm,\nchange since episode 0 (%)")):
    axes.set_ylabel(ylabel)
    axes.grid(True, alpha=0.3)
    figure_style.legend_outside(axes, fontsize=7)
  weights.set_xlabel("episodes")
  vs.set_title("NFSP on Limit Hold'em, seed 0: the reward scale")
  figure_style.save(figure, path)


def main():
  figure_runs.copy_run_specs(__doc__, DATA, names=SCALES)
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  runs = {}
  for name in SCALES:
    path = os.path.join(DATA, name, curves.CSV_NAME)
    if os.path.exists(path):
      runs[name] = curves.read_curve(path)
  always_call = -curves.read_curve(SMOOCT)[-1]["mbb_per_hand_vs_always_call"]
  draw(runs, os.path.join(figure_runs.HERE, "fig_nfsp_lhe_reward_scale.png"),
       always_call)
  print(verdict(runs))
  for name, rows in runs.items():
    change, edge = mechanism(rows)
    print(f"{SCALES[name]}: at {rows[-1]['step']:,.0f} episodes the Q "
          f"weights moved {100 * change:.3f}% since episode 0, best-response "
          f"edge {edge:+.0f} mbb/h")


if __name__ == "__main__":
  main()
