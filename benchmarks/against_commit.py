"""This tree's speed against another commit's, side by side in one run.

For a change that must not cost speed (every benchmark within noise of the
commit before it), each workload below is the timed loop of
one of this folder's benchmarks, at a fixed size: NFSP on Leduc through the
batched driver and through OpenSpiel's single-game `step` (nfsp_episodes.py),
NFSP-ARM on Leduc, NFSP on Limit Hold'em (lhe_episodes.py; and its game
steps/s as the tree's binary arranges it, with the preset's precision and
in float32: issue 47's side-by-side), LBR's batched
range queries (lbr_speed.py), Smooth UCT on Leduc (smooth_uct_vs_openspiel.py)
and on two- and three-player Limit Hold'em with stand-in bucket tables
(smooth_uct_lhe.py, smooth_uct_lhe3.py), XFP and
FSP on Leduc (xfp_vs_openspiel.py, fsp_episodes.py), River poker's exact best
response (river_best_response.py) and stepping games (env_steps.py).

`--base COMMIT` is checked out into a temporary git worktree; each workload
runs in a fresh process per tree, the two trees alternating `--rounds` times
(machine drift hits both alike); the table gives each tree's median rate and
their ratio. A workload's process imports `nfsp_spiel` and its games from its
tree only (an editable install's mapping of `nfsp_spiel.games` to this
checkout is removed first). The distributed driver (Ray) is left out: its
actors run the same batched driver timed here.

    python benchmarks/against_commit.py --base 8b7cd09 [--workloads a,b]
"""

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Runs inside a workload's process, before anything of the package: import
# `nfsp_spiel` from TREE alone, its modules under their layered names also
# where TREE predates the layers (tests/data/old_names.py).
_BOOTSTRAP = f"""
import os, sys
tree = os.environ["AGAINST_COMMIT_TREE"]
sys.meta_path[:] = [f for f in sys.meta_path
                    if "__editable__" not in getattr(f, "__module__", "")]
sys.path.insert(0, tree)
import nfsp_spiel
assert nfsp_spiel.__file__.startswith(tree), nfsp_spiel.__file__
assert nfsp_spiel.games.__file__.startswith(tree), nfsp_spiel.games.__file__
sys.path.insert(0, {os.path.join(ROOT, "tests", "data")!r})
import old_names
old_names.alias_layered_names()
"""


def _timed(function, work):
  """Work units per second of `function()`, which does `work` units."""
  import time  # pylint: disable=g-import-not-at-top
  started = time.perf_counter()
  function()
  return work / (time.perf_counter() - started)


def _median_window(function, work, windows=5):
  """The median rate of `windows` calls of `function()`, each doing `work`
  units: a new call shape's XLA compile (~2 s, against windows of a few
  seconds) lands in one window and moves the median little."""
  import statistics as stats  # pylint: disable=g-import-not-at-top
  return stats.median(_timed(function, work) for _ in range(windows))


# Memory settings took OpenSpiel's names in the redesign (`nfsp.config.
# RENAMED_FIELDS`, old -> new); a tree from before it knows the old ones.
_OLD_NAMES = {"replay_buffer_capacity": "rl_memory_capacity",
              "reservoir_buffer_capacity": "sl_memory_capacity"}


def _lhe_config(nfsp, **fields):
  """`nfsp.NFSPConfig.lhe(**fields)` in this tree or an older one."""
  try:
    return nfsp.NFSPConfig.lhe(**fields)
  except TypeError:
    return nfsp.NFSPConfig.lhe(**{_OLD_NAMES.get(k, k): v
                                  for k, v in fields.items()})


def nfsp_leduc_batched():
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("leduc_poker")
  loop = selfplay.SelfPlay(game, nfsp.agents_for(game, nfsp.NFSPConfig.leduc()),
                           num_games=128)
  loop.play(10_000)  # learning started, the common call shapes compiled
  return _median_window(lambda: loop.play(10_000), 10_000)


def nfsp_arm_leduc_batched():
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("leduc_poker")
  loop = selfplay.SelfPlay(game, nfsp.agents_for(
      game, nfsp.NFSPConfig.nfsp_arm()), num_games=128)
  loop.play(10_000)
  return _median_window(lambda: loop.play(5_000), 5_000)


def nfsp_leduc_single_game():
  import pyspiel  # pylint: disable=g-import-not-at-top
  from open_spiel.python import rl_environment  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  env = rl_environment.Environment(pyspiel.load_game("leduc_poker"))
  agents = nfsp.agents_for(env.game, nfsp.NFSPConfig.leduc())

  def play(episodes):
    for _ in range(episodes):
      time_step = env.reset()
      while not time_step.last():
        player = time_step.observations["current_player"]
        time_step = env.step([agents[player].step(time_step).action])
      for agent in agents:
        agent.step(time_step)

  play(2000)
  return _timed(lambda: play(4000), 4000)


def nfsp_lhe_batched():
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  config = _lhe_config(nfsp, replay_buffer_capacity=50_000,
                       reservoir_buffer_capacity=200_000)
  loop = selfplay.SelfPlay(game, nfsp.agents_for(game, config), num_games=128)
  loop.play(1500)
  return _timed(lambda: loop.play(1500), 1500)


def _lhe_game_steps(precision=None):
  """Game steps/s of `NFSPConfig.lhe()` self-play arranged as the tree's
  `examples/nfsp.py` arranges it (learning groups, learning in the
  background, TensorFlow's threads), where the tree has those, with
  `precision` where the tree has a choice (None: the preset's)."""
  import statistics as stats  # pylint: disable=g-import-not-at-top
  import time  # pylint: disable=g-import-not-at-top
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  memories = dict(replay_buffer_capacity=50_000,
                  reservoir_buffer_capacity=200_000)
  try:
    config = _lhe_config(nfsp, **memories, **(
        {} if precision is None else {"precision": precision}))
  except TypeError:  # a tree without the choice: float32
    config = _lhe_config(nfsp, **memories)
  settings = {}
  try:
    from nfsp_spiel.run import nfsp_training  # pylint: disable=g-import-not-at-top
    from nfsp_spiel.core import hardware  # pylint: disable=g-import-not-at-top
  except ImportError:  # before the layers: one call per lockstep
    pass
  else:
    settings["learn_locksteps"] = nfsp_training.learn_locksteps(game)
    if hasattr(nfsp_training, "background_learning"):
      settings["background_learning"] = nfsp_training.background_learning(
          game)
    if hasattr(hardware, "set_learning_threads"):
      hardware.set_learning_threads(config.precision, game.num_players())
  agents = nfsp.agents_for(game, config)
  loop = selfplay.SelfPlay(game, agents, num_games=128, **settings)
  loop.play(3000)  # learning started, the common call shapes compiled
  loop.play(2000)

  def steps():
    return sum(agent.steps for agent in agents)

  def window():
    before, started = steps(), time.perf_counter()
    while time.perf_counter() - started < 20:  # pieces as long as a
      loop.play(2000)  # run's: background calls are taken at each end
    return (steps() - before) / (time.perf_counter() - started)

  return stats.median(window() for _ in range(3))


def nfsp_lhe_game_steps():
  return _lhe_game_steps()


def nfsp_lhe_game_steps_float32():
  return _lhe_game_steps("float32")


def lbr_range_queries():
  import numpy as np  # pylint: disable=g-import-not-at-top
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  agents = nfsp.agents_for(game, _lhe_config(
      nfsp, replay_buffer_capacity=1000, reservoir_buffer_capacity=1000))
  policy = nfsp.NFSPPolicy(game, agents)
  state = game.new_initial_state()
  while state.is_chance_node():
    state.apply_action(state.legal_actions()[0])
  holdings = np.array([[a, b] for a in range(52) for b in range(a + 1, 52)])
  policy.holding_probabilities(state, 1, holdings)
  return _timed(lambda: [policy.holding_probabilities(state, 1, holdings)
                         for _ in range(30)], 30)


def _one_thread(search_class):
  """`threads=1` where the search has threads: one core's rate, as the
  commits before threads ran."""
  parameters = inspect.signature(search_class.__init__).parameters
  return {"threads": 1} if "threads" in parameters else {}


def smooth_uct_leduc():
  import pyspiel  # pylint: disable=g-import-not-at-top
  import old_names  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import smooth_uct  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("leduc_poker")
  search = smooth_uct.SmoothUCT(
      game, old_names.smooth_uct_preset(smooth_uct, "leduc"), seed=0,
      **_one_thread(smooth_uct.SmoothUCT))
  search.run(1000)
  return _timed(lambda: search.run(2_000_000), 2_000_000)


def smooth_uct_lhe():
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.smooth_uct import lhe  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.poker import board_buckets  # pylint: disable=g-import-not-at-top
  search = lhe.SmoothUCTLHE(pyspiel.load_game("nfsp_lhe"), seed=0,
                            tables=board_buckets.stand_ins(),
                            **_one_thread(lhe.SmoothUCTLHE))
  search.run(1000)
  return _timed(lambda: search.run(5_000_000), 5_000_000)


def smooth_uct_lhe3():
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.poker import board_buckets  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.smooth_uct import lhe3  # pylint: disable=g-import-not-at-top
  search = lhe3.SmoothUCTLHE3(pyspiel.load_game("nfsp_lhe3"), seed=0,
                              tables=board_buckets.stand_ins(), threads=1)
  search.run(1000)
  return _timed(lambda: search.run(2_000_000), 2_000_000)


def xfp_leduc():
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.fictitious_play import xfp  # pylint: disable=g-import-not-at-top
  solver = xfp.XFPSolver(pyspiel.load_game("leduc_poker"))
  solver.iteration()
  return _timed(lambda: [solver.iteration() for _ in range(200)], 200)


def fsp_leduc():
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.fictitious_play import fsp  # pylint: disable=g-import-not-at-top
  solver = fsp.FSPSolver(pyspiel.load_game("nfsp_leduc"), seed=0,
                         memory_episodes=2000)
  for _ in range(5):
    solver.iteration()
  return _timed(lambda: [solver.iteration() for _ in range(20)], 20)


def river_best_response():
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("river_poker(min_rank=11,board=JcQdKhAsJd)")
  policy = evaluation.public_tree_tabular(game, lambda s: {1: 1.0})
  evaluation.exploitability(game, policy)
  return _timed(lambda: [evaluation.exploitability(game, policy)
                         for _ in range(5)], 5)


def game_steps():
  import numpy as np  # pylint: disable=g-import-not-at-top
  import pyspiel  # pylint: disable=g-import-not-at-top
  rng = np.random.default_rng(0)
  games = [pyspiel.load_game(name) for name in ("nfsp_leduc", "nfsp_lhe")]

  def play(episodes):
    for game in games:
      for _ in range(episodes):
        state = game.new_initial_state()
        while not state.is_terminal():
          actions = state.legal_actions()
          state.apply_action(actions[rng.integers(len(actions))])

  play(100)
  return _timed(lambda: play(1000), 2000)


WORKLOADS = {f.__name__: f for f in (
    nfsp_leduc_batched, nfsp_arm_leduc_batched, nfsp_leduc_single_game,
    nfsp_lhe_batched, nfsp_lhe_game_steps, nfsp_lhe_game_steps_float32,
    lbr_range_queries, smooth_uct_leduc, smooth_uct_lhe,
    smooth_uct_lhe3, xfp_leduc, fsp_leduc, river_best_response, game_steps)}
UNITS = {"nfsp_leduc_batched": "episodes/s", "nfsp_arm_leduc_batched":
         "episodes/s", "nfsp_leduc_single_game": "episodes/s",
         "nfsp_lhe_batched": "episodes/s", "nfsp_lhe_game_steps":
         "game steps/s", "nfsp_lhe_game_steps_float32": "game steps/s",
         "lbr_range_queries": "queries/s",
         "smooth_uct_leduc": "episodes/s", "smooth_uct_lhe": "episodes/s",
         "smooth_uct_lhe3": "episodes/s", "xfp_leduc": "iterations/s", "fsp_leduc": "iterations/s",
         "river_best_response": "evaluations/s", "game_steps": "episodes/s"}


def _run(tree, workload):
  """The workload's rate, measured in a fresh process importing `tree`."""
  code = (_BOOTSTRAP + f"\nimport json, sys\nsys.path.insert(0, {HERE!r})\n"
          "import against_commit\n"
          f"print('RATE', json.dumps(against_commit.{workload}()))\n")
  result = subprocess.run(
      [sys.executable, "-c", code], capture_output=True, text=True,
      env={**os.environ, "AGAINST_COMMIT_TREE": tree}, check=False)
  lines = [l for l in result.stdout.splitlines() if l.startswith("RATE ")]
  if result.returncode or not lines:
    raise RuntimeError(f"{workload} in {tree} failed:\n{result.stderr[-3000:]}")
  return json.loads(lines[-1][5:])


def _rounds(rates):
  """Each round's rate, so the table shows the spread behind its medians."""
  return " ".join(f"{rate:,.0f}" for rate in rates)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--base", required=True, help="commit to compare with")
  parser.add_argument("--workloads", default=",".join(WORKLOADS))
  parser.add_argument("--rounds", type=int, default=3)
  args = parser.parse_args()
  workloads = args.workloads.split(",")
  unknown = sorted(set(workloads) - set(WORKLOADS))
  if unknown:
    parser.error(f"--workloads: {unknown} not among {sorted(WORKLOADS)}")
  with tempfile.TemporaryDirectory() as folder:
    base = os.path.join(folder, "base")
    subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", "-q",
                    base, args.base], check=True)
    try:
      print(f"| workload | unit | {args.base} | this tree | ratio | "
            "rounds (base / this tree) |")
      print("|---|---|---:|---:|---:|---|")
      for workload in workloads:
        rates = {base: [], ROOT: []}
        for _ in range(args.rounds):
          for tree in (base, ROOT):
            rates[tree].append(_run(tree, workload))
        old, new = (statistics.median(rates[t]) for t in (base, ROOT))
        print(f"| {workload} | {UNITS[workload]} | {old:,.1f} | {new:,.1f} | "
              f"{new / old:.3f} | {_rounds(rates[base])} / "
              f"{_rounds(rates[ROOT])} |", flush=True)
    finally:
      subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force",
                      base], check=False)


if __name__ == "__main__":
  main()
