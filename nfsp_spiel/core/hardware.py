"""What the machine computes in hardware, and on how many threads.

`bfloat16_units`: whether a device has bfloat16 units. Both NFSP's
configuration (`NFSPConfig.lhe()` picks its precision from it) and its
networks (which refuse emulated bfloat16) ask; it lives here so that neither
imports the other for it. `acting_threads`: the BLAS threads of the NFSP
drivers' acting, numpy products of a few hundred rows at most.
"""

import functools
import pathlib

import threadpoolctl

BFLOAT16_CPU_FLAGS = ("avx512_bf16", "amx_bf16")


@functools.lru_cache(maxsize=None)
def _cpu_flags():
  cpuinfo = pathlib.Path("/proc/cpuinfo")
  if not cpuinfo.exists():
    return frozenset()
  for line in cpuinfo.read_text().splitlines():
    if line.startswith("flags"):
      return frozenset(line.split(":", 1)[1].split())
  return frozenset()


def bfloat16_units(device=None):
  """Whether `device` (a TensorFlow device string; None: where TensorFlow
  would place the networks) computes bfloat16 products in hardware: a GPU,
  or a CPU with avx512_bf16 or amx_bf16 (elsewhere they are emulated,
  slower than float32)."""
  if device is None:
    # Only TensorFlow knows whether it sees a GPU; a named device needs no
    # TensorFlow, so that reading a configuration for it stays cheap.
    from nfsp_spiel.core.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
    if tf.config.list_physical_devices("GPU"):
      return True
  elif "GPU" in device.upper():
    return True
  return any(flag in _cpu_flags() for flag in BFLOAT16_CPU_FLAGS)


# Acting's products (a lockstep's rows through a network, numpy) are too
# small to gain from BLAS threads, and lose much where TensorFlow's threads
# or other processes share the cores: NFSP on Limit Hold'em made 1.6x the
# game steps/s with one thread beside a second run on a 2-core machine
# (BUILD_NOTES, "Acting on one BLAS thread").
ACTING_BLAS_THREADS = 1


@functools.lru_cache(maxsize=None)
def _blas():
  return threadpoolctl.ThreadpoolController()


def acting_threads():
  """A context in which numpy's BLAS runs `ACTING_BLAS_THREADS` thread(s),
  its earlier limits restored after: the drivers' playing."""
  return _blas().limit(limits=ACTING_BLAS_THREADS, user_api="blas")
