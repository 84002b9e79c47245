"""Trains NFSP agents by self-play and writes their learning curve.

Every `--eval_every` episodes (and at the end) it evaluates the agents'
average policy (and with `--eval_policies` their greedy best response or
greedy average): exploitability through `nfsp_spiel.evaluation` on games
small enough, with the run diagnostics beside it (`nfsp.diagnostics`: each
player's best-response gap and the exploitability of M_SL's action counts;
`--nodiagnostics` skips them); in Limit Hold'em (`nfsp_lhe`) duplicate
matches against the equity-threshold baseline and the shipped SmooCT-like
profile (`--smooct_deals`) in mbb/h and the local best response's winnings
against the average policy (`--lbr_hands`); in other large games a match
against a uniform random player. Rows go to `<output_dir>/curve.csv`
(TensorBoard with `--tensorboard`), `curve.png` is redrawn at every
evaluation, and
`<output_dir>/checkpoint.npz` is written every `--checkpoint_every` episodes,
at the first evaluation after `--checkpoint_minutes`, at the end and on
Ctrl-C (after the current chunk of games and an evaluation): the same command
resumes from it with nothing lost (`--noresume` starts over, keeping the old
curve as curve.csv.1).

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
  python examples/nfsp.py --seeds 0,2 --sweep rl_learning_rate=0.05,0.1 --sweep eta=0.1,0.5

`--seeds` (and `--sweep`) train a population (`nfsp.population`): one
member per seed (per sweep point and seed), each the run `--seed` would
make, trained together in one process; the curve holds each member's
metrics (`exploitability/seed0`, ...) and, per sweep point, the mean over
its seeds with a band of +-1 standard error of the mean
(`exploitability/mean`, `/low`, `/high`); curve.png draws the members thin
and the mean with its band; one checkpoint holds the whole population.
"""

import collections
import dataclasses
import functools
import itertools
import sys

from absl import app
from absl import flags
import numpy as np
from open_spiel.python import rl_environment
from tqdm import tqdm

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.nfsp import config as nfsp_config
from nfsp_spiel.run import curves
import run_flags  # examples/run_flags.py

# NFSP's agents and drivers import TensorFlow (seconds and ~600 MB), so they
# are imported where they are used, after the flags: --help is instant
# (nfsp_spiel.nfsp.config, the configurations, does not import it).

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
flags.DEFINE_bool("diagnostics", True, "Where exploitability is computable, "
                  "also log each player's best-response gap (exact best "
                  "response minus greedy Q against the other's average) and "
                  "the exploitability of M_SL's action counts; in Limit "
                  "Hold'em `nfsp.lhe_diagnostics` (action frequencies, "
                  "the best response's edge, results against always-call "
                  "and always-raise, Q's scale, weight norms), from "
                  "--eval_deals deals.")
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
run_flags.define_count("rl_memory", None, "M_RL capacity (preset's).")
run_flags.define_count("sl_memory", None, "M_SL capacity (preset's).")
flags.DEFINE_enum("sl_memory_kind", None, list(nfsp_config.SL_MEMORIES),
                  "M_SL kind (preset's).")
flags.DEFINE_float("eta", None, "Anticipatory parameter (preset's).")
flags.DEFINE_float("rl_learning_rate", None, "DQN SGD stepsize (preset's).")
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
flags.DEFINE_integer("min_memory_to_learn", None, "Records a memory needs "
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
flags.DEFINE_enum("backend", "auto", ["auto", "tree", "states"],
                  "How selfplay holds its games: a compiled tree (games up to "
                  "about 10^6 histories: Tic-Tac-Toe, Liar's Dice), pyspiel "
                  "states, or a tree where the game has at most 200k.")
flags.DEFINE_integer("seed", 0, "Seed of agents and games.")
flags.DEFINE_string("seeds", None, "Train a population, one member per seed "
                    "(each the run of --seed=that seed): ranges a-b "
                    "(inclusive) and seeds, comma-separated (0-7, 0,2,4). "
                    "Give seeds at least the game's number of players apart "
                    "for independent runs (agents_for seeds player p with "
                    "seed + p).")
flags.DEFINE_multi_string("sweep", None, "With a population: name=v1,v2,... "
                          "gives members that setting, one per value "
                          "(repeated: the cross product) for each of "
                          "--seeds (default --seed); name: a config flag "
                          "of this binary (eta, rl_memory, ...) or an "
                          "NFSPConfig.replace name (anticipatory, "
                          "sl_learning_rate, ...). Members share the "
                          "settings that set shapes.")
flags.DEFINE_enum("population_learning", "auto", ["auto", "stacked",
                                                 "separate"],
                  "With a population: its members' learning calls in one "
                  "stacked call, or each member's through its own call (bit "
                  "for bit its single run); auto stacks from 3 members of "
                  "small networks, where that was measured faster "
                  "(nfsp.population).")
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


PROGRESS_EVERY = 5000  # episodes between progress-bar updates (~0.5 s)


# The config flags and their `NFSPConfig.replace` names (--sweep takes both;
# a flag's name wins: --sweep sl_memory=... is M_SL's capacity).
CONFIG_FLAGS = {
    "hidden_layers": "hidden_layers", "rl_memory": "rl_memory_capacity",
    "sl_memory": "sl_memory_capacity", "sl_memory_kind": "sl_memory",
    "eta": "anticipatory",
    **{name: name for name in (
        "rl_learning_rate", "epsilon_start", "epsilon_schedule",
        "epsilon_decay", "learn_every", "target_refit_every",
        "min_memory_to_learn", "reward_scale", "init", "memory_dtype",
        "device", "precision")}}


def make_config():
  """The preset with the flags given; the best-response learner's flags keep
  their flat names (`--rl_learning_rate`, `--epsilon_start`, ...), which
  `NFSPConfig.replace` takes (`nfsp_config.LEGACY_FIELDS`) and refuses for
  a preset whose learner has no such setting (ARM has no epsilon)."""
  # The device goes to the preset too: lhe() picks its precision for it.
  config = getattr(nfsp_config.NFSPConfig, FLAGS.preset)(
      **({"device": FLAGS.device} if FLAGS.device else {}))
  changes = {field: FLAGS[flag].value for flag, field in CONFIG_FLAGS.items()}
  changes["hidden_layers"] = FLAGS.hidden_layers and tuple(
      int(h) for h in FLAGS.hidden_layers)
  try:
    return config.replace(
        **{k: v for k, v in changes.items() if v is not None})
  except ValueError as error:
    raise app.UsageError(f"--preset={FLAGS.preset}: {error}") from error


def evaluate(game, agents, diagnostics, seed):
  """Exploitability of each `--eval_policies` policy where a best response
  is computable; in Limit Hold'em, mbb/h against the equity-threshold
  baseline and the SmooCT-like profile and, for the average policy, the
  local best response's winnings (`--lbr_hands`); in other large games
  mbb/h against a uniform player, the matches' deals seeded with `seed`.
  `diagnostics(average_tabular)`: `nfsp.diagnostics` where the agents'
  memories are (this process, or the learner of --actors)."""
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import lhe_diagnostics  # pylint: disable=g-import-not-at-top
  metrics = {}
  for kind in _policies(agents[0].config):
    name = _column(game, kind)
    learned = nfsp.NFSPPolicy(game, agents, kind)
    if _metric(game) == "exploitability":
      tabular = learned.to_tabular()
      metrics[name] = evaluation.exploitability(game, tabular)
      if kind == "average" and FLAGS.diagnostics:
        metrics.update(diagnostics(tabular))
      continue
    opponent = (evaluation.baselines.EquityThreshold(game)
                if _metric(game) == LHE_METRIC else _uniform)
    metrics[name] = evaluation.head_to_head(
        game, learned, opponent, FLAGS.eval_deals,
        seed=seed).mbb_per_hand
    if _metric(game) == LHE_METRIC and FLAGS.smooct_deals:
      suffix = name[len(LHE_METRIC):]
      metrics[f"{SMOOCT_METRIC}{suffix}"] = evaluation.head_to_head(
          game, learned, _smooct(str(game)), FLAGS.smooct_deals,
          seed=seed).mbb_per_hand
    if _metric(game) == LHE_METRIC and kind == "average" and FLAGS.lbr_hands:
      metrics["lbr_mbb_per_hand"] = evaluation.local_best_response(
          game, learned, FLAGS.lbr_hands, seed=seed).mbb_per_hand
    if _metric(game) == LHE_METRIC and kind == "average" and FLAGS.diagnostics:
      metrics.update(lhe_diagnostics.lhe_diagnostics(
          game, agents, FLAGS.eval_deals, seed=seed))
  return metrics


@functools.cache
def _smooct(game_string):
  """The shipped SmooCT-like profile, loaded once (games are unhashable)."""
  from nfsp_spiel.smooth_uct import lhe  # pylint: disable=g-import-not-at-top
  return lhe.shipped_profile(run_flags.load_game(game_string))


def plot(metric, curve, png):
  """Draws every metric NFSP logged, `metric` first: the other policies',
  the diagnostics, LBR and the losses, one panel per unit; a population's
  `metric` alone, each member thin and each sweep point's mean with its
  band."""
  labels = {"exploitability_sl_memory": "M_SL action counts",
            "br_gap_0": "best-response gap, player 0",
            "br_gap_1": "best-response gap, player 1",
            "lbr_mbb_per_hand": "local best response's winnings",
            SMOOCT_METRIC: "average policy vs SmooCT-like profile"}
  # A population's every metric would be a thin line per member, unnamed.
  curves.plot_curves(
      {FLAGS.preset: curve}, png, metric=metric if _population_flags()
      else curves.EVERY_METRIC,
      loglog=metric.startswith("exploitability"), title=FLAGS.game,
      xlabel="episodes", column_labels=labels,
      payoff=run_flags.payoff_unit())


def _policies(config):
  return FLAGS.eval_policies or [config.evaluation_policy]


def _column(game, kind):
  """The curve's column of `kind`'s metric."""
  return _metric(game) + ("" if kind == "average" else f"_{kind}")


LHE_METRIC = "mbb_per_hand_vs_equity_threshold"
SMOOCT_METRIC = "mbb_per_hand_vs_smooct"


def _metric(game):
  """No best response is computable in Limit Hold'em: the baselines and
  LBR of `evaluation` measure it."""
  name = game.get_type().short_name
  if name == "nfsp_lhe":
    return LHE_METRIC
  if name == "universal_poker":
    return "mbb_per_hand_vs_random"
  return "exploitability"


def _uniform(state):
  legal = state.legal_actions()
  return {a: 1.0 / len(legal) for a in legal}


class RLEnvironmentLoop:
  """OpenSpiel's ordinary RL loop: `step` per agent, one game at a time."""

  def __init__(self, game, agents):
    self.env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(
            FLAGS.seed))
    self.agents = agents
    self.episodes = agents[0].episodes

  def play(self, num_episodes):
    from nfsp_spiel.nfsp import rl_loop  # pylint: disable=g-import-not-at-top
    self.episodes += rl_loop.play_episodes(self.env, self.agents,
                                           num_episodes)

  def save(self, path, progress=None):
    from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
    return nfsp.save_agents(path, self.env.game, self.agents, progress,
                            self._settings())

  @classmethod
  def restore(cls, game, path, agents):
    """The loop with `save`'s agents (the package's drivers' convention)."""
    from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
    nfsp.restore_agents(path, game, agents, cls._settings())
    return cls(game, agents)

  @staticmethod
  def _settings():
    # The environment's games are not saved: a resumed run deals new ones.
    return {"driver": "rl_environment", "seed": FLAGS.seed}


def make_distributed(game, config):
  """(new driver, resumed driver) makers of the Ray driver for --actors, or
  one line saying how to get Ray."""
  try:
    from nfsp_spiel.nfsp import distributed  # pylint: disable=g-import-not-at-top
    distributed.import_ray()
  except ImportError as error:
    sys.exit(f"error: --actors={FLAGS.actors}: {error}")
  changes = {"num_actors": FLAGS.actors, "num_games": FLAGS.num_games,
             "backend": FLAGS.backend, "address": FLAGS.ray_address,
             "learner_gpus": FLAGS.learner_gpus,
             "locksteps": FLAGS.locksteps}
  settings = distributed.DistributedConfig(
      **{k: v for k, v in changes.items() if v is not None})
  driver = distributed.DistributedSelfPlay
  return (lambda: driver(game, config, FLAGS.seed, settings),
          lambda path: driver.restore(game, path, config, FLAGS.seed,
                                      settings))


def make_loop(game, config):
  """(new driver, resumed driver) makers for the flags' driver, each taking
  the game's new agents."""
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  if FLAGS.actors:
    return make_distributed(game, config)
  agents = lambda: nfsp.agents_for(game, config, seed=FLAGS.seed)  # noqa: E731
  if FLAGS.driver == "rl_environment":
    return (lambda: RLEnvironmentLoop(game, agents()),
            lambda path: RLEnvironmentLoop.restore(game, path, agents()))
  settings = dict(num_games=FLAGS.num_games, seed=FLAGS.seed,
                  backend=FLAGS.backend,
                  learn_locksteps=learn_locksteps(game))
  return (lambda: selfplay.SelfPlay(game, agents(), **settings),
          lambda path: selfplay.SelfPlay.restore(game, path, agents(),
                                                 **settings))


def learn_locksteps(game):
  """--learn_locksteps, or its default for `game`: 8 on Limit Hold'em,
  whose large networks learn 1.3x faster in groups (BUILD_NOTES)."""
  if FLAGS.learn_locksteps is not None:
    return FLAGS.learn_locksteps
  return 8 if game.get_type().short_name == "nfsp_lhe" else 1


def _population_flags():
  """Whether the flags ask for a population (`--seeds`, `--sweep`)."""
  return FLAGS.seeds is not None or bool(FLAGS.sweep)


def parse_seeds(text):
  """--seeds' seeds: comma-separated seeds and ranges a-b (inclusive)."""
  seeds = []
  for part in text.split(","):
    low, dash, high = part.strip().partition("-")
    try:
      seeds += range(int(low), int(high) + 1) if dash else [int(low)]
    except ValueError:
      raise app.UsageError(f"--seeds={text}: {part!r} is neither a seed nor a "
                           "range a-b; give e.g. 0-7 or 0,2,4") from None
  if not seeds or len(set(seeds)) < len(seeds):
    raise app.UsageError(f"--seeds={text}: give distinct seeds, at least one "
                         "(e.g. 0-7 or 0,2,4)")
  return seeds


def _sweep_names(config):
  """{--sweep name: its `NFSPConfig.replace` name} of what members may vary:
  NFSPConfig's fields and its learner's (flat names), under their flags'
  names too (not the evaluated policy, which names the curve's columns, nor
  the device, which the population's one learning call runs on)."""
  learner = config.best_response
  fields = [f.name for f in dataclasses.fields(config) if f.name not in (
      "best_response", "evaluation_policy", "device")]
  fields += [flat for flat, (kind, _) in nfsp_config.LEGACY_FIELDS.items()
             if kind == learner.kind]
  return {**{field: field for field in fields},
          **{flag: field for flag, field in CONFIG_FLAGS.items()
             if field in fields}}


def _setting(config, field):
  """`config`'s value of a `NFSPConfig.replace` name."""
  if field in nfsp_config.LEGACY_FIELDS:
    return getattr(config.best_response, nfsp_config.LEGACY_FIELDS[field][1])
  return getattr(config, field)


# What a swept value must be, by the type of the setting's current value.
VALUE_KINDS = {int: "an integer", float: "a number",
               tuple: "layer sizes like 64x64"}


def _sweep_axis(config, flag):
  """(name, replace name, [(value's text, value)]) of one --sweep, each
  value of the current value's type (hidden layers: 64x64)."""
  name, _, texts = flag.partition("=")
  names = _sweep_names(config)
  if name not in names or not texts:
    raise app.UsageError(f"--sweep={flag}: give name=value1,value2,... with "
                         f"a name of {', '.join(sorted(names))}")
  field = names[name]
  current = _setting(config, field)
  values = []
  for text in texts.split(","):
    try:
      value = (tuple(int(h) for h in text.split("x"))
               if isinstance(current, tuple) else type(current)(text))
    except ValueError:
      raise app.UsageError(f"--sweep={flag}: {text!r} is not "
                           f"{VALUE_KINDS[type(current)]}") from None
    try:
      config.replace(**{field: value})
    except ValueError as error:
      raise app.UsageError(f"--sweep={flag}: {error}") from None
    values.append((text, value))
  if len(set(texts.split(","))) < len(values):
    raise app.UsageError(f"--sweep={flag}: a value is given twice")
  return name, field, values


Member = collections.namedtuple("Member", "name group config seed")


def population_members(config):
  """The population's members: the cross product of --sweep's points and
  the seeds, seeds innermost; a member's name is its point's
  (`rl_learning_rate=0.05,eta=0.1`, its group) and its seed's (`seed0`)."""
  seeds = parse_seeds(FLAGS.seeds) if FLAGS.seeds is not None else [
      FLAGS.seed]
  axes = [_sweep_axis(config, flag) for flag in FLAGS.sweep or []]
  fields = [field for _, field, _ in axes]
  if len(set(fields)) < len(fields):
    raise app.UsageError(f"--sweep={' --sweep='.join(FLAGS.sweep)}: a "
                         "setting is swept twice")
  members = []
  for point in itertools.product(*(values for _, _, values in axes)):
    group = ",".join(f"{name}={text}"
                     for (name, _, _), (text, _) in zip(axes, point))
    try:
      member_config = config.replace(**{
          field: value for field, (_, value) in zip(fields, point)})
    except ValueError as error:  # values fine alone, not together
      raise app.UsageError(f"--sweep point {group}: {error}") from None
    members += [Member(",".join(filter(None, (group, f"seed{seed}"))), group,
                       member_config, seed) for seed in seeds]
  return members


class PopulationLoop:
  """A population (`nfsp.population.Population`) as `main` drives a loop:
  `episodes` is the fewest any member has played, and `play(n)` plays each
  member until it has played that + n, each stopping where its own run
  would (`Population.play_to`)."""

  def __init__(self, game, members, population, metric):
    self.game = game
    self.members = members
    self.population = population
    self.metric = metric

  def __len__(self):
    return len(self.members)

  @property
  def episodes(self):
    return min(self.population.episodes)

  @property
  def played(self):
    """Episodes played by all members together."""
    return sum(self.population.episodes)

  def play(self, num_episodes):
    self.population.play_to(self.episodes + num_episodes)

  def save(self, path, progress=None):
    return self.population.save(path, progress)

  def metrics(self):
    """Each member's row of its own run (`step/<member>` its episodes) and
    each group's mean and band of the main metric."""
    from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
    row, groups = {}, collections.defaultdict(list)
    for member, agents, episodes in zip(self.members, self.population.agents,
                                        self.population.episodes):
      metrics = evaluate(self.game, agents, functools.partial(
          nfsp.diagnostics, self.game, agents), member.seed)
      groups[member.group].append(metrics[self.metric])
      row.update(curves.member_columns(
          {"step": episodes, **metrics, **agents[0].losses}, member.name))
    for group, values in groups.items():
      row.update(curves.band_columns(self.metric, values, group))
    return row

  def mean_columns(self):
    """The curve's columns of each group's mean."""
    return [curves.band_names(self.metric, group)[0]
            for group in dict.fromkeys(m.group for m in self.members)]


def make_population(game, members, metric):
  """(new driver, resumed driver) makers of the population of `members`."""
  from nfsp_spiel.nfsp import population  # pylint: disable=g-import-not-at-top
  configs = [member.config for member in members]
  seeds = [member.seed for member in members]
  settings = dict(num_games=FLAGS.num_games, backend=FLAGS.backend,
                  learning=FLAGS.population_learning)
  return (lambda: PopulationLoop(game, members, population.Population(
      game, configs, seeds, **settings), metric),
          lambda path: PopulationLoop(game, members,
                                      population.Population.restore(
                                          game, path, configs, seeds,
                                          **settings), metric))


def check_population(members, players):
  """One line for members whose settings change a shape; a note where
  seeds are too close for independent runs."""
  from nfsp_spiel.nfsp import stacked_learning  # pylint: disable=g-import-not-at-top
  try:
    stacked_learning.check_stackable([member.config for member in members])
  except ValueError as error:
    raise app.UsageError(f"--sweep={' --sweep='.join(FLAGS.sweep)}: "
                         f"{error}") from None
  seeds = sorted({member.seed for member in members})
  if any(b - a < players for a, b in zip(seeds, seeds[1:])):
    print(f"note: seeds {seeds} are less than {players} apart: their runs "
          "share random streams (agents_for seeds player p with seed + p); "
          f"seeds {players} apart (0,{players},{2 * players},...) give "
          "independent runs", file=sys.stderr)


def _single_metrics(game, loop):
  """A function of no arguments: the row of one run's evaluation."""
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  # With --actors, the learner's agents, copied back after each `play`.
  agents = loop.agents
  if FLAGS.actors:

    def diagnostics(average):
      del average  # the learner tabulates its own
      return loop.diagnostics()
  else:
    diagnostics = functools.partial(nfsp.diagnostics, game, agents)
  return lambda: {**evaluate(game, agents, diagnostics, FLAGS.seed),
                  **agents[0].losses}


def main(argv):
  del argv
  if FLAGS.checkpoint_every % FLAGS.eval_every:
    raise app.UsageError(f"--checkpoint_every={FLAGS.checkpoint_every} must "
                         f"be a multiple of --eval_every={FLAGS.eval_every}: "
                         "a checkpoint follows an evaluation")
  if _population_flags() and (FLAGS.actors or FLAGS.driver != "selfplay"):
    other = (f"--actors={FLAGS.actors}" if FLAGS.actors
             else f"--driver={FLAGS.driver}")
    raise app.UsageError(f"--seeds/--sweep train a population with batched "
                         f"self-play (--driver=selfplay), not with {other}")
  if FLAGS.seeds is not None and FLAGS["seed"].present:
    raise app.UsageError(f"--seeds={FLAGS.seeds} gives each member's seed: "
                         f"drop --seed={FLAGS.seed}")
  if FLAGS.actors and FLAGS.driver != "selfplay":
    raise app.UsageError(f"--actors={FLAGS.actors} runs batched self-play "
                         f"in each actor, not --driver={FLAGS.driver}")
  if FLAGS.learn_locksteps is not None and (
      FLAGS.actors or FLAGS.driver != "selfplay" or _population_flags()):
    raise app.UsageError(f"--learn_locksteps={FLAGS.learn_locksteps} sets one "
                         "batched self-play run's learning (--driver="
                         "selfplay, no --actors, --seeds or --sweep)")
  if FLAGS.lbr_hands % 2:
    raise app.UsageError(f"--lbr_hands={FLAGS.lbr_hands}: LBR plays each deal "
                         "in both seats, so an even number")
  game = run_flags.load_game(FLAGS.game)
  config = make_config()
  from nfsp_spiel.nfsp import networks  # pylint: disable=g-import-not-at-top
  try:
    networks.check_precision(config.precision, config.device)
  except ValueError as error:
    raise app.UsageError(f"--precision={config.precision}: {error}") from None
  metric = _column(game, _policies(config)[0])
  if _population_flags():
    members = population_members(config)
    check_population(members, game.num_players())
    new_loop, resumed_loop = make_population(game, members, metric)
  else:
    new_loop, resumed_loop = make_loop(game, config)
  run, loop = run_flags.open_run(
      functools.partial(plot, metric), resumed_loop, new_loop,
      length="episodes")
  if isinstance(loop, PopulationLoop):
    metrics, columns = loop.metrics, loop.mean_columns()
    played, total = lambda: loop.played, FLAGS.episodes * len(loop)
    shown = columns.__contains__  # a member's metrics would crowd the bar
    print(f"{len(loop)} members, each the config below with its own "
          "settings: " + ", ".join(member.name for member in loop.members))
  else:
    metrics, columns = _single_metrics(game, loop), [metric]
    played, total = lambda: loop.episodes, FLAGS.episodes
    shown = lambda k: k not in ("step", "seconds")  # noqa: E731
  run.open_curve(loop.episodes)
  print(f"{game} at episode {loop.episodes:,}: {config}")
  if loop.episodes == 0:
    run.log(0, **metrics())
  with tqdm(total=total, initial=played(),
            unit="episode", unit_scale=True) as progress:
    while loop.episodes < FLAGS.episodes:
      before = loop.episodes
      next_eval = (before // FLAGS.eval_every + 1) * FLAGS.eval_every
      target = min(next_eval, FLAGS.episodes)
      # Chunks move the progress bar and let Ctrl-C stop between them (after
      # one at least: a row always follows a step); the same locksteps are
      # played either way.
      while True:
        before_chunk = played()
        loop.play(min(PROGRESS_EVERY, target - loop.episodes))
        progress.update(played() - before_chunk)
        if loop.episodes >= target or run.stop_requested:
          break
      row = run.log(loop.episodes, **metrics())
      progress.set_postfix({k: f"{v:.4g}" for k, v in row.items()
                            if shown(k)})
      if (loop.episodes // FLAGS.checkpoint_every >
          before // FLAGS.checkpoint_every or loop.episodes >= FLAGS.episodes
          or run.checkpoint_due()):
        run.save(loop.save, loop.episodes)
      run.plot()
      if run.checkpoint_and_stop(loop.save, loop.episodes):
        break
  print(f"\n{'episodes':>12} {'seconds':>9} {' '.join(columns)}")
  for row in curves.read_curve(run.curve):
    print(f"{int(row['step']):>12,} {row['seconds']:>9.1f} "
          + " ".join(f"{row[column]:.4f}" for column in columns))
  print(run.summary())
  if FLAGS.actors:
    print(f"{FLAGS.actors} actors: acting weights {np.mean(loop.staleness):,.0f}"
          f" game steps old on average, {loop.lost_chunks} chunks lost to "
          "failed actors")
    loop.close()


if __name__ == "__main__":
  run_flags.run(main)
