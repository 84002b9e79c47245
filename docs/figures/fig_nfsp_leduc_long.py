"""Long NFSP runs on Leduc with `examples/nfsp.py`: the default
(`NFSPConfig.leduc()`) and the readings it chose against, with the run
diagnostics (best-response gaps, exploitability of M_SL's counts).

The runs (one core each; `--output_dir` under runs/, then copy its
curve.csv to data/nfsp_leduc_long/<run>/):

  faithful           python examples/nfsp.py --episodes 30000000 --eval_every 500000
  faithful_seed<k>   ... --seed k     (seed 2 stopped at 23M, past 0.1;
                     rows a resume repeated are dropped, the later kept)
  reward_scale_1     ... --reward_scale 1        (stopped at 7.5M)
  no_target_network  ... --target_refit_every 0

  python docs/figures/fig_nfsp_leduc_long.py     # redraws the PNGs
"""

import os

import figure_runs

FIGURE = "nfsp_leduc_long"
LABELS = {"faithful": "NFSPConfig.leduc()",
          "faithful_seed1": "NFSPConfig.leduc(), seed 1",
          "faithful_seed2": "NFSPConfig.leduc(), seed 2",
          "reward_scale_1": "rewards in chips (thesis 6.5)",
          "no_target_network": "no target network (public code)"}


def main():
  data = os.path.join(figure_runs.HERE, "data", FIGURE)
  curves = {run: os.path.join(data, run, "curve.csv") for run in LABELS
            if os.path.exists(os.path.join(data, run, "curve.csv"))}
  figure_runs.plot({LABELS[run]: path for run, path in curves.items()},
                   "fig_nfsp_leduc_long", loglog=True, xlabel="episodes",
                   title="NFSP on Leduc: average policy")
  for run, path in curves.items():
    figure_runs.plot(
        {"average policy (Pi)": path,
         "M_SL action counts": (path, "exploitability_sl_memory"),
         "best-response gap, player 0": (path, "br_gap_0"),
         "best-response gap, player 1": (path, "br_gap_1")},
        f"fig_nfsp_leduc_long_{run}", loglog=True, xlabel="episodes",
        title=f"{LABELS[run]}: what limits the run")


if __name__ == "__main__":
  main()
