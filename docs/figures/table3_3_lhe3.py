"""Thesis table 3.3's self-play rows: Smooth UCT and UCT in three-player
Limit Hold'em.

The thesis searched 10 days each (about 5 x 10^10 episodes) and played the
greedy profiles against pairs of 2014 ACPC agents (not available) and against
two copies of each other: Smooth UCT +7.51 +- 1 mbb/h against 2x UCT, UCT
-8.16 +- 1 against 2x Smooth UCT. Here both searches (`smooth_uct.lhe3`,
`SmoothUCTConfig.lhe3()` / `uct_lhe3()`) train through
`examples/smooth_uct.py --game nfsp_lhe3` to `--episodes` (resumable: the same
command carries the checkpoints on), and `evaluate` plays each greedy
profile against two copies of the other and of the fixed baselines
(`evaluation.three_player_match`: every seat, the same cards), in mbb/h with
standard errors:

  python docs/figures/table3_3_lhe3.py train --episodes 1e9 --threads 1
  python docs/figures/table3_3_lhe3.py evaluate --deals 400000

The matches are batched (`evaluation.batched_three_player`: 400,000 deals,
1.2M hands, in about half a minute each), so their standard errors are about
2 mbb/h. The table goes to `data/table3_3_lhe3/matches.csv`.
"""

import os
import subprocess
import sys

import pyspiel

import figure_runs  # docs/figures/figure_runs.py

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import smooth_uct
from nfsp_spiel.smooth_uct import lhe3

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PRESETS = {"lhe3": ("Smooth UCT", smooth_uct.SmoothUCTConfig.lhe3()),
           "uct_lhe3": ("UCT", smooth_uct.SmoothUCTConfig.uct_lhe3())}


def train(args):
  """Each search to --episodes, resuming its checkpoint."""
  for preset in PRESETS:
    command = [sys.executable, os.path.join(ROOT, "examples", "smooth_uct.py"),
               "--game", "nfsp_lhe3", "--preset", preset,
               "--seed", str(args.seed), "--episodes", args.episodes,
               "--eval_every", "1e8", "--eval_deals", "2000",
               "--output_dir", os.path.join(args.runs, preset)]
    if args.threads:
      command += ["--threads", str(args.threads)]
    subprocess.run(command, check=True)


def evaluate(args):
  """Every greedy profile against two copies of every other player."""
  game = pyspiel.load_game("nfsp_lhe3")
  players, episodes = {}, {}
  for preset, (label, config) in PRESETS.items():
    search = lhe3.SmoothUCTLHE3.restore(
        game, os.path.join(args.runs, preset, "checkpoint.npz"), config,
        args.seed, threads=1)
    players[label], episodes[label] = search.greedy_policy(), search.episodes
    del search
  opponents = {**players,
               "always-call": evaluation.baselines.AlwaysCall(game),
               "always-raise": evaluation.baselines.AlwaysRaise(game)}
  rows = []
  for label, policy in players.items():
    for name, opponent in opponents.items():
      if name == label:
        continue
      result = evaluation.three_player_match(game, policy, opponent,
                                             num_deals=args.deals,
                                             seed=args.seed)
      rows.append(figure_runs.match_row(
          result, player=label, opponents=f"2x {name}",
          episodes=episodes[label], deals=result.num_deals))
  figure_runs.write_rows("table3_3_lhe3", rows)


def main():
  figure_runs.train_evaluate_main(__doc__, train, evaluate, "1e9",
                                  "table3_3_lhe3", deals=400_000)


if __name__ == "__main__":
  main()
