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

  python benchmarks/lhe_learning_groups.py --groups 1,2,4,8 --windows 4
  python benchmarks/lhe_learning_groups.py --groups 8 --precisions float32,bfloat16
"""

import time

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import nfsp
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


class _Variant:

  def __init__(self, game, learn_locksteps, precision):
    config = nfsp.NFSPConfig.lhe(device=FLAGS.device, precision=precision)
    self.agents = nfsp.agents_for(game, config, seed=0)
    self.driver = selfplay.SelfPlay(game, self.agents, num_games=128, seed=0,
                                    learn_locksteps=learn_locksteps)
    self.seconds = self.steps = self.episodes = 0

  def window(self, seconds, timed=True):
    started = time.perf_counter()
    steps, episodes = sum(a.steps for a in self.agents), self.driver.episodes
    while time.perf_counter() - started < seconds:
      self.driver.step()
    if timed:
      self.seconds += time.perf_counter() - started
      self.steps += sum(a.steps for a in self.agents) - steps
      self.episodes += self.driver.episodes - episodes


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_lhe")
  variants = {(int(g), precision): _Variant(game, int(g), precision)
              for precision in FLAGS.precisions for g in FLAGS.groups}
  for variant in variants.values():
    variant.driver.play(FLAGS.warmup_episodes)
    variant.window(FLAGS.warmup_seconds, timed=False)
  for _ in range(FLAGS.windows):
    for variant in variants.values():
      variant.window(FLAGS.seconds)
  base = next(iter(variants.values()))
  base_rate = base.steps / base.seconds
  print("| learn_locksteps | precision | game steps/s | vs the first row | "
        "episodes/s |")
  print("| ---: | --- | ---: | ---: | ---: |")
  for (group, precision), variant in variants.items():
    rate = variant.steps / variant.seconds
    print(f"| {group} | {precision} | {rate:,.0f} | {rate / base_rate:.2f}x | "
          f"{variant.episodes / variant.seconds:,.1f} |")


if __name__ == "__main__":
  app.run(main)
