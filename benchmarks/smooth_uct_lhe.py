"""Smooth UCT's simulation rate on Limit Hold'em (`smooth_uct.lhe`) on one
thread and on every core, against OpenSpiel's C++ IS-MCTS on the same game in
the same run, and the thesis' rate (sec. 3.5.3: 62.1 and 61.7 billion episodes
in 14 days on one thread, about 51,000 episodes/s).

Our searches run `--episodes` episodes each in chunks of 10^7, printing the
rate of each chunk (the rate changes as the trees grow deeper) and the
process's resident memory; the tables are allocated up front, so memory does
not grow with episodes. Each search runs once per `--threads` entry (threads
sharing its tables, lock-free): the table gives the rate, its ratio to one
thread's, and the updates lost to two threads writing one row at once
(sum |N(u) - sum_a N(u, a)| / sum N(u): each lost update leaves N(u) and
N(u, a) apart, BUILD_NOTES.md). OpenSpiel's `ISMCTSBot` (C++, one random rollout per
simulation, no abstraction) searches from the root of `universal_poker`'s
Limit Hold'em for `--seconds`.

  python benchmarks/smooth_uct_lhe.py --episodes 100000000 --threads 1,2
"""

import resource
import time

from absl import app
from absl import flags
import numpy as np
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import smooth_uct
from nfsp_spiel.smooth_uct import lhe
from nfsp_spiel.games import nfsp_lhe

FLAGS = flags.FLAGS
flags.DEFINE_integer("episodes", 100_000_000, "Episodes per search.")
flags.DEFINE_float("seconds", 20.0, "Seconds of OpenSpiel's IS-MCTS.")
flags.DEFINE_list("threads", ["1", str(smooth_uct.all_cores())],
                  "Thread counts to run each search with.")
flags.DEFINE_list("searches", ["smooth_uct", "uct"],
                  "Searches to run: smooth_uct (SmoothUCTConfig.lhe()) and/or "
                  "uct (SmoothUCTConfig.uct_lhe()).")

THESIS_RATE = 61.7e9 / (14 * 86400)  # Smooth UCT's episodes/s (sec. 3.5.3)
_CHUNK = 10_000_000


def _rss_gb():
  return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def ours(game, name, config, threads):
  """Episodes/s over the whole run, after compiling the kernel, and the
  share of updates lost to collisions."""
  search = lhe.SmoothUCTLHE(game, config, seed=0, threads=threads)
  search.run(1000)
  total = 0.0
  for done in range(_CHUNK, FLAGS.episodes + 1, _CHUNK):
    started = time.perf_counter()
    search.run(_CHUNK)
    seconds = time.perf_counter() - started
    total += seconds
    print(f"{name}, {threads} threads: {done:,} episodes, "
          f"{_CHUNK / seconds:,.0f} episodes/s "
          f"in this chunk, {search.expanded.sum():,} information states in "
          f"the trees, peak RSS {_rss_gb():.2f} GB", flush=True)
  lost = np.abs(search.counts - search.action_counts.sum(axis=1)).sum()
  return FLAGS.episodes / total, lost / search.counts.sum()


def openspiel_ismcts():
  """Simulations/s of OpenSpiel's C++ IS-MCTS from LHE's first decision."""
  game = pyspiel.load_game(nfsp_lhe.UNIVERSAL_POKER_LHE)
  evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
  simulations = 1000
  bot = pyspiel.ISMCTSBot(0, evaluator, 2.0, simulations, -1,
                          pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
                          False, False)
  rng = np.random.default_rng(0)
  started, done = time.perf_counter(), 0
  while time.perf_counter() - started < FLAGS.seconds:
    state = game.new_initial_state()
    while state.is_chance_node():
      state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    bot.step(state)
    done += simulations
  return done / (time.perf_counter() - started)


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_lhe")
  threads = [int(t) for t in FLAGS.threads]
  searches = {"smooth_uct": ("Smooth UCT", smooth_uct.SmoothUCTConfig.lhe()),
              "uct": ("UCT", smooth_uct.SmoothUCTConfig.uct_lhe())}
  unknown = sorted(set(FLAGS.searches) - set(searches))
  if unknown:
    raise app.UsageError(f"--searches: {unknown} are not searches; allowed: "
                         f"{sorted(searches)}")
  rows = {(name, t): ours(game, name, config, t)
          for name, config in (searches[s] for s in FLAGS.searches)
          for t in threads}
  peer = openspiel_ismcts()
  print(f"\nLimit Hold'em, {FLAGS.episodes:,} episodes per search on "
        f"{smooth_uct.all_cores()} cores; peak RSS {_rss_gb():.2f} GB\n")
  print("| search | threads | episodes/s | vs one thread | updates lost | "
        "vs thesis (51,000/s) | vs OpenSpiel C++ IS-MCTS (one thread) |")
  print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
  for (name, t), (rate, lost) in rows.items():
    single = rows.get((name, 1), (float("nan"), 0))[0]
    print(f"| {name} | {t} | {rate:,.0f} | {rate / single:.2f}x | "
          f"{lost:.2e} | {rate / THESIS_RATE:.1f}x | {rate / peer:,.0f}x |")
  print(f"| OpenSpiel C++ ISMCTSBot (universal_poker, unabstracted) | 1 | "
        f"{peer:,.0f} | | | {peer / THESIS_RATE:.3f}x | 1x |")


if __name__ == "__main__":
  app.run(main)
