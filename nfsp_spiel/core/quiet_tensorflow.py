"""TensorFlow, imported without the start-up lines that scare new users.

On every start TensorFlow 2.21 writes about ten lines to stderr: INFO lines
(oneDNN, CPU instructions), absl's notice that logging is not initialised,
and on a machine without a usable GPU "Could not find cuda drivers" and an
ERROR line, "failed call to cuInit". None of them is news to a CPU user, all
of them look like failures, and `TF_CPP_MIN_LOG_LEVEL` reaches only the CPU
instruction lines: the others are written while TensorFlow's libraries load
(absl's notice, oneDNN's and the cuda-driver line show at every level, 3
included; the cuInit ERROR up to 2, and 3 hides every error). This module,
imported by the package's TensorFlow modules instead of `tensorflow` itself,
therefore

* sets `TF_CPP_MIN_LOG_LEVEL=1` unless the user set it: INFO off from then on
  (XLA's "Compiled cluster", ...), warnings and errors kept; a failing op's
  WARNING line, for one, still shows, where level 2 would hide it;
* while TensorFlow loads and probes for GPUs, passes stderr through a filter
  process that writes every line to the console except those start-up ones,
  told by their severity and text, so that a warning or a FATAL line from
  the same source (cpu_feature_guard's missing-AVX check) still shows. The
  CUDA lines count as start-up lines only where no NVIDIA driver is loaded:
  with a driver, a failing cuInit is a real error. Being a process of its
  own, the filter still writes what TensorFlow said if TensorFlow aborts.

`TF_CPP_MIN_LOG_LEVEL=0` in the environment turns all of TensorFlow's
messages back on (and skips the filter).
"""

import os
import re
import subprocess
import sys

# Matched at the start of a line; "I" and "E" are absl's severity prefixes.
_START_UP = (
    r"WARNING: All log messages before absl::InitializeLog\(\) is called"
    r"|I\d{4} [^]]*\] oneDNN custom operations are on"
    r"|I\d{4} [^]]*\] This TensorFlow binary is optimized to use available"
    r"|To enable the following instructions: .* rebuild TensorFlow with the "
    r"appropriate compiler flags")
_NO_GPU = (r"I\d{4} [^]]*\] Could not find cuda drivers on your machine"
           r"|E\d{4} [^]]*\] failed call to cuInit")

# `python -c _FILTER PATTERN` copies its stdin to its stderr but the lines
# that start with PATTERN; line by line, so nothing waits in it.
_FILTER = """
import re, sys
hidden = re.compile(sys.argv[1])
for line in sys.stdin.buffer:
  if not hidden.match(line.decode(errors="replace")):
    sys.stderr.buffer.write(line)
    sys.stderr.buffer.flush()
"""


def nvidia_driver_loaded():
  """Whether a GPU could be used at all: Linux lists a loaded NVIDIA driver
  under /proc; elsewhere (Windows) assume there may be one."""
  if sys.platform == "darwin":
    return False
  if sys.platform.startswith("linux"):
    return os.path.exists("/proc/driver/nvidia/version")
  return True


def hidden_lines(driver_loaded):
  """The pattern of the start-up lines held back."""
  return _START_UP if driver_loaded else f"{_START_UP}|{_NO_GPU}"


def shown(line, driver_loaded):
  """Whether a line TensorFlow writes while starting reaches the console."""
  return not re.match(hidden_lines(driver_loaded), line)


def _import_quietly():
  if os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1") == "0":
    import tensorflow  # pylint: disable=g-import-not-at-top
    return tensorflow
  sys.stderr.flush()
  console = os.dup(2)
  # -I -S: the filter starts in milliseconds and ignores the user's PYTHON*
  # variables; its stderr is the console, inherited before the swap below.
  line_filter = subprocess.Popen(
      [sys.executable, "-I", "-S", "-c", _FILTER,
       hidden_lines(nvidia_driver_loaded())], stdin=subprocess.PIPE)
  os.dup2(line_filter.stdin.fileno(), 2)
  try:
    import tensorflow  # pylint: disable=g-import-not-at-top
    tensorflow.config.list_physical_devices("GPU")  # the CUDA probe logs
  finally:
    sys.stderr.flush()
    os.dup2(console, 2)
    os.close(console)
    line_filter.stdin.close()
    try:
      line_filter.wait(timeout=10)  # its lines before anything we write
    except subprocess.TimeoutExpired:
      pass  # a process TensorFlow started holds the pipe: the filter goes on
  return tensorflow


tf = _import_quietly()
