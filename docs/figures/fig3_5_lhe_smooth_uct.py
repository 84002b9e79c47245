"""Thesis fig. 3.5's analogue: Smooth UCT and UCT learning Limit Hold'em.

The thesis trained both for 14 days (about 62 billion episodes each) in the
E[HS^2] abstraction and played their greedy profiles' snapshots against
SmooCT (ACPC 2014's runner-up, not available) and against each other; UCT
led for under 72 hours, then Smooth UCT. Here each search
(`nfsp_spiel.smooth_uct_lhe`, thesis parameters `SmoothUCTConfig.lhe()` /
`uct_lhe()`) trains on one core (run both at once, one per core), saving snapshots at
`--snapshots` minutes of training (the last ends the run); `evaluate` then plays, per
snapshot time, Smooth UCT's greedy profile against UCT's and each against
the fixed baselines (always-call, always-raise, equity-threshold), in mbb/h
with duplicate deals and standard errors:

  python docs/figures/fig3_5_lhe_smooth_uct.py train --preset lhe &
  python docs/figures/fig3_5_lhe_smooth_uct.py train --preset uct_lhe &
  wait
  python docs/figures/fig3_5_lhe_smooth_uct.py evaluate --deals 2000

The committed figure: `--snapshots 1,2,5,10,20` for both commands and
`evaluate --deals 1000 --snapshots 1,2,5,10,20`.

Snapshots go to `--runs` (outside git: 85 MB each); the match table to
`data/fig3_5_lhe/matches.csv`, the plot to `fig3_5_lhe.png`.
"""

import argparse
import csv
import os
import time

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import smooth_uct
from nfsp_spiel import smooth_uct_lhe

HERE = os.path.dirname(os.path.abspath(__file__))
PRESETS = {"lhe": smooth_uct.SmoothUCTConfig.lhe(),
           "uct_lhe": smooth_uct.SmoothUCTConfig.uct_lhe()}
LABELS = {"lhe": "Smooth UCT", "uct_lhe": "UCT"}
_CHUNK = 2_000_000  # episodes between clock checks


def _snapshot(runs, preset, minutes):
  return os.path.join(runs, f"{preset}_{minutes:g}min.npz")


def train(args):
  """One search, snapshots at the given training minutes."""
  game = pyspiel.load_game("nfsp_lhe")
  search = smooth_uct_lhe.SmoothUCTLHE(game, PRESETS[args.preset], args.seed)
  os.makedirs(args.runs, exist_ok=True)
  training = 0.0
  for minutes in sorted(float(m) for m in args.snapshots.split(",")):
    while training < 60 * minutes:
      started = time.perf_counter()
      search.run(_CHUNK)
      training += time.perf_counter() - started
    search.save(_snapshot(args.runs, args.preset, minutes),
                {"step": search.episodes, "training_seconds": training})
    print(f"{LABELS[args.preset]}: {minutes:g} min, {search.episodes:,} "
          f"episodes ({search.episodes / training:,.0f}/s), "
          f"{search.expanded.sum():,} information states", flush=True)


def evaluate(args):
  """Matches of the snapshots both searches have; the CSV and the plot."""
  game = pyspiel.load_game("nfsp_lhe")
  baselines = {"always-call": evaluation.baselines.AlwaysCall(game),
               "always-raise": evaluation.baselines.AlwaysRaise(game),
               "equity-threshold": evaluation.baselines.EquityThreshold(game)}
  rows = []
  for minutes in sorted(float(m) for m in args.snapshots.split(",")):
    paths = {p: _snapshot(args.runs, p, minutes) for p in PRESETS}
    if not all(os.path.exists(path) for path in paths.values()):
      continue
    greedy, episodes = {}, {}
    for preset, path in paths.items():
      search = smooth_uct_lhe.SmoothUCTLHE.restore(
          game, path, PRESETS[preset], args.seed)
      greedy[preset], episodes[preset] = search.greedy_policy(), search.episodes
    matches = [("Smooth UCT", "UCT", greedy["lhe"], greedy["uct_lhe"])] + [
        (LABELS[p], name, greedy[p], baseline)
        for p in PRESETS for name, baseline in baselines.items()]
    for player, opponent, first, second in matches:
      result = evaluation.head_to_head(game, first, second,
                                       num_deals=args.deals, seed=args.seed)
      rows.append({"minutes": minutes, "player": player,
                   "opponent": opponent,
                   "episodes": episodes["lhe" if player == "Smooth UCT"
                                        else "uct_lhe"],
                   "mbb_per_hand": round(result.mbb_per_hand, 2),
                   "mbb_stderr": round(result.mbb_stderr, 2)})
      print(rows[-1], flush=True)
  out = os.path.join(HERE, "data", "fig3_5_lhe")
  os.makedirs(out, exist_ok=True)
  with open(os.path.join(out, "matches.csv"), "w", newline="") as f:
    writer = csv.DictWriter(f, list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
  _plot(rows)


def _plot(rows):
  fig, ax = plt.subplots(figsize=(7, 4.5))
  pairs = sorted({(r["player"], r["opponent"]) for r in rows})
  for player, opponent in pairs:
    points = [r for r in rows if (r["player"], r["opponent"]) == (player,
                                                                  opponent)]
    ax.errorbar([r["minutes"] for r in points],
                [r["mbb_per_hand"] for r in points],
                yerr=[r["mbb_stderr"] for r in points], marker="o",
                capsize=3, label=f"{player} vs {opponent}",
                linestyle="-" if player == "Smooth UCT" else "--")
  ax.axhline(0.0, color="grey", linewidth=0.8)
  ax.set_xscale("log")
  ax.set_xlabel("training minutes (one core each)")
  ax.set_ylabel("mbb/h (greedy profile, duplicate deals)")
  ax.set_title("Limit Hold'em, E[HS^2] abstraction (thesis fig. 3.5)")
  ax.legend(fontsize=7)
  fig.tight_layout()
  fig.savefig(os.path.join(HERE, "fig3_5_lhe.png"), dpi=120)


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("command", choices=["train", "evaluate"])
  parser.add_argument("--preset", choices=list(PRESETS), default="lhe")
  parser.add_argument("--snapshots", default="1,2,4,8,15,30",
                      help="Training minutes of the snapshots.")
  parser.add_argument("--runs", default="runs/fig3_5_lhe")
  parser.add_argument("--deals", type=int, default=2000)
  parser.add_argument("--seed", type=int, default=0)
  args = parser.parse_args()
  if args.command == "train":
    train(args)
  else:
    evaluate(args)


if __name__ == "__main__":
  main()
