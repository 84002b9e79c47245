"""What the machine computes in hardware, and on how many threads.

`bfloat16_units`: whether a device has bfloat16 units. Both NFSP's
configuration (`NFSPConfig.lhe()` picks its precision from it) and its
networks (which refuse emulated bfloat16) ask; it lives here so that neither
imports the other for it. `acting_threads`: the BLAS threads of the NFSP
drivers' acting, numpy products of a few hundred rows at most.
`set_learning_threads`: TensorFlow's threads for the learning calls.
"""

import functools
import os
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


def acting_threads():
  """A context in which numpy's BLAS runs `ACTING_BLAS_THREADS` thread(s),
  its earlier limits restored after: the drivers' playing. The libraries
  are looked up at each call (0.3 ms), so that a BLAS loaded after the
  first (scipy's own OpenBLAS, imported by a later module) is limited too."""
  return threadpoolctl.ThreadpoolController().limit(
      limits=ACTING_BLAS_THREADS, user_api="blas")


def learning_threads(precision, players, cores=None):
  """(intra-op, inter-op) TensorFlow threads for NFSP's fused learning
  calls of `players` agents on `cores` (default: the process' CPUs), or None
  for TensorFlow's defaults. A bfloat16 call runs TensorFlow's own kernels
  (oneDNN), and its products of 256 rows gain little from a second thread
  each (on a 2-core AMX Xeon, 1.0-1.4x), while the agents' updates are
  independent chains: so one inter-op thread per agent and the cores shared
  among them (2,515 game steps/s on nfsp_lhe against 1,895 with TensorFlow's
  defaults there; BUILD_NOTES, "Limit Hold'em's learning on a CPU's matrix
  units"). A float32 call is one XLA cluster, which parallelises inside
  itself on the intra-op threads: TensorFlow's defaults (one intra-op thread
  made it 0.62x there)."""
  if precision != "bfloat16":
    return None
  cores = cores or len(os.sched_getaffinity(0))
  return max(1, cores // players), max(1, min(players, cores))


def set_learning_threads(precision, players):
  """Sets `learning_threads(precision, players)` as TensorFlow's threads if
  its runtime has not started (after that they cannot change); returns the
  (intra-op, inter-op) pair now in force, or None where TensorFlow's
  defaults are wanted or it had started with others."""
  threads = learning_threads(precision, players)
  if threads is None:
    return None
  from nfsp_spiel.core.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
  try:
    tf.config.threading.set_intra_op_parallelism_threads(threads[0])
    tf.config.threading.set_inter_op_parallelism_threads(threads[1])
  except RuntimeError:  # the runtime has started (a test, a script's own)
    return None
  return threads
