"""TensorFlow's start-up lines stay off the console; real messages do not."""

import os
import subprocess
import sys

from nfsp_spiel import quiet_tensorflow

NOISE = ("oneDNN", "cudart_stub", "cpu_feature_guard", "InitializeLog",
         "XLA service", "Compiled cluster")
TRAIN_A_LITTLE = """
import pyspiel, nfsp_spiel
from nfsp_spiel import nfsp, selfplay
game = pyspiel.load_game("kuhn_poker")
config = nfsp.NFSPConfig(min_memory_to_learn=32, rl_memory_capacity=1000,
                         sl_memory_capacity=1000)
selfplay.SelfPlay(game, nfsp.agents_for(game, config), 16).play(500)
nfsp.tf.get_logger().warning("a real warning")
"""


def _stderr(log_level=None):
  """What training a little writes to stderr, with the user's
  TF_CPP_MIN_LOG_LEVEL `log_level` (None: unset)."""
  environment = {k: v for k, v in os.environ.items()
                 if k != "TF_CPP_MIN_LOG_LEVEL"}
  if log_level is not None:
    environment["TF_CPP_MIN_LOG_LEVEL"] = log_level
  result = subprocess.run([sys.executable, "-c", TRAIN_A_LITTLE],
                          capture_output=True, text=True, timeout=300,
                          env=environment, check=False)
  assert result.returncode == 0, result.stderr[-3000:]
  return result.stderr


def test_start_up_lines_are_gone_and_warnings_stay():
  stderr = _stderr()
  assert not [line for line in stderr.splitlines()
              if any(word in line for word in NOISE)], stderr
  if not quiet_tensorflow.nvidia_driver_loaded():
    assert "cuInit" not in stderr
  assert "a real warning" in stderr


def test_tf_cpp_min_log_level_0_brings_them_back():
  stderr = _stderr("0")
  assert "oneDNN" in stderr or "cpu_feature_guard" in stderr
  assert "a real warning" in stderr


def test_only_known_start_up_lines_are_held_back():
  cu_init = ("E0000 00:00:1 1 cuda_platform.cc:52] failed call to cuInit: "
             "UNKNOWN ERROR (303)\n")
  assert not quiet_tensorflow.shown(cu_init, driver_loaded=False)
  assert quiet_tensorflow.shown(cu_init, driver_loaded=True)  # a real error
  assert quiet_tensorflow.shown("E0000 00:00:1 1 op.cc:1] Out of memory\n",
                                driver_loaded=False)
  assert not quiet_tensorflow.shown(
      "I0000 00:00:1 1 port.cc:153] oneDNN custom operations are on.\n",
      driver_loaded=True)
