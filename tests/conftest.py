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
# cores); the long tests carry `@pytest.mark.slow` where they are defined,
# with the default test of the same mechanism that stays, and run with
# `pytest -m slow` (`.ci/run` runs both). test_old_checkpoints.py stays as the
# base commit's check was written, so its two slow cases are marked here.
OLD_CHECKPOINTS_SLOW = {
    "test_old_checkpoints.py::test_old_checkpoint_continues_as_before"
    "[binary_rl_environment]",  # [binary_selfplay] and the library cases stay
    "test_old_checkpoints.py::test_old_checkpoint_continues_as_before"
    "[binary_selfplay_preset_learner]",  # [binary_selfplay] stays
}


@pytest.hookimpl(tryfirst=True)  # before `-m "not slow"` deselects
def pytest_collection_modifyitems(config, items):
  """Marks `OLD_CHECKPOINTS_SLOW` slow; a name there that no test has is an
  error (a renamed case would silently rejoin the default run)."""
  del config
  found = set()
  for item in items:
    name = item.nodeid.removeprefix("tests/")
    if name in OLD_CHECKPOINTS_SLOW:
      item.add_marker("slow")
      found.add(name)
  if any(name.startswith("test_old_checkpoints.py::") for name in
         (item.nodeid.removeprefix("tests/") for item in items)):
    missing = sorted(OLD_CHECKPOINTS_SLOW - found)
    if missing:
      raise ValueError(f"tests/conftest.py names tests that do not exist: "
                       f"{missing}")


@pytest.fixture(scope="session")
def fake_tables():
  """E[HS^2] tables by board of the real shapes whose bucket is (canonical
  board + pair) modulo the bucket count (`board_buckets.stand_ins`, ~14 s
  to build, once per worker): the searches' bookkeeping and the matches do
  not need real E[HS^2] values."""
  from nfsp_spiel.poker import board_buckets  # pylint: disable=g-import-not-at-top
  return board_buckets.stand_ins()
