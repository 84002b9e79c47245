"""The flags every training binary shares, and how they open its folder.

`open_run` opens `--output_dir` through `nfsp_spiel.run_directory` (the one
mechanism that keeps checkpoint, curve, PNG and TensorBoard consistent),
restores its checkpoint unless `--noresume`, and says what it did; a
checkpoint that is not this run's stops the binary with one line that names
the way out.
"""

import sys

from absl import flags

from nfsp_spiel import checkpoints
from nfsp_spiel import run_directory

flags.DEFINE_string("output_dir", None, "Folder for the curve (curve.csv, "
                    "curve.png) and checkpoint.npz (default: runs/<binary>).")
flags.DEFINE_bool("resume", True, "Resume from <output_dir>/checkpoint.npz "
                  "where there is one; --noresume starts a fresh run there "
                  "(replacing its checkpoint at the first save).")
flags.DEFINE_bool("tensorboard", False, "Also write TensorBoard scalars to "
                  "<output_dir>/tensorboard.")

FLAGS = flags.FLAGS


def open_run(default_dir, plot, restore, fresh):
  """(RunDirectory, solver): `restore(checkpoint_path)` when resuming, else
  `fresh()`; `plot(curve_csv, png)` draws the curve."""
  directory = FLAGS.output_dir or default_dir
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
