"""TensorFlow's threads for NFSP's learning calls (`core.hardware`)."""

import subprocess
import sys

import pytest

from nfsp_spiel.core import hardware


@pytest.mark.parametrize("precision, players, cores, threads", [
    ("bfloat16", 2, 2, (1, 2)),  # an agent's chain per core
    ("bfloat16", 2, 16, (8, 2)),
    ("bfloat16", 3, 2, (1, 2)),  # more agents than cores: the cores
    ("bfloat16", 2, 1, (1, 1)),
    ("float32", 2, 2, None)])  # one XLA cluster: TensorFlow's defaults
def test_learning_threads(precision, players, cores, threads):
  assert hardware.learning_threads(precision, players, cores) == threads


def test_threads_are_set_before_tensorflow_starts_and_left_after():
  """In a fresh process (TensorFlow starts once per process)."""
  code = ("from nfsp_spiel.core import hardware\n"
          "from nfsp_spiel.core.quiet_tensorflow import tf\n"
          "print(hardware.set_learning_threads('float32', 2))\n"
          "print(hardware.set_learning_threads('bfloat16', 2))\n"
          "print(tf.config.threading.get_inter_op_parallelism_threads())\n"
          "tf.constant(1.0) + 1.0\n"
          "print(hardware.set_learning_threads('bfloat16', 1))\n")
  out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                       text=True, check=True).stdout.split("\n")
  set_early = hardware.learning_threads("bfloat16", 2)
  # After the start only what is already in force is accepted.
  set_late = hardware.learning_threads("bfloat16", 1)
  assert out[:4] == ["None", str(set_early), str(set_early[1]),
                     str(set_late if set_late == set_early else None)]
