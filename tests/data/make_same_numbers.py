"""Short seeded runs of every algorithm, and the values they gave at 8b7cd09.

`tests/data/same_numbers.json` was written by this file from a pristine
checkout of commit 8b7cd09 (main before the layered redesign), not from a
working tree:

    git -C /work/main worktree add /tmp/base_8b7cd09 8b7cd09
    cd /work/main && . .venv/bin/activate
    NFSP_SPIEL_BASE=/tmp/base_8b7cd09 PYTHONPATH=/tmp/base_8b7cd09 \\
        nice python tests/data/make_same_numbers.py

(the script refuses to write unless `nfsp_spiel` is imported from
$NFSP_SPIEL_BASE). `tests/test_same_numbers.py` imports this file and runs
the very same `CASES` with the current code. Modules go by their layered
names, which `import_from_base` lends to the base's modules
(`old_names.alias_layered_names`). Only names that the redesign keeps public
are used: `nfsp.NFSP`/`NFSPConfig`/`agents_for`/`NFSPPolicy`,
`selfplay.SelfPlay`, the solver classes and `evaluation`'s functions.

Floats are summarised by sums (compared with rel 1e-6), integer tables by
exact SHA-256 digests and totals. Nothing here is left out for being
nondeterministic: two generator runs at 8b7cd09 wrote byte-identical JSON
(TensorFlow on CPU, seeded numpy generators, no threads racing), and the
current code reproduces it.
"""

import hashlib
import inspect
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import old_names  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position

JSON_PATH = os.path.join(HERE, "same_numbers.json")
COMMIT = "8b7cd09"


# ---- summaries ----

def float_summary(arrays):
  """[sum, sum of squares, a position-weighted sum] over `arrays`."""
  flat = np.concatenate([np.asarray(a, np.float64).ravel() for a in arrays])
  weights = (np.arange(flat.size) % 13) - 6.0
  return [float(flat.sum()), float((flat**2).sum()), float(flat @ weights)]


def int_digest(array):
  """Exact digest of an integer-valued table (shape and values)."""
  array = np.asarray(array)
  as_int = array.astype(np.int64)
  assert np.array_equal(as_int, array), "not integer-valued"
  return {"shape": list(as_int.shape), "total": int(as_int.sum()),
          "sha256": hashlib.sha256(as_int.tobytes()).hexdigest()}


def network_weights(agent):
  """Both networks' weights of an NFSP agent (best response, average)."""
  return (list(agent.best_response_learner.weights) +
          list(agent.average_network.numpy_weights()))


def losses(agent):
  return {k: float(v) for k, v in sorted(agent.losses.items())}


# ---- the runs ----

def _game(name):
  import pyspiel  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  return pyspiel.load_game(name)


def xfp_kuhn():
  from nfsp_spiel.fictitious_play import xfp  # pylint: disable=g-import-not-at-top
  solver = xfp.XFPSolver(_game("kuhn_poker"))
  values = []
  for _ in range(12):
    solver.iteration()
    values.append(solver.exploitability())
  return {"exploitability": values, "iterations": solver.iterations}


def xfp_leduc():
  from nfsp_spiel.fictitious_play import xfp  # pylint: disable=g-import-not-at-top
  game = _game("leduc_poker")
  out = {}
  for rule in ("xfp", "hendon", "gfp"):
    solver = xfp.XFPSolver(game, stepsize=rule)
    values = []
    for _ in range(4):
      solver.iteration()
      values.append(solver.exploitability())
    out[rule] = values
  solver = xfp.XFPSolver(game, initial_strategy="random", seed=1)
  for _ in range(3):
    solver.iteration()
  out["random_start"] = [solver.exploitability(),
                         float_summary(solver.strategies)]
  return out


def fsp_kuhn():
  from nfsp_spiel.fictitious_play import fsp  # pylint: disable=g-import-not-at-top
  solver = fsp.FSPSolver(_game("kuhn_poker"), seed=0)
  values = []
  for _ in range(3):
    for _ in range(200):
      solver.iteration()
    values.append(solver.exploitability())
  return {"exploitability": values, "episodes": solver.episodes,
          "q": float_summary([l.q for l in solver.learners]),
          "counts": float_summary([m.counts for m in solver.average_models])}


def fsp_leduc():
  from nfsp_spiel.fictitious_play import fsp  # pylint: disable=g-import-not-at-top
  solver = fsp.FSPSolver(_game("nfsp_leduc"), seed=1, memory_episodes=300)
  for _ in range(400):
    solver.iteration()
  return {"exploitability": solver.exploitability(),
          "episodes": solver.episodes, "state_visits": solver.state_visits,
          "q": float_summary([l.q for l in solver.learners]),
          "counts": float_summary([m.counts for m in solver.average_models])}


def one_thread(search_class):
  """`threads=1` where a search has threads (since searches took threads; before, every
  search ran on one): the seeded run, the same at every commit."""
  parameters = inspect.signature(search_class.__init__).parameters
  return {"threads": 1} if "threads" in parameters else {}


def smooth_uct_leduc():
  from nfsp_spiel import smooth_uct  # pylint: disable=g-import-not-at-top
  search = smooth_uct.SmoothUCT(
      _game("leduc_poker"), old_names.smooth_uct_preset(smooth_uct, "leduc"),
      seed=2, **one_thread(smooth_uct.SmoothUCT))
  search.run(6_000)
  return {"exploitability": search.exploitability(),
          "episodes": search.episodes,
          "counts": int_digest(search.counts),
          "action_counts": int_digest(search.action_counts),
          "q": float_summary([search.q])}


def smooth_uct_lhe():
  from nfsp_spiel.poker import board_buckets  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.smooth_uct import lhe  # pylint: disable=g-import-not-at-top
  search = lhe.SmoothUCTLHE(_game("nfsp_lhe"), seed=4,
                            tables=board_buckets.stand_ins(),
                            **one_thread(lhe.SmoothUCTLHE))
  search.run(1_500)
  return {"episodes": search.episodes,
          "counts": int_digest(search.counts),
          "action_counts": int_digest(search.action_counts),
          "q": float_summary([search.q])}


def _small_dqn(**changes):
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  settings = dict(rl_memory_capacity=5000, sl_memory_capacity=20000,
                  learn_every=16, batch_size=32, min_memory_to_learn=32,
                  anticipatory=0.3)
  settings.update(changes)
  # Through the Leduc preset (the plain defaults, `cls(**changes)` at
  # 8b7cd09): the redesign's NFSPConfig no longer takes the flat learner
  # names (rl_memory_capacity) in its constructor, only in presets and
  # `replace`; test_same_numbers checks the constructor on its own.
  return nfsp.NFSPConfig.leduc(**settings)


def _nfsp_summary(game, agents):
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  out = {}
  for kind in ("average", "greedy_average", "best_response"):
    out["exploitability_" + kind] = evaluation.exploitability(
        game, nfsp.NFSPPolicy(game, agents, kind).to_tabular())
  for p, agent in enumerate(agents):
    out[f"losses_{p}"] = losses(agent)
    out[f"weights_{p}"] = float_summary(network_weights(agent))
    out[f"counters_{p}"] = [int(agent.steps), int(agent.episodes)]
  return out


def nfsp_selfplay_leduc():
  """NFSP (DQN) through the batched driver."""
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = _game("leduc_poker")
  agents = nfsp.agents_for(game, _small_dqn(), seed=2)
  driver = selfplay.SelfPlay(game, agents, num_games=16, seed=3)
  driver.play(1_500)
  out = _nfsp_summary(game, agents)
  out["driver_episodes"] = int(driver.episodes)
  return out


def nfsp_selfplay_kuhn_leduc_preset():
  """The shipped Leduc preset (reservoir M_SL, polynomial epsilon, torch
  initialisation, reward scaling) on Kuhn, learning early."""
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = _game("kuhn_poker")
  config = nfsp.NFSPConfig.leduc(min_memory_to_learn=64,
                                 rl_memory_capacity=4000,
                                 sl_memory_capacity=4000, learn_every=64,
                                 hidden_layers=(16,))
  agents = nfsp.agents_for(game, config, seed=0)
  selfplay.SelfPlay(game, agents, num_games=32, seed=0).play(1_500)
  return _nfsp_summary(game, agents)


def _rl_environment_play(game, agents, episodes, seed):
  from open_spiel.python import rl_environment  # pylint: disable=g-import-not-at-top
  env = rl_environment.Environment(
      game, chance_event_sampler=rl_environment.ChanceEventSampler(seed))
  for _ in range(episodes):
    time_step = env.reset()
    while not time_step.last():
      player = time_step.observations["current_player"]
      time_step = env.step([agents[player].step(time_step).action])
    for agent in agents:
      agent.step(time_step)


def nfsp_rl_environment_leduc():
  """NFSP (DQN) through OpenSpiel's rl_environment and the agents' `step`."""
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  game = _game("leduc_poker")
  agents = nfsp.agents_for(game, _small_dqn(), seed=1)
  _rl_environment_play(game, agents, 500, seed=3)
  return _nfsp_summary(game, agents)


def _small_arm():
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  return nfsp.NFSPConfig.nfsp_arm(
      arm_iteration_steps=200, arm_updates=50, sl_memory_capacity=20_000,
      min_memory_to_learn=100, anticipatory=0.1, hidden_layers=(64,))


def nfsp_arm_selfplay_leduc():
  """NFSP-ARM through the batched driver: several ARM iterations."""
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = _game("leduc_poker")
  agents = nfsp.agents_for(game, _small_arm(), seed=5)
  selfplay.SelfPlay(game, agents, num_games=16, seed=5).play(1_400)
  out = _nfsp_summary(game, agents)
  out["arm_iterations"] = [int(a.best_response_learner.iterations.numpy())
                           for a in agents]
  return out


def nfsp_arm_rl_environment_kuhn():
  """NFSP-ARM through OpenSpiel's rl_environment."""
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  game = _game("kuhn_poker")
  agents = nfsp.agents_for(game, _small_arm(), seed=0)
  _rl_environment_play(game, agents, 300, seed=1)
  out = _nfsp_summary(game, agents)
  out["arm_iterations"] = [int(a.best_response_learner.iterations.numpy())
                           for a in agents]
  return out


def evaluation_functions():
  """Exact evaluation of a fixed, non-trivial Leduc policy (XFP's average
  after two iterations from a random start) and of Kuhn's uniform policy."""
  from open_spiel.python import policy as policy_lib  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.fictitious_play import xfp  # pylint: disable=g-import-not-at-top
  out = {}
  for name in ("leduc_poker", "kuhn_poker"):
    game = _game(name)
    if name == "leduc_poker":
      solver = xfp.XFPSolver(game, initial_strategy="random", seed=3)
      for _ in range(2):
        solver.iteration()
      policy = solver.average_policy()
    else:
      policy = policy_lib.UniformRandomPolicy(game)
    out[name] = {
        "exploitability": float(evaluation.exploitability(game, policy)),
        "nash_conv": float(evaluation.nash_conv(game, policy)),
        "best_response_values": np.asarray(
            evaluation.best_response_values(game, policy),
            np.float64).ravel().tolist(),
        "seat_values": np.asarray(evaluation.seat_values(game, policy),
                                  np.float64).ravel().tolist()}
  return out


CASES = {f.__name__: f for f in (
    xfp_kuhn, xfp_leduc, fsp_kuhn, fsp_leduc, smooth_uct_leduc,
    smooth_uct_lhe, nfsp_selfplay_leduc, nfsp_selfplay_kuhn_leduc_preset,
    nfsp_rl_environment_leduc, nfsp_arm_selfplay_leduc,
    nfsp_arm_rl_environment_kuhn, evaluation_functions)}


def jsonable(value):
  """Plain JSON types (numpy scalars, tuples) for comparison and writing."""
  return json.loads(json.dumps(value, default=lambda x: x.item()))


def import_from_base():
  """Imports `nfsp_spiel` (and its `games`) from $NFSP_SPIEL_BASE only.

  The venv's editable install maps `nfsp_spiel.games` to the working tree's
  games/ folder, which the base's package would otherwise pick up: that
  finder is removed first."""
  sys.meta_path[:] = [f for f in sys.meta_path
                      if "__editable__" not in getattr(f, "__module__", "")
                      and "__editable__" not in repr(f)]
  import nfsp_spiel  # pylint: disable=g-import-not-at-top
  base = os.path.abspath(os.environ.get("NFSP_SPIEL_BASE", "//none"))
  for module in (nfsp_spiel, nfsp_spiel.games):
    if not os.path.abspath(module.__file__).startswith(base + os.sep):
      sys.exit(f"{module.__name__} comes from {module.__file__}, not from "
               f"NFSP_SPIEL_BASE={base!r}: see the docstring")
  old_names.alias_layered_names()


def read_recorded(path, commit):
  """The values a generator recorded at `path` ({} if none yet: the cases it
  is not asked to redo keep theirs), stamped with the `commit` it runs."""
  recorded = {}
  if os.path.exists(path):
    with open(path, encoding="utf-8") as f:
      recorded = json.load(f)
  recorded["_commit"] = commit
  return recorded


def write_recorded(path, recorded):
  """Writes `recorded` where the tests read it, one value a line."""
  with open(path, "w", encoding="utf-8") as f:
    json.dump(recorded, f, indent=1, sort_keys=True)
    f.write("\n")


def main(names):
  import time  # pylint: disable=g-import-not-at-top
  import_from_base()
  recorded = read_recorded(JSON_PATH, COMMIT)
  for name in names or CASES:
    start = time.time()
    recorded[name] = jsonable(CASES[name]())
    print(f"{name}: {time.time() - start:.1f} s", flush=True)
    write_recorded(JSON_PATH, recorded)


if __name__ == "__main__":
  main(sys.argv[1:])
