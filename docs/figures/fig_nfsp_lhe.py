"""NFSP paper fig. 2a's analogue: NFSP learning Limit Hold'em from scratch.

The paper plots mbb/h of NFSP's average, greedy-average and best-response
strategies against the 2014 ACPC programs (SmartBot, Fellsten, ...), which
are not available. Here the opponents are the equity-threshold baseline
(`evaluation.baselines.EquityThreshold`) and the package's SmooCT-like
profile (`smooth_uct.lhe.shipped_profile`: Smooth UCT's greedy profile after
10^9 episodes in the thesis' E[HS^2] abstraction, the stand-in for the
paper's SmooCT), all with duplicate deals, with the local best response's
winnings against the average strategy (LBR, a lower bound on its
exploitability) beside them. The run is `examples/nfsp.py` with the paper's
sec. 4.3 settings (`NFSPConfig.lhe()`), checkpointed under runs/ and
resumable by the same command:

  python examples/nfsp.py --game nfsp_lhe --preset lhe --seed 0 \\
      --episodes 20000000 --eval_every 250000 --checkpoint_every 250000 \\
      --eval_deals 12500 --smooct_deals 12500 --lbr_hands 2000 \\
      --eval_policies average,greedy_average --output_dir runs/nfsp_lhe
  python docs/figures/fig_nfsp_lhe.py     # copies the curve, draws the PNG

(25,000 hands per match: 12,500 duplicate deals, the paper's count.) The
curve logs means only; the standard errors come from checkpoints measured
afterwards (hard links of the run's checkpoints, which its atomic replace
leaves intact): `--snapshots DIR` plays each one's average and
greedy-average strategies against the profile, on the run's seed (the same
deals as the run's own evaluation), and keeps the results in
`data/nfsp_lhe/vs_smooct.csv` (snapshots already there are not replayed).

The curve is copied to `data/nfsp_lhe/curve.csv` when it goes further than
the one there (a restarted run does not replace a longer curve), the PNG is
`fig_nfsp_lhe.png`, with the paper's end levels against SmooCT marked
(dashed, their values in the legend; the SmooCT-like profile stands in
for SmooCT) and +-1 standard error bars where `vs_smooct.csv` has them."""

import argparse
import os

import figure_runs
import figure_style
import nfsp_runs

# curve column -> label. Every line is a measurement of NFSP's strategies,
# so all take NFSP's colour (figure_style matches "NFSP" in the label), the
# greedy-average dashed; the opponent is told by the marker.
COLUMNS = {
    "mbb_per_hand_vs_equity_threshold": "NFSP average vs equity player",
    "mbb_per_hand_vs_equity_threshold_greedy_average":
        "NFSP greedy-average vs equity player",
    "mbb_per_hand_vs_equity_threshold_best_response":
        "NFSP best response (DQN) vs equity player",
    "lbr_mbb_per_hand": "LBR's winnings against NFSP's average",
    "mbb_per_hand_vs_smooct": "NFSP average vs SmooCT-like profile",
    "mbb_per_hand_vs_smooct_greedy_average":
        "NFSP greedy-average vs SmooCT-like profile",
}
MARKERS = (("equity", "s"), ("LBR", "^"), ("SmooCT", "o"))
# Fig. 2a's end levels against SmooCT (sec. 4.3: the average and
# greedy-average profiles "achieve win rates of around -50 and -20 mbb/h"),
# from the ledger item's [item.paper] table. On this figure's scale both
# lie on the zero line, so their legend entries carry the values.
PAPER = figure_style.paper("nfsp2016-fig2a")
PAPER_LEVELS = {
    PAPER["avg"]: f"NFSP paper vs SmooCT: average {PAPER['avg']} mbb/h",
    PAPER["greedy"]:
        f"NFSP paper vs SmooCT: greedy-average {PAPER['greedy']} mbb/h"}
YLABEL = "winnings (milli-big-blinds per hand)"
def _marker(label):
  """The marker of the opponent `label` names."""
  return next(marker for name, marker in MARKERS if name in label)


def _style(label):
  """NFSP's colour, greedy-average dashed; LBR's winnings dotted, as they
  measure the average from the exploiter's side."""
  style = figure_style.line_style(label)
  if label.startswith("LBR"):
    style["linestyle"] = ":"
  return style


def _draw_stderrs(axes, results):
  """Error bars of +-1 standard error on the points measured afterwards
  against the SmooCT-like profile (the curve itself logs means only)."""
  for row in results:
    axes.errorbar(float(row["step"]), float(row["mbb_per_hand"]),
                  yerr=float(row["mbb_stderr"]), capsize=3, linestyle="none",
                  color=figure_style.COLOURS["NFSP"])


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--run", default=os.path.join(nfsp_runs.ROOT, "runs",
                                                    "nfsp_lhe"))
  parser.add_argument("--snapshots", default=None, help="a folder of the "
                      "run's checkpoints to measure against the SmooCT-like "
                      "profile")
  parser.add_argument("--smooct_deals", type=int, default=12500)
  parser.add_argument("--seed", type=int, default=0)
  args = parser.parse_args()
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  data = os.path.join(figure_runs.HERE, "data", "nfsp_lhe")
  os.makedirs(data, exist_ok=True)
  figure_runs.copy_further(args.run, data)
  curve = os.path.join(data, "curve.csv")
  rows = curves.read_curve(curve)
  results = os.path.join(data, "vs_smooct.csv")
  if args.snapshots:
    nfsp_runs.evaluate_snapshots(args.snapshots, results, args.smooct_deals,
                                 args.seed)
  for row in nfsp_runs.read_snapshot_results(results):
    column = "mbb_per_hand_vs_smooct" + (
        "" if row["policy"] == "average" else "_" + row["policy"])
    step = float(row["step"])
    for curve_row in rows:
      if curve_row["step"] == step and column not in curve_row:
        curve_row[column] = float(row["mbb_per_hand"])
  figure, axes = plt.subplots(figsize=(7.2, 4.6))
  for column, label in COLUMNS.items():
    points = [(row["step"], row[column]) for row in rows if column in row]
    if points:
      axes.plot(*zip(*points), marker=_marker(label), markersize=4,
                label=label, **_style(label))
  _draw_stderrs(axes, nfsp_runs.read_snapshot_results(results))
  axes.axhline(0.0, color="grey", linewidth=0.8)
  for level, label in PAPER_LEVELS.items():
    figure_style.reference_level(axes, level, label)
  axes.set_xlabel("episodes")
  axes.set_ylabel("\n".join(figure_style.wrap_label(YLABEL) + [
      "bars where measured: \u00b11 standard error over duplicate deals"]))
  axes.set_title("NFSP on Limit Hold'em (the paper's sec. 4.3 settings, "
                 "seed 0)")
  axes.grid(True, alpha=0.3)
  figure_style.legend_outside(axes)
  figure_style.save(figure, os.path.join(figure_runs.HERE,
                                         "fig_nfsp_lhe.png"))
  print(f"{len(rows)} evaluations")


if __name__ == "__main__":
  main()
