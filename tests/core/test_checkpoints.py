"""Checkpoints are recognised before anything is restored from them.

Every restorer (XFP, FSP, Smooth UCT, NFSP's self-play driver and a lone NFSP
agent) refuses another algorithm's file, another game's, one written with
other settings and a damaged one with one `CheckpointError` naming the file,
what it holds and what was expected; the file is never changed.
"""

import csv
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pyspiel
import pytest

from nfsp_spiel.fictitious_play import fsp
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel import smooth_uct
from nfsp_spiel.fictitious_play import xfp
from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp import config as nfsp_config

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(os.path.dirname(TESTS), "examples")
KUHN = pyspiel.load_game("kuhn_poker")
TINY = nfsp.NFSPConfig(best_response=nfsp.DQNConfig(replay_buffer_capacity=500),
                       reservoir_buffer_capacity=500, hidden_layers=(8,),
                       min_buffer_size_to_learn=16)


def _nfsp_driver(game=KUHN, config=TINY, num_games=4):
  return selfplay.SelfPlay(game, nfsp.agents_for(game, config), num_games)


def _agent(config=TINY):
  return nfsp.NFSP(0, 11, 2, config)


# Per algorithm: (what its header says, a save and a restore).
SOLVERS = {
    "XFP": (lambda path: xfp.XFPSolver(KUHN).save(path),
            lambda path, game=KUHN, **kw: xfp.XFPSolver.restore(game, path,
                                                                **kw)),
    "FSP": (lambda path: fsp.FSPSolver(KUHN, memory_episodes=100).save(path),
            lambda path, game=KUHN, **kw: fsp.FSPSolver.restore(
                game, path, **{"memory_episodes": 100, **kw})),
    "Smooth UCT": (lambda path: smooth_uct.SmoothUCT(KUHN).save(path),
                   lambda path, game=KUHN, **kw: smooth_uct.SmoothUCT.restore(
                       game, path, **kw)),
    "NFSP": (lambda path: _nfsp_driver().save(path),
             lambda path, game=KUHN, config=TINY, num_games=4:
             selfplay.SelfPlay.restore(game, path,
                                       nfsp.agents_for(game, config),
                                       num_games=num_games)),
    "NFSP agent": (lambda path: _agent().save(path),
                   lambda path, game=KUHN, **kw: _agent(**kw).restore(path)),
}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
  """One checkpoint per algorithm: {algorithm: path}."""
  folder = tmp_path_factory.mktemp("checkpoints")
  return {name: save(str(folder / f"{name.replace(' ', '_')}.npz"))
          for name, (save, _) in SOLVERS.items()}


def _contents(path):
  with open(path, "rb") as f:
    return f.read()


@pytest.mark.parametrize("restorer", list(SOLVERS))
@pytest.mark.parametrize("writer", list(SOLVERS))
def test_another_algorithms_checkpoint_is_named(saved, restorer, writer):
  path = saved[writer]
  before = _contents(path)
  restore = SOLVERS[restorer][1]
  if writer == restorer:
    restore(path)  # its own file loads
    return
  holds = writer if writer == "NFSP agent" else f"{writer} on kuhn_poker()"
  wants = (restorer if restorer == "NFSP agent" else
           f"{restorer} on kuhn_poker()")
  with pytest.raises(checkpoints.CheckpointError,
                     match=re.escape(f"{path!r} holds {holds}, not {wants}")):
    restore(path)
  assert _contents(path) == before


@pytest.mark.parametrize("algorithm,changes,message", [
    ("XFP", {"stepsize": "gfp"}, "stepsize: 'xfp' there, 'gfp' here"),
    ("FSP", {"mixing_gamma": None}, "mixing_gamma: 10.0 there, None here"),
    ("Smooth UCT", {"c": 99.0}, "c: 1.75 there, 99.0 here"),
    ("Smooth UCT", {"seed": 3}, "seed: 0 there, 3 here"),
    ("NFSP", {"num_games": 8}, "num_games: 4 there, 8 here"),
    ("NFSP", {"config": TINY.replace(anticipatory_param=0.5)},
     "anticipatory_param: 0.1 there, 0.5 here"),
    ("NFSP agent", {"config": TINY.replace(hidden_layers=(9,))},
     "hidden_layers: [8] there, [9] here"),
])
def test_other_settings_are_named(saved, algorithm, changes, message):
  path = saved[algorithm]
  with pytest.raises(checkpoints.CheckpointError, match=re.escape(
      f"{path!r} holds {algorithm}")) as error:
    SOLVERS[algorithm][1](path, **changes)
  assert "with other settings" in str(error.value)
  assert message in str(error.value)


@pytest.mark.parametrize("algorithm", ["XFP", "FSP", "Smooth UCT", "NFSP"])
def test_another_games_checkpoint_is_named(saved, algorithm):
  leduc = pyspiel.load_game("leduc_poker")
  with pytest.raises(checkpoints.CheckpointError, match=re.escape(
      f"holds {algorithm} on kuhn_poker(), not {algorithm} on "
      "leduc_poker()")):
    SOLVERS[algorithm][1](saved[algorithm], game=leduc)


def _truncated(data):
  return data[:len(data) // 2]


def _flipped(data):
  """One byte of an array's data changed (past the 128-byte .npy header of
  the member before the file's middle): that member's CRC fails."""
  byte = data.rfind(b"\x93NUMPY", 0, len(data) // 2) + 130
  return data[:byte] + bytes([data[byte] ^ 0xFF]) + data[byte + 1:]


@pytest.mark.parametrize("damage", [
    _truncated, _flipped, lambda data: b"", lambda data: b"\x80\x04junk",
    lambda data: data[:64]])
@pytest.mark.parametrize("algorithm", ["XFP", "NFSP"])
def test_damaged_checkpoints_are_named(saved, tmp_path, algorithm, damage):
  path = str(tmp_path / "damaged.npz")
  with open(path, "wb") as f:
    f.write(damage(_contents(saved[algorithm])))
  before = _contents(path)
  with pytest.raises(checkpoints.CheckpointError,
                     match=re.escape(f"{path!r} is damaged")):
    SOLVERS[algorithm][1](path)
  assert _contents(path) == before


def test_files_that_are_not_checkpoints(tmp_path):
  single = str(tmp_path / "single.npz")
  with open(single, "wb") as f:
    np.save(f, np.arange(3))
  with pytest.raises(checkpoints.CheckpointError, match="a single array"):
    SOLVERS["XFP"][1](single)
  foreign = str(tmp_path / "foreign.npz")
  np.savez(foreign, weights=np.zeros(3))
  with pytest.raises(checkpoints.CheckpointError,
                     match=r"not an nfsp_spiel checkpoint.*\['weights'\]"):
    SOLVERS["FSP"][1](foreign)
  with pytest.raises(FileNotFoundError, match="no checkpoint at"):
    SOLVERS["Smooth UCT"][1](str(tmp_path / "missing.npz"))


def test_checkpoints_without_header_are_still_recognised(saved, tmp_path):
  """Files written before headers: NFSP's kept their config (in the flat
  form of the time, the learner's settings by their flat names:
  `replay_buffer_capacity`, ...) and resume; the others' settings were not
  saved, so they are refused by name."""
  path = str(tmp_path / "old_nfsp.npz")
  with np.load(saved["NFSP"]) as data:
    arrays = {k: data[k] for k in data.files
              if k not in (checkpoints.HEADER, checkpoints.PROGRESS)}
  flat_names = {f"best_response.{field}": name for name, (kind, field)
                in nfsp_config.LEARNER_FIELDS.items() if kind == "dqn"}
  for key in [k for k in arrays if k.endswith("/config")]:
    config = json.loads(str(arrays[key]))
    del config["best_response"]
    config = {flat_names.get(name, name): value
              for name, value in config.items()}
    for field in ("epsilon_end", "epsilon_decay_duration"):  # added since
      del config[field]
    arrays[key] = json.dumps(config)
  np.savez(path, **arrays)
  SOLVERS["NFSP"][1](path)
  with pytest.raises(checkpoints.CheckpointError,
                     match="anticipatory_param: 0.1 there, 0.5 here"):
    SOLVERS["NFSP"][1](path, config=TINY.replace(anticipatory_param=0.5))
  old_xfp = str(tmp_path / "old_xfp.npz")
  np.savez(old_xfp, game=str(KUHN), strategy0=np.zeros(3), rng="{}")
  with pytest.raises(checkpoints.CheckpointError, match=re.escape(
      f"{old_xfp!r} holds XFP on kuhn_poker() written before checkpoints "
      "kept their settings")):
    SOLVERS["XFP"][1](old_xfp)


def test_binary_refuses_another_checkpoint_in_one_line(saved, tmp_path):
  """xfp.py on a folder holding an FSP run: one line naming both and the
  way out, no traceback, the checkpoint unchanged."""
  folder = tmp_path / "run"
  folder.mkdir()
  checkpoint = str(folder / "checkpoint.npz")
  with open(checkpoint, "wb") as f:
    f.write(_contents(saved["FSP"]))
  script = os.path.join(EXAMPLES, "xfp.py")
  result = subprocess.run(
      [sys.executable, script, "--game=kuhn_poker", "--iterations=10",
       f"--output_dir={folder}"], capture_output=True, text=True,
      timeout=300, check=False)
  assert result.returncode == 1
  assert "Traceback" not in result.stderr
  assert (f"error: {checkpoint!r} holds FSP on kuhn_poker(), not XFP on "
          "kuhn_poker().\nPass --noresume") in result.stderr
  assert _contents(checkpoint) == _contents(saved["FSP"])


def test_arrays_of_another_size_are_refused_before_anything_changes(
    saved, tmp_path):
  """Same header, arrays of another size (a game whose compiled size changed
  between versions): one error, not a numpy broadcast error halfway."""
  path = str(tmp_path / "resized.npz")
  with np.load(saved["FSP"]) as data:
    arrays = {k: data[k] for k in data.files}
  arrays["memory1_states"] = arrays["memory1_states"][:, :-1]
  np.savez(path, **arrays)
  with pytest.raises(checkpoints.CheckpointError, match=re.escape(
      f"{path!r} holds memory1_states of shape")):
    SOLVERS["FSP"][1](path)


@pytest.mark.parametrize("algorithm", list(SOLVERS))
def test_saving_into_a_missing_folder_names_the_users_path(tmp_path,
                                                           algorithm):
  """numpy's error named the temporary file (`...npz.tmp.npz`)."""
  path = tmp_path / "missing" / "run.npz"
  with pytest.raises(FileNotFoundError) as error:
    SOLVERS[algorithm][0](str(path))
  assert str(error.value) == (f"cannot save {path}: no folder "
                              f"{tmp_path / 'missing'}")


# Run folders that examples/nfsp.py wrote at commit 432fce3, before the
# settings took OpenSpiel's names (their headers say `anticipatory`,
# `sl_memory_capacity`, `best_response.memory_capacity`, ...): one run, and
# a population of two sweep points. Written by that commit's binary with
#   --game=kuhn_poker --hidden_layers=8 --sl_memory=300 --rl_memory=300
#   --min_memory_to_learn=32 --learn_every=16 --num_games=16 --episodes=400
#   --eval_every=200 --checkpoint_every=400
# and --seed=1 (nfsp/), or --seeds=0 --sweep=rl_learning_rate=0.05,0.1
# (population/); the checkpoint and the curve kept.
RENAMED_FOLDERS = os.path.join(TESTS, "data", "run_folders_432fce3")
RENAMED_FLAGS = ["--game=kuhn_poker", "--hidden_layers=8",
                 "--reservoir_buffer_capacity=300",
                 "--replay_buffer_capacity=300",
                 "--min_buffer_size_to_learn=32", "--learn_every=16",
                 "--num_games=16", "--episodes=600", "--eval_every=200",
                 "--checkpoint_every=400"]


@pytest.mark.parametrize("name, flags", [
    pytest.param("nfsp", ["--seed=1"], id="nfsp"),
    # Slow (80 s): [nfsp] stays; a member's header is upgraded by the same
    # config.complete_header.
    pytest.param("population", ["--seeds=0",
                                "--sweep=rl_learning_rate=0.05,0.1"],
                 id="population", marks=pytest.mark.slow)])
def test_run_folders_of_the_earlier_names_resume(name, flags, tmp_path):
  """The same command with the settings' new flags resumes the folder: the
  header's old names are upgraded and compare equal; the rows the old run
  logged keep their clocks and the run goes on to 600 episodes."""
  folder = tmp_path / name
  shutil.copytree(os.path.join(RENAMED_FOLDERS, name), folder)
  with open(folder / "curve.csv", encoding="utf-8") as f:
    logged = list(csv.DictReader(f))
  result = subprocess.run(
      [sys.executable, os.path.join(EXAMPLES, "nfsp.py"),
       *RENAMED_FLAGS, *flags, f"--output_dir={folder}"],
      capture_output=True, text=True, timeout=600, check=False)
  assert result.returncode == 0, result.stderr[-3000:]
  with open(folder / "curve.csv", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
  assert rows[:len(logged)] == logged
  assert len(rows) == len(logged) + 1 and int(rows[-1]["step"]) >= 600
  assert not os.path.exists(folder / "curve.csv.1")  # resumed, not redone
