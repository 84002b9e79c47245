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

import functools

from absl import app
from absl import flags

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import smooth_uct
import run_flags  # examples/run_flags.py

FLAGS = flags.FLAGS
run_flags.define_flags("runs/smooth_uct")
flags.DEFINE_string("game", "kuhn_poker", "OpenSpiel game string.")
flags.DEFINE_enum("preset", None, ["kuhn", "leduc", "uct_kuhn", "uct_leduc"],
                  "Thesis parameters: Smooth UCT or UCT, Kuhn or Leduc "
                  "(default: Smooth UCT's for the game, Kuhn or Leduc).")
flags.DEFINE_float("c", None, "Override the exploration constant.")
run_flags.define_count("episodes", 1_000_000, "Total episodes.")
run_flags.define_count("eval_every", 100_000, "Episodes between evaluations.")
flags.DEFINE_integer("seed", 0, "Random seed.")

PRESETS = {"kuhn": smooth_uct.SmoothUCTConfig(),
           "leduc": smooth_uct.LEDUC,
           "uct_kuhn": smooth_uct.uct_config(2.0),
           "uct_leduc": smooth_uct.uct_config(20.0)}
# The games the thesis' parameters were tuned on (sec. 3.3).
GAME_PRESETS = {"kuhn_poker": "kuhn", "leduc_poker": "leduc",
                "nfsp_leduc": "leduc"}


def preset(game):
  """--preset, or the thesis' Smooth UCT parameters for `game`."""
  if FLAGS.preset:
    return FLAGS.preset
  name = game.get_type().short_name
  if name not in GAME_PRESETS:
    raise app.UsageError(f"--game={FLAGS.game}: the thesis tuned Smooth UCT "
                         "on Kuhn and Leduc poker only; choose --preset "
                         f"({', '.join(PRESETS)}) and maybe --c")
  return GAME_PRESETS[name]


def plot(label, curve, png):
  evaluation.plot_curves({label: curve}, png, loglog=True, title=FLAGS.game,
                         xlabel="episodes")


def main(argv):
  del argv
  game = run_flags.load_game(FLAGS.game)
  name = preset(game)
  config = PRESETS[name]
  overrides = {} if FLAGS.c is None else {"c": FLAGS.c}
  run, search = run_flags.open_run(
      functools.partial(plot, name),
      lambda path: smooth_uct.SmoothUCT.restore(game, path, config,
                                                FLAGS.seed, **overrides),
      lambda: smooth_uct.SmoothUCT(game, config, FLAGS.seed, **overrides))
  run.open_curve(search.episodes)
  print(f"{game} at {search.episodes} episodes, {run.seconds:.1f} s: "
        f"preset {name}, {search.config}")
  while search.episodes < FLAGS.episodes:
    search.run(min(FLAGS.eval_every, FLAGS.episodes - search.episodes))
    row = run.log(search.episodes, exploitability=search.exploitability())
    run.save(search.save, search.episodes)
    print(f"{row['step']:.0f} episodes, {row['seconds']:.1f} s, "
          f"exploitability {row['exploitability']:.4f}", flush=True)
  run.plot()
  print(run.summary())


if __name__ == "__main__":
  app.run(main)
