"""Three-player Limit Hold'em matches (thesis table 3.3's "2x" rows): batched
against one deal at a time, in one run.

Two searches (Smooth UCT and UCT, `SmoothUCTConfig.lhe3()` / `uct_lhe3()`,
seed 0, `--search_episodes` each on one thread: the profiles' size, not their
quality, sets the cost) make greedy profiles; each row plays one against two
copies of the other, or of always-call, with `three_player_match` batched
(`evaluation.batched_three_player`) on `--deals` deals and one by one
(OpenSpiel states, one policy call per decision) on `--one_by_one_deals`,
extrapolated. A deal is three hands (the player in each seat).

  python benchmarks/lhe3_matches.py --deals 100000 --one_by_one_deals 200
"""

import time

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import smooth_uct
from nfsp_spiel.smooth_uct import lhe3

FLAGS = flags.FLAGS
flags.DEFINE_integer("deals", 100_000, "Deals per batched match.")
flags.DEFINE_integer("one_by_one_deals", 200,
                     "Deals per one-by-one match (extrapolated).")
flags.DEFINE_float("search_episodes", 1e7, "Episodes of each search.")


def _seconds(game, player, opponent, deals, batched):
  started = time.perf_counter()
  result = evaluation.three_player_match(game, player, opponent,
                                         num_deals=deals, seed=0,
                                         batched=batched, progress=False)
  return time.perf_counter() - started, result


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_lhe3")
  profiles = {}
  for label, config in (("Smooth UCT", smooth_uct.SmoothUCTConfig.lhe3()),
                        ("UCT", smooth_uct.SmoothUCTConfig.uct_lhe3())):
    search = lhe3.SmoothUCTLHE3(game, config, seed=0, threads=1)
    search.run(int(FLAGS.search_episodes))
    profiles[label] = search.greedy_policy()
    print(f"# {label}: {int(FLAGS.search_episodes):,} episodes, "
          f"{len(profiles[label].keys):,} states in its profile", flush=True)
    del search
  call = evaluation.baselines.AlwaysCall(game)
  _seconds(game, call, call, 10, True)  # compile
  print(f"| match | batched: {FLAGS.deals:,} deals (s) | mbb/h | one by one: "
        f"s per {FLAGS.deals:,} deals (from {FLAGS.one_by_one_deals}) | "
        "speed-up |")
  print("| --- | ---: | ---: | ---: | ---: |")
  rows = (("Smooth UCT vs 2x UCT", profiles["Smooth UCT"], profiles["UCT"]),
          ("Smooth UCT vs 2x always-call", profiles["Smooth UCT"], call))
  for name, player, opponent in rows:
    slow, _ = _seconds(game, player, opponent, FLAGS.one_by_one_deals, False)
    slow *= FLAGS.deals / FLAGS.one_by_one_deals
    fast, result = _seconds(game, player, opponent, FLAGS.deals, True)
    print(f"| {name} | {fast:.1f} | {result.mbb_per_hand:+.1f} +- "
          f"{result.mbb_stderr:.1f} | {slow:.0f} | {slow / fast:.0f}x |",
          flush=True)


if __name__ == "__main__":
  app.run(main)
