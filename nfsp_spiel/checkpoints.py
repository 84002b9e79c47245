"""Checkpoints of solvers as .npz files: arrays plus the game and RNG state.

Every solver saves what a resumed run needs to continue exactly, tagged with
the game string, so that resuming on another game is a clear error. Files are
written atomically (`write`), so a run killed mid-save keeps its last one;
NFSP's multi-agent checkpoints use `write`/`read` directly.
"""

import json
import os

import numpy as np


def _npz(path):
  """The file name, as a string (`pathlib.Path`s are welcome)."""
  path = os.fspath(path)
  return path if path.endswith(".npz") else path + ".npz"


def write(path, arrays):
  """`np.savez` to a temporary file renamed over `path`: a run killed while
  writing leaves the previous checkpoint intact. Returns the path."""
  path = _npz(path)
  temporary = path + ".tmp.npz"
  np.savez(temporary, **arrays)
  os.replace(temporary, path)
  return path


def read(path, kind):
  """All arrays of an .npz checkpoint as a dict (FileNotFoundError naming
  `kind` if there is none)."""
  try:
    with np.load(_npz(path)) as data:
      return {name: data[name] for name in data.files}
  except FileNotFoundError:
    raise FileNotFoundError(f"no {kind} checkpoint at {path!r}") from None


def save(path, game, rng, **arrays):
  """Writes `arrays`, the game string and `rng`'s state; returns the path."""
  return write(path, {"game": str(game),
                      "rng": json.dumps(rng.bit_generator.state), **arrays})


def load(path, game, rng, kind):
  """The arrays of `kind`'s checkpoint at `path`, restoring `rng`'s state."""
  data = read(path, kind)
  if str(data["game"]) != str(game):
    raise ValueError(f"{path!r} is a checkpoint of {data['game']}, not {game}")
  rng.bit_generator.state = json.loads(str(data["rng"]))
  return data
