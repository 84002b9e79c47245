"""Checkpoints of solvers as .npz files: arrays plus the game and RNG state.

Every solver saves what a resumed run needs to continue exactly, tagged with
the game string, so that resuming on another game is a clear error.
"""

import json

import numpy as np


def save(path, game, rng, **arrays):
  """Writes `arrays`, the game string and `rng`'s state; returns the path."""
  np.savez(path, game=str(game), rng=json.dumps(rng.bit_generator.state),
           **arrays)
  return path if path.endswith(".npz") else path + ".npz"


def load(path, game, rng, kind):
  """The arrays of `kind`'s checkpoint at `path`, restoring `rng`'s state."""
  try:
    data = np.load(path)
  except FileNotFoundError:
    raise FileNotFoundError(f"no {kind} checkpoint at {path!r}") from None
  if str(data["game"]) != str(game):
    raise ValueError(f"{path!r} is a checkpoint of {data['game']}, not {game}")
  rng.bit_generator.state = json.loads(str(data["rng"]))
  return data
