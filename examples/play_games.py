"""Loads each game of nfsp_spiel through pyspiel and plays it at random.

Shows that `import nfsp_spiel` is all an OpenSpiel experiment needs: the games
load by name with parameters, and OpenSpiel's own C++ solver runs on a small
River poker instance.

  python examples/play_games.py --games_per_title 1000
"""

import time

from absl import flags
import numpy as np
import pyspiel

import nfsp_spiel  # noqa: F401  (registers river_poker, nfsp_leduc, nfsp_lhe)
import run_flags  # examples/run_flags.py

FLAGS = flags.FLAGS
flags.DEFINE_multi_string(
    "game", ["river_poker", "river_poker(beliefs=defined)", "nfsp_leduc",
             "nfsp_leduc(ranks=30)", "nfsp_lhe"],
    "Games to play (OpenSpiel game strings); repeat the flag for several.")
flags.DEFINE_integer("games_per_title", 1000, "Random games played per game.")
flags.DEFINE_integer("cfr_iterations", 10,
                     "C++ CFR iterations on a 16-card River poker (0: skip).")
flags.DEFINE_integer("seed", 0, "Random seed.")


def play_once(game, rng):
  """Plays one game uniformly at random; returns the final state."""
  state = game.new_initial_state()
  while not state.is_terminal():
    if state.is_chance_node():
      outcomes, probs = zip(*state.chance_outcomes())
      state.apply_action(int(rng.choice(outcomes, p=probs)))
    else:
      state.apply_action(int(rng.choice(state.legal_actions())))
  return state


def describe(name, rng):
  game = pyspiel.load_game(name)
  start = time.perf_counter()
  returns = np.array([play_once(game, rng).returns()
                      for _ in range(FLAGS.games_per_title)])
  seconds = time.perf_counter() - start
  example = play_once(game, rng)
  decision = [s for s in _states(example) if not s.is_chance_node()][-1:]
  print(f"\n== {game}")
  print(f"information-state tensor {game.information_state_tensor_shape()}, "
        f"{game.num_distinct_actions()} actions, utilities "
        f"[{game.min_utility():g}, {game.max_utility():g}]")
  print(f"{FLAGS.games_per_title} random games in {seconds:.2f} s; mean "
        f"returns {returns.mean(0).round(3).tolist()} (+- "
        f"{(returns.std(0) / np.sqrt(len(returns))).round(3).tolist()})")
  for state in decision:
    player = state.current_player()
    print(f"a last decision: {state.information_state_string(player)}")
  print(f"a final state's returns: {example.returns()}")


def _states(terminal):
  """All states along the history of `terminal`."""
  state = terminal.get_game().new_initial_state()
  for action in terminal.history():
    yield state
    state = state.child(action)


def main(argv):
  del argv
  rng = np.random.default_rng(FLAGS.seed)
  for name in FLAGS.game:
    describe(name, rng)
  if FLAGS.cfr_iterations:
    game = pyspiel.load_game("river_poker(min_rank=11,board=JcQdKhAsJd)")
    solver = pyspiel.CFRSolver(game)
    start = time.perf_counter()
    for _ in range(FLAGS.cfr_iterations):
      solver.evaluate_and_update_policy()
    print(f"\n== OpenSpiel's C++ CFR on {game}")
    print(f"{FLAGS.cfr_iterations} iterations in "
          f"{time.perf_counter() - start:.1f} s, exploitability "
          f"{pyspiel.exploitability(game, solver.average_policy()):.4f}")


if __name__ == "__main__":
  run_flags.run(main)
