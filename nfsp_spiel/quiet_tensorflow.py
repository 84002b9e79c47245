"""TensorFlow, imported without the start-up lines that scare new users.

On every start TensorFlow 2.21 writes about ten lines to stderr: INFO lines
(oneDNN, CPU instructions, absl's "before InitializeLog"), then on a machine
without a usable GPU "Could not find cuda drivers" and an ERROR line, "failed
call to cuInit". None of them is news to a CPU user, all of them look like
failures. This module, imported by the package's TensorFlow modules instead
of `tensorflow` itself, therefore

* sets `TF_CPP_MIN_LOG_LEVEL=1` (INFO off; warnings and errors stay) unless
  the user set it, which quiets the INFO lines TensorFlow writes later (XLA's
  "Compiled cluster", ...);
* captures stderr while TensorFlow loads and probes for GPUs (the lines above
  come before the variable takes effect) and writes back every line except
  the known start-up ones. The CUDA lines count as known only where no NVIDIA
  driver is loaded: with a driver, a failing cuInit is a real error and shows.

`TF_CPP_MIN_LOG_LEVEL=0` in the environment turns all of TensorFlow's
messages back on.
"""

import os
import re
import sys
import tempfile

_START_UP = re.compile(
    r"All log messages before absl::InitializeLog|oneDNN custom operations"
    r"|cpu_feature_guard|To enable the following instructions")
_NO_GPU = re.compile(r"Could not find cuda drivers|failed call to cuInit")


def nvidia_driver_loaded():
  """Whether a GPU could be used at all: Linux lists a loaded NVIDIA driver
  under /proc; elsewhere (Windows) assume there may be one."""
  if sys.platform == "darwin":
    return False
  if sys.platform.startswith("linux"):
    return os.path.exists("/proc/driver/nvidia/version")
  return True


def shown(line, driver_loaded):
  """Whether a line TensorFlow wrote while starting reaches the console."""
  if _START_UP.search(line):
    return False
  return driver_loaded or not _NO_GPU.search(line)


def _import_quietly():
  if os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1") == "0":
    import tensorflow  # pylint: disable=g-import-not-at-top
    return tensorflow
  driver_loaded = nvidia_driver_loaded()
  sys.stderr.flush()
  console = os.dup(2)
  with tempfile.TemporaryFile() as captured:
    os.dup2(captured.fileno(), 2)
    try:
      import tensorflow  # pylint: disable=g-import-not-at-top
      tensorflow.config.list_physical_devices("GPU")  # the CUDA probe logs
    finally:
      sys.stderr.flush()
      os.dup2(console, 2)
      os.close(console)
      captured.seek(0)
      text = captured.read().decode(errors="replace")
      sys.stderr.write("".join(
          line for line in text.splitlines(keepends=True)
          if shown(line, driver_loaded)))
      sys.stderr.flush()
  return tensorflow


tf = _import_quietly()
