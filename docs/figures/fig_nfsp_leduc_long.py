"""Long NFSP runs on Leduc with `examples/nfsp.py`: the default
(`NFSPConfig.leduc()`) and the readings it chose against, with the run
diagnostics (best-response gaps, exploitability of M_SL's counts).

The runs (one core each; `--output_dir` under runs/, then copy its
curve.csv to data/nfsp_leduc_long/<run>/):

  faithful           python examples/nfsp.py --seed 0 --episodes 100000000 \\
                         --eval_every 500000 --checkpoint_every 500000
  faithful_seed<k>   ... --seed k     (seeds 0, 1, 2 to 1e8 episodes, one
                     process each; rows a resume repeated are dropped, the
                     later kept; seed 3, the fourth, run later to see how
                     often seed 1's late breakdown happens)
  reward_scale_1     ... --reward_scale 1        (stopped at 7.5M)
  no_target_network  ... --target_refit_every 0

  python docs/figures/fig_nfsp_leduc_long.py     # redraws the PNGs

fig_nfsp_leduc_long.png draws the four seeds of the default thin and their
mean with a band of +-1 standard error of the mean across seeds (to the
episodes all of them reached), the other readings' single runs, and the
paper's 0.06; fig_nfsp_leduc_long_<run>.png, each run's diagnostics.
"""

import os

import figure_runs

FIGURE = "nfsp_leduc_long"
LABELS = {"faithful": "NFSPConfig.leduc()",
          "faithful_seed1": "NFSPConfig.leduc(), seed 1",
          "faithful_seed2": "NFSPConfig.leduc(), seed 2",
          "faithful_seed3": "NFSPConfig.leduc(), seed 3",
          "reward_scale_1": "rewards in chips (thesis 6.5)",
          "no_target_network": "no target network (public code)"}


SEEDS = ("faithful", "faithful_seed1", "faithful_seed2", "faithful_seed3")
PAPER_LEVEL = 0.06  # NFSP paper, fig. 1a: "an exploitability of 0.06"


def plot_seeds(curves):
  """fig_nfsp_leduc_long.png: the default's seeds (thin) and their mean with
  a band of +-1 standard error across seeds (`figure_runs.draw_seeds`, to
  the episodes all seeds reached), the other readings' single runs, and the
  paper's 0.06; log-log axes (the step-0 point, the initial policy, left
  out)."""
  import matplotlib  # pylint: disable=g-import-not-at-top
  matplotlib.use("Agg")
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.run import curves as run_curves  # pylint: disable=g-import-not-at-top

  def points(path):
    return [(row["step"], row["exploitability"])
            for row in run_curves.read_curve(path) if row["step"] > 0]

  figure, axes = plt.subplots(figsize=(6.4, 4.4))
  seeds = [points(curves[run]) for run in SEEDS if run in curves]
  if seeds:
    figure_runs.draw_seeds(axes, seeds, "C0", "NFSPConfig.leduc()")
  others = [run for run in LABELS if run not in SEEDS]  # one colour each
  for run, colour in zip(others, ("C4", "C5")):
    if run in curves:
      axes.plot(*zip(*points(curves[run])), color=colour,
                label=f"{LABELS[run]} (seed 0)")
  axes.axhline(PAPER_LEVEL, color="black", linestyle="--", linewidth=0.8,
               label=f"the paper's {PAPER_LEVEL} (fig. 1a)")
  axes.set_xscale("log")
  axes.set_yscale("log")
  axes.set_xlabel("episodes")
  axes.set_ylabel("exploitability (chips/hand)")
  axes.set_title("NFSP on Leduc: average policy\nseeds thin; mean, shaded "
                 f"{figure_runs.BAND_TEXT}", fontsize=10)
  axes.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14))
  axes.grid(True, which="both", alpha=0.3)
  path = os.path.join(figure_runs.HERE, "fig_nfsp_leduc_long.png")
  figure.savefig(path, dpi=120, bbox_inches="tight")
  plt.close(figure)
  print(f"wrote {path}")


def main():
  data = os.path.join(figure_runs.HERE, "data", FIGURE)
  curves = {run: os.path.join(data, run, "curve.csv") for run in LABELS
            if os.path.exists(os.path.join(data, run, "curve.csv"))}
  plot_seeds(curves)
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
