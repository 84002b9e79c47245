"""NFSP on Limit Hold'em (`NFSPConfig.lhe()`): the batched driver learning
every lockstep against learning every G locksteps in groups
(`SelfPlay(learn_locksteps=G)`), in float32 and, where the machine has
bfloat16 units, in mixed precision (`--precisions float32,bfloat16`), side
by side in one process.

Each variant is its own run (same seed), warmed up past the 1000 records
learning waits for and past the compiles of its call shapes, then timed in
alternating windows, so that the machine's drift and the process' state
reach every variant alike. Game steps/s is the figure to compare (the
learning calls are per step; episode lengths change as the policies learn).
`--blas_threads 1,2` times each variant's windows under each limit of
numpy's BLAS threads (threadpoolctl) in turn: the acting's forward passes
are numpy products, the learning TensorFlow's. `--background false,true`
adds learning in a thread (`SelfPlay(background_learning=True)`; each
window ends by taking its last calls). TensorFlow's threads are set once
per process (`--tf_threads`: "auto", `core.hardware.set_learning_threads`
for the first precision, as `examples/nfsp.py` sets them; "default",
TensorFlow's; or "INTRA,INTER"), so compare them in separate runs.

  python benchmarks/lhe_learning_groups.py --groups 1,2,4,8 --windows 4
  python benchmarks/lhe_learning_groups.py --groups 8 --precisions float32,bfloat16
  python benchmarks/lhe_learning_groups.py --groups 8 --precisions bfloat16 \
      --background false,true --tf_threads 1,2
"""

import time

from absl import app
from absl import flags
import pyspiel
import threadpoolctl

import nfsp_spiel  # noqa: F401
from nfsp_spiel import nfsp
from nfsp_spiel.core import hardware
from nfsp_spiel.core.quiet_tensorflow import tf
from nfsp_spiel.nfsp import selfplay

FLAGS = flags.FLAGS
flags.DEFINE_list("groups", ["1", "8"], "learn_locksteps values.")
flags.DEFINE_list("precisions", ["float32"], "NFSPConfig.precision values.")
flags.DEFINE_integer("warmup_episodes", 3000, "Episodes before the warm-up "
                     "window.")
flags.DEFINE_float("warmup_seconds", 60, "Untimed seconds per variant after "
                   "the warm-up episodes (its call shapes compile there).")
flags.DEFINE_integer("windows", 4, "Timed windows per variant.")
flags.DEFINE_float("seconds", 20, "Seconds per timed window.")
flags.DEFINE_string("device", None, "TensorFlow device (None: TF's choice).")
flags.DEFINE_list("background", ["false"], "background_learning values.")
flags.DEFINE_string("tf_threads", "auto", "TensorFlow's intra-op and "
                    "inter-op threads: auto, default or INTRA,INTER.")
flags.DEFINE_list("blas_threads", ["1"], "Limits of numpy's BLAS threads, "
                  "each timed in turn on every variant (default: one, as "
                  "the drivers play; empty: numpy's default).")


class _Variant:

  def __init__(self, game, learn_locksteps, precision, background):
    config = nfsp.NFSPConfig.lhe(device=FLAGS.device, precision=precision)
    self.agents = nfsp.agents_for(game, config, seed=0)
    self.driver = selfplay.SelfPlay(game, self.agents, num_games=128, seed=0,
                                    learn_locksteps=learn_locksteps,
                                    background_learning=background)
    self.totals = {}  # BLAS limit -> [seconds, game steps, episodes]

  def window(self, seconds, timed=True, blas=None):
    started = time.perf_counter()
    steps, episodes = sum(a.steps for a in self.agents), self.driver.episodes
    with threadpoolctl.threadpool_limits(blas, user_api="blas"):
      while time.perf_counter() - started < seconds:
        self.driver.step()
      self.driver.play(0)  # background calls still running are taken
    if timed:
      totals = self.totals.setdefault(blas, [0.0, 0, 0])
      totals[0] += time.perf_counter() - started
      totals[1] += sum(a.steps for a in self.agents) - steps
      totals[2] += self.driver.episodes - episodes


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_lhe")
  if FLAGS.tf_threads == "auto":
    hardware.set_learning_threads(FLAGS.precisions[0], game.num_players())
  elif FLAGS.tf_threads != "default":
    threads = [int(n) for n in FLAGS.tf_threads.split(",")]
    tf.config.threading.set_intra_op_parallelism_threads(threads[0])
    tf.config.threading.set_inter_op_parallelism_threads(threads[1])
  print(f"TensorFlow threads (intra-op, inter-op): "
        f"{tf.config.threading.get_intra_op_parallelism_threads()}, "
        f"{tf.config.threading.get_inter_op_parallelism_threads()} "
        "(0: TensorFlow's default)")
  backgrounds = [{"true": True, "false": False}[b.lower()]
                 for b in FLAGS.background]
  variants = {(int(g), precision, background):
              _Variant(game, int(g), precision, background)
              for precision in FLAGS.precisions for g in FLAGS.groups
              for background in backgrounds}
  for variant in variants.values():
    variant.driver.play(FLAGS.warmup_episodes)
    variant.window(FLAGS.warmup_seconds, timed=False)
  limits = [int(n) for n in FLAGS.blas_threads] or [None]
  for _ in range(FLAGS.windows):
    for variant in variants.values():
      for blas in limits:
        variant.window(FLAGS.seconds, blas=blas)
  rows = [(group, precision, background, blas, *variant.totals[blas])
          for (group, precision, background), variant in variants.items()
          for blas in limits]
  base_rate = rows[0][5] / rows[0][4]
  print("| learn_locksteps | precision | background | BLAS threads | "
        "game steps/s | vs the first row | episodes/s |")
  print("| ---: | --- | --- | ---: | ---: | ---: | ---: |")
  for group, precision, background, blas, seconds, steps, episodes in rows:
    rate = steps / seconds
    print(f"| {group} | {precision} | {background} | {blas or 'default'} | "
          f"{rate:,.0f} | {rate / base_rate:.2f}x | "
          f"{episodes / seconds:,.1f} |")


if __name__ == "__main__":
  app.run(main)
