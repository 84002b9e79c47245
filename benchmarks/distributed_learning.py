"""Does NFSP learn the same on Ray as in one process? Exploitability of the
average policy against training episodes on Leduc (the NFSP paper's
settings, `NFSPConfig.leduc()`), for the single-process batched driver and
for `nfsp_spiel.nfsp.distributed` with `--actors` actors at each `--locksteps`
chunk size (larger chunks: older acting weights), over `--seeds`. Writes
every evaluation to `--csv` and prints mean and range per variant
(`--table_only` reprints that table from an existing `--csv`).

  python benchmarks/distributed_learning.py --episodes 1000000 --seeds 0,1,2
"""

import collections
import csv
import time

from absl import app
from absl import flags
import numpy as np
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.nfsp import distributed

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
flags.DEFINE_bool("table_only", False, "Only print the table of `--csv`.")


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


def _table(csv_path):
  """Mean (min-max) exploitability over seeds per variant and evaluation."""
  rows = collections.defaultdict(list)  # (variant, seed) -> rows in order
  with open(csv_path, newline="") as lines:
    for row in csv.DictReader(lines):
      rows[row["variant"], row["seed"]].append(row)
  variants = list(dict.fromkeys(name for name, _ in rows))
  seeds = list(dict.fromkeys(seed for _, seed in rows))
  points = len(rows[variants[0], seeds[0]])
  targets = sorted(int(e) for e in FLAGS.evaluate_at)[:points]
  lines = [f"{FLAGS.game}: exploitability, mean (min-max) over seeds "
           f"{','.join(seeds)} (each run evaluated at its first chunk "
           "boundary past the target)\n",
           "| variant | weights' age (steps) | " + " | ".join(
               f"{target:,} episodes" for target in targets) + " |",
           "| --- | ---: |" + " ---: |" * points]
  for name in variants:
    runs = [rows[name, seed] for seed in seeds]
    cells = []
    for i in range(points):
      values = [float(run[i]["exploitability"]) for run in runs]
      cells.append(f"{np.mean(values):.3f} ({min(values):.3f}-"
                   f"{max(values):.3f})")
    age = np.mean([float(run[-1]["weights_age_steps"]) for run in runs])
    lines.append(f"| {name} | {age:,.0f} | " + " | ".join(cells) + " |")
  return "\n".join(lines)


def main(argv):
  del argv
  if FLAGS.table_only:
    print(_table(FLAGS.csv))
    return
  game = pyspiel.load_game(FLAGS.game)
  distributed.import_ray().init(num_cpus=FLAGS.actors + 1,
                                include_dashboard=False, log_to_driver=False)
  variants = [("one process", None)] + [
      (f"{FLAGS.actors} actors, {n} locksteps", int(n))
      for n in FLAGS.locksteps]
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
        print(f"{name}, seed {seed}: {[round(r[1], 3) for r in rows]} "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
  print("\n" + _table(FLAGS.csv))


if __name__ == "__main__":
  app.run(main)
