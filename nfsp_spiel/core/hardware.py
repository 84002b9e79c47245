"""What the machine computes in hardware: whether a device has bfloat16
units (`bfloat16_units`). Both NFSP's configuration (`NFSPConfig.lhe()`
picks its precision from it) and its networks (which refuse emulated
bfloat16) ask; it lives here so that neither imports the other for it."""

import functools
import pathlib

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
