"""The Limit Hold'em recipe where the answer is exact: `NFSPConfig.lhe()`'s
learning settings on Leduc, whose exploitability is computable.

Limit Hold'em has no exact best response, so whether the paper's sec. 4.3
settings (four ReLU layers 1024-512-1024-512, plain SGD at 0.1 and 0.01,
batches of 256 every 256 game steps, target refits every 1000 updates,
exploration from 0.08, a 600k M_RL and an exponential-reservoir M_SL) learn
at all is checked on Leduc instead, three seeds, beside the Leduc defaults'
three seeds at the same episode counts (`data/nfsp_fig1_seeds/hidden_64`).
The reward scale follows the preset's rule, rewards in units of the game's
largest pot (Leduc's 1/26, LHE's 1/480); two single-seed runs change only
the scale: 1 (the thesis' "monetary payoffs ... to rewards" 1:1, sec. 6.5)
and 1/480 (LHE's value taken literally, 18x below the rule on Leduc).

  python examples/nfsp.py --game nfsp_leduc --preset lhe \\
      --reward_scale 0.0385 --seeds 0,2,4 --episodes 1000000 \\
      --eval_every 25000 --checkpoint_every 100000 \\
      --output_dir runs/lhe_recipe_leduc/rule
  python examples/nfsp.py --game nfsp_leduc --preset lhe --seeds 0 \\
      --sweep reward_scale=1,0.00208333 --episodes 1000000 \\
      --eval_every 25000 --checkpoint_every 100000 \\
      --output_dir runs/lhe_recipe_leduc/scales
  python docs/figures/fig_nfsp_lhe_recipe_leduc.py   # copies, draws

The rule, written before the data: at the largest evaluation of at least
`JUDGED_AT` episodes that the recipe's three seeds share, the recipe
*learns on Leduc* if every seed's exploitability is at least `DROP` below
its own at episode 0 and the seeds' mean is below their mean at the
evaluation nearest half that x; it learns *as fast as the defaults* if,
besides, its mean lies at or below the defaults' upper band (+1 s.e.) at
the defaults' evaluation nearest that x. Before `JUDGED_AT` the script says
the run is too short.

Each command resumes its run; this script copies each run's curve to
`data/nfsp_lhe_recipe_leduc/<run>/curve.csv` when it goes further than the
committed one and draws `fig_nfsp_lhe_recipe_leduc.png`: exploitability
(top) and each player's best-response gap, the exact best response's value
minus the greedy Q policy's against the other's average (bottom: what the
DQN part leaves on the table).
"""

import argparse
import os

import figure_runs
import figure_style
import nfsp_runs

RUNS = ("rule", "scales")
JUDGED_AT = 200_000  # episodes; the defaults fall from 2.44 to 1.49 by then
DROP = 0.3  # chips per hand below a seed's untrained exploitability
SEEDS = (0, 2, 4)
DEFAULTS = os.path.join(figure_runs.HERE, "data", "nfsp_fig1_seeds",
                        "hidden_64", "curve.csv")
# Population column groups (`--sweep`'s names) -> legend labels.
SCALES = {"reward_scale=1": "LHE recipe, rewards in chips (scale 1), seed 0",
          "reward_scale=0.00208333":
              "LHE recipe, rewards / 480 (LHE's value), seed 0"}


def _nearest(rows, x, column):
  """`column` at the row whose step is nearest `x` (rows having it)."""
  return min((r for r in rows if column in r),
             key=lambda r: abs(r["step"] - x))[column]


def verdict(rule, defaults):
  """The rule above, on the recipe's and the defaults' curve rows."""
  columns = [f"exploitability/seed{s}" for s in SEEDS]
  shared = [r for r in rule if all(c in r for c in columns)]
  x = max(r["step"] for r in shared)
  if x < JUDGED_AT:
    return f"too short: the seeds share {x:,.0f} episodes of {JUDGED_AT:,}"
  last = next(r for r in shared if r["step"] == x)
  dropped = all(last[c] <= shared[0][c] - DROP for c in columns)
  mean = sum(last[c] for c in columns) / len(columns)
  halfway = sum(_nearest(shared, x / 2, c) for c in columns) / len(columns)
  if not (dropped and mean < halfway):
    return (f"does not learn on Leduc by {x:,.0f} episodes: mean "
            f"{mean:.3f} (at {x / 2:,.0f}: {halfway:.3f}); seeds "
            + ", ".join(f"{last[c]:.3f} (from {shared[0][c]:.3f})"
                        for c in columns))
  high = _nearest(defaults, x, "exploitability/high")
  pace = ("as fast as" if mean <= high else "slower than")
  return (f"learns on Leduc, {pace} the defaults: mean {mean:.3f} at "
          f"{x:,.0f} episodes (defaults' band up to {high:.3f} there; "
          f"{halfway:.3f} at half that x)")


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--runs", default=os.path.join(
      nfsp_runs.ROOT, "runs", "lhe_recipe_leduc"))
  args = parser.parse_args()
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  data = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_recipe_leduc")
  for run in RUNS:
    figure_runs.copy_further(os.path.join(args.runs, run),
                             os.path.join(data, run))
  rule = curves.read_curve(os.path.join(data, "rule", "curve.csv"))
  scales = curves.read_curve(os.path.join(data, "scales", "curve.csv"))
  last = max(row["step"] for row in rule)
  defaults = [row for row in curves.read_curve(DEFAULTS)
              if row["step"] <= 1.05 * last]
  figure, (top, bottom) = figure_style.gap_panels()
  # NFSP's colour for the defaults; the recipe's variants in their own.
  colours = {"rule": "#d95f02", "defaults": figure_style.COLOURS["NFSP"],
             "reward_scale=1": "#e7298a",
             "reward_scale=0.00208333": "#66a61e"}
  figure_runs.draw_population_band(
      top, defaults, "exploitability", colours["defaults"],
      "Leduc defaults ([64], sec. 4.1), 3 seeds")
  figure_runs.draw_population_band(
      top, rule, "exploitability", colours["rule"],
      "LHE recipe (sec. 4.3), rewards / 26 (the rule), 3 seeds")
  figure_runs.draw_population_seeds(top, rule, "exploitability", SEEDS,
                                    colours["rule"])
  for group, label in SCALES.items():
    column = f"exploitability/{group},seed0"
    points = [(r["step"], r[column]) for r in scales if column in r]
    if points:
      top.plot(*zip(*points), color=colours[group], label=label,
               linewidth=1.2)
  for player, style in ((0, "-"), (1, "--")):
    for rows, group, colour in (
        (rule, "", colours["rule"]),
        *((scales, f"{g},", colours[g]) for g in SCALES)):
      seeds = SEEDS if rows is rule else (0,)
      steps, gaps = figure_runs.mean_of_columns(
          rows, [f"br_gap_{player}/{group}seed{s}" for s in seeds])
      if steps:
        bottom.plot(steps, gaps, color=colour, linestyle=style,
                    marker="o", markersize=2)
  bottom.plot([], [], color="black", label="player 0")
  bottom.plot([], [], color="black", linestyle="--", label="player 1")
  figure_style.finish_gap_panels(
      top, bottom, figure_style.EXPLOITABILITY,
      "NFSPConfig.lhe()'s learning settings on Leduc")
  figure_style.save(figure, os.path.join(figure_runs.HERE,
                                         "fig_nfsp_lhe_recipe_leduc.png"))
  print(f"the recipe's three seeds to {last:,.0f} episodes")
  print("verdict: " + verdict(rule, curves.read_curve(DEFAULTS)))


if __name__ == "__main__":
  main()
