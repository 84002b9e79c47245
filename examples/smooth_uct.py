"""Runs Smooth UCT (or UCT) self-play search and writes its learning curve.

Simulates episodes in chunks, evaluating the average policy's exploitability
every `--eval_every` episodes (logged with wall-clock seconds to
`<output_dir>/curve.csv`, plotted to `curve.png`), and checkpoints the trees
to `<output_dir>/checkpoint.npz`; running the same command resumes there.

  python examples/smooth_uct.py --game leduc_poker --preset leduc \\
      --episodes 100000000
"""

import os

from absl import app
from absl import flags
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import smooth_uct

FLAGS = flags.FLAGS
flags.DEFINE_string("game", "kuhn_poker", "OpenSpiel game string.")
flags.DEFINE_enum("preset", "kuhn", ["kuhn", "leduc", "uct_kuhn", "uct_leduc"],
                  "Thesis parameters: Smooth UCT or UCT, Kuhn or Leduc.")
flags.DEFINE_float("c", None, "Override the exploration constant.")
flags.DEFINE_integer("episodes", 1_000_000, "Total episodes.")
flags.DEFINE_integer("eval_every", 100_000, "Episodes between evaluations.")
flags.DEFINE_integer("seed", 0, "Random seed.")
flags.DEFINE_string("output_dir", "runs/smooth_uct", "Curve/checkpoint folder.")

PRESETS = {"kuhn": smooth_uct.SmoothUCTConfig(),
           "leduc": smooth_uct.LEDUC,
           "uct_kuhn": smooth_uct.uct_config(2.0),
           "uct_leduc": smooth_uct.uct_config(20.0)}


def main(argv):
  del argv
  game = pyspiel.load_game(FLAGS.game)
  config = PRESETS[FLAGS.preset]
  overrides = {} if FLAGS.c is None else {"c": FLAGS.c}
  checkpoint = os.path.join(FLAGS.output_dir, "checkpoint.npz")
  logger = evaluation.LearningCurveLogger(FLAGS.output_dir)
  if os.path.exists(checkpoint):
    search = smooth_uct.SmoothUCT.restore(game, checkpoint, config,
                                          **overrides)
    print(f"resumed at {search.episodes} episodes")
  else:
    search = smooth_uct.SmoothUCT(game, config, seed=FLAGS.seed, **overrides)
  while search.episodes < FLAGS.episodes:
    search.run(min(FLAGS.eval_every, FLAGS.episodes - search.episodes))
    row = logger.log(search.episodes, exploitability=search.exploitability())
    search.save(checkpoint)
    print(f"{row['step']:.0f} episodes, {row['seconds']:.1f} s, "
          f"exploitability {row['exploitability']:.4f}", flush=True)
  png = evaluation.plot_curves({FLAGS.preset: logger.path},
                               os.path.join(FLAGS.output_dir, "curve.png"),
                               loglog=True, title=str(game),
                               xlabel="episodes")
  print(f"curve: {logger.path}, {png}")


if __name__ == "__main__":
  app.run(main)
