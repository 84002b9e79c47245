"""Thesis fig. 3.5's analogue: Smooth UCT and UCT learning Limit Hold'em.

The thesis trained both for 14 days (about 62 billion episodes each) in the
E[HS^2] abstraction and played their greedy profiles' snapshots against
SmooCT (ACPC 2014's runner-up, not available) and against each other; UCT
led for under 72 hours (about 1.3e10 episodes at its rate), then Smooth UCT.
Here each search (`nfsp_spiel.smooth_uct.lhe`, thesis parameters
`SmoothUCTConfig.lhe()` / `uct_lhe()`) trains through
`examples/smooth_uct.py` to each of `--episodes`' decades in turn, both
searches to one decade before either goes on to the next, writing its greedy
profile there (0.3 MB). The runs resume from their checkpoints (under
`--runs`, outside git, with a curve against the fixed baselines every 10^9
episodes), so the same command carries them on, session after session.
`evaluate` then plays, per decade both reached, Smooth UCT's greedy profile
against UCT's and each against the fixed baselines (always-call,
always-raise, equity-threshold), in mbb/h with duplicate deals and standard
errors:

  python docs/figures/fig3_5_lhe_smooth_uct.py train --threads 1 &
  python docs/figures/fig3_5_lhe_smooth_uct.py evaluate --deals 50000
  python docs/figures/fig3_5_lhe_smooth_uct.py plot   # from matches.csv

The match table goes to `data/fig3_5_lhe/matches.csv`, the plot to
`fig3_5_lhe.png`.
"""

import csv
import json
import os
import subprocess
import sys

import matplotlib
import numpy as np
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
import pyspiel

import figure_runs  # docs/figures/figure_runs.py
import figure_style

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.smooth_uct import lhe
from nfsp_spiel.poker import board_buckets

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LABELS = {"lhe": "Smooth UCT", "uct_lhe": "UCT"}


def _decades(text):
  return sorted(int(float(x)) for x in text.split(","))


def _profile(runs, preset, episodes):
  return os.path.join(runs, preset, f"greedy_{episodes}.npz")


def train(args):
  """Both searches to each decade in turn (resuming their checkpoints)."""
  for episodes in _decades(args.episodes):
    for preset in LABELS:
      command = [sys.executable, os.path.join(ROOT, "examples",
                                              "smooth_uct.py"),
                 "--game", "nfsp_lhe", "--preset", preset,
                 "--seed", str(args.seed), "--episodes", str(episodes),
                 "--eval_every", "1e9", "--eval_deals", "500",
                 "--output_dir", os.path.join(args.runs, preset),
                 "--greedy_profile", _profile(args.runs, preset, episodes)]
      if args.threads:
        command += ["--threads", str(args.threads)]
      subprocess.run(command, check=True)
      # A search stopped early (a signal) still writes its profile, named
      # for the decade it did not reach: remove it (`evaluate` would skip
      # it), and stop here.
      reached = _profile_episodes(_profile(args.runs, preset, episodes))
      if reached != episodes:
        os.remove(_profile(args.runs, preset, episodes))
        print(f"{LABELS[preset]} stopped at {reached} episodes, before "
              f"{episodes}: the same command resumes it")
        return


def _profile_episodes(path):
  """The episodes a saved greedy profile's search had made."""
  with np.load(path) as data:
    return int(json.loads(str(data["settings"]))["episodes"])


def evaluate(args):
  """Matches of the snapshots both searches have; the CSV and the plot."""
  game = pyspiel.load_game("nfsp_lhe")
  baselines = {"always-call": evaluation.baselines.AlwaysCall(game),
               "always-raise": evaluation.baselines.AlwaysRaise(game),
               "equity-threshold": evaluation.baselines.EquityThreshold(game)}
  tables = board_buckets.tables()
  rows = []
  for episodes in _decades(args.episodes):
    paths = {p: _profile(args.runs, p, episodes) for p in LABELS}
    # A profile counts for its decade only if its search got there (one
    # saved by a stopped search carries fewer episodes than its name).
    if not all(os.path.exists(path) and _profile_episodes(path) == episodes
               for path in paths.values()):
      continue
    greedy = {p: lhe.GreedyProfile.load(game, path, tables)
              for p, path in paths.items()}
    # A run stopped before its decade (Ctrl-C, --seconds) still writes its
    # profile there; it holds the episodes it reached, not the decade's.
    short = {p: g.settings["episodes"] for p, g in greedy.items()
             if g.settings["episodes"] != episodes}
    if short:
      kept = [r for r in _measured_rows() if r["episodes"] == episodes]
      print(f"{episodes:.2g} episodes: the profiles of {short} are not "
            f"this decade's; its {len(kept)} rows measured earlier are kept")
      rows += kept
      continue
    matches = [("Smooth UCT", "UCT", greedy["lhe"], greedy["uct_lhe"])] + [
        (LABELS[p], name, greedy[p], baseline)
        for p in LABELS for name, baseline in baselines.items()]
    for player, opponent, first, second in matches:
      result = evaluation.head_to_head(game, first, second,
                                       num_deals=args.deals, seed=args.seed)
      rows.append(figure_runs.match_row(
          result, episodes=episodes, player=player, opponent=opponent,
          deals=result.num_deals))
  figure_runs.write_rows("fig3_5_lhe", rows)
  _plot(rows)


def _measured_rows():
  """The rows of the committed matches.csv (empty where there is none):
  a decade whose snapshot files were later replaced keeps its results."""
  path = os.path.join(HERE, "data", "fig3_5_lhe", "matches.csv")
  if not os.path.exists(path):
    return []
  with open(path, encoding="utf-8") as f:
    return [{**row, "episodes": int(row["episodes"]),
             "mbb_per_hand": float(row["mbb_per_hand"]),
             "mbb_stderr": float(row["mbb_stderr"])}
            for row in csv.DictReader(f)]


def _thesis_head_to_head(axes):
  """Table 3.2's head-to-head result, after the thesis' 14 days, as a star
  in Smooth UCT's colour: where the right panel's points are headed."""
  paper = figure_style.paper("thesis-table3.2")
  figure_style.reference_point(
      axes, paper["episodes"], paper["h2h"],
      f"thesis table 3.2: {paper['h2h']:+} mbb/h after {paper['days']} days "
      f"(about {figure_style.sci(paper['episodes'])} episodes)",
      figure_style.colour("Smooth UCT"))


def _plot(rows):
  """Left: each search against the fixed baselines; right: the
  head-to-head match the thesis' crossover is about, on its own scale.
  A search's colour is its method's, an opponent's its marker."""
  paper = figure_style.paper("thesis-fig3.5")
  fig, (ax, h2h) = plt.subplots(1, 2, figsize=(11, 4.5))
  pairs = sorted({(r["player"], r["opponent"]) for r in rows})
  opponents = sorted({opponent for _, opponent in pairs})
  for player, opponent in pairs:
    points = [r for r in rows if (r["player"], r["opponent"]) == (player,
                                                                  opponent)]
    axis = h2h if opponent == "UCT" else ax
    axis.errorbar([r["episodes"] for r in points],
                  [r["mbb_per_hand"] for r in points],
                  yerr=[r["mbb_stderr"] for r in points],
                  marker="os^D"[opponents.index(opponent)], capsize=3,
                  color=figure_style.colour(player),
                  label=f"{player} vs {opponent}")
  for axis in (ax, h2h):
    axis.axhline(0.0, color="grey", linewidth=0.8)
    axis.set_xscale("log")
    axis.axvline(paper["crossover"], color=figure_style.REFERENCE,
                 linestyle=":", linewidth=1,
                 label=f"thesis: crossover at about "
                 f"{figure_style.sci(paper['crossover'])} episodes "
                 f"({paper['hours']} hours)")
    axis.set_xlabel("episodes per search")
    axis.grid(True, which="both", alpha=0.3)
  ax.set_ylabel("winnings of the greedy profile (mbb/h)\nbars: \u00b11 "
                "standard error over duplicate deals")
  _thesis_head_to_head(h2h)
  h2h.set_ylabel("winnings against UCT (mbb/h)")
  ax.set_title("against the fixed baselines")
  h2h.set_title("Smooth UCT vs UCT (thesis: UCT slightly ahead before\n"
                "the crossover, Smooth UCT after)", fontsize=9)
  figure_style.legend_outside(ax, below=True, ncol=2)
  figure_style.legend_outside(h2h)
  fig.suptitle("Limit Hold'em, E[HS\u00b2] abstraction (thesis fig. 3.5)")
  fig.tight_layout()
  figure_style.save(fig, os.path.join(HERE, "fig3_5_lhe.png"))


def main():
  figure_runs.train_evaluate_main(
      __doc__, train, evaluate, "1e7,1e8,1e9,1e10,1.3e10", "fig3_5_lhe",
      deals=50_000, plot=lambda args: _plot(_measured_rows()))


if __name__ == "__main__":
  main()
