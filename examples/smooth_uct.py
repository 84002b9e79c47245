"""Runs Smooth UCT (or UCT) self-play search and writes its learning curve.

Simulates episodes in chunks, evaluating the average policy's exploitability
every `--eval_every` episodes (logged with wall-clock seconds to
`<output_dir>/curve.csv`, plotted to `curve.png`), and checkpoints the trees
to `<output_dir>/checkpoint.npz` after every evaluation; running the same
command resumes there (`--noresume` starts over), the curve cut back to the
checkpoint (`nfsp_spiel.run.run_directory`).

  python examples/smooth_uct.py --game leduc_poker --preset leduc \\
      --episodes 100000000

On Limit Hold'em (`--game nfsp_lhe`, `smooth_uct.lhe`: the E[HS^2]
abstraction, thesis sec. 3.5.3) no exploitability is computable: each
evaluation plays the greedy profile (the thesis' evaluation) against the
fixed baselines in mbb/h with duplicate deals, and `--seconds` bounds the
training time (the thesis' runs were time-budgeted):

  python examples/smooth_uct.py --game nfsp_lhe --seconds 3600 \\
      --eval_every 1e9 --episodes 1e12

Three-player Limit Hold'em (`--game nfsp_lhe3`, `smooth_uct.lhe3`) evaluates
the greedy profile against two copies of each fixed baseline.
"""

import functools
import time

from absl import app
from absl import flags

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import smooth_uct
from nfsp_spiel.smooth_uct import lhe
from nfsp_spiel.smooth_uct import lhe3
from nfsp_spiel.run import curves
import run_flags  # examples/run_flags.py

FLAGS = flags.FLAGS
run_flags.define_flags("runs/smooth_uct")
flags.DEFINE_string("game", "kuhn_poker", "OpenSpiel game string.")
flags.DEFINE_enum("preset", None, ["kuhn", "leduc", "lhe", "lhe3", "uct_kuhn",
                                    "uct_leduc", "uct_lhe", "uct_lhe3"],
                  "Thesis parameters: Smooth UCT or UCT, Kuhn, Leduc or "
                  "Limit Hold'em (default: Smooth UCT's for the game).")
flags.DEFINE_float("c", None, "Override the exploration constant.")
flags.DEFINE_float("gamma", None, "Override the lower limit of the mixing "
                   "schedule, eq. 3.1 (thesis fig. 3.4 sets it to 0).")
run_flags.define_count("episodes", 1_000_000, "Total episodes.")
run_flags.define_count("eval_every", 100_000, "Episodes between evaluations.")
flags.DEFINE_integer("seed", 0, "Random seed.")
flags.DEFINE_integer("threads", None, "Simulation threads sharing the "
                     "trees (default: all cores). With 1, a seed repeats a "
                     "run exactly, resumed or not; with more, runs differ "
                     "by the threads' interleaving.", lower_bound=1)
flags.DEFINE_float("seconds", None, "Training seconds (wall clock, "
                   "evaluations excluded) after which the run stops; "
                   "default: none.")
run_flags.define_count("eval_deals", 1000, "nfsp_lhe: duplicate deals per "
                       "baseline match.")
flags.DEFINE_integer("capacity", 2**25, "nfsp_lhe3: rows of the search's "
                     "state table, a power of two (72 bytes each).")
flags.DEFINE_string("greedy_profile", None, "nfsp_lhe(3): write the final "
                    "greedy profile here (`smooth_uct.lhe.GreedyProfile`, "
                    "0.3 MB; `lhe3.GreedyProfile3`), also when the run was "
                    "already complete.")

PRESETS = {"kuhn": smooth_uct.SmoothUCTConfig(),
           "leduc": smooth_uct.SmoothUCTConfig.leduc(),
           "uct_kuhn": smooth_uct.SmoothUCTConfig.uct(2.0),
           "uct_leduc": smooth_uct.SmoothUCTConfig.uct(20.0),
           "lhe": smooth_uct.SmoothUCTConfig.lhe(),
           "uct_lhe": smooth_uct.SmoothUCTConfig.uct_lhe(),
           "lhe3": smooth_uct.SmoothUCTConfig.lhe3(),
           "uct_lhe3": smooth_uct.SmoothUCTConfig.uct_lhe3()}
# The games the thesis ran Smooth UCT on (sec. 3.3, 3.5.3).
GAME_PRESETS = {"kuhn_poker": "kuhn", "leduc_poker": "leduc",
                "nfsp_leduc": "leduc", "nfsp_lhe": "lhe", "nfsp_lhe3": "lhe3"}
# The abstraction searches by game, and the metric their curves lead with.
SEARCHES = {"nfsp_lhe": (lhe.SmoothUCTLHE,
                         "mbb_per_hand_vs_equity_threshold"),
            "nfsp_lhe3": (lhe3.SmoothUCTLHE3, "mbb_per_hand_vs_always_call")}
# Episodes per `search.run` call: each call seeds the kernel from the
# search's generator, so the chunks are part of a run's random stream
# (about 0.25 s on Leduc and 1 s on Limit Hold'em between Ctrl-C checks).
CHUNK = 1_000_000


def preset(game):
  """--preset, or the thesis' Smooth UCT parameters for `game`."""
  if FLAGS.preset:
    return FLAGS.preset
  name = game.get_type().short_name
  if name not in GAME_PRESETS:
    raise app.UsageError(f"--game={FLAGS.game}: the thesis tuned Smooth UCT "
                         "on Kuhn, Leduc and Limit Hold'em only; choose --preset "
                         f"({', '.join(PRESETS)}) and maybe --c")
  return GAME_PRESETS[name]


def plot(label, metric, curve, png):
  """Every metric logged: in Limit Hold'em the three baselines' mbb/h."""
  curves.plot_curves(
      {label: curve}, png, metric=curves.EVERY_METRIC,
      loglog=metric == "exploitability", title=FLAGS.game, xlabel="episodes",
      payoff=run_flags.payoff_unit())


def evaluate(game, search):
  """Exploitability of the average policy, or on Limit Hold'em the greedy
  profile's mbb/h against each baseline (duplicate deals; three players:
  against two copies of it, in each seat)."""
  if game.get_type().short_name not in SEARCHES:
    return {"exploitability": search.exploitability()}
  greedy = search.greedy_policy()
  baselines = {"always_call": evaluation.baselines.AlwaysCall(game),
               "always_raise": evaluation.baselines.AlwaysRaise(game)}
  if game.num_players() == 2:
    baselines["equity_threshold"] = evaluation.baselines.EquityThreshold(game)
  match_of = (evaluation.head_to_head if game.num_players() == 2 else
              evaluation.three_player_match)
  row = {}
  for name, baseline in baselines.items():
    match = match_of(game, greedy, baseline, num_deals=FLAGS.eval_deals,
                     seed=0)
    row[f"mbb_per_hand_vs_{name}"] = match.mbb_per_hand
    row[f"mbb_stderr_vs_{name}"] = match.mbb_stderr
  return row


def main(argv):
  del argv
  game = run_flags.load_game(FLAGS.game)
  name = preset(game)
  config = PRESETS[name]
  search_class, metric = SEARCHES.get(game.get_type().short_name,
                                      (smooth_uct.SmoothUCT, "exploitability"))
  if FLAGS.greedy_profile and search_class is smooth_uct.SmoothUCT:
    raise app.UsageError(f"--greedy_profile={FLAGS.greedy_profile}: greedy "
                         "profiles are written for nfsp_lhe and nfsp_lhe3, "
                         f"not {game}")
  overrides = {name: getattr(FLAGS, name) for name in ("c", "gamma")
               if getattr(FLAGS, name) is not None}
  table = ({"capacity": FLAGS.capacity} if search_class is lhe3.SmoothUCTLHE3
           else {})
  run, search = run_flags.open_run(
      functools.partial(plot, name, metric),
      lambda path: search_class.restore(game, path, config, FLAGS.seed,
                                        threads=FLAGS.threads, **overrides,
                                        **table),
      lambda: search_class(game, config, FLAGS.seed, threads=FLAGS.threads,
                           **overrides, **table),
      # A finished run still writes --greedy_profile (see the end of main).
      length=None if FLAGS.greedy_profile else "episodes", unit="episodes")
  # The training clock (evaluations excluded) continues from the checkpoint.
  training = run.open_curve(search.episodes).get("training_seconds", 0.0)
  print(f"{game} at {search.episodes} episodes, {training:.1f} s training: "
        f"preset {name}, {search.config}, {search.threads} threads")
  seconds = FLAGS.seconds if FLAGS.seconds is not None else float("inf")
  while search.episodes < FLAGS.episodes and training < seconds:
    # To the next multiple of --eval_every: a run stopped between two
    # evaluations resumes onto the same evaluation steps and chunks.
    target = min(FLAGS.eval_every - search.episodes % FLAGS.eval_every,
                 FLAGS.episodes - search.episodes)
    started, done = time.perf_counter(), 0
    # --seconds and Ctrl-C are checked after every chunk of episodes (at
    # least one: a row always follows a step).
    while True:
      chunk = min(CHUNK, target - done)
      search.run(chunk)
      done += chunk
      if done >= target or run.stop_requested or (
          training + time.perf_counter() - started >= seconds):
        break
    training += time.perf_counter() - started
    # Limit Hold'em's matches take long: Ctrl-C may abandon them.
    metrics = run.evaluate(functools.partial(evaluate, game, search))
    if metrics is not None:
      row = run.log(search.episodes, training_seconds=training, **metrics)
      run.save(search.save, search.episodes, training_seconds=training)
      print(f"{row['step']:.0f} episodes, {training:.1f} s training, "
            f"{metric} {row[metric]:.4f}", flush=True)
    if run.checkpoint_and_stop(search.save, search.episodes,
                               training_seconds=training):
      break
  run.plot()
  print(run.summary())
  if FLAGS.greedy_profile and search.episodes > FLAGS.episodes:
    # A run resumed past --episodes trains nothing: writing its profile
    # would replace an earlier snapshot (figure scripts keep one per
    # episode count) with a later one.
    print(f"greedy profile not written: the run is at {search.episodes} "
          f"episodes, past --episodes={FLAGS.episodes} "
          f"({FLAGS.greedy_profile} is left as it is)")
  elif FLAGS.greedy_profile:
    path = search.greedy_policy().save(FLAGS.greedy_profile)
    print(f"greedy profile at {search.episodes} episodes: {path}")


if __name__ == "__main__":
  run_flags.run(main)
