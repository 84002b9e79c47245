"""The example binaries run end to end with small flags."""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from nfsp_spiel.core import checkpoints
from nfsp_spiel.run import curves


EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir,
                        "examples")


def _run(script, *flags, env=None):
  result = subprocess.run(
      [sys.executable, os.path.join(EXAMPLES, script), *flags],
      capture_output=True, text=True, timeout=300, check=False, env=env)
  assert result.returncode == 0, result.stderr[-3000:]
  return result.stdout


def _curve(output_dir):
  """The rows of a run's curve.csv."""
  return curves.read_curve(os.path.join(output_dir, "curve.csv"))


def _steps(output_dir):
  return [int(row["step"]) for row in _curve(output_dir)]


def _config(output_dir):
  """The settings a run's checkpoint holds."""
  with np.load(os.path.join(output_dir, "checkpoint.npz")) as data:
    return json.loads(str(data[checkpoints.HEADER]))["config"]


def _assert_resumed(output_dir, before):
  """The curve continues `before` (the first run's rows, kept as they were,
  not moved aside for a fresh run's), from the checkpoint's step."""
  rows = _curve(output_dir)
  assert rows[:len(before)] == before and len(rows) > len(before)
  assert not os.path.exists(os.path.join(output_dir, "curve.csv.1"))
  assert checkpoints.read_progress(os.path.join(
      output_dir, "checkpoint.npz"))["step"] == rows[-1]["step"]


def test_play_games():
  out = _run("play_games.py", "--games_per_title=20", "--cfr_iterations=1")
  for name in ("river_poker", "nfsp_leduc", "nfsp_lhe"):
    assert f"== {name}" in out
  assert "OpenSpiel's C++ CFR" in out


def test_evaluate_cfr(tmp_path):
  out = _run("evaluate_cfr.py", "--game=kuhn_poker", "--iterations=40",
             "--eval_every=20", "--match_deals=200",
             f"--output_dir={tmp_path}")
  rows = _curve(tmp_path)
  assert [row["step"] for row in rows] == [20, 40]
  assert rows[-1]["exploitability"] < 0.05  # CFR after 40 iterations of Kuhn
  assert (tmp_path / "curve.png").exists()
  # The match against uniform: a Kuhn payoff per game (at most 2 chips).
  deals, mean = re.search(r"over (\d+) duplicate deals: (\S+) \+-",
                          out).groups()
  assert int(deals) == 200 and -2 <= float(mean) <= 2


def test_xfp_runs_and_resumes(tmp_path):
  _run("xfp.py", "--game=kuhn_poker", "--iterations=50", "--eval_every=25",
       f"--output_dir={tmp_path}")
  before = _curve(tmp_path)
  assert _steps(tmp_path) == [0, 25, 50]
  _run("xfp.py", "--game=kuhn_poker", "--iterations=100", "--eval_every=25",
       f"--output_dir={tmp_path}")
  _assert_resumed(tmp_path, before)
  rows = _curve(tmp_path)
  assert _steps(tmp_path) == [0, 25, 50, 75, 100]
  # XFP on Kuhn: from the uniform profile's 0.458 to below 0.05.
  assert rows[0]["exploitability"] > 0.45 > 0.05 > rows[-1]["exploitability"]
  assert (tmp_path / "curve.png").exists()


def test_fsp_runs_and_resumes(tmp_path):
  _run("fsp.py", "--game=kuhn_poker", "--seconds=0.5", "--eval_seconds=0.2",
       "--memory_episodes=1000", f"--output_dir={tmp_path}")
  before = _curve(tmp_path)
  _run("fsp.py", "--game=kuhn_poker", "--seconds=1.0", "--eval_seconds=0.2",
       "--memory_episodes=1000", f"--output_dir={tmp_path}")
  _assert_resumed(tmp_path, before)
  rows = _curve(tmp_path)
  # The training clock goes on from the first run's, to the second's 1 s.
  training = [row["training_seconds"] for row in rows]
  assert training == sorted(training) and 1.0 <= training[-1] < 2.0
  assert all(0 <= row["exploitability"] < 0.5 for row in rows)  # Kuhn's
  assert (tmp_path / "curve.png").exists()


@pytest.mark.parametrize("script,flags", [
    ("xfp.py", ["--iterations=20", "--eval_every=10"]),
    ("fsp.py", ["--seconds=0.5", "--eval_seconds=0.2",
                "--memory_episodes=1000"])])
def test_fictitious_play_logs_nash_conv_beyond_two_players(tmp_path, script,
                                                           flags):
  _run(script, "--game=kuhn_poker(players=3)", *flags,
       f"--output_dir={tmp_path}")
  rows = _curve(tmp_path)
  assert "nash_conv" in rows[-1] and "exploitability" not in rows[-1]
  assert rows[-1]["nash_conv"] < 2.0625  # the uniform start's
  assert (tmp_path / "curve.png").exists()


def test_smooth_uct_runs_and_resumes(tmp_path):
  out = _run("smooth_uct.py", "--episodes=2e4", "--eval_every=1e4",
             f"--output_dir={tmp_path}")
  assert _steps(tmp_path) == [10000, 20000]
  assert _config(tmp_path)["c"] == 1.75  # the thesis' Kuhn preset
  size = os.path.getsize(tmp_path / "checkpoint.npz") / 2**20
  assert out.splitlines()[-1].endswith(f"checkpoint.npz ({size:,.1f} MB)")
  before = _curve(tmp_path)
  _run("smooth_uct.py", "--episodes=40_000", "--eval_every=10000",
       f"--output_dir={tmp_path}")
  _assert_resumed(tmp_path, before)
  assert _steps(tmp_path) == [10000, 20000, 30000, 40000]
  # Kuhn's uniform profile is 0.458 from a Nash equilibrium.
  assert 0 <= _curve(tmp_path)[-1]["exploitability"] < 0.3


def test_smooth_uct_takes_the_games_parameters(tmp_path):
  """Leduc gets the thesis' Leduc parameters (Kuhn's gave exploitability 1.4
  there); a game the thesis did not tune for needs --preset."""
  _run("smooth_uct.py", "--game=leduc_poker", "--episodes=1000",
       "--eval_every=1000", f"--output_dir={tmp_path}")
  assert _config(tmp_path)["c"] == 18.0
  result = subprocess.run(
      [sys.executable, os.path.join(EXAMPLES, "smooth_uct.py"),
       "--game=river_poker", f"--output_dir={tmp_path / 'river'}"],
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode == 1
  assert ("tuned Smooth UCT on Kuhn, Leduc and Limit Hold'em only; choose "
          "--preset") in result.stderr + result.stdout


def _stand_in_tables(cache):
  """An environment whose E[HS^2] tables by board (NFSP_SPIEL_CACHE) have the
  real shapes and every hand in bucket 0: building the real ones takes
  minutes."""
  from nfsp_spiel.poker import board_buckets  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.poker import card_abstraction  # pylint: disable=g-import-not-at-top
  card_abstraction.save_tables(cache / "ehs2" / "by_board",
                               board_buckets.stand_ins(buckets=0)._asdict())
  return {**os.environ, "NFSP_SPIEL_CACHE": str(cache)}


def test_smooth_uct_on_three_player_limit_holdem_resumes(tmp_path):
  """nfsp_lhe3: the hashed-table search (a small table here), evaluated
  against two copies of each fixed baseline, checkpointed and resumed."""
  command = [sys.executable, os.path.join(EXAMPLES, "smooth_uct.py"),
             "--game=nfsp_lhe3", "--eval_every=10000", "--eval_deals=5",
             "--capacity=65536", "--threads=1",
             f"--output_dir={tmp_path / 'run'}"]
  environment = _stand_in_tables(tmp_path / "cache")
  output = tmp_path / "run"
  before = []
  for episodes in (10000, 20000):
    result = subprocess.run(command + [f"--episodes={episodes}"],
                            capture_output=True, text=True, timeout=300,
                            check=False, env=environment)
    assert result.returncode == 0, result.stderr[-3000:]
    if before:
      _assert_resumed(output, before)
    before = _curve(output)
  assert _config(output)["c"] == 36.0  # the lhe3 preset
  assert _steps(output) == [10000, 20000]
  # The greedy profile against two copies of each baseline, in mbb/h.
  assert all(-1e5 < row["mbb_per_hand_vs_always_call"] < 1e5
             for row in _curve(output))


# Slow: test_smooth_uct_runs_and_resumes (Leduc) stays.
@pytest.mark.slow
def test_smooth_uct_on_limit_holdem_runs_and_resumes(tmp_path):
  """nfsp_lhe: the E[HS^2] search, evaluated against the baselines in mbb/h,
  stopped by --seconds, resumed. The tables in the cache are stand-ins of
  the real shapes (building the real ones takes minutes)."""
  command = [sys.executable, os.path.join(EXAMPLES, "smooth_uct.py"),
             "--game=nfsp_lhe", "--eval_every=20000", "--eval_deals=10",
             f"--output_dir={tmp_path / 'run'}"]
  environment = _stand_in_tables(tmp_path / "cache")

  def run(*flags):
    result = subprocess.run(command + list(flags), capture_output=True,
                            text=True, timeout=300, check=False,
                            env=environment)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout

  run("--episodes=40000")
  assert _config(tmp_path / "run")["c"] == 24.0  # the lhe preset
  assert all(-1e5 < row["mbb_per_hand_vs_equity_threshold"] < 1e5
             for row in _curve(tmp_path / "run"))

  def curve():
    with open(tmp_path / "run" / "curve.csv", encoding="utf-8") as csv:
      header, *rows = csv.read().splitlines()
    return header.split(","), [row.split(",") for row in rows]

  # --seconds bounds the whole run's training clock, which the first run
  # started (its JIT compilation included): 1.5 s more of it.
  header, rows = curve()
  spent = float(rows[-1][header.index("training_seconds")])
  profile = tmp_path / "profile.npz"
  before = _curve(tmp_path / "run")
  run("--episodes=1e9", "--eval_every=1e9", f"--seconds={spent + 1.5}",
      f"--greedy_profile={profile}")
  _assert_resumed(tmp_path / "run", before)
  header, rows = curve()
  assert {"mbb_per_hand_vs_always_call", "mbb_stderr_vs_always_raise",
          "training_seconds"} <= set(header)
  steps = [int(row[0]) for row in rows]
  # The clock stopped the third evaluation's chunk (10^6 episodes each).
  assert steps[:2] == [20000, 40000] and len(steps) == 3
  assert 40000 < steps[2] < 1e8 and (steps[2] - 40000) % 1_000_000 == 0
  with np.load(profile) as data:
    assert f'"episodes": {steps[2]}' in str(data["settings"])
  # A run resumed past --episodes leaves an earlier snapshot alone (figure
  # scripts keep one profile per episode count).
  earlier = tmp_path / "earlier.npz"
  earlier.write_bytes(b"the 40000-episode snapshot")
  out = run("--episodes=40000", f"--greedy_profile={earlier}")
  assert f"greedy profile not written: the run is at {steps[2]}" in out
  assert earlier.read_bytes() == b"the 40000-episode snapshot"


@pytest.mark.parametrize("value,error", [("2.5", "'2.5' is not a whole "
                                          "number"), ("lots", "'lots' is not "
                                                      "a number"),
                                         ("0", "not a positive integer")])
def test_counts_are_whole_numbers(tmp_path, value, error):
  result = subprocess.run(
      [sys.executable, os.path.join(EXAMPLES, "xfp.py"),
       f"--iterations={value}", f"--output_dir={tmp_path}"],
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode == 1 and f"--iterations={value}: " in result.stderr
  assert error in result.stderr


@pytest.mark.parametrize("script", ["xfp.py", "fsp.py", "smooth_uct.py",
                                    "nfsp.py", "evaluate_cfr.py"])
def test_a_bad_game_flag_is_one_line(tmp_path, script):
  """OpenSpiel's own error for an unknown game lists all ~130 names, twice."""
  result = subprocess.run(
      [sys.executable, os.path.join(EXAMPLES, script), "--game=kuhn_poke",
       f"--output_dir={tmp_path}"], capture_output=True, text=True,
      timeout=300, check=False)
  assert result.returncode == 1
  errors = [line for line in result.stderr.splitlines()
            if line.startswith("error")]
  assert errors == [
      "error: --game='kuhn_poke': no game 'kuhn_poke' is registered; did you "
      "mean kuhn_poker, python_kuhn_poker, leduc_poker? (all names: python -c "
      "'import pyspiel, nfsp_spiel; print(pyspiel.registered_names())')"]
  assert "leduc_poker\n" not in result.stderr  # no list of every game
  result = subprocess.run(
      [sys.executable, os.path.join(EXAMPLES, script),
       "--game=river_poker(pot=-1)", f"--output_dir={tmp_path}"],
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode == 1
  assert "error: --game='river_poker(pot=-1)': pot=-1" in result.stderr


@pytest.mark.parametrize("script", ["nfsp.py", "xfp.py", "fsp.py",
                                    "smooth_uct.py"])
def test_help_does_not_import_tensorflow(script):
  """--help took 19 s and 622 MB when the binary imported TensorFlow first."""
  code = (f"import runpy, sys\nsys.argv = [{script!r}, '--help']\n"
          f"sys.path.insert(0, {EXAMPLES!r})\ntry:\n"
          f"  runpy.run_path({os.path.join(EXAMPLES, script)!r}, "
          "run_name='__main__')\nexcept SystemExit:\n  pass\n"
          "print('tensorflow' in sys.modules)")
  result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=300, check=False)
  assert result.stdout.splitlines()[-1] == "False", result.stderr[-2000:]
  assert "--episodes" in result.stdout or "--iterations" in result.stdout


BINARIES = ["xfp.py", "fsp.py", "smooth_uct.py", "nfsp.py", "evaluate_cfr.py"]


def _fails(script, *flags):
  """stderr of a run that must fail with status 1."""
  result = subprocess.run([sys.executable, os.path.join(EXAMPLES, script),
                           *flags], capture_output=True, text=True,
                          timeout=300, check=False)
  assert result.returncode == 1, (result.returncode, result.stderr[-3000:])
  return result.stderr


def _programs():
  """The files of examples/ that run as programs (run_flags.py is their
  library)."""
  names = []
  for name in sorted(os.listdir(EXAMPLES)):
    if name.endswith(".py"):
      with open(os.path.join(EXAMPLES, name), encoding="utf-8") as f:
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
  assert {"play_games.py", "build_ehs2_tables.py", *BINARIES} == set(
      _programs())


@pytest.mark.parametrize("script", _programs())
def test_help_lists_every_flag_the_binary_takes(script):
  """The length flags of examples/run_flags.py's define_count were only
  under --helpfull; two binaries' --help exited 1."""
  code = _FLAGS_OF.format(examples=EXAMPLES,
                          script=os.path.join(EXAMPLES, script))
  defined = subprocess.run([sys.executable, "-c", code], capture_output=True,
                           text=True, timeout=300, check=True).stdout.split()
  assert defined
  listed = set(_FLAG_LINE.findall(_run(script, "--help")))
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
    ("fsp.py", ["--memory_episode=5"], "Unknown command line flag "
     "'memory_episode'. Did you mean: memory_episodes ?")])
def test_a_usage_error_is_one_line(tmp_path, script, flags, error):
  """absl printed the binary's whole --help before the error."""
  stderr = _fails(script, *flags, f"--output_dir={tmp_path}")
  assert stderr.splitlines() == [f"error: {error} (try --help)"]


@pytest.mark.parametrize("script", ["xfp.py", "evaluate_cfr.py"])
def test_a_finished_run_run_again_says_so(tmp_path, script):
  """The same command after the run reached --iterations silently redrew
  the curve and printed it again."""
  command = ["--game=kuhn_poker", "--iterations=20", "--eval_every=10",
             "--checkpoint_every=10", f"--output_dir={tmp_path}"]
  _run(script, *command)
  files = {name: (tmp_path / name).read_bytes()
           for name in ("curve.csv", "curve.png", "checkpoint.npz")}
  out = _run(script, *command)
  assert out.splitlines() == [
      "run already finished at 20 iterations (--iterations=20): "
      f"curve: {tmp_path}/curve.csv, {tmp_path}/curve.png; checkpoint: "
      f"{tmp_path}/checkpoint.npz (0.0 MB); raise --iterations to continue "
      "or pass --noresume to start over"]
  assert files == {name: (tmp_path / name).read_bytes() for name in files}
  _run(script, *command[:1], "--iterations=30", *command[2:])
  assert [row["step"] for row in np.genfromtxt(
      tmp_path / "curve.csv", delimiter=",", names=True)][-1] == 30


@pytest.mark.parametrize("script", ["xfp.py", "nfsp.py"])
def test_an_output_dir_that_cannot_be_a_folder_is_one_line(tmp_path, script):
  (tmp_path / "a_file").write_text("")
  output = tmp_path / "a_file" / "run"
  stderr = _fails(script, "--game=kuhn_poker", f"--output_dir={output}")
  assert stderr.strip().splitlines() == [
      f"error: --output_dir={str(output)!r}: Not a directory ({output}); "
      "give a folder that exists or can be made"]


def test_a_bad_game_parameter_is_said_once(tmp_path):
  """OpenSpiel printed its error itself before raising it."""
  stderr = _fails("xfp.py", "--game=leduc_poker(foo=1)",
                  f"--output_dir={tmp_path}")
  assert stderr.count("Unknown parameter 'foo'") == 1, stderr


def test_settings_an_algorithm_refuses_are_one_line(tmp_path):
  stderr = _fails("xfp.py", "--game=goofspiel(players=3,num_cards=3)",
                  f"--output_dir={tmp_path}")
  assert "Traceback" not in stderr
  assert stderr.strip().splitlines()[-1].startswith(
      "error: XFPSolver needs a sequential game with information-state "
      "strings; goofspiel(num_cards=3,players=3) has dynamics")


def test_a_range_the_parser_reads_as_a_number_gets_a_hint(tmp_path):
  result = subprocess.run(
      [sys.executable, os.path.join(EXAMPLES, "xfp.py"),
       "--game=river_poker(range0=22+)", f"--output_dir={tmp_path}"],
      capture_output=True, text=True, timeout=300, check=False)
  assert result.returncode == 1
  assert 'quote such a range (range0="22+")' in result.stderr
  out = _run("xfp.py", '--game=river_poker(range0="22+",min_rank=9,'
             'board=9cTdJhQsKd)', "--iterations=2", "--eval_every=1",
             "--checkpoint_every=2", f"--output_dir={tmp_path}")
  assert 'range0="22+"' in out


@pytest.mark.parametrize("preset,column", [
    ("nfsp_arm", "exploitability"),
    # Slow: [nfsp_arm-exploitability] stays.
    pytest.param("arm", "exploitability_best_response",
                 marks=pytest.mark.slow)])
def test_nfsp_binary_trains_nfsp_arm_and_arm(tmp_path, preset, column):
  """One binary for NFSP, NFSP-ARM and plain ARM (whose own policy is
  what its curve measures)."""
  _run("nfsp.py", "--game=kuhn_poker", f"--preset={preset}",
       "--episodes=3000", "--eval_every=3000", "--checkpoint_every=3000",
       "--backend=tree", f"--output_dir={tmp_path}")
  rows = _curve(tmp_path)
  # Batched self-play ends its games in play past --episodes.
  assert len(rows) == 2 and 3000 <= rows[-1]["step"] < 3100
  # Kuhn's exploitability, a mean of best-response values: at most 2 chips.
  assert all(0 <= row[column] <= 2 for row in rows)


# Slow (30 s): LBR and the baselines are tests/test_lbr.py's and
# tests/test_matches.py's; this is the binary's Limit Hold'em columns.
@pytest.mark.slow
def test_nfsp_binary_measures_lhe_against_the_baseline_and_lbr(tmp_path):
  """Limit Hold'em has no exact best response: the curve holds mbb/h
  against the equity-threshold player and the shipped SmooCT-like profile
  (here on stand-in bucket tables), and LBR's winnings."""
  flags = ["--game=nfsp_lhe", "--preset=lhe", "--hidden_layers=16",
           "--replay_buffer_capacity=2000",
           "--reservoir_buffer_capacity=2000", "--episodes=256",
           "--eval_every=256", "--checkpoint_every=256", "--eval_deals=4",
           "--smooct_deals=4", "--lbr_hands=2",
           "--eval_policies=average,greedy_average", f"--output_dir={tmp_path}"]
  _run("nfsp.py", *flags, env=_stand_in_tables(tmp_path / "cache"))
  with open(tmp_path / "curve.csv", encoding="utf-8") as curve:
    header, *rows = curve.read().splitlines()
  assert {"mbb_per_hand_vs_equity_threshold", "lbr_mbb_per_hand",
          "mbb_per_hand_vs_smooct", "mbb_per_hand_vs_smooct_greedy_average",
          } <= set(header.split(",")) and len(rows) == 2
  result = subprocess.run(
      [sys.executable, os.path.join(EXAMPLES, "nfsp.py"), *flags,
       "--lbr_hands=3"], capture_output=True, text=True, timeout=300,
      check=False)
  assert "--lbr_hands=3: LBR plays each deal in both seats" in result.stderr
