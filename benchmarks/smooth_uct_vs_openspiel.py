"""Smooth UCT's simulation speed against OpenSpiel's IS-MCTS, and its
exploitability against OpenSpiel's outcome-sampling MCCFR at equal wall clock.

Part 1: episodes (simulations) per second on Kuhn and Leduc of our Smooth UCT
and UCT, of OpenSpiel's Python IS-MCTS bot and of its C++ `ISMCTSBot` (both
with one random rollout per simulation), timed in one run. Part 2: on Leduc,
Smooth UCT (thesis parameters), UCT and OpenSpiel's C++ outcome-sampling
MCCFR each run for the same wall-clock budget; exploitability of their
average policies at log-spaced times.

  python benchmarks/smooth_uct_vs_openspiel.py --seconds 30
"""

import time

from absl import app
from absl import flags
import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms import mcts

import nfsp_spiel  # noqa: F401
from nfsp_spiel import smooth_uct

FLAGS = flags.FLAGS
flags.DEFINE_float("seconds", 30.0, "Wall-clock budget of part 2, each.")
flags.DEFINE_float("speed_seconds", 3.0, "Seconds per speed measurement.")


def ours_per_second(game, config, seconds):
  search = smooth_uct.SmoothUCT(game, config, seed=0)
  search.run(1000)  # compile the kernel
  start, done = time.perf_counter(), 0
  while time.perf_counter() - start < seconds:
    search.run(100_000)
    done += 100_000
  return done / (time.perf_counter() - start)


def openspiel_per_second(game, cpp, seconds):
  """IS-MCTS simulations per second from the root, one rollout each."""
  sims = 2000 if cpp else 200
  if cpp:
    bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, sims)
  else:
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1), 2.0, sims,
                           random_state=np.random.RandomState(0))
  start, done = time.perf_counter(), 0
  while time.perf_counter() - start < seconds:
    state = game.new_initial_state()
    while state.is_chance_node():
      state.apply_action(state.chance_outcomes()[0][0])
    bot.step(state)
    done += sims
  return done / (time.perf_counter() - start)


def race(game, seconds):
  """Exploitability over the same wall clock: Smooth UCT, UCT, OS-MCCFR."""
  marks = list(np.geomspace(seconds / 30, seconds, 6))
  rows = {}
  for name in ("Smooth UCT", "UCT", "OS-MCCFR (OpenSpiel C++)"):
    if name == "OS-MCCFR (OpenSpiel C++)":
      solver = pyspiel.OutcomeSamplingMCCFRSolver(game, 0.6, 0)
      step = lambda: [solver.run_iteration() for _ in range(10_000)]  # noqa: E731
      value = lambda: pyspiel.exploitability(game, solver.average_policy())  # noqa: E731
    else:
      presets = smooth_uct.SmoothUCTConfig
      config = (presets.leduc() if name == "Smooth UCT" else
                presets.uct(20.0))
      search = smooth_uct.SmoothUCT(game, config, seed=0)
      search.run(1000)
      step = lambda s=search: s.run(100_000)  # noqa: E731
      value = search.exploitability
    clock, results, pending = 0.0, [], list(marks)
    while pending:
      start = time.perf_counter()
      step()
      clock += time.perf_counter() - start
      if clock >= pending[0]:
        pending.pop(0)
        results.append((clock, value()))
    rows[name] = results
  return rows


def main(argv):
  del argv
  print("Part 1: simulations (episodes) per second")
  for name in ("kuhn_poker", "leduc_poker"):
    game = pyspiel.load_game(name)
    c_smooth = 1.75 if name == "kuhn_poker" else 18.0
    c_uct = 2.0 if name == "kuhn_poker" else 20.0
    ours = ours_per_second(game, smooth_uct.SmoothUCTConfig(
        c=c_smooth, d=0.001 if name == "kuhn_poker" else 0.002),
                           FLAGS.speed_seconds)
    uct = ours_per_second(game, smooth_uct.SmoothUCTConfig.uct(c_uct),
                          FLAGS.speed_seconds)
    python = openspiel_per_second(game, False, FLAGS.speed_seconds)
    cpp = openspiel_per_second(game, True, FLAGS.speed_seconds)
    print(f"  {name:12s} Smooth UCT {ours:12,.0f}  UCT {uct:12,.0f}  "
          f"OpenSpiel IS-MCTS Python {python:9,.0f} (ours/this "
          f"{ours / python:,.0f}x)  C++ {cpp:10,.0f} (ours/this "
          f"{ours / cpp:.1f}x)", flush=True)
  print(f"Part 2: Leduc exploitability over {FLAGS.seconds:g} s of wall clock")
  for name, results in race(pyspiel.load_game("leduc_poker"),
                            FLAGS.seconds).items():
    print(f"  {name:26s} " + "  ".join(f"{t:5.1f}s {v:.4f}"
                                       for t, v in results), flush=True)


if __name__ == "__main__":
  app.run(main)
