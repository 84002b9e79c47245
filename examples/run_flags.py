"""The flags every training binary shares, and how they open its folder.

`open_run` opens `--output_dir` through `nfsp_spiel.run.run_directory` (the one
mechanism that keeps checkpoint, curve, PNG and TensorBoard consistent),
restores its checkpoint unless `--noresume`, says what it did and from then
on turns Ctrl-C (or SIGTERM) into "end within seconds at the last consistent
checkpoint"; a checkpoint that is not this run's, an `--output_dir` that
cannot be a folder or settings the algorithm refuses stop the binary with one
line.

A binary imports this module and starts with `run_flags.run(main)` instead
of `app.run(main)`: a usage error (a flag absl cannot parse, `app.UsageError`)
is then one line, not absl's whole --help before it. The flags defined here
(`define_flags`, `define_count`) are key flags of the binary, so its `--help`
lists them beside its own; `--help` (and `--helpfull`) exit with status 0,
not absl's 1. Inside `flag_errors()` a library's refusal (a `ValueError`
that starts with the setting, `seeds=0-x: ...`) is a usage error too.
"""

import contextlib
import difflib
import functools
import json
import os
import sys
import tempfile

from absl import app
from absl import flags
import pyspiel

from nfsp_spiel.core import checkpoints
from nfsp_spiel.run import curves
from nfsp_spiel.run import run_directory

FLAGS = flags.FLAGS


class _HelpFlag(app.HelpFlag):
  """absl's --help, exiting 0: asking for help is not an error."""

  def parse(self, arg):
    if self._parse(arg):
      app.usage(shorthelp=True, writeto_stdout=True)
      print("\nTry --helpfull to get a list of all flags.")
      sys.exit(0)


class _HelpfullFlag(app.HelpfullFlag):
  """absl's --helpfull, exiting 0."""

  def parse(self, arg):
    if self._parse(arg):
      app.usage(writeto_stdout=True)
      sys.exit(0)


def _listed_by_help(holder):
  """Makes `holder`'s flag a key flag of the binary, returning `holder`.

  absl's --help lists the key flags of the program's module (`sys.argv[0]`),
  and a flag belongs to the module whose code defined it: this one. A binary
  adopting this module's key flags would miss those it defines later
  through `define_count`."""
  FLAGS.register_key_flag_for_module(sys.argv[0], FLAGS[holder.name])
  return holder


app.define_help_flags()
for _flag in (_HelpFlag(), _HelpfullFlag()):
  for _name in {_flag.name, _flag.short_name} - {None}:
    delattr(FLAGS, _name)
  _listed_by_help(flags.DEFINE_flag(_flag))


def run(main):
  """`app.run(main)`, a usage error said in one line (exit status 1)."""
  app.run(_usage_errors_in_one_line(main), flags_parser=_parse_flags)


def _usage_error(error):
  sys.exit(f"error: {error} (try --help)")


def _parse_flags(argv):
  """absl's flag parsing; an unknown flag or a value it refuses is a usage
  error."""
  try:
    return FLAGS(argv)
  except flags.Error as error:
    _usage_error(error)


def _usage_errors_in_one_line(main):

  @functools.wraps(main)
  def main_with_usage_errors_in_one_line(argv):
    try:
      return main(argv)
    except app.UsageError as error:
      _usage_error(error)

  return main_with_usage_errors_in_one_line


@contextlib.contextmanager
def flag_errors():
  """The library's refusals start with the setting as its flag names it
  (`seeds=0-x: ...`): each becomes a one-line usage error."""
  try:
    yield
  except ValueError as error:
    raise app.UsageError(f"--{error}") from None


def define_flags(default_dir, resumable=True):
  """--output_dir (default `default_dir`), --tensorboard and, for a binary
  that checkpoints, --resume."""
  _listed_by_help(flags.DEFINE_string(
      "output_dir", default_dir, "Folder for the curve (curve.csv, "
      "curve.png)" + (" and checkpoint.npz." if resumable else ".")))
  _listed_by_help(flags.DEFINE_bool(
      "tensorboard", False, "Also write TensorBoard scalars to "
      "<output_dir>/tensorboard."))
  if resumable:
    _listed_by_help(flags.DEFINE_bool(
        "resume", True, "Resume from <output_dir>/checkpoint.npz where there "
        "is one; --noresume starts a fresh run there (replacing its "
        "checkpoint at the first save). A fresh run moves an earlier run's "
        "curve aside (curve.csv.1, ...)."))
    _listed_by_help(flags.DEFINE_float(
        "checkpoint_minutes", 10.0, "Also checkpoint at the first evaluation "
        "after this many minutes since the last checkpoint (Ctrl-C "
        "checkpoints too where the evaluation is quick).", lower_bound=0.0))
    define_count("keep_checkpoints_every", 0, "Also keep the first "
                 "checkpoint at or past each multiple of this many steps as "
                 "<output_dir>/kept/<step>.npz (hard links), to measure the "
                 "run's past states afterwards; 0: keep none.", lower_bound=0)


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
  return _listed_by_help(flags.DEFINE(
      _CountParser(lower_bound=lower_bound), name, default, help_text,
      serializer=flags.ArgumentSerializer()))


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
    with _quiet_stderr():  # OpenSpiel prints its error before raising it
      return pyspiel.load_game(game_string)
  except (pyspiel.SpielError, ValueError) as error:
    hint = ("; OpenSpiel's parser reads a value of digits, + and - as a C++ "
            "int: quote such a range (range0=\"22+\") and keep integers "
            "below 2^31" if "game_parameters.cc" in str(error) else "")
    sys.exit(f"error: --game={game_string!r}: {error}{hint}")


def payoff_unit():
  """The unit of --game's payoffs, for the curve's axes."""
  return curves.payoff_unit(load_game(FLAGS.game))


class _quiet_stderr:  # pylint: disable=invalid-name
  """Holds back what C++ writes to stderr (file descriptor 2) inside the
  block, passing it on only if the block succeeds."""

  def __enter__(self):
    sys.stderr.flush()
    self._held = tempfile.TemporaryFile()
    self._saved = os.dup(2)
    os.dup2(self._held.fileno(), 2)

  def __exit__(self, error_type, error, traceback):
    os.dup2(self._saved, 2)
    os.close(self._saved)
    if error_type is None:
      self._held.seek(0)
      sys.stderr.write(self._held.read().decode(errors="replace"))
    self._held.close()


def open_directory(**kwargs):
  """`RunDirectory(--output_dir, **kwargs)` with --tensorboard, or one line
  saying why --output_dir cannot hold a run."""
  try:
    return run_directory.RunDirectory(FLAGS.output_dir,
                                      tensorboard=FLAGS.tensorboard, **kwargs)
  except OSError as error:
    sys.exit(f"error: --output_dir={FLAGS.output_dir!r}: {error.strerror} "
             f"({error.filename}); give a folder that exists or can be made")


def open_run(plot, restore, fresh, length=None, unit=None, branch=None):
  """(RunDirectory, solver): `restore(checkpoint_path)` when resuming, else
  `fresh()`, or where `branch` = (path, make) is given, `make()`: (solver,
  changed settings {name: [there, here]}) restored from another run's
  checkpoint at `path`, the changes printed and written to
  <output_dir>/branch.json; `plot(curve_csv, png)` draws the curve. `length` names the flag
  that ends the run (`episodes`, `iterations`): a run resumed at or past it
  (the same command again) ends the binary, saying so. `unit`: what a step
  counts (default: `length`). The run stops within seconds on Ctrl-C
  (`RunDirectory.catch_stop_signals`)."""
  directory = FLAGS.output_dir
  run = open_directory(plot=plot, resume=FLAGS.resume,
                       checkpoint_seconds=60 * FLAGS.checkpoint_minutes,
                       unit=unit or length,
                       keep_every=FLAGS.keep_checkpoints_every or None)
  try:
    if run.resuming:
      try:
        solver = restore(run.checkpoint)
      except checkpoints.CheckpointError as error:
        sys.exit(f"error: {error}.\nPass --noresume to start a fresh run in "
                 f"{directory} (replacing that checkpoint), or choose "
                 "another --output_dir.")
      if length is not None:
        _end_if_finished(run, length)
      print(f"resumed from {run.checkpoint}")
    else:
      if run.found_checkpoint:
        print(f"--noresume: a fresh run in {directory} (its checkpoint will "
              "be replaced)")
      elif FLAGS.resume:
        print(f"no checkpoint in {directory}: a fresh run")
      if run.kept_previous:
        print("the earlier run's curve is kept as "
              + ", ".join(os.path.basename(p) for p in run.kept_previous))
      solver = fresh() if branch is None else _branched(branch, directory)
  except ValueError as error:  # the algorithm refuses these settings
    sys.exit(f"error: {error}")
  run.catch_stop_signals()
  return run, solver


def _branched(branch, directory):
  """The solver `branch` = (path, make) restores, its changes said and
  kept."""
  path, make = branch
  if not os.path.isfile(checkpoints.path_of(path)):
    sys.exit(f"error: --branch_from={path}: no such checkpoint file")
  try:
    solver, changed = make()
    step = checkpoints.read_progress(path).get("step")
  except checkpoints.CheckpointError as error:
    sys.exit(f"error: {error}")
  print(f"branched from {path} (step {step}), changing "
        + (", ".join(f"{name} {there!r} -> {here!r}"
                     for name, (there, here) in changed.items()) or "nothing"))
  with open(os.path.join(directory, "branch.json"), "w",
            encoding="utf-8") as f:
    json.dump({"from": os.path.abspath(path), "step": step,
               "changed": changed}, f, indent=1)
  return solver


def _end_if_finished(run, length):
  """Ends the binary (status 0) with one line where the checkpoint restored
  is at or past --`length`: training nothing, it would only redraw the
  curve. A checkpoint older than `RunDirectory` stores no step: it goes on."""
  limit = FLAGS[length].value
  step = checkpoints.read_progress(run.checkpoint).get("step")
  if limit is not None and step is not None and step >= limit:
    print(f"run already finished at {step:,} {length} (--{length}={limit:,}): "
          f"{run.summary()}; raise --{length} to continue or pass "
          "--noresume to start over")
    sys.exit(0)
