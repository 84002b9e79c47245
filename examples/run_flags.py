"""The flags every training binary shares, and how they open its folder.

`open_run` opens `--output_dir` through `nfsp_spiel.run_directory` (the one
mechanism that keeps checkpoint, curve, PNG and TensorBoard consistent),
restores its checkpoint unless `--noresume`, and says what it did; a
checkpoint that is not this run's stops the binary with one line that names
the way out.
"""

import difflib
import sys

from absl import flags
import pyspiel

from nfsp_spiel import checkpoints
from nfsp_spiel import run_directory

FLAGS = flags.FLAGS


def define_flags(default_dir, resumable=True):
  """--output_dir (default `default_dir`), --tensorboard and, for a binary
  that checkpoints, --resume."""
  flags.DEFINE_string("output_dir", default_dir, "Folder for the curve "
                      "(curve.csv, curve.png)" + (" and checkpoint.npz."
                                                  if resumable else "."))
  flags.DEFINE_bool("tensorboard", False, "Also write TensorBoard scalars to "
                    "<output_dir>/tensorboard.")
  if resumable:
    flags.DEFINE_bool("resume", True, "Resume from <output_dir>/"
                      "checkpoint.npz where there is one; --noresume starts a "
                      "fresh run there (replacing its checkpoint at the first "
                      "save).")


class _CountParser(flags.IntegerParser):
  """An integer flag that also reads 1e6, 2.5e7 or 1_000_000 (counts of
  episodes are large), refusing what is not a whole number."""

  def parse(self, argument):
    if isinstance(argument, str):
      try:
        value = float(argument.replace("_", ""))
      except ValueError:
        raise ValueError(f"{argument!r} is not a number") from None
      if not value.is_integer():
        raise ValueError(f"{argument!r} is not a whole number")
      argument = int(value)
    return super().parse(argument)


def define_count(name, default, help_text, lower_bound=1):
  """An integer flag for counts: `--episodes 1e6` works."""
  flags.DEFINE(_CountParser(lower_bound=lower_bound), name, default,
               help_text, serializer=flags.ArgumentSerializer())


def load_game(game_string):
  """The game, or one line naming what is wrong with `--game`: OpenSpiel's
  own error for an unknown name lists every registered game (twice)."""
  name = game_string.split("(")[0].strip()
  names = pyspiel.registered_names()
  if name not in names:
    close = difflib.get_close_matches(name, names, n=3)
    sys.exit(f"error: --game={game_string!r}: no game {name!r} is registered"
             + (f"; did you mean {', '.join(close)}?" if close else "")
             + " (all names: python -c 'import pyspiel, nfsp_spiel; "
             "print(pyspiel.registered_names())')")
  try:
    return pyspiel.load_game(game_string)
  except (pyspiel.SpielError, ValueError) as error:
    hint = ("; OpenSpiel's parser reads a value of digits, + and - as a C++ "
            "int: quote such a range (range0=\"22+\") and keep integers "
            "below 2^31" if "game_parameters.cc" in str(error) else "")
    sys.exit(f"error: --game={game_string!r}: {error}{hint}")


def open_run(plot, restore, fresh):
  """(RunDirectory, solver): `restore(checkpoint_path)` when resuming, else
  `fresh()`; `plot(curve_csv, png)` draws the curve."""
  directory = FLAGS.output_dir
  run = run_directory.RunDirectory(directory, plot, FLAGS.resume,
                                   FLAGS.tensorboard)
  if run.resuming:
    try:
      solver = restore(run.checkpoint)
    except checkpoints.CheckpointError as error:
      sys.exit(f"error: {error}.\nPass --noresume to start a fresh run in "
               f"{directory} (replacing that checkpoint), or choose another "
               "--output_dir.")
    print(f"resumed from {run.checkpoint}")
  else:
    if run.found_checkpoint:
      print(f"--noresume: a fresh run in {directory} (its checkpoint will "
            "be replaced)")
    elif FLAGS.resume:
      print(f"no checkpoint in {directory}: a fresh run")
    solver = fresh()
  return run, solver
