"""NFSP paper fig. 1 on Leduc Hold'em (nfsp_leduc, the paper's 30-dim input).

  1a  network sizes: one hidden layer of 8, 16, 32, 64 or 128 ReLUs;
  1b  NFSP against its ablations: sliding-window M_SL, eta = 0.5,
      exponential reservoir M_SL;
  1c  NFSP against DQN (NFSP with eta = 1, sec. 4.2): average and greedy
      (best-response) strategies.

Every run trains with the batched self-play driver and the paper's settings
(`NFSPConfig.leduc()`), one process per run, and logs exploitability and the
run diagnostics at log-spaced episode counts to
`data/nfsp_fig1/<run>/curve.csv` (`nfsp_runs.train`: checkpointed, the same
command resumes); the PNGs are `fig_nfsp_1a.png`, `fig_nfsp_1b.png`,
`fig_nfsp_1c.png` (log-log). Runs are shared: the [64] reservoir run is NFSP
in all three panels. The sliding window's divergence needs its 2m records
filled: about 15m episodes at eta 0.1.

The curves in the repository (the same command with more episodes resumes
a run where it stopped):

  python docs/figures/fig_nfsp_1_leduc.py --runs nfsp,sliding_window \
      --episodes 20000000 --jobs 2
  python docs/figures/fig_nfsp_1_leduc.py --runs dqn,eta_0.5,\
exponential_reservoir,hidden_128,hidden_8,hidden_16,hidden_32 \
      --episodes 3000000 --jobs 1
  python docs/figures/fig_nfsp_1_leduc.py --runs eta_0.5 --episodes 10000000
  python docs/figures/fig_nfsp_1_leduc.py --plot_only
"""

import argparse
import multiprocessing
import os

import figure_runs
import figure_style
import nfsp_runs

FIGURE = "nfsp_fig1"
RUNS = {  # run name: NFSPConfig changes
    "hidden_8": {"hidden_layers": (8,)},
    "hidden_16": {"hidden_layers": (16,)},
    "hidden_32": {"hidden_layers": (32,)},
    "nfsp": {},
    "hidden_128": {"hidden_layers": (128,)},
    "sliding_window": {"reservoir_buffer_kind": "sliding_window"},
    "eta_0.5": {"anticipatory_param": 0.5},
    "exponential_reservoir": {"reservoir_buffer_kind": "exponential_reservoir"},
    "dqn": "dqn",
}
PANELS = {
    "1a": {run: figure_style.hidden_units(size) for run, size in (
        ("hidden_8", 8), ("hidden_16", 16), ("hidden_32", 32), ("nfsp", 64),
        ("hidden_128", 128))},
    "1b": {"nfsp": "NFSP (reservoir)", "sliding_window": "sliding window",
           "eta_0.5": "eta 0.5", "exponential_reservoir": "exp. reservoir"},
}


def train(args):
  """One run (in its own process), resumable: see `nfsp_runs.train`."""
  run, episodes, seed = args
  nfsp_runs.train(FIGURE, run, RUNS[run], episodes, seed)
  return run


def _curve(run):
  return os.path.join(figure_runs.HERE, "data", FIGURE, run,
                      "curve.csv")


def panel_style(panel, runs):
  """Fig. 1a's network sizes as shades of NFSP's colour, smallest lightest,
  with the paper's level; the other panels in their methods' colours."""
  if panel != "1a":
    return {}
  level = figure_style.paper("nfsp2016-fig1a")["level"]
  return {"styles": figure_style.shades("NFSP", list(runs)),
          "references": [(level, f"NFSP paper: {level}", None, None)]}


def plot():
  """The three panels from whichever runs have curves."""
  panels = {panel: {label: _curve(run) for run, label in labels.items()}
            for panel, labels in PANELS.items()}
  panels["1c"] = {"NFSP average": _curve("nfsp"), "DQN average": _curve("dqn"),
                  "NFSP greedy": (_curve("nfsp"), "exploitability_greedy"),
                  "DQN greedy": (_curve("dqn"), "exploitability_greedy")}
  for panel, runs in panels.items():
    runs = {label: run for label, run in runs.items()
            if os.path.exists(run if isinstance(run, str) else run[0])}
    if runs:
      figure_runs.plot(runs, f"fig_nfsp_{panel}", loglog=True,
                       xlabel="episodes", **panel_style(panel, runs),
                       title=f"NFSP paper fig. {panel}, Leduc Hold'em")


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--episodes", type=int, default=3_000_000)
  parser.add_argument("--runs", default=",".join(RUNS))
  parser.add_argument("--jobs", type=int, default=2)
  parser.add_argument("--seed", type=int, default=0)
  parser.add_argument("--plot_only", action="store_true")
  args = parser.parse_args()
  if not args.plot_only:
    work = [(run, args.episodes, args.seed) for run in args.runs.split(",")]
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
      for run in pool.imap_unordered(train, work):
        print(f"finished {run}", flush=True)
  plot()


if __name__ == "__main__":
  main()
