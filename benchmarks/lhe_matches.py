"""Limit Hold'em matches against the SmooCT-like profile: batched against one
deal at a time, in one run.

The NFSP paper evaluated each snapshot with 25,000 hands against SmooCT. Rows:
the NFSP paper's average network (`NFSPConfig.lhe()`, 1024-512-1024-512,
untrained: the cost does not depend on the weights), the fixed baselines and
the equity-threshold player, each against the shipped SmooCT-like greedy
profile (`smooth_uct.lhe.shipped_profile`), with `matches.head_to_head`
batched (`evaluation.batched_matches`: every deal at once) and one deal at a
time (OpenSpiel states, one policy call per decision) on `--one_by_one_deals`
deals, extrapolated. A duplicate deal is two hands.

  python benchmarks/lhe_matches.py --deals 12500 --one_by_one_deals 100
"""

import time

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel.smooth_uct import lhe
from nfsp_spiel.evaluation import baselines

FLAGS = flags.FLAGS
flags.DEFINE_integer("deals", 12_500, "Duplicate deals per batched match "
                     "(12,500: the paper's 25,000 hands).")
flags.DEFINE_integer("one_by_one_deals", 100,
                     "Duplicate deals per one-by-one match (extrapolated).")
flags.DEFINE_list("players", ["network", "always_call", "equity_threshold"],
                  "Which players meet the profile.")


def _seconds(game, player, profile, deals, batched):
  started = time.perf_counter()
  result = evaluation.head_to_head(game, player, profile, num_deals=deals,
                                   seed=0, batched=batched, progress=False)
  return time.perf_counter() - started, result


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_lhe")
  profile = lhe.shipped_profile(game)
  config = nfsp.NFSPConfig.lhe(replay_buffer_capacity=1000,
                               reservoir_buffer_capacity=1000)
  players = {
      "network": lambda: nfsp.NFSPPolicy(game, nfsp.agents_for(game, config)),
      "always_call": lambda: baselines.AlwaysCall(game),
      "equity_threshold": lambda: baselines.EquityThreshold(game)}
  _seconds(game, baselines.AlwaysCall(game), profile, 10, True)  # compile
  print(f"| player vs SmooCT-like profile | batched: {2 * FLAGS.deals:,} hands"
        " (s) | mbb/h | one by one: s per 25,000 hands (from "
        f"{2 * FLAGS.one_by_one_deals} hands) | speed-up |")
  print("| --- | ---: | ---: | ---: | ---: |")
  for name in FLAGS.players:
    player = players[name]()
    # One by one first: the equity player's cache then favours the batched
    # row only by the few deals both played.
    slow, _ = _seconds(game, player, profile, FLAGS.one_by_one_deals, False)
    slow *= 12_500 / FLAGS.one_by_one_deals
    fast, result = _seconds(game, player, profile, FLAGS.deals, True)
    fast_25k = fast * 12_500 / FLAGS.deals
    print(f"| {name} | {fast:.1f} | {result.mbb_per_hand:+.0f} +- "
          f"{result.mbb_stderr:.0f} | {slow:.0f} | {slow / fast_25k:.0f}x |",
          flush=True)


if __name__ == "__main__":
  app.run(main)
