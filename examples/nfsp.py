"""Trains NFSP agents by self-play and writes their learning curve.

Every `--eval_every` episodes (and at the end) it evaluates the agents
(`nfsp_spiel.run.nfsp_training.evaluate`: exploitability where a best
response is computable, with the run diagnostics beside it; in Limit Hold'em
mbb/h against the equity-threshold baseline and the SmooCT-like profile and
the local best response's winnings; in other large games mbb/h against a
uniform player). Rows go to `<output_dir>/curve.csv` (TensorBoard with
`--tensorboard`), `curve.png` is redrawn at every evaluation, and
`<output_dir>/checkpoint.npz` is written every `--checkpoint_every` episodes,
at the first evaluation after `--checkpoint_minutes` and at the end; Ctrl-C
stops within seconds, with a checkpoint where the evaluation is quick, else at
the last one (docs/runs.md): the same command resumes from it (`--noresume`
starts over, keeping the old curve as curve.csv.1).

  python examples/nfsp.py                      # Leduc, paper settings, 1M episodes
  python examples/nfsp.py --episodes 20000000 --output_dir runs/leduc_long
  python examples/nfsp.py --preset dqn --eval_policies average,best_response
  python examples/nfsp.py --game nfsp_lhe --preset lhe --num_games 256
  python examples/nfsp.py --driver rl_environment   # one game at a time
  python examples/nfsp.py --preset nfsp_arm --game leduc_poker   # NFSP-ARM
  python examples/nfsp.py --preset arm --game tic_tac_toe --backend tree
  python examples/nfsp.py --actors 2           # Ray: 2 actors play, a learner
  python examples/nfsp.py --actors 14 --ray_address auto --learner_gpus 1
  python examples/nfsp.py --seeds 0-7          # a population: 8 runs at once
  python examples/nfsp.py --seeds 0,2 --sweep rl_learning_rate=0.05,0.1 \
      --sweep anticipatory_param=0.1,0.5

`--seeds` (and `--sweep`, `nfsp_spiel.nfsp.sweep`) train a population
(`nfsp.population`) in one process, one member per seed (per sweep point and
seed), each the run `--seed` would make; the curve holds each member's
metrics (`exploitability/seed0`, ...) and each sweep point's mean with a band
of +-1 standard error (`exploitability/mean`, `/low`, `/high`); one
checkpoint holds the whole population.
"""

import dataclasses
import functools
import sys

from absl import app
from absl import flags
import numpy as np
# OpenSpiel's Python games (--game python_kuhn_poker, ...) register on import.
import open_spiel.python.games  # noqa: F401

import nfsp_spiel  # noqa: F401
from nfsp_spiel.nfsp import config as nfsp_config
from nfsp_spiel.nfsp import drivers
from nfsp_spiel.run import curves
import run_flags  # examples/run_flags.py

# NFSP's agents, drivers and evaluation import TensorFlow (seconds and
# ~600 MB), so they are imported in `main`, after the flags: --help is
# instant (nfsp_spiel.nfsp.config, the configurations, does not import it).

FLAGS = flags.FLAGS
run_flags.define_flags("runs/nfsp")
flags.DEFINE_string("game", "nfsp_leduc", "OpenSpiel game string.")
PRESETS = ("leduc", "lhe", "dqn", "nfsp_arm", "arm")
flags.DEFINE_enum("preset", "leduc", PRESETS,
                  "NFSPConfig preset: the NFSP paper's Leduc (sec. 4.1) or "
                  "LHE (sec. 4.3) settings, its DQN baseline (sec. 4.2), "
                  "NFSP-ARM (NFSP with ARM as best response) or plain ARM.")
run_flags.define_count("episodes", 1_000_000, "Training episodes in total.")
run_flags.define_count("eval_every", 100_000, "Episodes between evaluations.")
flags.DEFINE_list("eval_policies", None,
                  "Policies to evaluate: average, best_response (the "
                  "learner's: greedy Q, ARM's regret matching), "
                  "greedy_average (default: the preset's evaluation policy).")
flags.DEFINE_bool("diagnostics", True, "Also log the run diagnostics: each "
                  "player's best-response gap and M_SL's exploitability "
                  "(`nfsp.diagnostics`) or, in Limit Hold'em, "
                  "`nfsp.lhe_diagnostics` from --eval_deals deals.")
run_flags.define_count("eval_deals", 2000, "Duplicate deals per match where "
                     "exploitability is out of reach (LHE).")
flags.DEFINE_integer("lbr_hands", 1000, "Hands of the local best response "
                     "against the average policy at each Limit Hold'em "
                     "evaluation (0: none).", lower_bound=0)
run_flags.define_count("smooct_deals", 1000, "Duplicate deals per match of "
                       "each evaluated policy against the shipped SmooCT-like "
                       "greedy profile (`smooth_uct.lhe.shipped_profile`, the "
                       "paper's fig. 2a opponent) at each Limit Hold'em "
                       "evaluation (0: none).", lower_bound=0)
flags.DEFINE_list("hidden_layers", None, "Hidden layer sizes (preset's).")
run_flags.define_count("replay_buffer_capacity", None, "M_RL capacity "
                       "(preset's).")
run_flags.define_count("reservoir_buffer_capacity", None, "M_SL capacity "
                       "(preset's).")
flags.DEFINE_enum("reservoir_buffer_kind", None,
                  list(nfsp_config.RESERVOIR_BUFFER_KINDS),
                  "What M_SL is (preset's).")
flags.DEFINE_float("anticipatory_param", None, "eta, the probability of an "
                   "episode of the best response (preset's).")
flags.DEFINE_float("rl_learning_rate", None, "DQN SGD stepsize (preset's).")
flags.DEFINE_float("sl_learning_rate", None, "Average network's SGD "
                   "stepsize (preset's).")
flags.DEFINE_float("epsilon_start", None, "Initial exploration (preset's).")
flags.DEFINE_enum("epsilon_schedule", None, list(nfsp_config.EPSILON_SCHEDULES),
                  "Exploration decay over iterations k (preset's): "
                  "'polynomial' 1/(1 + epsilon_decay sqrt(k)), 'inverse_sqrt' "
                  "1/sqrt(1 + k).")
flags.DEFINE_float("epsilon_decay", None, "The polynomial schedule's constant "
                   "(preset's).")
flags.DEFINE_integer("learn_every", None, "Agent's own steps between learning "
                     "calls (preset's).")
flags.DEFINE_integer("target_refit_every", None, "DQN updates between target "
                     "refits, 0 for none (preset's).")
flags.DEFINE_boolean("double_q", None, "Bootstrap as double DQN does (the "
                     "Q-network picks, the target network values): a "
                     "diagnostic of overestimation, not the papers' "
                     "(preset's: off).")
flags.DEFINE_float("td_error_clip", None, "c > 0: the Huber loss, the TD "
                   "error's gradient clipped to [-c, c] as Mnih et al. clip "
                   "it; not the papers' (preset's: 0, none).")
flags.DEFINE_integer("min_buffer_size_to_learn", None, "Records a memory needs "
                     "before its network trains (preset's).")
flags.DEFINE_float("reward_scale", None, "Reward multiplier (preset's).")
flags.DEFINE_string("memory_dtype", None, "How the memories store states "
                    "(preset's; see NFSPConfig.memory_dtype).")
flags.DEFINE_enum("init", None, ["torch", "glorot"], "Starting weights "
                  "(preset's).")
flags.DEFINE_string("device", None, "TensorFlow device, e.g. /GPU:0 or "
                    "/CPU:0 (default: TensorFlow's choice).")
flags.DEFINE_enum("precision", None, list(nfsp_config.PRECISIONS),
                  "The learning calls' matrix products (preset's: float32, "
                  "but lhe's is bfloat16 where the machine has bfloat16 "
                  "units: a GPU, a CPU with avx512_bf16 or amx_bf16).")
flags.DEFINE_enum("inputs", None, list(nfsp_config.INPUTS),
                  "What the networks read (preset's: cards, the game's "
                  "information-state tensor): cards_and_equity adds the "
                  "check-down equity of the player's cards in Limit Hold'em, "
                  "a diagnostic (nfsp_spiel.nfsp.equity_inputs), batched "
                  "self-play of one run only.")
flags.DEFINE_enum("driver", "selfplay", ["selfplay", "rl_environment"],
                  "Batched self-play, or OpenSpiel's RL loop one game at a "
                  "time.")
run_flags.define_count("num_games", 128, "Games played at once (selfplay).")
flags.DEFINE_integer("learn_locksteps", None, "Locksteps between learning "
                     "(selfplay): the calls that fell due are made every so "
                     "many locksteps, in groups of up to 8 per compiled call; "
                     "default 8 on nfsp_lhe (1.3x faster there, acting "
                     "weights up to 8 locksteps old, as the distributed "
                     "learner's), else 1.", lower_bound=1)
flags.DEFINE_boolean("background_learning", None, "Make each chunk of "
                     "--learn_locksteps' learning calls in a thread while "
                     "the next chunk is played (selfplay): acting weights "
                     "up to twice as many locksteps old; default on for "
                     "nfsp_lhe, else off.")
flags.DEFINE_enum("backend", "auto", ["auto", "tree", "states"],
                  "How selfplay holds its games: a compiled tree (games of a "
                  "few million histories: Tic-Tac-Toe, Liar's Dice, "
                  "three-player Leduc, where it steps about 1.5x as fast as "
                  "states once compiled), pyspiel states, or a tree where "
                  "the game has at most 200k histories.")
flags.DEFINE_integer("seed", 0, "Seed of agents and games.")
flags.DEFINE_string("branch_from", None, "A fresh run starts from this "
                    "checkpoint of another run (its agents, memories and "
                    "games), with this run's settings: they may differ from "
                    "its own in how agents learn and explore (learning "
                    "rates, eta, exploration, reward scale, double_q, "
                    "td_error_clip); written to <output_dir>/branch.json.")
flags.DEFINE_string("seeds", None, "Train a population, one member per seed "
                    "(each the run of --seed=that seed): ranges a-b and "
                    "seeds, comma-separated (0-7, 0,2,4), the game's number "
                    "of players apart for independent runs.")
flags.DEFINE_multi_string("sweep", None, "name=v1,v2,...: members with that "
                          "setting, one per value (repeated: the cross "
                          "product) for each of --seeds (default --seed); "
                          "name: a config flag (anticipatory_param, ...) or "
                          "an NFSPConfig.replace name (`nfsp.sweep`).")
flags.DEFINE_enum("population_learning", "auto", ["auto", "stacked",
                                                 "separate"],
                  "With a population: its members' learning calls in one "
                  "stacked call, or each through its own (bit for bit its "
                  "single run); auto: where faster (`nfsp.population`).")
flags.DEFINE_integer("actors", 0, "Ray actors playing self-play games for a "
                     "learner process (nfsp_spiel.nfsp.distributed; needs pip "
                     "install 'nfsp_spiel[distributed]'); 0: one process.",
                     lower_bound=0)
flags.DEFINE_string("ray_address", None, "With --actors: the Ray cluster to "
                    "join (e.g. auto, after `ray start --head`); default a "
                    "local one.")
flags.DEFINE_float("learner_gpus", 0.0, "With --actors: GPUs Ray gives the "
                   "learner.", lower_bound=0.0)
run_flags.define_count("locksteps", None, "With --actors: locksteps per "
                       "actor chunk (DistributedConfig's default).")
run_flags.define_count("checkpoint_every", 1_000_000, "Episodes between "
                     "checkpoints (a multiple of --eval_every).")


def plot(metric, population, curve, png):
  """Every metric NFSP logged, `metric` first, one panel per unit (the
  diagnostics and the losses in panels of their own, `curves.QUANTITIES`),
  each line named in words (`nfsp_training.COLUMN_LABELS`); a population's
  `metric` alone (every metric would be a thin line per member), each
  member thin and each sweep point's mean with its band."""
  from nfsp_spiel.run import nfsp_training  # pylint: disable=g-import-not-at-top
  curves.plot_curves(
      {FLAGS.preset: curve}, png,
      metric=metric if population else curves.EVERY_METRIC,
      loglog=metric.startswith(tuple(nfsp_training.EXACT)), title=FLAGS.game,
      xlabel="episodes", column_labels=nfsp_training.COLUMN_LABELS,
      payoff=run_flags.payoff_unit())


def main(argv):
  del argv
  population = FLAGS.seeds is not None or bool(FLAGS.sweep)
  if FLAGS.checkpoint_every % FLAGS.eval_every:
    raise app.UsageError(f"--checkpoint_every={FLAGS.checkpoint_every} must "
                         f"be a multiple of --eval_every={FLAGS.eval_every}: "
                         "a checkpoint follows an evaluation")
  driver_settings = drivers.DriverSettings(
      FLAGS.driver, FLAGS.num_games, FLAGS.backend, FLAGS.learn_locksteps,
      FLAGS.population_learning, FLAGS.actors, FLAGS.ray_address,
      FLAGS.learner_gpus, FLAGS.locksteps, FLAGS.branch_from,
      FLAGS.background_learning)
  with run_flags.flag_errors():
    driver_settings.check(population)
  if FLAGS.seeds is not None and FLAGS["seed"].present:
    raise app.UsageError(f"--seeds={FLAGS.seeds} gives each member's seed: "
                         f"drop --seed={FLAGS.seed}")
  game = run_flags.load_game(FLAGS.game)
  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import networks
  from nfsp_spiel.nfsp import sweep
  from nfsp_spiel.run import nfsp_training
  # pylint: enable=g-import-not-at-top
  values = {flag: FLAGS[flag].value for flag in sweep.CONFIG_FLAGS}
  values["hidden_layers"] = FLAGS.hidden_layers and tuple(
      int(h) for h in FLAGS.hidden_layers)
  members = []
  with run_flags.flag_errors():
    config = sweep.configure(FLAGS.preset, values)
    settings = nfsp_training.EvaluationSettings(
        tuple(FLAGS.eval_policies or ()), FLAGS.diagnostics,
        FLAGS.eval_deals, FLAGS.lbr_hands, FLAGS.smooct_deals)
    networks.check_precision(config.precision, config.device)
    if population:
      members = sweep.population_members(
          config, [FLAGS.seed] if FLAGS.seeds is None
          else sweep.parse_seeds(FLAGS.seeds), FLAGS.sweep or ())
  note = members and sweep.seeds_note(members, game.num_players())
  if note:
    print(f"note: {note}", file=sys.stderr)
  metric = settings.main_column(game, config)
  driver_settings = dataclasses.replace(
      driver_settings, learn_locksteps=nfsp_training.learn_locksteps(
          game, FLAGS.learn_locksteps),
      background_learning=nfsp_training.background_learning(
          game, FLAGS.background_learning))
  try:
    with run_flags.flag_errors():
      new_driver, resumed_driver = drivers.makers(game, config, FLAGS.seed,
                                                  driver_settings, members)
  except ImportError as error:  # Ray, which --actors needs
    sys.exit(f"error: --actors={FLAGS.actors}: {error}")
  branch = FLAGS.branch_from and (FLAGS.branch_from, functools.partial(
      drivers.branch, resumed_driver, FLAGS.branch_from, config))
  run, driver = run_flags.open_run(
      functools.partial(plot, metric, population), resumed_driver,
      new_driver, length="episodes", branch=branch)
  if members:
    loop = nfsp_training.PopulationLoop(game, members, driver, settings)
    print(f"{len(loop)} members, each the config below with its own "
          "settings: " + ", ".join(member.name for member in members))
  else:
    loop = nfsp_training.SingleLoop(game, driver, settings, FLAGS.seed)
  run.open_curve(loop.episodes)
  print(f"{game} at episode {loop.episodes:,}: {config}")
  nfsp_training.train(run, loop, FLAGS.episodes, FLAGS.eval_every,
                      FLAGS.checkpoint_every)
  print("\n" + curves.table(run.curve, loop.columns, "episodes"))
  print(run.summary())
  if FLAGS.actors:
    print(f"{FLAGS.actors} actors: acting weights "
          f"{np.mean(driver.staleness):,.0f} game steps old on average, "
          f"{driver.lost_chunks} chunks lost to failed actors")
    driver.close()


if __name__ == "__main__":
  run_flags.run(main)
