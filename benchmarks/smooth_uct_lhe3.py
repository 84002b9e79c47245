"""Smooth UCT's simulation rate on three-player Limit Hold'em
(`smooth_uct.lhe3`), per thread count, against the thesis' three-player rate
(sec. 3.5.3: UCT 50.9 x 10^9 episodes in 10 days on one thread, about 59,000
episodes/s), with the process's peak resident memory (the thesis: under 3.6
GB) and the rows its state table has filled.

  python benchmarks/smooth_uct_lhe3.py --episodes 20000000 --threads 1,2
"""

import resource
import time

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import smooth_uct
from nfsp_spiel.smooth_uct import lhe3

FLAGS = flags.FLAGS
flags.DEFINE_integer("episodes", 20_000_000, "Episodes per search.")
flags.DEFINE_integer("capacity", 2**25, "Rows of the state table.")
flags.DEFINE_list("threads", ["1", str(smooth_uct.all_cores())],
                  "Thread counts to run the search with.")

THESIS_RATE = 50.9e9 / (10 * 86400)  # UCT's episodes/s, three players
_CHUNK = 5_000_000


def _rss_gb():
  return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_lhe3")
  rows = []
  for threads in (int(t) for t in FLAGS.threads):
    search = lhe3.SmoothUCTLHE3(game, seed=0, threads=threads,
                                capacity=FLAGS.capacity)
    search.run(1000)
    total = 0.0
    for done in range(_CHUNK, FLAGS.episodes + 1, _CHUNK):
      started = time.perf_counter()
      search.run(_CHUNK)
      total += time.perf_counter() - started
      print(f"{threads} threads: {done:,} episodes, {done / total:,.0f} "
            f"episodes/s so far, {search.filled:,} rows filled, peak RSS "
            f"{_rss_gb():.2f} GB", flush=True)
    rows.append((threads, FLAGS.episodes / total, search.filled))
    del search
  print(f"\nThree-player Limit Hold'em, Smooth UCT, {FLAGS.episodes:,} "
        f"episodes, a table of {FLAGS.capacity:,} rows; peak RSS "
        f"{_rss_gb():.2f} GB\n")
  print("| threads | episodes/s | vs thesis (59,000/s) | rows filled |")
  print("| ---: | ---: | ---: | ---: |")
  for threads, rate, filled in rows:
    print(f"| {threads} | {rate:,.0f} | {rate / THESIS_RATE:.1f}x | "
          f"{filled:,} |")


if __name__ == "__main__":
  app.run(main)
