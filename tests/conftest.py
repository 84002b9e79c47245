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

# pytest's own tmp_path folders stay where pytest keeps them.
os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", tempfile.gettempdir())
SESSION_TMP = tempfile.mkdtemp(prefix="nfsp_spiel_tests_")
os.environ["TMPDIR"] = SESSION_TMP
os.environ["RAY_TMPDIR"] = SESSION_TMP
tempfile.tempdir = None  # gettempdir() reads TMPDIR again


def pytest_unconfigure(config):
  del config
  shutil.rmtree(SESSION_TMP, ignore_errors=True)
