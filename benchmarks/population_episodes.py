"""Population training's speed: K NFSP runs in one process against one run.

Each variant runs in its own process pinned to `--cpus` with TensorFlow on
one thread, rounds interleaved (A B C ... A B C ...):
  single  one run, `nfsp.selfplay.SelfPlay` (what `examples/nfsp.py --seed`
          trains with), today's single-run path
  K=<k>   `nfsp.population.Population` of k members (seeds 0, 2, 4, ...),
          learning as `--learning` says: `K=<k>/stacked` in one stacked
          call, `K=<k>/separate` each member through its own fused call,
          `K=<k>` the default (auto); `@tree` or `@states` after it:
          the games held as a compiled tree or as pyspiel states
          (`--backends`; none: "auto", a tree up to 200k histories)
Every member plays `--warmup` episodes (memories past the 1000 records
learning waits for, XLA compiled), then `--episodes` more are timed; the
table gives episodes/s per member and in total, the total against the
single run's, the compiled learning calls' share of the time (the calls
alone, timed around each; batch sampling is outside them) and the bound
they set: the total against the single run's if everything else a variant
does cost nothing, and the seconds a variant takes to set up (building its
trees) before it plays. A new shape of call (which parts learn, how many calls
at most) compiles in its first call, which can fall in the timed part; the
rates leave out the time of every function's first call (XLA's compile),
and the table gives that time apart. On Leduc the settings are
`NFSPConfig.leduc()`, on Limit Hold'em (`--game nfsp_lhe`)
`NFSPConfig.lhe()` (K = 1, 2).

  python benchmarks/population_episodes.py --rounds 3 --cpus 0 \\
      --sizes 1,2,4,8,16
  python benchmarks/population_episodes.py --game nfsp_lhe --sizes 1,2 \\
      --warmup 3000 --episodes 2000 --rounds 1 --cpus 0
  python benchmarks/population_episodes.py --rounds 3 --cpus 0 \\
      --sizes 2,3,4,8 --learning stacked,separate
  python benchmarks/population_episodes.py --game "leduc_poker(players=3)" \
      --sizes 3 --backends tree,states --rounds 2 --cpus 0
"""

import argparse
import json
import math
import statistics
import time

import interleaved  # benchmarks/interleaved.py


def measure(variant, game_string, warmup, episodes):
  """Total episodes/s of one variant after its warm-up (in a subprocess)."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import population  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import fused_learning  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import stacked_learning  # pylint: disable=g-import-not-at-top
  call_seconds = _time_compiled_calls(fused_learning, stacked_learning)
  tf.config.threading.set_intra_op_parallelism_threads(1)
  tf.config.threading.set_inter_op_parallelism_threads(1)
  game = pyspiel.load_game(game_string)
  config = (nfsp.NFSPConfig.lhe() if game.get_type().short_name == "nfsp_lhe"
            else nfsp.NFSPConfig.leduc())
  setup = time.perf_counter()
  if variant == "single":
    driver = selfplay.SelfPlay(game, nfsp.agents_for(game, config, seed=0))
    total = lambda: driver.episodes  # noqa: E731
  else:
    members, learning, backend = _parse(variant)
    driver = population.Population(
        game, config, population.spaced_seeds(members, game.num_players()),
        backend=backend, learning=learning)
    total = lambda: sum(driver.episodes)  # noqa: E731
  setup = time.perf_counter() - setup
  driver.play(warmup)
  call_seconds[:] = [0.0, 0.0]
  start, before = time.perf_counter(), total()
  driver.play(episodes)
  seconds = time.perf_counter() - start - call_seconds[1]
  played = total() - before
  print(json.dumps({"call_seconds_per_episode": call_seconds[0] / played,
                    "call_share": call_seconds[0] / seconds,
                    "compile_seconds": call_seconds[1],
                    "setup_seconds": setup}))
  return played / seconds


def _parse(variant):
  """(K, learning, backend) of a variant `K=<k>[/<learning>][@<backend>]`."""
  rest, _, backend = variant[len("K="):].partition("@")
  members, _, learning = rest.partition("/")
  return int(members), learning or "auto", backend or "auto"


def _time_compiled_calls(fused_learning, stacked_learning):
  """Wraps every compiled learning call the drivers make in a timer (the
  calls run synchronously on a CPU); returns the seconds' [in calls after
  each function's first, in first calls]."""
  seconds = [0.0, 0.0]

  def timed(compile_function):
    def compile_timed(*arguments):
      function, calls = compile_function(*arguments), [0]

      def call(*inputs):
        start = time.perf_counter()
        outputs = function(*inputs)
        seconds[calls[0] == 0] += time.perf_counter() - start
        calls[0] += 1
        return outputs
      return call
    return compile_timed

  fused_learning._compile = timed(fused_learning._compile)  # pylint: disable=protected-access
  stacked_learning.StackedLearning._compile = timed(  # pylint: disable=protected-access
      stacked_learning.StackedLearning._compile)  # pylint: disable=protected-access
  return seconds


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--game", default="nfsp_leduc")
  parser.add_argument("--sizes", default="1,2,4,8,16",
                      help="population sizes K")
  parser.add_argument("--warmup", type=int, default=20000,
                      help="episodes per member before timing")
  parser.add_argument("--episodes", type=int, default=20000,
                      help="timed episodes per member")
  parser.add_argument("--learning", default="auto",
                      help="comma-separated: auto, stacked, separate (a "
                      "variant per population size and value)")
  parser.add_argument("--backends", default="auto",
                      help="comma-separated: auto, tree, states (a variant "
                      "per population size, learning and value)")
  interleaved.add_arguments(parser)
  args = parser.parse_args()
  if args.measure:  # child process
    print(json.dumps(measure(args.measure, args.game, args.warmup,
                             args.episodes)))
    return
  learnings = args.learning.split(",")
  variants = ["single"] + [
      f"K={k}" + ("" if learning == "auto" else f"/{learning}")
      + ("" if backend == "auto" else f"@{backend}")
      for k in args.sizes.split(",") for learning in learnings
      for backend in args.backends.split(",")]
  details = {}
  rates = interleaved.rounds(
      __file__, variants, ["--game", args.game, "--warmup", str(args.warmup),
                           "--episodes", str(args.episodes)],
      args.rounds, args.cpus, unit="episodes/s in total", details=details)
  single = statistics.median(rates["single"])
  print(f"\n{args.game}, medians of {args.rounds} rounds, CPUs "
        f"{args.cpus or 'all'}, {args.warmup:,} + {args.episodes:,} episodes "
        "per member\n")
  print("| variant | members | episodes/s in total | per member | "
        "total vs single run | learning calls' share | bound: calls alone | "
        "compiling (s) | setting up (s) |")
  print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
  rows = []
  for variant, values in rates.items():
    members = (1 if variant == "single" else
               _parse(variant)[0])
    total = statistics.median(values)
    share = statistics.median(d["call_share"] for d in details[variant])
    per_episode = statistics.median(d["call_seconds_per_episode"]
                                    for d in details[variant])
    # No learning call timed (a warm-up too short to fill the memories): no
    # bound.
    bound = 1.0 / single / per_episode if per_episode else math.inf
    compiling = statistics.median(d["compile_seconds"]
                                  for d in details[variant])
    setting_up = statistics.median(d["setup_seconds"]
                                   for d in details[variant])
    rows.append((variant, members, total, total / members, total / single,
                 share, bound, compiling, setting_up))
    print(f"| {variant} | {members} | {total:,.0f} | {total / members:,.0f} "
          f"| {total / single:.2f}x | {share:.0%} | {bound:.2f}x | "
          f"{compiling:.1f} | {setting_up:.1f} |")
  if args.csv:
    with open(args.csv, "w") as f:
      f.write("game,variant,members,episodes_per_s,per_member,vs_single,"
              "call_share,bound_vs_single,compile_seconds,setup_seconds\n")
      for row in rows:
        f.write(f"{args.game},{row[0]},{row[1]},{row[2]:.1f},{row[3]:.1f},"
                f"{row[4]:.3f},{row[5]:.3f},{row[6]:.3f},{row[7]:.1f},"
                f"{row[8]:.1f}\n")


if __name__ == "__main__":
  main()
