"""NFSP paper fig. 2a's analogue: NFSP learning Limit Hold'em from scratch.

The paper plots mbb/h of NFSP's average, greedy-average and best-response
strategies against the 2014 ACPC programs (SmartBot, Fellsten, ...), which
are not available; here the opponent is the equity-threshold baseline
(`evaluation.baselines.EquityThreshold`, duplicate deals), with the local
best response's winnings against the average strategy (LBR, a lower bound on
its exploitability) beside them. The run is `examples/nfsp.py` with the
paper's sec. 4.3 settings (`NFSPConfig.lhe()`), checkpointed under runs/ and
resumable by the same command:

  python examples/nfsp.py --game nfsp_lhe --preset lhe \\
      --episodes 20000000 --eval_every 50000 --checkpoint_every 50000 \\
      --eval_deals 500 --lbr_hands 500 \\
      --eval_policies average,greedy_average,best_response \\
      --output_dir runs/nfsp_lhe
  python docs/figures/fig_nfsp_lhe.py     # copies the curve, draws the PNG

The curve is copied to `data/nfsp_lhe/curve.csv`, the PNG is
`fig_nfsp_lhe.png`.
"""

import argparse
import os
import shutil

import figure_runs
import nfsp_runs

COLUMNS = {  # curve column -> label
    "mbb_per_hand_vs_equity_threshold": "average strategy vs equity player",
    "mbb_per_hand_vs_equity_threshold_greedy_average":
        "greedy-average strategy vs equity player",
    "mbb_per_hand_vs_equity_threshold_best_response":
        "best response (DQN) vs equity player",
    "lbr_mbb_per_hand": "LBR's winnings against the average strategy",
}


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--run", default=os.path.join(nfsp_runs.ROOT, "runs",
                                                    "nfsp_lhe"))
  args = parser.parse_args()
  import matplotlib  # pylint: disable=g-import-not-at-top
  matplotlib.use("Agg")
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  data = os.path.join(figure_runs.HERE, "data", "nfsp_lhe")
  os.makedirs(data, exist_ok=True)
  curve = os.path.join(data, "curve.csv")
  shutil.copyfile(os.path.join(args.run, "curve.csv"), curve)
  rows = evaluation.read_curve(curve)
  figure, axes = plt.subplots(figsize=(7.2, 4.6))
  for column, label in COLUMNS.items():
    points = [(row["step"], row[column]) for row in rows if column in row]
    if points:
      axes.plot(*zip(*points), marker="o", markersize=3, label=label,
                linestyle="--" if column.startswith("lbr") else "-")
  axes.axhline(0.0, color="grey", linewidth=0.8)
  axes.set_xlabel("episodes")
  axes.set_ylabel("mbb/h")
  axes.set_title("NFSP on Limit Hold'em (NFSPConfig.lhe(), seed 0)")
  axes.grid(True, alpha=0.3)
  axes.legend(fontsize=8)
  path = os.path.join(figure_runs.HERE, "fig_nfsp_lhe.png")
  figure.savefig(path, dpi=120, bbox_inches="tight")
  print(f"wrote {path} from {len(rows)} evaluations")


if __name__ == "__main__":
  main()
