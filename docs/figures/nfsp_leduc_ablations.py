"""Which of the faithful NFSP settings matter on Leduc: one change at a time.

Each run is `NFSPConfig.leduc()` with one setting put back to this
package's earlier reading (or the other reading where the paper and
Heinrich's public code differ), trained with the batched driver for
`--episodes` episodes per seed; curves (exploitability, greedy best
response, best-response gaps, M_SL counts) go to
`data/nfsp_ablations/<run>_seed<k>/curve.csv`, the table of final values to
`data/nfsp_ablations/table.md`, the plot to `fig_nfsp_ablations.png`.

  python docs/figures/nfsp_leduc_ablations.py --episodes 1500000 --seeds 0,1 --jobs 1
  python docs/figures/nfsp_leduc_ablations.py --plot_only
"""

import argparse
import math
import multiprocessing
import os

import figure_runs
import nfsp_runs
from nfsp_spiel.run import curves as run_curves

FIGURE = "nfsp_ablations"
RUNS = {  # run: (NFSPConfig changes, what it puts back)
    "faithful": ({}, "NFSPConfig.leduc() as shipped"),
    "inverse_sqrt_epsilon": ({"epsilon_schedule": "inverse_sqrt"},
                             "epsilon 0.06/sqrt(1+k) (paper's words)"),
    # Half the learning calls; epsilon's constant scaled by sqrt(2) so that
    # epsilon per step stays the faithful run's.
    "learn_every_128": ({"learn_every": 128,
                         "epsilon_decay": 0.01 * math.sqrt(2)},
                        "learn every 128 own steps (half the updates)"),
    "full_mse": ({"rl_learning_rate": 0.2},
                 "Q loss the full mean squared error (= stepsize 0.2)"),
    "min_memory_128": ({"min_buffer_size_to_learn": 128},
                       "learning from 128 records, not 1000"),
    "no_target_network": ({"target_refit_every": 0},
                          "no target network (public code)"),
    "glorot_init": ({"init": "glorot"}, "Glorot weights, zero biases"),
    "reward_scale_1": ({"reward_scale": 1.0},
                       "rewards in chips (thesis sec. 6.5)"),
    "previous_default": ({"epsilon_schedule": "inverse_sqrt",
                          "learn_every": 128, "rl_learning_rate": 0.2,
                          "min_buffer_size_to_learn": 128, "init": "glorot",
                          "reward_scale": 1.0},
                         "all of the above but the target: the old preset"),
}


def _train(args):
  run, episodes, seed = args
  nfsp_runs.train(FIGURE, f"{run}_seed{seed}", RUNS[run][0], episodes, seed,
                  points=12)
  return run, seed


def _curves():
  directory = os.path.join(figure_runs.HERE, "data", FIGURE)
  found = {}
  for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
    run, _, seed = name.rpartition("_seed")
    path = os.path.join(directory, name, "curve.csv")
    if run in RUNS and os.path.exists(path):
      found[(run, int(seed))] = path
  return found


def table():
  """Markdown table of the last point of every run, per seed and mean."""
  curves = _curves()
  columns = ("exploitability", "exploitability_greedy", "br_gap_0",
             "br_gap_1", "exploitability_sl_memory")
  lines = ["| run | change | seeds | episodes | " + " | ".join(columns) + " |",
           "| --- | --- | --- | ---: |" + " ---: |" * len(columns)]
  for run, (_, what) in RUNS.items():
    rows = [run_curves.read_curve(p)[-1] for (r, _), p in curves.items()
            if r == run]
    if not rows:
      continue
    seeds = ",".join(str(s) for (r, s) in curves if r == run)
    means = [sum(r[c] for r in rows) / len(rows) for c in columns]
    per_seed = ["/".join(f"{r[c]:.3f}" for r in rows) for c in columns]
    lines.append(f"| {run} | {what} | {seeds} | "
                 f"{int(min(r['step'] for r in rows)):,} | " +
                 " | ".join(f"{m:.3f} ({s})" for m, s in zip(means, per_seed))
                 + " |")
  path = os.path.join(figure_runs.HERE, "data", FIGURE, "table.md")
  with open(path, "w") as f:
    f.write("\n".join(lines) + "\n")
  print("\n".join(lines))
  return path


def plot():
  """The lowest seed's curve of every run (the table has every seed)."""
  runs = {}
  for (run, _), path in sorted(_curves().items()):
    runs.setdefault(run, path)
  if runs:
    figure_runs.plot(runs, "fig_nfsp_ablations", loglog=True,
                     xlabel="episodes",
                     title="NFSP on Leduc: one setting changed at a time")
    table()


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--episodes", type=int, default=1_500_000)
  parser.add_argument("--runs", default=",".join(RUNS))
  parser.add_argument("--seeds", default="0,1")
  parser.add_argument("--jobs", type=int, default=1)
  parser.add_argument("--plot_only", action="store_true")
  args = parser.parse_args()
  if not args.plot_only:
    work = [(run, args.episodes, int(seed))
            for seed in args.seeds.split(",") for run in args.runs.split(",")]
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
      for run, seed in pool.imap_unordered(_train, work):
        print(f"finished {run} seed {seed}", flush=True)
  plot()


if __name__ == "__main__":
  main()
