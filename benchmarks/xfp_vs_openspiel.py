"""Our array XFP against OpenSpiel's `fictitious_play.XFPSolver`, one run.

Both start from the uniform strategy and run the same number of iterations;
the table gives each one's time per iteration, the speed ratio, both final
exploitabilities (each measured by OpenSpiel's Python tool), and the first
iteration at which the two averages differ, with the reason: whether the
best responses there differ only at information states whose action values
are tied (equal to 1e-12), where either choice is a valid XFP step.

  python benchmarks/xfp_vs_openspiel.py --games kuhn_poker,leduc_poker \\
      --iterations 100
"""

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
flags.DEFINE_list("games", ["kuhn_poker", "leduc_poker"], "Games to compare.")
flags.DEFINE_integer("iterations", 100, "Iterations of each solver.")


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
  for player in (0, 1):
    response = py_best_response.BestResponsePolicy(game, player,
                                                   average_policy)
    for key, infoset in response.infosets.items():
      values = [sum(p * response.q_value(s, a) for s, p in infoset)
                for a in infoset[0][0].legal_actions()]
      if len(values) > 1 and np.sort(values)[-1] - np.sort(values)[-2] < 1e-12:
        tied.append(key)
  return tied


def compare(name, iterations):
  game = pyspiel.load_game(name)
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
  ours_value = py_exploitability.exploitability(game, ours.average_policy())
  theirs_value = py_exploitability.exploitability(game,
                                                  theirs.average_policy())
  return dict(game=name, ours_ms=1e3 * ours_seconds / iterations,
              theirs_ms=1e3 * theirs_seconds / iterations,
              ratio=theirs_seconds / ours_seconds, ours=ours_value,
              theirs=theirs_value, first_difference=first_difference,
              reason=reason)


def main(argv):
  del argv
  print(f"{FLAGS.iterations} iterations from the uniform strategy")
  print(f"{'game':12s} {'ours ms/it':>10s} {'OpenSpiel ms/it':>15s} "
        f"{'speedup':>8s} {'ours expl.':>11s} {'OpenSpiel expl.':>15s}  "
        "first difference")
  for name in FLAGS.games:
    r = compare(name, FLAGS.iterations)
    print(f"{r['game']:12s} {r['ours_ms']:10.2f} {r['theirs_ms']:15.1f} "
          f"{r['ratio']:8.0f} {r['ours']:11.6f} {r['theirs']:15.6f}  "
          f"{r['first_difference'] or 'never'} ({r['reason']})", flush=True)


if __name__ == "__main__":
  app.run(main)
