"""NFSP's Limit Hold'em learning call alone: milliseconds per learning call
of one agent (2 updates of the Q-network and 2 of the average network on
256 rows, `NFSPConfig.lhe()`), the call made for both agents `--groups`
calls at a time, as `fused_learning.FusedLearning` makes it, after the
memories hold enough to learn; and the GFLOP/s that is (13.4 GFLOP a
call: BUILD_NOTES, "Mixed precision") and the game steps/s the call
alone would allow (one call per 128 of an agent's steps). Run it on one
core to compare with `matrix_products.py --threads 1`:

  TF_NUM_INTRAOP_THREADS=1 TF_NUM_INTEROP_THREADS=1 taskset -c 1 \\
      python benchmarks/lhe_learning_call.py --precisions float32,bfloat16
"""

import time

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import fused_learning
from nfsp_spiel.nfsp import selfplay

FLAGS = flags.FLAGS
flags.DEFINE_list("precisions", ["float32", "bfloat16"], "Precisions.")
flags.DEFINE_list("groups", ["1", "2", "8"], "Calls per agent per call.")
flags.DEFINE_float("seconds", 8.0, "Timed seconds per cell.")

GFLOP_PER_CALL = 13.4  # 7F x 256 rows x 2 updates, F = 1.87M multiply-adds


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_lhe")
  print("| precision | calls per agent per compiled call | ms per agent's "
        "call | GFLOP/s | game steps/s the calls alone allow |")
  print("| --- | ---: | ---: | ---: | ---: |")
  for precision in FLAGS.precisions:
    agents = nfsp.agents_for(game, nfsp.NFSPConfig.lhe(precision=precision),
                             seed=0)
    selfplay.SelfPlay(game, agents, num_games=128, seed=0,
                      learn=False).play(2000)  # both memories past 1,000
    learning = fused_learning.FusedLearning()
    for group in (int(g) for g in FLAGS.groups):
      calls = [group] * len(agents)
      for _ in range(2):  # compiled, warm
        learning.learn(agents, calls)
      made, started = 0, time.perf_counter()
      while time.perf_counter() - started < FLAGS.seconds:
        learning.learn(agents, calls)
        made += sum(calls)
      seconds = (time.perf_counter() - started) / made
      print(f"| {precision} | {group} | {seconds * 1e3:.1f} | "
            f"{GFLOP_PER_CALL / seconds:.0f} | {128 / seconds:,.0f} |",
            flush=True)


if __name__ == "__main__":
  app.run(main)
