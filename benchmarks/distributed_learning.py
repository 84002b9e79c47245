"""Does NFSP learn the same on Ray as in one process? Exploitability of the
average policy against training episodes on Leduc (the NFSP paper's
settings, `NFSPConfig.leduc()`), for the single-process batched driver and
for `nfsp_spiel.distributed` with `--actors` actors at each `--locksteps`
chunk size (larger chunks: older acting weights), over `--seeds`. Writes
every evaluation to `--csv` and prints mean and range per variant.

  python benchmarks/distributed_learning.py --episodes 1000000 --seeds 0,1,2
"""

import csv
import time

from absl import app
from absl import flags
import numpy as np
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import distributed
from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel import selfplay

FLAGS = flags.FLAGS
flags.DEFINE_string("game", "leduc_poker", "Game.")
flags.DEFINE_integer("episodes", 1_000_000, "Training episodes per run.")
flags.DEFINE_list("evaluate_at", ["100000", "250000", "500000", "1000000"],
                  "Episodes at which to measure exploitability.")
flags.DEFINE_list("seeds", ["0", "1", "2"], "Seeds.")
flags.DEFINE_integer("actors", 2, "Ray actors of the distributed runs.")
flags.DEFINE_list("locksteps", ["8", "32"], "Chunk sizes of the distributed "
                  "runs (locksteps of 128 games).")
flags.DEFINE_string("csv", "benchmarks/results/distributed_learning.csv",
                    "Where the rows go.")


def _run(game, seed, locksteps):
  """[(episodes, exploitability, weights' mean age in steps)] of one run."""
  config = nfsp.NFSPConfig.leduc()
  if locksteps is None:
    agents = nfsp.agents_for(game, config, seed)
    loop = selfplay.SelfPlay(game, agents, 128, seed=seed)
  else:
    loop = distributed.DistributedSelfPlay(
        game, config, seed, distributed.DistributedConfig(
            num_actors=FLAGS.actors, locksteps=locksteps))
    agents = loop.agents
  rows = []
  for target in sorted(int(e) for e in FLAGS.evaluate_at):
    if target > FLAGS.episodes:
      break
    loop.play(target - loop.episodes)
    exploitability = evaluation.exploitability(
        game, nfsp.NFSPPolicy(game, agents).to_tabular())
    age = np.mean(loop.staleness) if locksteps else 0.0
    rows.append((loop.episodes, exploitability, age))
  if locksteps is not None:
    loop.close()
  return rows


def main(argv):
  del argv
  game = pyspiel.load_game(FLAGS.game)
  distributed.import_ray().init(num_cpus=FLAGS.actors + 1,
                                include_dashboard=False, log_to_driver=False)
  variants = [("one process", None)] + [
      (f"{FLAGS.actors} actors, {n} locksteps", int(n))
      for n in FLAGS.locksteps]
  results = {}
  with open(FLAGS.csv, "w", newline="") as out:
    writer = csv.writer(out)
    writer.writerow(["variant", "seed", "episodes", "exploitability",
                     "weights_age_steps"])
    for name, locksteps in variants:
      for seed in (int(s) for s in FLAGS.seeds):
        started = time.perf_counter()
        rows = _run(game, seed, locksteps)
        for episodes, value, age in rows:
          writer.writerow([name, seed, episodes, f"{value:.5f}", f"{age:.0f}"])
        out.flush()
        results[name, seed] = rows
        print(f"{name}, seed {seed}: {[round(r[1], 3) for r in rows]} "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
  points = sorted(int(e) for e in FLAGS.evaluate_at
                  if int(e) <= FLAGS.episodes)
  print(f"\n{FLAGS.game}: exploitability, mean (min-max) over seeds "
        f"{','.join(FLAGS.seeds)}\n")
  print("| variant | weights' age (steps) | " + " | ".join(
      f"{p:,} episodes" for p in points) + " |")
  print("| --- | ---: |" + " ---: |" * len(points))
  for name, _ in variants:
    runs = [results[name, int(s)] for s in FLAGS.seeds]
    cells = []
    for i in range(len(points)):
      values = [run[i][1] for run in runs]
      cells.append(f"{np.mean(values):.3f} ({min(values):.3f}-"
                   f"{max(values):.3f})")
    age = np.mean([run[-1][2] for run in runs])
    print(f"| {name} | {age:,.0f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
  app.run(main)
