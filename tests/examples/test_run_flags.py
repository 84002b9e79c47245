"""What every binary shares through examples/run_flags.py: the run folder's
flags and counts, --help listing every flag without importing TensorFlow,
usage errors in one line, a finished run that says so; and the fictitious
play binaries beyond two players."""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from nfsp_spiel.core import checkpoints

from . import binaries


@pytest.mark.parametrize("script,flags", [
    ("xfp.py", ["--iterations=20", "--eval_every=10"]),
    ("fsp.py", ["--seconds=0.5", "--eval_seconds=0.2",
                "--memory_episodes=1000"])])
def test_fictitious_play_logs_nash_conv_beyond_two_players(tmp_path, script,
                                                           flags):
  binaries.run(script, "--game=kuhn_poker(players=3)", *flags,
               f"--output_dir={tmp_path}")
  rows = binaries.curve(tmp_path)
  assert "nash_conv" in rows[-1] and "exploitability" not in rows[-1]
  assert rows[-1]["nash_conv"] < 2.0625  # the uniform start's
  assert (tmp_path / "curve.png").exists()


@pytest.mark.parametrize("value,error", [("2.5", "'2.5' is not a whole "
                                          "number"), ("lots", "'lots' is not "
                                                      "a number"),
                                         ("0", "not a positive integer")])
def test_counts_are_whole_numbers(tmp_path, value, error):
  result = subprocess.run(
      [sys.executable, os.path.join(binaries.EXAMPLES, "xfp.py"),
       f"--iterations={value}", f"--output_dir={tmp_path}"],
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode == 1 and f"--iterations={value}: " in result.stderr
  assert error in result.stderr


@pytest.mark.parametrize("script", ["xfp.py", "fsp.py", "smooth_uct.py",
                                    "nfsp.py", "evaluate_cfr.py"])
def test_a_bad_game_flag_is_one_line(tmp_path, script):
  """OpenSpiel's own error for an unknown game lists all ~130 names, twice."""
  result = subprocess.run(
      [sys.executable, os.path.join(binaries.EXAMPLES, script),
       "--game=kuhn_poke", f"--output_dir={tmp_path}"], capture_output=True,
      text=True, timeout=300, check=False)
  assert result.returncode == 1
  errors = [line for line in result.stderr.splitlines()
            if line.startswith("error")]
  assert errors == [
      "error: --game='kuhn_poke': no game 'kuhn_poke' is registered; did you "
      "mean kuhn_poker, python_kuhn_poker, leduc_poker? (all names: python -c "
      "'import pyspiel, nfsp_spiel; print(pyspiel.registered_names())')"]
  assert "leduc_poker\n" not in result.stderr  # no list of every game
  result = subprocess.run(
      [sys.executable, os.path.join(binaries.EXAMPLES, script),
       "--game=river_poker(pot=-1)", f"--output_dir={tmp_path}"],
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode == 1
  assert "error: --game='river_poker(pot=-1)': pot=-1" in result.stderr


@pytest.mark.parametrize("script", ["nfsp.py", "xfp.py", "fsp.py",
                                    "smooth_uct.py"])
def test_help_does_not_import_tensorflow(script):
  """--help took 19 s and 622 MB when the binary imported TensorFlow first."""
  code = (f"import runpy, sys\nsys.argv = [{script!r}, '--help']\n"
          f"sys.path.insert(0, {binaries.EXAMPLES!r})\ntry:\n"
          f"  runpy.run_path({os.path.join(binaries.EXAMPLES, script)!r}, "
          "run_name='__main__')\nexcept SystemExit:\n  pass\n"
          "print('tensorflow' in sys.modules)")
  result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=300, check=False)
  assert result.stdout.splitlines()[-1] == "False", result.stderr[-2000:]
  assert "--episodes" in result.stdout or "--iterations" in result.stdout


BINARIES = ["xfp.py", "fsp.py", "smooth_uct.py", "nfsp.py", "evaluate_cfr.py"]


def _programs():
  """The files of examples/ that run as programs (run_flags.py is their
  library)."""
  names = []
  for name in sorted(os.listdir(binaries.EXAMPLES)):
    if name.endswith(".py"):
      with open(os.path.join(binaries.EXAMPLES, name), encoding="utf-8") as f:
        if 'if __name__ == "__main__":' in f.read():
          names.append(name)
  return names


# Loads a binary without running it and prints the flags it defined, from
# absl's registry (help flags are absl's own, defined before).
_FLAGS_OF = """
import runpy, sys
from absl import app, flags
app.define_help_flags()
before = {{flags.FLAGS[name].name for name in flags.FLAGS}}
sys.path.insert(0, {examples!r})
runpy.run_path({script!r}, run_name="flags_only")
print(" ".join(sorted({{flags.FLAGS[name].name for name in flags.FLAGS}}
                      - before)))
"""
# A flag's first line in absl's --help: "  --name: ...", "  --[no]name: ..."
# or, with a short name, "  -?,--[no]help: ...".
_FLAG_LINE = re.compile(r"^  (?:-\S,)?--(?:\[no\])?(\w+):", re.MULTILINE)


def test_every_binary_is_found():
  assert {"play_games.py", "build_ehs2_tables.py", "save_average_profile.py",
          *BINARIES} == set(
      _programs())


@pytest.mark.parametrize("script", _programs())
def test_help_lists_every_flag_the_binary_takes(script):
  """The length flags of examples/run_flags.py's define_count were only
  under --helpfull; two binaries' --help exited 1."""
  code = _FLAGS_OF.format(examples=binaries.EXAMPLES,
                          script=os.path.join(binaries.EXAMPLES, script))
  defined = subprocess.run([sys.executable, "-c", code], capture_output=True,
                           text=True, timeout=300, check=True).stdout.split()
  assert defined
  listed = set(_FLAG_LINE.findall(binaries.run(script, "--help")))
  assert sorted(set(defined) - listed) == []


@pytest.mark.parametrize("script,flags,error", [
    ("xfp.py", ["--checkpoint_every=7"], "--checkpoint_every=7 must be a "
     "multiple of --eval_every=10: a checkpoint follows an evaluation"),
    ("nfsp.py", ["--lbr_hands=3"], "--lbr_hands=3: LBR plays each deal in "
     "both seats, so an even number"),
    ("nfsp.py", ["--seeds=0,2", "--learn_locksteps=8"], "--learn_locksteps=8 "
     "sets one batched self-play run's learning (--driver=selfplay, no "
     "--actors, --seeds or --sweep)"),
    ("nfsp.py", ["--seeds=0-x"], "--seeds=0-x: '0-x' is neither a seed nor a "
     "range a-b; give e.g. 0-7 or 0,2,4"),
    ("nfsp.py", ["--sweep=anticipatory_param=0.1",
                 "--sweep=anticipatory_param=0.2"],
     "--sweep=anticipatory_param=0.2: anticipatory_param is swept twice"),
    ("nfsp.py", ["--inputs=cards_and_equity"], "--inputs='cards_and_equity' "
     "reads Limit Hold'em's cards: the game must be nfsp_lhe, not "
     "nfsp_leduc(ranks=3,suits=2)"),
    ("nfsp.py", ["--game=nfsp_lhe", "--inputs=cards_and_equity",
                 "--driver=rl_environment"],
     "--inputs='cards_and_equity' is read in one run's batched self-play "
     "(--driver=selfplay), not with --actors, --seeds, --sweep or "
     "--driver=rl_environment"),
    ("fsp.py", ["--memory_episode=5"], "Unknown command line flag "
     "'memory_episode'. Did you mean: memory_episodes ?")])
def test_a_usage_error_is_one_line(tmp_path, script, flags, error):
  """absl printed the binary's whole --help before the error."""
  stderr = binaries.fails(script, *flags, f"--output_dir={tmp_path}")
  assert stderr.splitlines() == [f"error: {error} (try --help)"]


@pytest.mark.parametrize("script", ["xfp.py", "evaluate_cfr.py"])
def test_a_finished_run_run_again_says_so(tmp_path, script):
  """The same command after the run reached --iterations silently redrew
  the curve and printed it again."""
  command = ["--game=kuhn_poker", "--iterations=20", "--eval_every=10",
             "--checkpoint_every=10", f"--output_dir={tmp_path}"]
  binaries.run(script, *command)
  files = {name: (tmp_path / name).read_bytes()
           for name in ("curve.csv", "curve.png", "checkpoint.npz")}
  out = binaries.run(script, *command)
  assert out.splitlines() == [
      "run already finished at 20 iterations (--iterations=20): "
      f"curve: {tmp_path}/curve.csv, {tmp_path}/curve.png; checkpoint: "
      f"{tmp_path}/checkpoint.npz (0.0 MB); raise --iterations to continue "
      "or pass --noresume to start over"]
  assert files == {name: (tmp_path / name).read_bytes() for name in files}
  binaries.run(script, *command[:1], "--iterations=30", *command[2:])
  assert [row["step"] for row in np.genfromtxt(
      tmp_path / "curve.csv", delimiter=",", names=True)][-1] == 30


@pytest.mark.parametrize("script", ["xfp.py", "nfsp.py"])
def test_an_output_dir_that_cannot_be_a_folder_is_one_line(tmp_path, script):
  (tmp_path / "a_file").write_text("")
  output = tmp_path / "a_file" / "run"
  stderr = binaries.fails(script, "--game=kuhn_poker", f"--output_dir={output}")
  assert stderr.strip().splitlines() == [
      f"error: --output_dir={str(output)!r}: Not a directory ({output}); "
      "give a folder that exists or can be made"]


def test_a_bad_game_parameter_is_said_once(tmp_path):
  """OpenSpiel printed its error itself before raising it."""
  stderr = binaries.fails("xfp.py", "--game=leduc_poker(foo=1)",
                          f"--output_dir={tmp_path}")
  assert stderr.count("Unknown parameter 'foo'") == 1, stderr


def test_settings_an_algorithm_refuses_are_one_line(tmp_path):
  stderr = binaries.fails("xfp.py", "--game=goofspiel(players=3,num_cards=3)",
                          f"--output_dir={tmp_path}")
  assert "Traceback" not in stderr
  assert stderr.strip().splitlines()[-1].startswith(
      "error: XFPSolver needs a sequential game with information-state "
      "strings; goofspiel(num_cards=3,players=3) has dynamics")


def test_a_range_the_parser_reads_as_a_number_gets_a_hint(tmp_path):
  result = subprocess.run(
      [sys.executable, os.path.join(binaries.EXAMPLES, "xfp.py"),
       "--game=river_poker(range0=22+)", f"--output_dir={tmp_path}"],
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode == 1
  assert 'quote such a range (range0="22+")' in result.stderr
  binaries.run("xfp.py", '--game=river_poker(range0="22+",min_rank=9,'
               'board=9cTdJhQsKd)', "--iterations=2", "--eval_every=1",
               "--checkpoint_every=2", f"--output_dir={tmp_path}")
  # The quoted range is the game's: its checkpoint's header names it.
  with np.load(tmp_path / "checkpoint.npz") as data:
    game = json.loads(str(data[checkpoints.HEADER]))["game"]
  assert 'range0="22+"' in game and binaries.steps(tmp_path) == [0, 1, 2]
