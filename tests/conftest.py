"""The test session writes its temporary files into one folder it removes.

TensorFlow's autograph, Ray's session folders and the binaries the tests
start (which inherit the environment) all write under the system's temporary
directory; this points TMPDIR (and Ray's RAY_TMPDIR) at a folder of the
session's own before any of them is imported, and removes it at the end.
pytest's `tmp_path` folders are kept only for failed tests (pytest.ini).
"""

import os
import shutil
import tempfile

import pytest

# pytest-xdist's workers inherit the controlling process's environment: they
# share its folder (a folder per worker inside it would make Ray's socket
# paths longer than AF_UNIX allows), and only the controller removes it.
OWNER = "NFSP_SPIEL_TEST_TMP" not in os.environ
if OWNER:
  # pytest's own tmp_path folders stay where pytest keeps them.
  os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", tempfile.gettempdir())
  os.environ["NFSP_SPIEL_TEST_TMP"] = tempfile.mkdtemp(
      prefix="nfsp_spiel_tests_")
SESSION_TMP = os.environ["NFSP_SPIEL_TEST_TMP"]
os.environ["TMPDIR"] = SESSION_TMP
os.environ["RAY_TMPDIR"] = SESSION_TMP
tempfile.tempdir = None  # gettempdir() reads TMPDIR again


def pytest_unconfigure(config):
  del config
  if OWNER:
    shutil.rmtree(SESSION_TMP, ignore_errors=True)


# The default run is the quick check of every module (about 8 minutes on two
# cores); these long tests run with `pytest -m slow` (`.ci/run` runs both).
# Each names the default test of the same mechanism that stays, or says that
# none does (Ray runs only in the slow run).
SLOW = {
    "run/test_run_directory.py::test_killed_at_a_random_moment_and_resumed"
    "[nfsp_actors]": "Ray, 120 s; Ray runs only in the slow run",
    "run/test_run_directory.py::test_killed_at_a_random_moment_and_resumed"
    "[nfsp_rl_environment]": "[xfp], [fsp], [smooth_uct] stay; NFSP's "
    "binary resumes in test_ctrl_c_...[nfsp]",
    "run/test_run_directory.py::test_resume_after_a_crash_cuts_the_curve_to_the_"
    "checkpoint[nfsp_rl_environment]": "[xfp], [fsp], [smooth_uct] stay",
    "run/test_run_directory.py::test_resume_after_a_crash_cuts_the_curve_to_the_"
    "checkpoint[nfsp]": "[xfp], [fsp], [smooth_uct] stay; the NFSP binary's "
    "resume: test_ctrl_c_...[nfsp]",
    "run/test_run_directory.py::test_a_run_without_checkpoint_starts_a_fresh_curve"
    "[nfsp]": "decided by the run directory before any driver starts; the "
    "other binaries stay",
    "core/test_checkpoints.py::test_run_folders_of_the_earlier_names_resume"
    "[population]": "80 s; [nfsp] stays: a member's header is upgraded by "
    "the same config.complete_header",
    "nfsp/test_population.py::test_resume_continues_exactly":
    "70 s; test_a_population_of_one_is_its_single_run saves and restores",
    "examples/test_nfsp.py::test_the_curve_holds_each_member_and_the_"
    "mean_with_its_band": "its fixture trains a population for 60 s; the "
    "band's arithmetic is tests/test_curves.py's",
    "run/test_nfsp_training.py::test_a_member_is_the_run_of_its_seed":
    "the population's exactness is tests/test_population.py's",
    "run/test_nfsp_training.py::test_the_population_curve_holds_each_member_and_"
    "each_groups_band": "its fixture trains a population for 60 s; the "
    "band's arithmetic is tests/test_curves.py's",
    "run/test_nfsp_training.py::test_a_resumed_run_loses_nothing": "the NFSP "
    "binary's resume: test_run_directory.py's test_ctrl_c_...[nfsp]",
    "nfsp/test_openspiel_nfsp.py::test_openspiels_kuhn_example_learns_with_one_"
    "import_changed": "55 s; test_a_tf1_script_learns_kuhn_with_one_import_"
    "changed stays",
    "nfsp/test_arm.py::test_arm_average_play_approaches_rock_paper_scissors_"
    "equilibrium": "ARM learning: test_nfsp_arm_learns_kuhn stays",
    "test_old_checkpoints.py::test_old_checkpoint_continues_as_before"
    "[binary_rl_environment]": "[binary_selfplay] and the library cases stay",
    "test_old_checkpoints.py::test_old_checkpoint_continues_as_before"
    "[binary_selfplay_preset_learner]": "[binary_selfplay] stays",
    "docs/test_readme.py::test_snippet_runs_as_pasted[repl-3]":
    "[script-3] runs the same code",
    "docs/test_readme.py::test_snippet_runs_as_pasted[repl-4]":
    "[script-4] runs the same code",
    "docs/test_readme.py::test_docs_snippet_runs_as_a_script[docs/evaluation.md-1]":
    "Limit Hold'em matches and LBR: tests/test_lbr.py, test_matches.py",
    "docs/test_readme.py::test_docs_snippet_runs_as_a_script[docs/scaling.md-4]":
    "Ray, 60 s; Ray runs only in the slow run",
    "examples/test_run_flags.py::test_smooth_uct_on_limit_holdem_runs_and_resumes":
    "test_smooth_uct_runs_and_resumes (Leduc) stays",
    "evaluation/test_lbr.py::test_equity_threshold_player": "the baselines' matches: "
    "tests/test_matches.py",
    "evaluation/test_lbr.py::test_river_lbr_against_the_exact_best_response"
    "[params3-StrengthPolicy-False]": "the batched cases stay",
    "nfsp/test_population.py::test_a_sweep_is_one_population": "45 s; "
    "test_members_are_the_runs_they_would_be_alone stays (seeds)",
    "nfsp/test_distributed.py::test_two_actors_feed_the_learner_and_get_its_"
    "weights": "Ray, 40 s; the records' and games' bookkeeping without Ray "
    "stays (Ray itself runs only in the slow run)",
    "run/test_run_directory.py::test_killed_at_a_random_moment_and_resumed[nfsp]":
    "[xfp], [fsp], [smooth_uct] stay; the NFSP binary's resume: "
    "test_ctrl_c_...[nfsp]",
    "run/test_run_directory.py::test_resume_after_a_crash_cuts_the_curve_to_the_"
    "checkpoint[xfp]": "[fsp], [smooth_uct] stay",
    "core/test_quiet_tensorflow.py::test_tf_cpp_min_log_level_0_brings_them_back":
    "test_start_up_lines_are_gone_and_warnings_stay stays",
    "examples/test_run_flags.py::test_nfsp_binary_trains_nfsp_arm_and_arm"
    "[arm-exploitability_best_response]": "[nfsp_arm-exploitability] stays",
    "games/test_river_poker.py::test_openspiel_cpp_and_python_tools_agree":
    "tests/test_conformance.py's OpenSpiel checks stay",
    "nfsp/test_agent.py::test_learning_together_is_learning_one_agent_after_the_"
    "other": "the fused call's numbers: tests/test_same_numbers.py",
    "poker/test_card_abstraction.py::test_flop_index_bijection":
    "test_preflop_index_bijection and the index's invariance on every round "
    "(test_index_is_invariant_and_inverse) stay",
    "fictitious_play/test_xfp.py::test_average_policy_tables_match_openspiels_xfp"
    "[leduc_poker-20]": "the Kuhn case stays",
}


@pytest.hookimpl(tryfirst=True)  # before `-m "not slow"` deselects
def pytest_collection_modifyitems(config, items):
  """Marks the tests of `SLOW` slow; a name there that no test has is an
  error (a renamed test would silently rejoin the default run)."""
  del config
  found = set()
  for item in items:
    name = item.nodeid.removeprefix("tests/")
    if name in SLOW:
      item.add_marker("slow")
      found.add(name)
  missing = sorted(set(SLOW) - found)
  # A run of some files collects only their tests.
  collected_files = {item.nodeid.removeprefix("tests/").split("::")[0]
                     for item in items}
  missing = [name for name in missing
             if name.split("::")[0] in collected_files]
  if missing:
    raise ValueError(f"tests/conftest.py SLOW names tests that do not "
                     f"exist: {missing}")


@pytest.fixture(scope="session")
def fake_tables():
  """E[HS^2] tables by board of the real shapes whose bucket is (canonical
  board + pair) modulo the bucket count (`board_buckets.stand_ins`, ~14 s
  to build, once per worker): the searches' bookkeeping and the matches do
  not need real E[HS^2] values."""
  from nfsp_spiel.poker import board_buckets  # pylint: disable=g-import-not-at-top
  return board_buckets.stand_ins()
