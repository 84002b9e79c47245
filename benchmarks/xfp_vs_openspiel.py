"""Our array XFP against OpenSpiel's `fictitious_play.XFPSolver`, side by side.

Both start from the uniform strategy and run the same number of iterations,
interleaved (one of ours, one of OpenSpiel's), `--rounds` times afresh; the
table gives each one's median time per iteration over the rounds, the speed
ratio (its range over the rounds in brackets), both final measures (each
by OpenSpiel's Python tool: exploitability for two players, NashConv
beyond), the largest difference of the two average policies at the end, and
the first iteration at which they differ by more than 1e-9, with the reason:
whether the best responses there differ only at information states whose
action values are tied (equal to 1e-12), where either choice is a valid XFP
step. On three-player Leduc (1.8M histories) OpenSpiel's solver takes
minutes an iteration: give it few iterations and one round.

  python benchmarks/xfp_vs_openspiel.py \\
      --games "kuhn_poker,leduc_poker,kuhn_poker(players=3)" --iterations 100
  python benchmarks/xfp_vs_openspiel.py --games "leduc_poker(players=3)" \\
      --iterations 2 --rounds 1
"""

import statistics
import time

from absl import app
from absl import flags
import numpy as np
import pyspiel
from open_spiel.python.algorithms import best_response as py_best_response
from open_spiel.python.algorithms import exploitability as py_exploitability
from open_spiel.python.algorithms import fictitious_play

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import xfp

FLAGS = flags.FLAGS
# Game strings hold commas ("leduc_poker(players=3,...)"): split at the
# commas outside parentheses.
flags.DEFINE_string("games", "kuhn_poker,leduc_poker,kuhn_poker(players=3)",
                    "Games to compare, comma-separated.")
flags.DEFINE_integer("iterations", 100, "Iterations of each solver.")
flags.DEFINE_integer("rounds", 1, "Fresh runs of both solvers per game.")


def _game_strings(text):
  games, depth, start = [], 0, 0
  for i, character in enumerate(text + ","):
    depth += {"(": 1, ")": -1}.get(character, 0)
    if character == "," and depth == 0:
      games.append(text[start:i].strip())
      start = i + 1
  return [game for game in games if game]


def _measure(game, policy):
  """OpenSpiel's measure: exploitability for two players, NashConv beyond."""
  if game.num_players() == 2:
    return py_exploitability.exploitability(game, policy)
  return py_exploitability.nash_conv(game, policy)


def _max_difference(ours, theirs):
  average = ours.average_policy()
  worst = 0.0
  for key, row in average.state_lookup.items():
    state = average.states[row]
    probs = theirs.average_policy().action_probabilities(state)
    worst = max(worst, max(abs(average.action_probability_array[row][a] - p)
                           for a, p in probs.items()))
  return worst


def _tied_best_response_states(game, average_policy):
  """Information states whose best-response action values tie (1e-12)."""
  tied = []
  for player in range(game.num_players()):
    response = py_best_response.BestResponsePolicy(game, player,
                                                   average_policy)
    for key, infoset in response.infosets.items():
      values = [sum(p * response.q_value(s, a) for s, p in infoset)
                for a in infoset[0][0].legal_actions()]
      if len(values) > 1 and np.sort(values)[-1] - np.sort(values)[-2] < 1e-12:
        tied.append(key)
  return tied


def compare(game, iterations):
  """One fresh run of both solvers, interleaved by iteration."""
  ours, theirs = xfp.XFPSolver(game), fictitious_play.XFPSolver(game)
  ours_seconds = theirs_seconds = 0.0
  first_difference, reason = None, "none"
  for iteration in range(1, iterations + 1):
    before = ours.average_policy()
    start = time.perf_counter()
    ours.iteration()
    ours_seconds += time.perf_counter() - start
    start = time.perf_counter()
    theirs.iteration()
    theirs_seconds += time.perf_counter() - start
    if first_difference is None and _max_difference(ours, theirs) > 1e-9:
      first_difference = iteration
      tied = _tied_best_response_states(game, before)
      reason = (f"best-response ties at {len(tied)} states, e.g. {tied[:2]}"
                if tied else "no tie: a real difference")
  return dict(ours_ms=1e3 * ours_seconds / iterations,
              theirs_ms=1e3 * theirs_seconds / iterations,
              ours=_measure(game, ours.average_policy()),
              theirs=_measure(game, theirs.average_policy()),
              difference=_max_difference(ours, theirs),
              first_difference=first_difference, reason=reason)


def main(argv):
  del argv
  print(f"{FLAGS.iterations} iterations from the uniform strategy, "
        f"{FLAGS.rounds} round(s); measure: exploitability (2 players), "
        "NashConv (more)")
  print(f"{'game':22s} {'ours ms/it':>10s} {'OpenSpiel ms/it':>15s} "
        f"{'speedup (range)':>20s} {'ours measure':>13s} "
        f"{'OpenSpiel measure':>17s} {'max diff':>8s}  first difference")
  for name in _game_strings(FLAGS.games):
    game = pyspiel.load_game(name)
    runs = [compare(game, FLAGS.iterations) for _ in range(FLAGS.rounds)]
    ratios = [r["theirs_ms"] / r["ours_ms"] for r in runs]
    ours_ms, theirs_ms = (statistics.median(r[k] for r in runs)
                          for k in ("ours_ms", "theirs_ms"))
    r = runs[-1]  # the same trajectory every round
    speedup = (f"{statistics.median(ratios):.0f} "
               f"({min(ratios):.0f}-{max(ratios):.0f})")
    print(f"{name:22s} {ours_ms:10.2f} {theirs_ms:15.1f} {speedup:>20s} "
          f"{r['ours']:13.6f} {r['theirs']:17.6f} {r['difference']:8.1e}  "
          f"{r['first_difference'] or 'never'} ({r['reason']})", flush=True)


if __name__ == "__main__":
  app.run(main)
