"""Issue 30: does mixed precision change what NFSP learns on Limit Hold'em?

NFSP with the paper's Limit Hold'em settings (`NFSPConfig.lhe()`,
1024-512-1024-512) trained in float32 and with `precision="bfloat16"`
(bfloat16 products, float32 weights and updates), seeds 0, 2 and 4 each, to
60,000 episodes, every run evaluated every 10,000 episodes: the average
policy against the SmooCT-like profile and against the equity-threshold
player (2,500 duplicate deals each), and the supervised loss.

This machine's CPU has no bfloat16 units, and emulated bfloat16 products
are 3.5x slower than float32 here, so the six runs were made on a lent
machine whose CPU has them (avx512_bf16, amx_bf16; 16 cores), side by side:
`docs/figures/device_nfsp_precision_lhe.sh` (to 30,000 episodes, then the
same runs resumed with EPISODES=60000; the float32 runs, on 3 cores each,
were stopped by the call's time limit: seed 2 at its 50,000-episode point).
Their curves are `data/nfsp_precision_lhe/<precision>_seed<seed>.csv`; this
script draws them: each seed thin, and each precision's mean with a band of
+-1 standard error of the mean across its seeds, over the points all its
seeds reached.

  python docs/figures/fig_nfsp_precision_lhe.py
"""

import os

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top

import figure_runs  # docs/figures/figure_runs.py

DATA = os.path.join(figure_runs.HERE, "data", "nfsp_precision_lhe")
SEEDS = (0, 2, 4)
PRECISIONS = {"float32": "tab:blue", "bfloat16": "tab:orange"}
PANELS = {
    "mbb_per_hand_vs_smooct": "vs SmooCT-like profile (mbb/h)",
    "mbb_per_hand_vs_equity_threshold": "vs equity-threshold player (mbb/h)",
    "sl_loss": "supervised (average policy) loss",
}


def seed_curves(precision, metric):
  """[(episodes, value), ...] per seed of `precision`, from its CSVs."""
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  runs = []
  for seed in SEEDS:
    rows = curves.read_curve(os.path.join(DATA,
                                          f"{precision}_seed{seed}.csv"))
    runs.append([(row["step"], row[metric]) for row in rows
                 if row[metric] == row[metric]])  # no NaN (step 0's losses)
  return runs


def main():
  figure, grid = plt.subplots(len(PANELS), 1, sharex=True,
                              figsize=(6.4, 2.4 * len(PANELS) + 1))
  for axes, (metric, label) in zip(grid, PANELS.items()):
    for precision, colour in PRECISIONS.items():
      figure_runs.draw_seeds(axes, seed_curves(precision, metric), colour,
                             precision)
    axes.set_ylabel(label, fontsize=8)
    axes.grid(alpha=0.3)
  grid[0].legend(fontsize=7)
  grid[-1].set_xlabel("episodes")
  figure.suptitle("NFSP on nfsp_lhe (NFSPConfig.lhe()) in both precisions, "
                  "seeds 0, 2, 4\n(each seed thin; mean with "
                  f"{figure_runs.BAND_TEXT})", fontsize=9)
  figure.tight_layout()
  output = os.path.join(figure_runs.HERE, "fig_nfsp_precision_lhe.png")
  figure.savefig(output, dpi=120)
  print(output)


if __name__ == "__main__":
  main()
