"""Memory of NFSP at the NFSP paper's Limit Hold'em scale, measured full.

`NFSPConfig.lhe()`: M_RL 600k transitions, M_SL 30m records per agent, two
agents. The script prints the bytes per record of each `memory_dtype`, then
builds the two agents with the chosen one, plays 2000 episodes, fills both
memories of both to capacity with copies of their records, and
trains with the batched driver for `--seconds` on the full memories, so the
peak resident memory it reports is that of a run whose memories are full,
not an extrapolation. numpy's zeros are committed lazily, so the RSS right
after building shows what an empty run costs.

  python benchmarks/lhe_memory.py --memory_dtype bits --seconds 60
"""

import time

from absl import app
from absl import flags
import numpy as np
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import selfplay

FLAGS = flags.FLAGS
flags.DEFINE_string("memory_dtype", "bits", "M_SL's storage to measure.")
flags.DEFINE_integer("seconds", 60, "Training on the full memories.")
flags.DEFINE_integer("chunk", 200_000, "Records added per batch.")

GIB = 2**30


def resident():
  """(current, peak) resident set size in GiB, from /proc."""
  values = {}
  with open("/proc/self/status", encoding="ascii") as status:
    for line in status:
      key, _, rest = line.partition(":")
      if key in ("VmRSS", "VmHWM"):
        values[key] = int(rest.split()[0]) * 1024 / GIB
  return values["VmRSS"], values["VmHWM"]


def record_bytes(game, dtype):
  """Bytes per M_SL record and per M_RL transition as stored with `dtype`
  (an agent with one-record memories, measured)."""
  agent = nfsp.agents_for(game, nfsp.NFSPConfig.lhe(
      memory_dtype=dtype, replay_buffer_capacity=1,
      reservoir_buffer_capacity=1))[0]
  return tuple(memory.fields["record"][0].nbytes for memory in (
      agent.sl_memory, agent.best_response_learner.memory))


def _fill_with_copies(memory, add):
  """Fills `memory` to capacity with copies of the records it holds."""
  held = memory.fields["record"][:len(memory)].copy()
  while len(memory) < memory.capacity:
    count = min(FLAGS.chunk, memory.capacity - len(memory))
    add(np.resize(held, (count, held.shape[1])))


def fill(agent):
  """Fills M_SL and M_RL to capacity with copies of real records."""
  agent.store()
  _fill_with_copies(agent.sl_memory,
                    lambda rows: agent.sl_memory.add_batch(record=rows))
  memory = agent.best_response_learner.memory
  _fill_with_copies(memory, lambda rows: memory.add_batch(record=rows))


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_lhe")
  config = nfsp.NFSPConfig.lhe(memory_dtype=FLAGS.memory_dtype)
  sizes = {kind: record_bytes(game, kind)
           for kind in ("float32", "uint8", "bits")}
  for kind, (sl, rl) in sizes.items():
    total = 2 * (config.reservoir_buffer_capacity * sl +
                 config.best_response.replay_buffer_capacity * rl)
    print(f"memory_dtype {kind:7s}: M_SL {sl:5d} B/record, M_RL {rl:5d} "
          f"B/transition; two agents' full memories {total / GIB:6.2f} GiB")
  print(f"after import:            RSS {resident()[0]:.2f} GiB")
  agents = nfsp.agents_for(game, config)
  print(f"agents built (empty):    RSS {resident()[0]:.2f} GiB")
  driver = selfplay.SelfPlay(game, agents, num_games=128, seed=0)
  driver.play(2000)  # real records to copy; compiles the learning calls
  started = time.perf_counter()
  for agent in agents:
    fill(agent)
  print(f"memories full ({time.perf_counter() - started:.0f} s): RSS "
        f"{resident()[0]:.2f} GiB")
  with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
    refs.write("5")  # the peak from here on: not the filling's copies
  started, before = time.perf_counter(), driver.episodes
  while time.perf_counter() - started < FLAGS.seconds:
    driver.play(1000)
  rate = (driver.episodes - before) / (time.perf_counter() - started)
  current, peak = resident()
  print(f"trained {driver.episodes - before} episodes on full memories at "
        f"{rate:.0f} episodes/s: RSS {current:.2f} GiB, peak {peak:.2f} GiB")


if __name__ == "__main__":
  app.run(main)
