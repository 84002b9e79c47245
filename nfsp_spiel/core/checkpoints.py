"""Checkpoints of solvers and agents: .npz files that say what they hold.

Every checkpoint carries a header, {"algorithm", "game", "config"}, so that a
file is recognised before anything is restored from it: another algorithm's,
another game's, one written with other settings or a damaged one raises a
`CheckpointError` naming the file, what it holds and what was expected, and
nothing changes. Files are written atomically (`write`): a run killed while
saving keeps its previous checkpoint. A training run may store its `progress`
(clocks, see `nfsp_spiel.run.run_directory`) in the same file, so that the
checkpoint and the run's clock never disagree.
"""

import dataclasses
import json
import os
import zipfile
import zlib

import numpy as np

_ABSENT = object()
HEADER = "header"
PROGRESS = "progress"
# Before headers (package 0.1 until this change) only NFSP's files held their
# settings; their keys tell what the others held, for the error message.
_HEADERLESS = {"agent0/config": "NFSP", "strategy0": "XFP",
               "memory0_states": "FSP", "counts": "Smooth UCT"}


class CheckpointError(ValueError):
  """A checkpoint that cannot be restored here; nothing was changed.
  `differing`: the config fields in which it differs from the expected
  header, where that was the reason (else empty)."""

  def __init__(self, message, differing=()):
    super().__init__(message)
    self.differing = tuple(differing)


def path_of(path):
  """The file name, as a string ending in .npz (`pathlib.Path`s welcome)."""
  path = os.fspath(path)
  return path if path.endswith(".npz") else path + ".npz"


def temporary_path(path):
  """Where `write` puts a checkpoint before renaming it over `path`."""
  return path_of(path) + ".tmp.npz"


def header(algorithm, game, config):
  """What a checkpoint holds: `game` a game or None (an agent alone knows no
  game), `config` a dataclass or a dict."""
  if dataclasses.is_dataclass(config):
    config = dataclasses.asdict(config)
  return {"algorithm": algorithm, "game": None if game is None else str(game),
          "config": json.loads(json.dumps(config))}


def write(path, header_, arrays, progress=None):
  """`np.savez` of `arrays`, the header and `progress` (a JSON-able dict) to
  a temporary file renamed over `path`: a run killed while writing leaves the
  previous checkpoint intact. Returns the path."""
  path = path_of(path)
  folder = os.path.dirname(path) or os.curdir
  if not os.path.isdir(folder):  # else numpy names the temporary file
    raise FileNotFoundError(f"cannot save {path}: no folder {folder}")
  extra = {HEADER: json.dumps(header_)}
  if progress is not None:
    extra[PROGRESS] = json.dumps(progress)
  temporary = temporary_path(path)
  np.savez(temporary, **arrays, **extra)
  os.replace(temporary, path)
  return path


def read(path, expected, ignore=(), defaults=None, upgrade=None):
  """All arrays of the checkpoint at `path`, after checking that its header
  matches `expected` (config fields in `ignore` may differ, e.g. a device).

  Raises FileNotFoundError if there is none and CheckpointError if it holds
  another algorithm, game or config, or is damaged. `defaults`: the values of
  config fields added since a file was written (what it ran with)."""
  path = path_of(path)
  with _open(path) as data:
    found = _header(data, path)
    check(path, found, expected, ignore, defaults, upgrade)
    try:
      return {name: data[name] for name in data.files
              if name not in (HEADER, PROGRESS)}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile,
            zlib.error) as error:
      raise _damaged(path, error) from error


def read_header(path):
  """The header of the checkpoint at `path` (see `header`), unchecked: what
  a tool that looks into a run reads its settings from."""
  path = path_of(path)
  with _open(path) as data:
    return _header(data, path)


def read_progress(path):
  """The `progress` dict a training run stored with the checkpoint ({} if
  none)."""
  path = path_of(path)
  with _open(path) as data:
    return json.loads(str(data[PROGRESS])) if PROGRESS in data.files else {}


def save(path, header_, rng, progress=None, **arrays):
  """Writes `arrays` and `rng`'s state under `header_`; returns the path."""
  return write(path, header_,
               {"rng": json.dumps(rng.bit_generator.state), **arrays},
               progress)


def load(path, expected, rng, ignore=()):
  """The arrays of `save`'s checkpoint at `path`, restoring `rng`'s state."""
  data = read(path, expected, ignore)
  rng.bit_generator.state = json.loads(str(data["rng"]))
  return data


def check_shapes(path, data, arrays):
  """Raises CheckpointError unless `data` holds every one of `arrays` (name:
  the array it will be copied into) in its shape: a game whose arrays
  changed size between versions must not fail halfway through a restore."""
  for name, array in arrays.items():
    if data[name].shape != array.shape:
      raise CheckpointError(
          f"{path!r} holds {name} of shape {data[name].shape}, this run's is "
          f"{array.shape} (written by another version of the game or "
          "package)")


def describe(header_):
  """A header in words: 'XFP on kuhn_poker()' (an agent alone: 'NFSP
  agent')."""
  game = header_["game"]
  return header_["algorithm"] + ("" if game is None else f" on {game}")


def _open(path):
  if not os.path.exists(path):
    raise FileNotFoundError(f"no checkpoint at {path!r}")
  try:
    data = np.load(path, allow_pickle=False)
  except (OSError, ValueError, EOFError, zipfile.BadZipFile,
          zlib.error) as error:
    raise _damaged(path, error) from error
  if not isinstance(data, np.lib.npyio.NpzFile):
    raise CheckpointError(f"{path!r} holds a single array, not a checkpoint "
                          "(an .npz archive written by nfsp_spiel)")
  return data


def _header(data, path):
  try:
    if HEADER in data.files:
      return json.loads(str(data[HEADER]))
    for key, algorithm in _HEADERLESS.items():
      if key in data.files:
        config = (json.loads(str(data[key])) if key == "agent0/config"
                  else None)  # the others' settings were not saved
        return {"algorithm": algorithm, "game": str(data["game"]),
                "config": config, "headerless": True}
  except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile,
          zlib.error) as error:
    raise _damaged(path, error) from error
  raise CheckpointError(f"{path!r} is not an nfsp_spiel checkpoint: it holds "
                        f"the arrays {sorted(data.files)[:8]}")


def check(path, found, expected, ignore=(), defaults=None, upgrade=None):
  """Raises CheckpointError naming what differs between the header `found`
  in `path` and the `expected` one (config fields in `ignore` may differ;
  fields absent from `found` count with their `defaults` where given; a
  config an earlier version wrote in another form passes through
  `upgrade(config) -> config` first)."""
  if (found["algorithm"], found["game"]) != (expected["algorithm"],
                                             expected["game"]):
    raise CheckpointError(f"{path!r} holds {describe(found)}, not "
                          f"{describe(expected)}")
  if found["config"] is None:
    raise CheckpointError(
        f"{path!r} holds {describe(found)} written before checkpoints kept "
        "their settings, so they cannot be checked against this run's")
  if found.get("headerless"):  # it kept the algorithm's config only
    ignore = (*ignore, *(set(expected["config"]) - set(found["config"])))
  saved, ours = found["config"], expected["config"]
  if upgrade:
    saved = upgrade(saved)
  if defaults:
    saved = {**header(None, None, defaults)["config"], **saved}
  differing = sorted(key for key in set(saved) | set(ours)
                     if key not in ignore
                     and saved.get(key, _ABSENT) != ours.get(key, _ABSENT))
  if differing:
    fields = ", ".join(f"{key}: {_shown(saved, key)} there, "
                       f"{_shown(ours, key)} here" for key in differing)
    raise CheckpointError(f"{path!r} holds {describe(found)} with other "
                          f"settings ({fields})", differing)


def _shown(config, key):
  return repr(config[key]) if key in config else "absent"


def _damaged(path, error):
  return CheckpointError(f"{path!r} is damaged and cannot be read "
                         f"({type(error).__name__}: {error}); it was left "
                         "as it is")



def save_compressed(path, settings, **arrays):
  """Writes `arrays` and the JSON `settings` to a compressed .npz through a
  temporary file (an interrupted save leaves the previous one): the
  searches' greedy profiles."""
  path = path_of(path)
  temporary = temporary_path(path)
  np.savez_compressed(temporary, settings=json.dumps(settings), **arrays)
  os.replace(temporary, path)
  return path


def load_compressed(path, names, what):
  """({name: array}, settings) from `save_compressed`'s file, or a
  ValueError naming what the file holds instead of `what`."""
  with np.load(path_of(path), allow_pickle=False) as data:
    if any(name not in data.files for name in (*names, "settings")):
      raise ValueError(f"path={path!r} holds {sorted(data.files)}, not "
                       f"{what} ({', '.join(names)}, settings)")
    return ({name: data[name] for name in names},
            json.loads(str(data["settings"])))
