"""Does mixed precision change what NFSP learns on Limit Hold'em?

NFSP with the paper's Limit Hold'em settings (`NFSPConfig.lhe()`,
1024-512-1024-512) trained in float32 and with `precision="bfloat16"`
(bfloat16 products, float32 weights and updates), seeds 0, 2 and 4 each,
every run evaluated every 10,000 episodes: the average policy against the
SmooCT-like profile and against the equity-threshold player (2,500
duplicate deals each), and the supervised loss. Two machines, one column
each:

- a lent machine's CPU (16-core Xeon with avx512_bf16 and amx_bf16), to
  60,000 episodes: `docs/figures/device_nfsp_precision_lhe.sh`, six runs
  side by side (to 30,000 episodes, then resumed with EPISODES=60000; the
  float32 runs, on 3 cores each, were stopped by the call's time limit:
  seed 2 at its 50,000-episode point); curves in
  `data/nfsp_precision_lhe/<precision>_seed<seed>.csv`;
- this project's 2-core AMD EPYC (avx512_bf16, no AMX), to 100,000
  episodes, one run after another on one core (`taskset -c 0`):

    python examples/nfsp.py --game nfsp_lhe --preset lhe \\
        --precision <precision> --seed <seed> --episodes 100000 \\
        --eval_every 10000 --checkpoint_every 10000 --eval_deals 2500 \\
        --smooct_deals 2500 --lbr_hands 0 --eval_policies average \\
        --output_dir runs/precision_lhe/<precision>_<seed>

  curves copied to `data/nfsp_precision_lhe/epyc/` by `--copy_from
  runs/precision_lhe`.

Each seed is drawn thin, and each precision's mean with a band of +-1
standard error of the mean across its seeds, over the points all its seeds
reached (a machine's column shows the runs whose curves exist). Each
machine's `bands.csv` lists, per metric and point, both precisions' means
and bands, whether each mean lies inside the other precision's band, and
whether the bands overlap.

  python docs/figures/fig_nfsp_precision_lhe.py [--copy_from runs/precision_lhe]
"""

import argparse
import os

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top

import figure_runs  # docs/figures/figure_runs.py
from nfsp_spiel.run import curves as run_curves

DATA = os.path.join(figure_runs.HERE, "data", "nfsp_precision_lhe")
SEEDS = (0, 2, 4)
PRECISIONS = {"float32": "tab:blue", "bfloat16": "tab:orange"}
MACHINES = {  # data folder: column title
    DATA: "lent 16-core Xeon with AMX",
    os.path.join(DATA, "epyc"): "2-core EPYC with avx512_bf16",
}
PANELS = {
    "mbb_per_hand_vs_smooct": "vs SmooCT-like profile (mbb/h)",
    "mbb_per_hand_vs_equity_threshold": "vs equity-threshold player (mbb/h)",
    "sl_loss": "supervised (average policy) loss",
}


def _csv(folder, precision, seed):
  return os.path.join(folder, f"{precision}_seed{seed}.csv")


def seed_curves(folder, precision, metric):
  """[(episodes, value), ...] per seed of `precision` whose CSV is in
  `folder`."""
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  runs = []
  for seed in SEEDS:
    if os.path.exists(_csv(folder, precision, seed)):
      rows = curves.read_curve(_csv(folder, precision, seed))
      points = [(row["step"], row[metric]) for row in rows
                if row[metric] == row[metric]]  # no NaN (step 0's losses)
      if points:
        runs.append(points)
  return runs


def copy_curves(runs):
  """The curves of `runs`/<precision>_<seed>/ into the EPYC column's data."""
  folder = os.path.join(DATA, "epyc")
  os.makedirs(folder, exist_ok=True)
  for precision in PRECISIONS:
    for seed in SEEDS:
      figure_runs.copy_curve_further(
          os.path.join(runs, f"{precision}_{seed}", "curve.csv"),
          _csv(folder, precision, seed))


def band_rows(folder):
  """Per metric and point both precisions' seeds reached: each precision's
  mean and band, whether each mean lies inside the other's band, and
  whether the bands overlap."""
  rows = []
  for metric in PANELS:
    bands = {}
    for precision in PRECISIONS:
      curves = seed_curves(folder, precision, metric)
      if len(curves) > 1:
        bands[precision] = dict(zip(("steps", "mean", "low", "high"),
                                    run_curves.mean_and_band(curves)))
    if len(bands) < 2:
      continue
    first, second = (bands[precision] for precision in PRECISIONS)
    for i in range(min(len(first["steps"]), len(second["steps"]))):
      row = {"metric": metric, "episodes": round(first["steps"][i])}
      for precision, band in bands.items():
        row.update({f"{precision}_{key}": band[key][i]
                    for key in ("mean", "low", "high")})
      row["each_mean_inside_the_other_band"] = (
          first["low"][i] <= second["mean"][i] <= first["high"][i]
          and second["low"][i] <= first["mean"][i] <= second["high"][i])
      row["bands_overlap"] = (first["low"][i] <= second["high"][i]
                              and second["low"][i] <= first["high"][i])
      rows.append(row)
  return rows


def write_bands(folder):
  """`bands.csv` in `folder` (see `band_rows`), for the ledger and notes."""
  import csv  # pylint: disable=g-import-not-at-top
  rows = band_rows(folder)
  if rows:
    with open(os.path.join(folder, "bands.csv"), "w", newline="") as f:
      writer = csv.DictWriter(f, fieldnames=list(rows[0]))
      writer.writeheader()
      writer.writerows(rows)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
  parser.add_argument("--copy_from", help="A folder of <precision>_<seed> "
                      "runs whose curves become the EPYC column's.")
  args = parser.parse_args()
  if args.copy_from:
    copy_curves(args.copy_from)
  machines = {folder: title for folder, title in MACHINES.items()
              if any(seed_curves(folder, precision, "step")
                     for precision in PRECISIONS)}
  figure, grid = plt.subplots(len(PANELS), len(machines), sharex="col",
                              sharey="row", squeeze=False,
                              figsize=(5.2 * len(machines),
                                       2.4 * len(PANELS) + 1))
  for column, (folder, title) in enumerate(machines.items()):
    for row, (metric, label) in enumerate(PANELS.items()):
      axes = grid[row][column]
      for precision, colour in PRECISIONS.items():
        curves = seed_curves(folder, precision, metric)
        if curves:
          figure_runs.draw_seeds(axes, curves, colour, precision)
      if column == 0:
        axes.set_ylabel(label, fontsize=8)
      axes.grid(alpha=0.3)
    grid[0][column].set_title(title, fontsize=9)
    grid[0][column].legend(fontsize=7)
    grid[-1][column].set_xlabel("episodes")
  figure.suptitle("NFSP on nfsp_lhe (NFSPConfig.lhe()) in both precisions, "
                  "seeds 0, 2, 4\n(each seed thin; mean with "
                  f"{figure_runs.BAND_TEXT})", fontsize=9)
  figure.tight_layout()
  for folder in machines:
    write_bands(folder)
  output = os.path.join(figure_runs.HERE, "fig_nfsp_precision_lhe.png")
  figure.savefig(output, dpi=120)
  print(output)


if __name__ == "__main__":
  main()
