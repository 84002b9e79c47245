"""Environment steps per second of random play: our games against OpenSpiel's.

Each game is stepped through `rl_environment.Environment` (what NFSP agents
use: two information-state tensors, legal actions and rewards per step) and
as raw pyspiel states (`apply_action` only), in one process, alternating the
games across repeats so that machine drift hits all alike. Prints a table with
the median steps/s and each game's ratio to its OpenSpiel reference.

  python benchmarks/env_steps.py --steps 20000 --repeats 5
"""

import random
import statistics
import time

from absl import app
from absl import flags
import pyspiel
from open_spiel.python import rl_environment

import nfsp_spiel  # noqa: F401  (registers the games)
from nfsp_spiel.games import nfsp_lhe

FLAGS = flags.FLAGS
flags.DEFINE_integer("steps", 20000, "Decision steps per measurement.")
flags.DEFINE_integer("repeats", 5, "Measurements per game (median reported).")
flags.DEFINE_string("csv", "", "Optional path for the table as CSV.")

# (game, OpenSpiel reference it is compared against)
GAMES = [
    ("leduc_poker", None),
    ("nfsp_leduc", "leduc_poker"),
    ("nfsp_leduc(ranks=30)", "leduc_poker"),
    (nfsp_lhe.UNIVERSAL_POKER_LHE, None),
    ("nfsp_lhe", nfsp_lhe.UNIVERSAL_POKER_LHE),
    ("river_poker", nfsp_lhe.UNIVERSAL_POKER_LHE),
    ("river_poker(beliefs=defined)", nfsp_lhe.UNIVERSAL_POKER_LHE),
]


def env_steps_per_second(name, steps, rng):
  env = rl_environment.Environment(
      name, chance_event_sampler=rl_environment.ChanceEventSampler(seed=0))
  time_step = env.reset()
  start = time.perf_counter()
  for _ in range(steps):
    if time_step.last():
      time_step = env.reset()
    player = time_step.observations["current_player"]
    legal = time_step.observations["legal_actions"][player]
    time_step = env.step([rng.choice(legal)])
  return steps / (time.perf_counter() - start)


def raw_steps_per_second(name, steps, rng):
  """apply_action only, chance sampled from chance_outcomes like the env."""
  game = pyspiel.load_game(name)
  state = game.new_initial_state()
  done = 0
  start = time.perf_counter()
  while done < steps:
    if state.is_terminal():
      state = game.new_initial_state()
    elif state.is_chance_node():
      outcomes, probs = zip(*state.chance_outcomes())
      state.apply_action(rng.choices(outcomes, probs)[0])
    else:
      state.apply_action(rng.choice(state.legal_actions()))
      done += 1
  return steps / (time.perf_counter() - start)


def short(name):
  return "universal_poker (ACPC HULHE)" if name.startswith(
      "universal_poker") else name


def main(argv):
  del argv
  rng = random.Random(0)
  results = {(name, kind): [] for name, _ in GAMES for kind in ("env", "raw")}
  for _ in range(FLAGS.repeats):
    for name, _ in GAMES:
      results[name, "env"].append(env_steps_per_second(name, FLAGS.steps, rng))
      results[name, "raw"].append(raw_steps_per_second(name, FLAGS.steps, rng))
  median = {key: statistics.median(v) for key, v in results.items()}
  rows = []
  for name, reference in GAMES:
    row = [short(name), median[name, "env"], median[name, "raw"]]
    if reference:
      row += [median[name, "env"] / median[reference, "env"],
              median[name, "raw"] / median[reference, "raw"], short(reference)]
    else:
      row += [1.0, 1.0, "(reference)"]
    rows.append(row)
  header = ["game", "env steps/s", "raw steps/s", "env ratio", "raw ratio",
            "vs"]
  print(f"{FLAGS.steps} random decision steps, median of {FLAGS.repeats}")
  print(f"{header[0]:30s} {header[1]:>12s} {header[2]:>12s} {header[3]:>9s} "
        f"{header[4]:>9s}  {header[5]}")
  for game, env, raw, env_ratio, raw_ratio, vs in rows:
    print(f"{game:30s} {env:12,.0f} {raw:12,.0f} {env_ratio:9.2f} "
          f"{raw_ratio:9.2f}  {vs}")
  if FLAGS.csv:
    with open(FLAGS.csv, "w") as f:
      f.write(",".join(header) + "\n")
      for game, env, raw, env_ratio, raw_ratio, vs in rows:
        f.write(f'"{game}",{env:.0f},{raw:.0f},{env_ratio:.3f},'
                f'{raw_ratio:.3f},"{vs}"\n')


if __name__ == "__main__":
  app.run(main)
