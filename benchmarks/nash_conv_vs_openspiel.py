"""Our NashConv on arrays against OpenSpiel's `exploitability.nash_conv`.

For games of more than two players `evaluation.nash_conv` computes the best
responses and on-policy values on the game's `NPlayerSequenceForm` (compiled
once per game, then cached); OpenSpiel's Python tool walks the tree once per
player. For each game and profile (uniform, a random behavioural profile,
and the average policy of freshly made NFSP agents, a neural profile
tabulated as the training run tabulates it) both are timed side by side,
interleaved (ours, then OpenSpiel's); the table gives both values, their
difference, our time with the form cached, the form's one-off compile, and
OpenSpiel's time with the ratio to ours. On `leduc_poker(players=3)`
OpenSpiel takes minutes a profile.

  python benchmarks/nash_conv_vs_openspiel.py \\
      --games "kuhn_poker(players=3),leduc_poker(players=3)"
"""

import time

from absl import app
from absl import flags
import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability as py_exploitability

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.evaluation import best_responses

FLAGS = flags.FLAGS
flags.DEFINE_list("games", ["kuhn_poker(players=3)", "leduc_poker(players=3)"],
                  "Games of more than two players (a list: no commas inside "
                  "a game string).")
flags.DEFINE_list("profiles", ["uniform", "random", "nfsp"],
                  "Profiles to evaluate: uniform, random, nfsp.")


def profile(game, kind):
  """A `TabularPolicy` over every information state of `game`."""
  if kind == "uniform":
    return policy_lib.TabularPolicy(game)
  if kind == "random":
    form = best_responses.n_player_form(str(game))
    rng = np.random.default_rng(0)
    tabular = form.to_tabular([form.random_strategy(p, rng)
                               for p in range(game.num_players())])
    del tabular.sequence_form  # read as any table, as the run's are
    return tabular
  if kind == "nfsp":
    from nfsp_spiel import nfsp  # pylint: disable=import-outside-toplevel
    agents = nfsp.agents_for(game, nfsp.NFSPConfig.leduc(), seed=0)
    return nfsp.NFSPPolicy(game, agents).to_tabular()
  raise ValueError(f"unknown profile {kind}")


def main(argv):
  del argv
  print("| game | profile | ours | OpenSpiel | difference | ours (s) | "
        "compile (s) | OpenSpiel (s) | ratio |")
  print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
  for name in FLAGS.games:
    game = pyspiel.load_game(name)
    start = time.perf_counter()
    best_responses.n_player_form(str(game))
    compile_seconds = time.perf_counter() - start
    for kind in FLAGS.profiles:
      tabular = profile(game, kind)
      start = time.perf_counter()
      ours = evaluation.nash_conv(game, tabular)
      ours_seconds = time.perf_counter() - start
      start = time.perf_counter()
      theirs = py_exploitability.nash_conv(game, tabular)
      theirs_seconds = time.perf_counter() - start
      print(f"| {name} | {kind} | {ours:.12f} | {theirs:.12f} | "
            f"{abs(ours - theirs):.1e} | {ours_seconds:.3f} | "
            f"{compile_seconds:.1f} | {theirs_seconds:.1f} | "
            f"{theirs_seconds / ours_seconds:.0f}x |", flush=True)


if __name__ == "__main__":
  app.run(main)
