"""Checkpoints written by commit 8b7cd09, and how each run continued there.

`tests/data/checkpoints_8b7cd09/` was written by this file from a pristine
checkout of commit 8b7cd09 (main before the layered redesign), not from a
working tree:

    git -C /work/main worktree add /tmp/base_8b7cd09 8b7cd09
    cd /work/main && . .venv/bin/activate
    NFSP_SPIEL_BASE=/tmp/base_8b7cd09 PYTHONPATH=/tmp/base_8b7cd09 \\
        nice python tests/data/make_old_checkpoints.py

For every case, `make(folder)` trains a tiny run with the old code and
writes its checkpoint(s) into the folder; `resume(folder)` loads them
through the public restore paths into fresh objects, continues for a few
more steps/episodes and returns summary values. The generator stores
`resume`'s values at 8b7cd09 in `expected.json`; `tests/test_old_checkpoints.py`
runs `resume` with the current code on a copy of the folder and compares.
The binary's cases run `examples/nfsp.py` (the base's here, the current one
in the test) on a run folder whose checkpoint it wrote at 400 episodes, to
600, and compare the whole curve but its wall-clock column. Regenerating
this folder gives the same values (checked twice at 8b7cd09; the binary
runs' files differ only in the clocks they store).
"""

import csv
import inspect
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_same_numbers as same  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position

FOLDER = os.path.join(HERE, "checkpoints_8b7cd09")
EXPECTED = os.path.join(FOLDER, "expected.json")
REPOSITORY = os.path.dirname(os.path.dirname(HERE))


def _tiny_dqn(**changes):
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  settings = dict(hidden_layers=(8,), rl_memory_capacity=300,
                  sl_memory_capacity=300, learn_every=16, batch_size=32,
                  min_memory_to_learn=32, anticipatory=0.3)
  settings.update(changes)
  return nfsp.NFSPConfig.leduc(**settings)  # see make_same_numbers._small_dqn


def _tiny_arm():
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  return nfsp.NFSPConfig.nfsp_arm(
      arm_iteration_steps=100, arm_updates=10, sl_memory_capacity=300,
      min_memory_to_learn=50, anticipatory=0.1, hidden_layers=(8,))


# ---- NFSP agents: NFSP.save per agent, and nfsp.save_agents ----

def nfsp_agent_save_make(folder):
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  game = same._game("kuhn_poker")  # pylint: disable=protected-access
  agents = nfsp.agents_for(game, _tiny_dqn(), seed=0)
  same._rl_environment_play(game, agents, 300, seed=0)  # pylint: disable=protected-access
  for p, agent in enumerate(agents):
    agent.save(os.path.join(folder, f"nfsp_agent_kuhn_{p}.npz"))


def nfsp_agent_save_resume(folder):
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  game = same._game("kuhn_poker")  # pylint: disable=protected-access
  agents = nfsp.agents_for(game, _tiny_dqn(), seed=7)
  for p, agent in enumerate(agents):
    agent.restore(os.path.join(folder, f"nfsp_agent_kuhn_{p}.npz"))
  before = same._nfsp_summary(game, agents)  # pylint: disable=protected-access
  same._rl_environment_play(game, agents, 150, seed=5)  # pylint: disable=protected-access
  return {"restored": before,
          "continued": same._nfsp_summary(game, agents)}  # pylint: disable=protected-access


def nfsp_save_agents_make(folder):
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  game = same._game("leduc_poker")  # pylint: disable=protected-access
  agents = nfsp.agents_for(game, _tiny_dqn(), seed=1)
  same._rl_environment_play(game, agents, 200, seed=2)  # pylint: disable=protected-access
  nfsp.save_agents(os.path.join(folder, "nfsp_agents_leduc.npz"), game,
                   agents)


def nfsp_save_agents_resume(folder):
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  game = same._game("leduc_poker")  # pylint: disable=protected-access
  agents = nfsp.agents_for(game, _tiny_dqn(), seed=8)
  nfsp.restore_agents(os.path.join(folder, "nfsp_agents_leduc.npz"), game,
                      agents)
  same._rl_environment_play(game, agents, 100, seed=6)  # pylint: disable=protected-access
  return same._nfsp_summary(game, agents)  # pylint: disable=protected-access


# ---- the batched driver: DQN (bytes and bits) and ARM ----

def _selfplay_make(folder, name, game_name, config, episodes):
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = same._game(game_name)  # pylint: disable=protected-access
  driver = selfplay.SelfPlay(game, nfsp.agents_for(game, config, seed=2),
                             num_games=16, seed=3)
  driver.play(episodes)
  driver.save(os.path.join(folder, name))


def _selfplay_resume(folder, name, game_name, config, episodes, arm=False):
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = same._game(game_name)  # pylint: disable=protected-access
  agents = nfsp.agents_for(game, config, seed=99)
  path = os.path.join(folder, name)
  if isinstance(inspect.getattr_static(selfplay.SelfPlay, "restore"),
                classmethod):  # the layered convention: a new, resumed driver
    driver = selfplay.SelfPlay.restore(game, path, agents, num_games=16,
                                       seed=3)
  else:  # 8b7cd09: in place
    driver = selfplay.SelfPlay(game, agents, num_games=16, seed=3)
    driver.restore(path)
  restored = int(driver.episodes)
  driver.play(episodes)
  out = same._nfsp_summary(game, agents)  # pylint: disable=protected-access
  out["episodes"] = [restored, int(driver.episodes)]
  if arm:  # (the config's layout is what the redesign changes)
    out["arm_iterations"] = [
        int(a.best_response_learner.iterations.numpy()) for a in agents]
  return out


def selfplay_dqn_make(folder):
  _selfplay_make(folder, "selfplay_dqn_leduc.npz", "leduc_poker",
                 _tiny_dqn(), 600)


def selfplay_dqn_resume(folder):
  return _selfplay_resume(folder, "selfplay_dqn_leduc.npz", "leduc_poker",
                          _tiny_dqn(), 400)


def selfplay_dqn_bits_make(folder):
  _selfplay_make(folder, "selfplay_dqn_bits_kuhn.npz", "kuhn_poker",
                 _tiny_dqn(memory_dtype="bits"), 600)


def selfplay_dqn_bits_resume(folder):
  return _selfplay_resume(folder, "selfplay_dqn_bits_kuhn.npz", "kuhn_poker",
                          _tiny_dqn(memory_dtype="bits"), 400)


def selfplay_arm_make(folder):
  _selfplay_make(folder, "selfplay_arm_leduc.npz", "leduc_poker",
                 _tiny_arm(), 500)


def selfplay_arm_resume(folder):
  return _selfplay_resume(folder, "selfplay_arm_leduc.npz", "leduc_poker",
                          _tiny_arm(), 400, arm=True)


# ---- XFP, FSP, Smooth UCT ----

XFP_SETTINGS = dict(initial_strategy="random", seed=2)


def xfp_make(folder):
  from nfsp_spiel.fictitious_play import xfp  # pylint: disable=g-import-not-at-top
  solver = xfp.XFPSolver(same._game("leduc_poker"), **XFP_SETTINGS)  # pylint: disable=protected-access
  for _ in range(3):
    solver.iteration()
  solver.save(os.path.join(folder, "xfp_leduc.npz"))


def xfp_resume(folder):
  from nfsp_spiel.fictitious_play import xfp  # pylint: disable=g-import-not-at-top
  solver = xfp.XFPSolver.restore(same._game("leduc_poker"),  # pylint: disable=protected-access
                                 os.path.join(folder, "xfp_leduc.npz"),
                                 **XFP_SETTINGS)
  values = [solver.exploitability()]
  for _ in range(2):
    solver.iteration()
    values.append(solver.exploitability())
  return {"exploitability": values, "iterations": solver.iterations,
          "strategies": same.float_summary(solver.strategies)}


FSP_SETTINGS = dict(seed=3, memory_episodes=200)


def _fsp_make(folder, game_name):
  from nfsp_spiel.fictitious_play import fsp  # pylint: disable=g-import-not-at-top
  solver = fsp.FSPSolver(same._game(game_name), **FSP_SETTINGS)  # pylint: disable=protected-access
  for _ in range(300):  # past the point where the memories are full
    solver.iteration()
  solver.save(os.path.join(folder, f"fsp_{game_name}.npz"))


def _fsp_resume(folder, game_name):
  from nfsp_spiel.fictitious_play import fsp  # pylint: disable=g-import-not-at-top
  solver = fsp.FSPSolver.restore(same._game(game_name),  # pylint: disable=protected-access
                                 os.path.join(folder, f"fsp_{game_name}.npz"),
                                 **FSP_SETTINGS)
  before = solver.exploitability()
  for _ in range(150):
    solver.iteration()
  return {"exploitability": [before, solver.exploitability()],
          "iterations": solver.iterations, "episodes": solver.episodes,
          "state_visits": solver.state_visits,
          "q": same.float_summary([l.q for l in solver.learners]),
          "counts": same.float_summary(
              [m.counts for m in solver.average_models])}


def fsp_kuhn_make(folder):
  _fsp_make(folder, "kuhn_poker")


def fsp_kuhn_resume(folder):
  return _fsp_resume(folder, "kuhn_poker")


def fsp_leduc_make(folder):
  _fsp_make(folder, "nfsp_leduc")


def fsp_leduc_resume(folder):
  return _fsp_resume(folder, "nfsp_leduc")


def smooth_uct_make(folder):
  from nfsp_spiel import smooth_uct  # pylint: disable=g-import-not-at-top
  search = smooth_uct.SmoothUCT(
      same._game("leduc_poker"),  # pylint: disable=protected-access
      same.old_names.smooth_uct_preset(smooth_uct, "leduc"), seed=2,
      **same.one_thread(smooth_uct.SmoothUCT))
  search.run(3_000)
  search.save(os.path.join(folder, "smooth_uct_leduc.npz"))


def smooth_uct_resume(folder):
  from nfsp_spiel import smooth_uct  # pylint: disable=g-import-not-at-top
  search = smooth_uct.SmoothUCT.restore(
      same._game("leduc_poker"), os.path.join(folder, "smooth_uct_leduc.npz"),  # pylint: disable=protected-access
      same.old_names.smooth_uct_preset(smooth_uct, "leduc"), seed=2,
      **same.one_thread(smooth_uct.SmoothUCT))
  restored = int(search.episodes)
  search.run(2_000)
  return {"episodes": [restored, int(search.episodes)],
          "exploitability": search.exploitability(),
          "counts": same.int_digest(search.counts),
          "action_counts": same.int_digest(search.action_counts),
          "q": same.float_summary([search.q])}


# ---- the example binary, examples/nfsp.py (both drivers) ----

BINARY_FLAGS = ["--game=kuhn_poker", "--preset=leduc", "--hidden_layers=8",
                "--sl_memory=300", "--min_memory_to_learn=32",
                "--learn_every=16", "--num_games=16", "--backend=tree",
                "--eval_every=200", "--checkpoint_every=400", "--seed=1"]
# --rl_memory is a setting of the DQN learner (a flat NFSPConfig name at
# 8b7cd09); the third run leaves the learner's settings at the preset's, so
# that the checkpoint's own path is tested apart from that flag.
BINARY_RUNS = {"binary_selfplay": ["--driver=selfplay", "--rl_memory=300"],
               "binary_rl_environment": ["--driver=rl_environment",
                                         "--rl_memory=300"],
               "binary_selfplay_preset_learner": ["--driver=selfplay"]}
_BASE_LAUNCHER = """
import runpy, sys
sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in
                    getattr(f, "__module__", "") + repr(f)]
script = sys.argv[1]
sys.argv = sys.argv[1:]
sys.path[0] = __import__("os").path.dirname(script)
runpy.run_path(script, run_name="__main__")
"""


def run_binary(folder, flags, script="nfsp.py"):
  """examples/`script` of $NFSP_SPIEL_BASE where set (the editable install's
  finder removed, as in `make_same_numbers.import_from_base`), else of this
  checkout with the flags renamed since (`old_names.current_flags`);
  returns its stdout."""
  base = os.environ.get("NFSP_SPIEL_BASE")
  if base:
    command = [sys.executable, "-c", _BASE_LAUNCHER,
               os.path.join(base, "examples", script)]
  else:
    command = [sys.executable, os.path.join(REPOSITORY, "examples", script)]
    flags = same.old_names.current_flags(script, flags)
  result = subprocess.run([*command, *flags, f"--output_dir={folder}"],
                          capture_output=True, text=True, timeout=600,
                          check=False)
  if result.returncode:
    raise RuntimeError(f"{command} {flags} failed:\n{result.stderr[-3000:]}")
  return result.stdout


# The wall-clock columns of a curve: they differ from run to run.
CLOCKS = ("seconds", "training_seconds")


def read_curve(path):
  """The curve's rows without the wall-clock columns."""
  with open(path, encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
  return [{k: float(v) for k, v in row.items() if k not in CLOCKS and v != ""}
          for row in rows]


def binary_make(folder, name):
  out = os.path.join(folder, name)
  shutil.rmtree(out, ignore_errors=True)  # a fresh run, not a resumed one
  run_binary(out, [*BINARY_FLAGS, *BINARY_RUNS[name], "--episodes=400"])
  for entry in os.listdir(out):  # the checkpoint and the curve it resumes
    if entry not in ("checkpoint.npz", "curve.csv"):
      path = os.path.join(out, entry)
      (shutil.rmtree if os.path.isdir(path) else os.remove)(path)


def binary_resume(folder, name):
  out = os.path.join(folder, name)
  run_binary(out, [*BINARY_FLAGS, *BINARY_RUNS[name], "--episodes=600"])
  return {"curve": read_curve(os.path.join(out, "curve.csv"))}


CASES = {
    "nfsp_agent_save": (nfsp_agent_save_make, nfsp_agent_save_resume),
    "nfsp_save_agents": (nfsp_save_agents_make, nfsp_save_agents_resume),
    "selfplay_dqn": (selfplay_dqn_make, selfplay_dqn_resume),
    "selfplay_dqn_bits": (selfplay_dqn_bits_make, selfplay_dqn_bits_resume),
    "selfplay_arm": (selfplay_arm_make, selfplay_arm_resume),
    "xfp": (xfp_make, xfp_resume),
    "fsp_kuhn": (fsp_kuhn_make, fsp_kuhn_resume),
    "fsp_leduc": (fsp_leduc_make, fsp_leduc_resume),
    "smooth_uct": (smooth_uct_make, smooth_uct_resume),
}
for _name in BINARY_RUNS:
  CASES[_name] = (lambda folder, n=_name: binary_make(folder, n),
                  lambda folder, n=_name: binary_resume(folder, n))


def main(names):
  import tempfile  # pylint: disable=g-import-not-at-top
  import time  # pylint: disable=g-import-not-at-top
  same.import_from_base()
  os.makedirs(FOLDER, exist_ok=True)
  expected = same.read_recorded(EXPECTED, same.COMMIT)
  for name in names or CASES:
    make, resume = CASES[name]
    start = time.time()
    make(FOLDER)
    # Resume from a copy, as the test does (the binary writes into its
    # folder).
    with tempfile.TemporaryDirectory() as scratch:
      copy = os.path.join(scratch, "copy")
      shutil.copytree(FOLDER, copy)
      expected[name] = same.jsonable(resume(copy))
    print(f"{name}: {time.time() - start:.1f} s", flush=True)
    same.write_recorded(EXPECTED, expected)


if __name__ == "__main__":
  main(sys.argv[1:])
