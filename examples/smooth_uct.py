"""Runs Smooth UCT (or UCT) self-play search and writes its learning curve.

Simulates episodes in chunks, evaluating the average policy's exploitability
every `--eval_every` episodes (logged with wall-clock seconds to
`<output_dir>/curve.csv`, plotted to `curve.png`), and checkpoints the trees
to `<output_dir>/checkpoint.npz` after every evaluation; running the same
command resumes there (`--noresume` starts over), the curve cut back to the
checkpoint (`nfsp_spiel.run_directory`).

  python examples/smooth_uct.py --game leduc_poker --preset leduc \\
      --episodes 100000000
"""

from absl import app
from absl import flags

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import smooth_uct
import run_flags  # examples/run_flags.py

FLAGS = flags.FLAGS
run_flags.define_flags("runs/smooth_uct")
flags.DEFINE_string("game", "kuhn_poker", "OpenSpiel game string.")
flags.DEFINE_enum("preset", "kuhn", ["kuhn", "leduc", "uct_kuhn", "uct_leduc"],
                  "Thesis parameters: Smooth UCT or UCT, Kuhn or Leduc.")
flags.DEFINE_float("c", None, "Override the exploration constant.")
flags.DEFINE_integer("episodes", 1_000_000, "Total episodes.")
flags.DEFINE_integer("eval_every", 100_000, "Episodes between evaluations.")
flags.DEFINE_integer("seed", 0, "Random seed.")

PRESETS = {"kuhn": smooth_uct.SmoothUCTConfig(),
           "leduc": smooth_uct.LEDUC,
           "uct_kuhn": smooth_uct.uct_config(2.0),
           "uct_leduc": smooth_uct.uct_config(20.0)}


def plot(curve, png):
  evaluation.plot_curves({FLAGS.preset: curve}, png, loglog=True,
                         title=FLAGS.game, xlabel="episodes")


def main(argv):
  del argv
  game = run_flags.load_game(FLAGS.game)
  config = PRESETS[FLAGS.preset]
  overrides = {} if FLAGS.c is None else {"c": FLAGS.c}
  run, search = run_flags.open_run(
      plot,
      lambda path: smooth_uct.SmoothUCT.restore(game, path, config,
                                                FLAGS.seed, **overrides),
      lambda: smooth_uct.SmoothUCT(game, config, FLAGS.seed, **overrides))
  run.open_curve(search.episodes)
  print(f"{game} at {search.episodes} episodes, {run.seconds:.1f} s")
  while search.episodes < FLAGS.episodes:
    search.run(min(FLAGS.eval_every, FLAGS.episodes - search.episodes))
    row = run.log(search.episodes, exploitability=search.exploitability())
    run.save(search.save, search.episodes)
    print(f"{row['step']:.0f} episodes, {row['seconds']:.1f} s, "
          f"exploitability {row['exploitability']:.4f}", flush=True)
  print(f"curve: {run.curve}, {run.plot()}; checkpoint: {run.checkpoint}")


if __name__ == "__main__":
  app.run(main)
