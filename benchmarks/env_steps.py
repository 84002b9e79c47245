"""Environment steps per second of random play: our games against OpenSpiel's.

Each game is stepped through `rl_environment.Environment` (what NFSP agents
use: two information-state tensors, legal actions and rewards per step) and
as raw pyspiel states (`apply_action` only; then also reading both players'
information states at each decision), in one process, alternating the
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


def raw_steps_per_second(name, steps, rng, tensors=False):
  """apply_action only, chance sampled from chance_outcomes like the env.

  With `tensors`, also reads both players' information states at every
  decision, the way a batched self-play driver would: the hot indices
  straight from our Python states (`info_state_ones`), the C++ tensor from
  OpenSpiel's games.
  """
  game = pyspiel.load_game(name)
  state = game.new_initial_state()
  direct = hasattr(state, "info_state_ones")
  done = 0
  start = time.perf_counter()
  while done < steps:
    if state.is_terminal():
      state = game.new_initial_state()
    elif state.is_chance_node():
      outcomes, probs = zip(*state.chance_outcomes())
      state.apply_action(rng.choices(outcomes, probs)[0])
    else:
      if tensors:
        for player in (0, 1):
          if direct:
            state.info_state_ones(player)
          else:
            state.information_state_tensor(player)
      state.apply_action(rng.choice(state.legal_actions()))
      done += 1
  return steps / (time.perf_counter() - start)


def short(name):
  return "universal_poker (ACPC HULHE)" if name.startswith(
      "universal_poker") else name


def main(argv):
  del argv
  rng = random.Random(0)
  measures = {
      "env": env_steps_per_second,
      "raw": raw_steps_per_second,
      "raw+tensors": lambda *a: raw_steps_per_second(*a, tensors=True),
  }
  results = {(name, kind): [] for name, _ in GAMES for kind in measures}
  for _ in range(FLAGS.repeats):
    for name, _ in GAMES:
      for kind, measure in measures.items():
        results[name, kind].append(measure(name, FLAGS.steps, rng))
  median = {key: statistics.median(v) for key, v in results.items()}
  header = ["game"] + [f"{k} steps/s" for k in measures] + [
      f"{k} ratio" for k in measures] + ["vs"]
  rows = []
  for name, reference in GAMES:
    speeds = [median[name, kind] for kind in measures]
    ratios = [median[name, kind] / median[reference or name, kind]
              for kind in measures]
    rows.append([short(name)] + speeds + ratios +
                [short(reference) if reference else "(reference)"])
  print(f"{FLAGS.steps} random decision steps, median of {FLAGS.repeats}")
  print(f"{'game':29s}" + "".join(f"{h:>20s}" for h in header[1:-1]) + "  vs")
  for row in rows:
    print(f"{row[0]:29s}" + "".join(f"{x:20,.0f}" for x in row[1:4]) +
          "".join(f"{x:20.2f}" for x in row[4:7]) + f"  {row[7]}")
  if FLAGS.csv:
    with open(FLAGS.csv, "w") as f:
      f.write(",".join(header) + "\n")
      for row in rows:
        f.write(f'"{row[0]}",' + ",".join(f"{x:.0f}" for x in row[1:4]) + "," +
                ",".join(f"{x:.3f}" for x in row[4:7]) + f',"{row[7]}"\n')


if __name__ == "__main__":
  app.run(main)
