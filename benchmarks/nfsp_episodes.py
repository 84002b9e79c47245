"""NFSP training episodes/s on Leduc: ours (batched and single-game) against
OpenSpiel's PyTorch NFSP, same hyperparameters, side by side in one run.

Every variant trains two agents with `NFSPConfig.leduc()`, the NFSP paper's
Leduc experiment (sec. 4.1, read through Heinrich's code: hidden [64], M_RL
200k, M_SL 2m reservoir, SGD 0.1 / 0.005, 2 updates of batch 128 per network
every 128 game steps, i.e. every 64 of one agent's, target refit every 300
updates, eta 0.1, epsilon from 0.06, learning from 1000 records). OpenSpiel's
agent learns one batch every `learn_every` of its steps, so it gets
learn_every=32 (= 2 per 64) and target refits every 300 x 32 = 9600 steps,
and starts learning at 1000 records too.

Variants (each in its own process, rounds interleaved A B C A B C ...):
  pytorch      open_spiel.python.pytorch.nfsp in OpenSpiel's RL loop
  ours_single  nfsp_spiel.nfsp.NFSP in the same RL loop (rl_environment)
  ours_batched nfsp_spiel.nfsp.selfplay.SelfPlay, 128 games at once
  ours_batched_nfsp_arm  the same driver with NFSP-ARM agents
                         (`NFSPConfig.nfsp_arm()`: ARM as best response)
on `--game` (OpenSpiel's C++ leduc_poker, the PyTorch example's game, by
default; `nfsp_leduc` is the paper's 30-dim encoding). Each process warms up
(`--warmup` episodes: both memories of every agent past the 1000 records
learning waits for, so that both networks train in the timed window; XLA
compiled) and then times `--episodes` episodes. The PyTorch peer needs `pip install torch==2.13.0
dm-tree` (not a dependency of the package).

  python benchmarks/nfsp_episodes.py --rounds 3 --cpus 0
"""

import argparse
import json
import statistics
import time

import interleaved  # benchmarks/interleaved.py

VARIANTS = ("pytorch", "ours_single", "ours_batched", "ours_batched_nfsp_arm")
BATCHED = ("ours_batched", "ours_batched_nfsp_arm")


def _rl_loop(env, agents, episodes):
  """OpenSpiel's RL loop (its PyTorch agents' `step` takes the same
  arguments); returns the episodes played."""
  from nfsp_spiel.nfsp import rl_loop  # pylint: disable=g-import-not-at-top
  return rl_loop.play_episodes(env, agents, episodes)


def measure(variant, game_string, warmup, episodes, seed):
  """Episodes/s of one variant after its warm-up (runs in a subprocess)."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  from open_spiel.python import rl_environment  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  game = pyspiel.load_game(game_string)
  if variant == "pytorch":
    import torch  # pylint: disable=g-import-not-at-top
    from open_spiel.python.pytorch import nfsp as torch_nfsp  # pylint: disable=g-import-not-at-top
    torch.set_num_threads(1)
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed))
    size = game.information_state_tensor_size()
    agents = [torch_nfsp.NFSP(
        p, size, game.num_distinct_actions(), [64],
        reservoir_buffer_capacity=2_000_000, anticipatory_param=0.1,
        batch_size=128, rl_learning_rate=0.1, sl_learning_rate=0.005,
        min_buffer_size_to_learn=1000, learn_every=32, optimizer_str="sgd",
        replay_buffer_capacity=200_000, update_target_network_every=9_600,
        discount_factor=1.0, epsilon_start=0.06, epsilon_end=0.001,
        epsilon_decay_duration=20_000_000, loss_str="mse", seed=seed + p)
              for p in range(2)]
    play = lambda n: _rl_loop(env, agents, n)
  else:
    import tensorflow as tf  # pylint: disable=g-import-not-at-top
    from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
    from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    config = (nfsp.NFSPConfig.nfsp_arm() if variant.endswith("nfsp_arm")
              else nfsp.NFSPConfig.leduc())
    agents = nfsp.agents_for(game, config, seed=seed)
    if variant == "ours_single":
      env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed))
      play = lambda n: _rl_loop(env, agents, n)
    else:
      driver = selfplay.SelfPlay(game, agents, num_games=128, seed=seed)
      play = lambda n: -driver.episodes + driver.play(n)
  play(warmup)
  start = time.perf_counter()
  played = play(episodes)
  return played / (time.perf_counter() - start)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--game", default="leduc_poker")
  parser.add_argument("--variants", default=",".join(VARIANTS))
  # M_SL gets only best-response steps (eta 0.1): ~1500 records per agent
  # after 10k episodes.
  parser.add_argument("--warmup", type=int, default=10000)
  parser.add_argument("--episodes", type=int, default=20000,
                      help="timed episodes (PyTorch: a tenth of them, "
                      "ours_batched: five times as many)")
  interleaved.add_arguments(parser)
  args = parser.parse_args()
  if args.measure:  # child process
    variant = args.measure
    episodes = (args.episodes // 10 if variant == "pytorch" else
                args.episodes * 5 if variant in BATCHED else args.episodes)
    print(json.dumps(measure(variant, args.game, args.warmup, episodes, 0)))
    return
  variants = args.variants.split(",")
  rates = interleaved.rounds(
      __file__, variants, ["--game", args.game, "--warmup", str(args.warmup),
                           "--episodes", str(args.episodes)],
      args.rounds, args.cpus, unit="episodes/s")
  base = statistics.median(rates["pytorch"]) if "pytorch" in rates else None
  rows = []
  print(f"\n{args.game}, medians of {args.rounds} rounds, CPUs "
        f"{args.cpus or 'all'}\n")
  batched = (statistics.median(rates["ours_batched"])
             if "ours_batched" in rates else None)
  print("| variant | episodes/s (median) | min | max | vs pytorch | "
        "vs ours_batched |")
  print("| --- | ---: | ---: | ---: | ---: | ---: |")
  for variant, values in rates.items():
    median = statistics.median(values)
    ratio = f"{median / base:.1f}x" if base else "-"
    to_batched = f"{median / batched:.2f}x" if batched else "-"
    rows.append((variant, median, min(values), max(values), ratio,
                 to_batched))
    print(f"| {variant} | {median:,.0f} | {min(values):,.0f} | "
          f"{max(values):,.0f} | {ratio} | {to_batched} |")
  if args.csv:
    with open(args.csv, "w") as f:
      f.write("game,variant,episodes_per_s,min,max,vs_pytorch,"
              "vs_ours_batched\n")
      for row in rows:
        f.write(f"{args.game},{row[0]},{row[1]:.1f},{row[2]:.1f},{row[3]:.1f},"
                f"{row[4]},{row[5]}\n")


if __name__ == "__main__":
  main()
