"""NFSP training speed on Ray (`nfsp_spiel.nfsp.distributed`) with 1, 2, ...
actors against the single-process batched driver, side by side in one run,
with what the distributed path costs per chunk: an actor's seconds playing
it, the learner's seconds taking it (adding records, the learning calls it
made due, publishing weights), the bytes it carries, and the acting weights'
age. Each variant warms up (learning started, XLA compiled), then is timed for
`--seconds`. The ratio is of game steps/s: the learning calls (most of the
time) follow game steps, and episodes grow longer as the agents learn (in
Limit Hold'em one process's episodes/s falls from 300 to 105 over its first
4 minutes), so a faster variant, being further on, would be underrated in
episodes/s; both are printed. From the per-chunk costs: with N actors on N free cores the run
makes min(N / actor_s, 1 / learner_s) chunks/s, so it is learner-bound from
N* = actor_s / learner_s actors on.

  python benchmarks/distributed_episodes.py --games leduc_poker,nfsp_lhe \\
      --actors 1,2 --seconds 60
"""

import dataclasses
import time

from absl import app
from absl import flags
import numpy as np
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.nfsp import distributed

FLAGS = flags.FLAGS
flags.DEFINE_list("games", ["leduc_poker", "nfsp_lhe"], "Games (nfsp_lhe "
                  "runs NFSPConfig.lhe(), the others NFSPConfig.leduc()).")
flags.DEFINE_list("actors", ["1", "2"], "Actor counts to time.")
flags.DEFINE_integer("seconds", 60, "Timed seconds per variant.")
flags.DEFINE_integer("warmup_seconds", 30, "Untimed seconds first.")
flags.DEFINE_integer("locksteps", None, "Locksteps per actor chunk "
                     "(DistributedConfig's default).")
flags.DEFINE_integer("num_games", 128, "Games per actor / in one process.")
flags.DEFINE_string("device", None, "The learner's TensorFlow device.")
flags.DEFINE_float("learner_gpus", 0.0, "GPUs Ray gives the learner.")

_CHUNK = 500  # episodes per `play` call: the timer's resolution


def _config(game):
  preset = (nfsp.NFSPConfig.lhe if game.get_type().short_name == "nfsp_lhe"
            else nfsp.NFSPConfig.leduc)
  return preset(device=FLAGS.device)


def _timed(loop):
  """Game steps/s over `--seconds` after `--warmup_seconds`, and the loop's
  counters' changes over the timed window (distributed: per chunk)."""
  for seconds in (FLAGS.warmup_seconds, FLAGS.seconds):
    before = _counters(loop)
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
      loop.play(_CHUNK)
    elapsed = time.perf_counter() - started
  after = _counters(loop)
  change = {k: after[k] - before[k] for k in after}
  return change["steps"] / elapsed, change, elapsed


def _counters(loop):
  counters = {"episodes": loop.episodes,
              "steps": (loop.steps if isinstance(
                  loop, distributed.DistributedSelfPlay) else
                        sum(agent.steps for agent in loop.agents))}
  if isinstance(loop, distributed.DistributedSelfPlay):
    counters.update(chunks=sum(loop.chunks), actor_s=loop.actor_seconds,
                    learner_s=loop.learner_seconds, bytes=loop.bytes,
                    staleness=len(loop.staleness))
  return counters


def main(argv):
  del argv
  ray = distributed.import_ray()
  actor_counts = [int(n) for n in FLAGS.actors]
  ray.init(num_cpus=max(actor_counts) + 1, include_dashboard=False,
           log_to_driver=False)
  rows = []
  for name in FLAGS.games:
    game = pyspiel.load_game(name)
    config = _config(game)
    agents = nfsp.agents_for(game, config)
    single, change, elapsed = _timed(
        selfplay.SelfPlay(game, agents, FLAGS.num_games))
    rows.append((name, "one process", single, change, elapsed, None))
    print(f"{name}: one process {single:,.1f} steps/s", flush=True)
    for count in actor_counts:
      settings = distributed.DistributedConfig(
          num_actors=count, num_games=FLAGS.num_games,
          learner_gpus=FLAGS.learner_gpus)
      if FLAGS.locksteps:
        settings = dataclasses.replace(settings, locksteps=FLAGS.locksteps)
      loop = distributed.DistributedSelfPlay(game, config, 0, settings)
      rate, change, elapsed = _timed(loop)
      chunks = max(change["chunks"], 1)
      stale = np.mean(loop.staleness[-change["staleness"]:])
      costs = {"actor_s": change["actor_s"] / chunks,
               "learner_s": change["learner_s"] / chunks,
               "MB": change["bytes"] / chunks / 2**20,
               "episodes": change["episodes"] / chunks, "stale": stale}
      loop.close()
      rows.append((name, f"{count} actor{'s' * (count > 1)}", rate, change,
                   elapsed, costs))
      print(f"{name}: {count} actors {rate:,.1f} steps/s {costs}", flush=True)
  print(f"\nlocksteps per chunk: {FLAGS.locksteps or 'default'} "
        f"({distributed.DistributedConfig().locksteps}), "
        f"{FLAGS.num_games} games per actor, {FLAGS.seconds} s timed\n")
  print("| game | driver | steps/s | vs one process | episodes/s | "
        "steps/episode | episodes/chunk | actor s/chunk | learner s/chunk | "
        "MB/chunk | weights' age (steps) | learner-bound from N* actors |")
  print("| --- | --- |" + " ---: |" * 10)
  baseline = {}
  for name, driver, rate, change, elapsed, costs in rows:
    baseline.setdefault(name, rate)
    cells = [""] * 6
    if costs:
      cells = [f"{costs['episodes']:,.0f}", f"{costs['actor_s']:.3f}",
               f"{costs['learner_s']:.3f}", f"{costs['MB']:.2f}",
               f"{costs['stale']:,.0f}",
               f"{costs['actor_s'] / max(costs['learner_s'], 1e-9):.1f}"]
    print(f"| {name} | {driver} | {rate:,.0f} | "
          f"{rate / baseline[name]:.2f}x | "
          f"{change['episodes'] / elapsed:,.1f} | "
          f"{change['steps'] / max(change['episodes'], 1):.2f} | "
          + " | ".join(cells) + " |")


if __name__ == "__main__":
  app.run(main)
