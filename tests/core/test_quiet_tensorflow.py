"""TensorFlow's start-up lines stay off the console; real messages do not."""

import os
import subprocess
import sys

import pytest

from nfsp_spiel.core import quiet_tensorflow

NOISE = ("oneDNN", "cudart_stub", "cpu_feature_guard", "InitializeLog",
         "To enable the following instructions", "XLA service",
         "Compiled cluster")
TRAIN_A_LITTLE = """
import pyspiel, nfsp_spiel
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.core.quiet_tensorflow import tf
game = pyspiel.load_game("kuhn_poker")
config = nfsp.NFSPConfig(best_response=nfsp.DQNConfig(replay_buffer_capacity=1000),
                         min_buffer_size_to_learn=32, reservoir_buffer_capacity=1000)
selfplay.SelfPlay(game, nfsp.agents_for(game, config), 16).play(500)
tf.get_logger().warning("a real warning")
try:  # TensorFlow logs a WARNING line for the failing op
  tf.linalg.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
except tf.errors.InvalidArgumentError:
  pass
"""
# TensorFlow 2.21's start-up lines, as written on a machine without a GPU.
START_UP = (
    "WARNING: All log messages before absl::InitializeLog() is called are "
    "written to STDERR\n"
    "I0000 00:00:1.5    61 port.cc:153] oneDNN custom operations are on. You "
    "may see slightly different numerical results.\n"
    "I0000 00:00:1.5    61 cpu_feature_guard.cc:227] This TensorFlow binary "
    "is optimized to use available CPU instructions in performance-critical "
    "operations.\n"
    "To enable the following instructions: AVX2 FMA, in other operations, "
    "rebuild TensorFlow with the appropriate compiler flags.\n")
# Held back only where no NVIDIA driver is loaded.
CUDART = ("I0000 00:00:1.5    61 cudart_stub.cc:31] Could not find cuda "
          "drivers on your machine, GPU will not be used.\n")
CU_INIT = ("E0000 00:00:1.5    61 cuda_platform.cc:52] failed call to cuInit: "
           "INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (303)\n")
# Real messages from the same sources, which must show.
REAL = ("W0000 00:00:1.5    61 port.cc:1] oneDNN custom operations: a warning\n"
        "E0000 00:00:1.5    61 cuda_platform.cc:60] cuDevicePrimaryCtxRetain "
        "failed\n")
FATAL = ("F0000 00:00:1.5    61 cpu_feature_guard.cc:89] The TensorFlow "
         "library was compiled to use AVX instructions, but these aren't "
         "available on your machine.\n")


def _run(code, log_level=None, path=None):
  """(returncode, stderr) of `code` in a fresh interpreter, with the user's
  TF_CPP_MIN_LOG_LEVEL `log_level` (None: unset) and `path` first on the
  module search path."""
  environment = {k: v for k, v in os.environ.items()
                 if k != "TF_CPP_MIN_LOG_LEVEL"}
  if log_level is not None:
    environment["TF_CPP_MIN_LOG_LEVEL"] = log_level
  if path is not None:
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(path)] + environment.get("PYTHONPATH", "").split(os.pathsep))
  result = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=300, env=environment, check=False)
  return result.returncode, result.stderr


def _fake_tensorflow(folder, at_import, at_gpu_probe="", abort=False):
  """A `tensorflow` package in `folder` that writes `at_import` to file
  descriptor 2 (then aborts, with `abort`), and `at_gpu_probe` when asked
  for GPUs."""
  package = folder / "tensorflow"
  package.mkdir()
  (package / "__init__.py").write_text(f"""
import os, types
os.write(2, {at_import.encode()!r})
{"os.abort()" if abort else ""}
def _probe(kind):
  os.write(2, {at_gpu_probe.encode()!r})
  return []
config = types.SimpleNamespace(list_physical_devices=_probe)
""")
  return folder


def test_start_up_lines_are_gone_and_warnings_stay():
  returncode, stderr = _run(TRAIN_A_LITTLE)
  assert returncode == 0, stderr[-3000:]
  assert not [line for line in stderr.splitlines()
              if any(word in line for word in NOISE)], stderr
  if not quiet_tensorflow.nvidia_driver_loaded():
    assert "cuInit" not in stderr
  assert "a real warning" in stderr
  assert "Matrix size-incompatible" in stderr  # TF_CPP_MIN_LOG_LEVEL 2 hides


# Slow: test_start_up_lines_are_gone_and_warnings_stay stays.
@pytest.mark.slow
def test_tf_cpp_min_log_level_0_brings_them_back():
  returncode, stderr = _run(TRAIN_A_LITTLE, log_level="0")
  assert returncode == 0, stderr[-3000:]
  assert "oneDNN" in stderr or "cpu_feature_guard" in stderr
  assert "a real warning" in stderr


def test_filter_keeps_real_lines_in_order(tmp_path):
  path = _fake_tensorflow(tmp_path, START_UP + CUDART + REAL,
                          at_gpu_probe=CU_INIT)
  returncode, stderr = _run(
      "import sys; import nfsp_spiel.core.quiet_tensorflow; "
      "sys.stderr.write('after the import\\n')", path=path)
  assert returncode == 0, stderr
  if quiet_tensorflow.nvidia_driver_loaded():
    assert stderr == CUDART + REAL + CU_INIT + "after the import\n"
  else:
    assert stderr == REAL + "after the import\n"


def test_fatal_line_reaches_the_console_when_tensorflow_aborts(tmp_path):
  path = _fake_tensorflow(tmp_path, START_UP + FATAL, abort=True)
  returncode, stderr = _run("import nfsp_spiel.core.quiet_tensorflow", path=path)
  assert returncode != 0
  assert stderr == FATAL


def test_only_known_start_up_lines_are_held_back():
  for line in (CUDART, CU_INIT):
    assert not quiet_tensorflow.shown(line, driver_loaded=False)
    assert quiet_tensorflow.shown(line, driver_loaded=True)  # a real error
  for line in START_UP.splitlines(keepends=True):
    assert not quiet_tensorflow.shown(line, driver_loaded=True), line
  for line in (REAL + FATAL).splitlines(keepends=True):
    assert quiet_tensorflow.shown(line, driver_loaded=False), line
