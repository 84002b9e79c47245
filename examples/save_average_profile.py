"""Saves a trained NFSP run's average strategy on its own and measures it.

Copies each player's average network out of an `examples/nfsp.py` run's
checkpoint (`--member`: which run of a population) into `--output`, a file
of a few MB that `nfsp_spiel.nfsp.average_profile.load(game, path)` gives
back as an OpenSpiel policy, then measures the saved file as the run's curve
measures its agents: exploitability (NashConv beyond two players) where it is
computable; in Limit Hold'em the duplicate matches against the
equity-threshold player and the SmooCT-like profile and LBR, on the same
deals as the curve's rows with the same counts and seed.

  python examples/save_average_profile.py \\
      --checkpoint runs/nfsp/checkpoint.npz --output leduc_average.npz
"""

import os

from absl import app
from absl import flags

import run_flags  # examples/run_flags.py

FLAGS = flags.FLAGS
flags.DEFINE_string("checkpoint", None, "An examples/nfsp.py run's "
                    "checkpoint.npz.", required=True)
flags.DEFINE_string("output", None, "Where the profile is written (.npz).",
                    required=True)
flags.DEFINE_integer("member", None, "The run of a population checkpoint "
                     "(0-based, in --seeds order).")
flags.DEFINE_enum("dtype", "float32", ["float32", "float16"],
                  "The saved weights' type (float16: half the file; "
                  "probabilities within about 1e-3).")
run_flags.define_count("eval_deals", 2000, "Duplicate deals against the "
                       "equity-threshold player in Limit Hold'em.")
run_flags.define_count("smooct_deals", 2000, "Duplicate deals against the "
                       "SmooCT-like profile in Limit Hold'em (0: none).",
                       lower_bound=0)
run_flags.define_count("lbr_hands", 0, "Hands of the local best response in "
                       "Limit Hold'em (even; 0: none).", lower_bound=0)
flags.DEFINE_integer("seed", 0, "Seed of the matches' deals (a run's curve "
                     "uses the run's --seed).")


def main(argv):
  del argv
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import average_profile  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.run import nfsp_training  # pylint: disable=g-import-not-at-top
  with run_flags.flag_errors():
    try:
      path = average_profile.save(FLAGS.output, FLAGS.checkpoint,
                                  FLAGS.member, FLAGS.dtype)
    except FileNotFoundError as error:  # it names --checkpoint or --output
      raise app.UsageError(f"--{error}") from None
    settings = nfsp_training.EvaluationSettings(
        diagnostics=False, eval_deals=FLAGS.eval_deals,
        lbr_hands=FLAGS.lbr_hands, smooct_deals=FLAGS.smooct_deals)
  game_string = average_profile.read(path)[1]["game"]
  game = run_flags.load_game(game_string)
  profile = average_profile.load(game, path)
  print(f"saved {game_string}'s average networks after "
        f"{profile.settings['episodes']:,} episodes to {path} "
        f"({os.path.getsize(path) / 2**20:.1f} MiB, {FLAGS.dtype})")
  for name, value in nfsp_training.policy_metrics(
      game, profile, "average", settings, FLAGS.seed).items():
    print(f"{name}: {value:.6g}")


if __name__ == "__main__":
  run_flags.run(main)
