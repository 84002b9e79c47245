"""An NFSP run in a run folder: its evaluation and its training loop.

`train` plays a loop (`SingleLoop`: one run's driver; `PopulationLoop`: a
`nfsp.population.Population`) in chunks, logs a row of `evaluate`'s metrics to
the `RunDirectory` every `eval_every` episodes and checkpoints after such a
row; `examples/nfsp.py` is its binary.

`evaluate` measures the agents' policies (`EvaluationSettings.policies`):
exploitability where a best response is computable, with `nfsp.diagnostics`
beside it; in Limit Hold'em (`nfsp_lhe`), where none is, duplicate matches
against the equity-threshold baseline and the shipped SmooCT-like profile in
mbb/h, the local best response's winnings against the average policy and
`nfsp.lhe_diagnostics`; in other large games a match against a uniform
player.
"""

import collections
import dataclasses
import functools

import pyspiel
from tqdm import tqdm

from nfsp_spiel import evaluation
from nfsp_spiel.nfsp import agent_policies
from nfsp_spiel.nfsp import drivers
from nfsp_spiel.nfsp import lhe_diagnostics
from nfsp_spiel.run import curves
from nfsp_spiel.smooth_uct import lhe

EXPLOITABILITY = "exploitability"
# Beyond two players fictitious play promises no Nash equilibrium, and the
# measure is the sum over players (OpenSpiel's `nash_conv`), as the XFP and
# FSP binaries log it; `evaluation.nash_conv` computes it exactly on the
# game's `NPlayerSequenceForm` arrays (OpenSpiel's tree walks take minutes
# an evaluation on three-player Leduc).
NASH_CONV = "nash_conv"
EXACT = {EXPLOITABILITY: evaluation.exploitability,
         NASH_CONV: evaluation.nash_conv}
LHE_METRIC = "mbb_per_hand_vs_equity_threshold"
SMOOCT_METRIC = "mbb_per_hand_vs_smooct"
# Words for the curve's columns, where a plot names them.
COLUMN_LABELS = {EXPLOITABILITY: "average policy",
                 EXPLOITABILITY + "_best_response": "best-response policy",
                 EXPLOITABILITY + "_greedy_average": "greedy average policy",
                 "exploitability_sl_memory":
                     "exploitability of M_SL's action counts",
                 NASH_CONV: "average policy's NashConv",
                 NASH_CONV + "_best_response": "best-response policy's "
                                               "NashConv",
                 NASH_CONV + "_greedy_average": "greedy average policy's "
                                                "NashConv",
                 **{f"br_gap_{p}": f"best-response gap, player {p}"
                    for p in range(3)},
                 "rl_loss": "best response's loss (squared error)",
                 "sl_loss": "average policy's loss (cross-entropy, nats)",
                 LHE_METRIC: "average policy vs equity-threshold baseline",
                 "lbr_mbb_per_hand": "local best response's winnings",
                 SMOOCT_METRIC: "average policy vs SmooCT-like profile"}
PROGRESS_EVERY = 5000  # episodes between progress-bar updates (~0.5 s)


@dataclasses.dataclass(frozen=True)
class EvaluationSettings:
  """What `evaluate` measures. `policies`: the `NFSPPolicy` kinds evaluated
  (average, best_response, greedy_average), the first the run's metric;
  empty: the config's `evaluation_policy`. `diagnostics`: the run
  diagnostics beside the average's exploitability or, in Limit Hold'em,
  `lhe_diagnostics`. `eval_deals`: duplicate deals per match where
  exploitability is out of reach; `lbr_hands`: hands of the local best
  response against the average in Limit Hold'em (even: LBR plays each deal
  in both seats; 0: none); `smooct_deals`: deals of each policy against the
  SmooCT-like profile in Limit Hold'em (0: none)."""
  policies: tuple = ()
  diagnostics: bool = True
  eval_deals: int = 2000
  lbr_hands: int = 1000
  smooct_deals: int = 1000

  def __post_init__(self):
    if self.lbr_hands % 2:
      raise ValueError(f"lbr_hands={self.lbr_hands}: LBR plays each deal in "
                       "both seats, so an even number")

  def policies_for(self, config):
    """The kinds evaluated for agents of `config`."""
    return list(self.policies) or [config.evaluation_policy]

  def main_column(self, game, config):
    """The curve's column of the run's metric: the first policy's."""
    return column(game, self.policies_for(config)[0])


def metric(game):
  """The main metric's name for `game`: exploitability (NashConv beyond two
  players), or where no best response is computable the result of
  `evaluation`'s baselines."""
  name = game.get_type().short_name
  if name == "nfsp_lhe":
    return LHE_METRIC
  if name == "universal_poker":
    return "mbb_per_hand_vs_random"
  return NASH_CONV if game.num_players() > 2 else EXPLOITABILITY


def column(game, kind):
  """The curve's column of policy `kind`'s metric."""
  return metric(game) + ("" if kind == "average" else f"_{kind}")


def evaluate(game, agents, settings, diagnostics=None, seed=0):
  """{column: value} of the `settings`' measures of `agents`, the matches'
  deals seeded with `seed`. `diagnostics(average_tabular)`: the run
  diagnostics where the agents' memories are (default:
  `agent_policies.diagnostics` of `agents`; the distributed driver's learner
  has its own)."""
  if diagnostics is None:
    diagnostics = functools.partial(agent_policies.diagnostics, game, agents)
  exact = metric(game) in EXACT
  metrics = {}
  for kind in settings.policies_for(agents[0].config):
    learned = agent_policies.NFSPPolicy(game, agents, kind)
    if exact:  # tabulated once, for the measure and the diagnostics
      learned = learned.to_tabular()
    metrics.update(policy_metrics(game, learned, kind, settings, seed))
    if kind != "average" or not settings.diagnostics:
      continue
    if exact:
      metrics.update(diagnostics(learned))
    elif metric(game) == LHE_METRIC:
      metrics.update(lhe_diagnostics.lhe_diagnostics(
          game, agents, settings.eval_deals, seed=seed))
  return metrics


def policy_metrics(game, learned, kind, settings, seed=0):
  """{column: value} of the `settings`' measures of one learned policy of
  `kind` (which names its columns) without the run behind it: what
  `evaluate` logs of the agents' policies, and of a saved average profile
  (`nfsp.average_profile`) the same numbers on the same deals."""
  main = metric(game)
  name = column(game, kind)
  if main in EXACT:
    return {name: EXACT[main](game, learned)}
  opponent = (evaluation.baselines.EquityThreshold(game)
              if main == LHE_METRIC else _uniform)
  metrics = {name: evaluation.head_to_head(
      game, learned, opponent, settings.eval_deals, seed=seed).mbb_per_hand}
  if main != LHE_METRIC:
    return metrics
  if settings.smooct_deals:
    metrics[SMOOCT_METRIC + name[len(LHE_METRIC):]] = (
        evaluation.head_to_head(game, learned, _smooct(str(game)),
                                settings.smooct_deals,
                                seed=seed).mbb_per_hand)
  if kind == "average" and settings.lbr_hands:
    metrics["lbr_mbb_per_hand"] = evaluation.local_best_response(
        game, learned, settings.lbr_hands, seed=seed).mbb_per_hand
  return metrics


@functools.cache
def _smooct(game_string):
  """The shipped SmooCT-like profile, loaded once (games are unhashable)."""
  return lhe.shipped_profile(pyspiel.load_game(game_string))


def _uniform(state):
  legal = state.legal_actions()
  return {a: 1.0 / len(legal) for a in legal}


def learn_locksteps(game, requested=None):
  """`requested`, or batched self-play's default for `game`: 8 on Limit
  Hold'em, whose large networks learn 1.3x faster in groups (BUILD_NOTES),
  else 1."""
  if requested is not None:
    return requested
  return 8 if game.get_type().short_name == "nfsp_lhe" else 1


def background_learning(game, requested=None):
  """`requested`, or batched self-play's default for `game`: on for Limit
  Hold'em, whose learning calls are most of the work and overlap the
  playing in a thread (BUILD_NOTES), else off."""
  if requested is not None:
    return requested
  return game.get_type().short_name == "nfsp_lhe"


class SingleLoop(drivers.DriverLoop):
  """One run's driver (`selfplay.SelfPlay`, `rl_loop.RLEnvironmentLoop`,
  `distributed.DistributedSelfPlay`) as `train` drives it, evaluating its
  agents with `settings`, the matches seeded with the run's `seed`."""

  def __init__(self, game, driver, settings, seed):
    self.game = game
    self.driver = driver
    self.settings = settings
    self.seed = seed
    self.metric = settings.main_column(game, driver.agents[0].config)
    self.columns = [self.metric]

  def save(self, path, progress=None):
    return self.driver.save(path, progress)

  def metrics(self):
    """The row of an evaluation: `evaluate`'s metrics and the losses."""
    agents = self.driver.agents
    diagnostics = None
    if hasattr(self.driver, "diagnostics"):
      # The distributed learner tabulates its own: its memories are there.
      diagnostics = lambda average: self.driver.diagnostics()  # noqa: E731
    return {**evaluate(self.game, agents, self.settings, diagnostics,
                       self.seed), **agents[0].losses}

  @staticmethod
  def shown(name):
    """Whether the progress bar shows column `name`."""
    return name not in ("step", "seconds")


class PopulationLoop:
  """A population (`nfsp.population.Population`) of `members`
  (`nfsp.sweep.population_members`) as `train` drives it: `episodes` is the
  fewest any member has played, and `play(n)` plays each member until it has
  played that + n, each stopping where its own run would
  (`Population.play_to`)."""

  def __init__(self, game, members, population, settings):
    self.game = game
    self.members = members
    self.population = population
    self.settings = settings
    self.metric = settings.main_column(game, members[0].config)
    # Each group's mean: a member's metrics would crowd the progress bar.
    self.columns = [curves.band_names(self.metric, group)[0]
                    for group in dict.fromkeys(m.group for m in members)]

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
    row, groups = {}, collections.defaultdict(list)
    for member, agents, episodes in zip(self.members, self.population.agents,
                                        self.population.episodes):
      metrics = evaluate(self.game, agents, self.settings, seed=member.seed)
      groups[member.group].append(metrics[self.metric])
      row.update(curves.member_columns(
          {"step": episodes, **metrics, **agents[0].losses}, member.name))
    for group, values in groups.items():
      row.update(curves.band_columns(self.metric, values, group))
    return row

  def shown(self, name):
    return name in self.columns


def train(run, loop, episodes, eval_every, checkpoint_every):
  """Plays `loop` to `episodes` in `run` (a `RunDirectory` whose curve is
  open): a row of `loop.metrics()` at episode 0 of a fresh run, every
  `eval_every` episodes and at the end; a checkpoint after the rows at
  multiples of `checkpoint_every`, at the end and when `run` says one is
  due; Ctrl-C stops after the chunk in play (`PROGRESS_EVERY` episodes) at
  the last consistent checkpoint (`RunDirectory.checkpoint_and_stop`: the
  chunk's row and checkpoint where its evaluation is quick)."""
  if loop.episodes == 0:
    metrics = run.evaluate(loop.metrics)
    if metrics is None:
      run.checkpoint_and_stop(loop.save, 0)
      return
    run.log(0, **metrics)
  with tqdm(total=episodes * len(loop), initial=loop.played,
            unit="episode", unit_scale=True) as progress:
    while loop.episodes < episodes:
      before = loop.episodes
      target = min((before // eval_every + 1) * eval_every, episodes)
      # Chunks move the progress bar and let Ctrl-C stop between them (after
      # one at least: a row always follows a step); the same locksteps are
      # played either way.
      while True:
        before_chunk = loop.played
        loop.play(min(PROGRESS_EVERY, target - loop.episodes))
        progress.update(loop.played - before_chunk)
        if loop.episodes >= target or run.stop_requested:
          break
      metrics = run.evaluate(loop.metrics)
      if metrics is not None:
        row = run.log(loop.episodes, **metrics)
        progress.set_postfix({k: f"{v:.4g}" for k, v in row.items()
                              if loop.shown(k)})
        if (loop.episodes // checkpoint_every > before // checkpoint_every
            or loop.episodes >= episodes or run.checkpoint_due()):
          run.save(loop.save, loop.episodes)
        run.plot()
      if run.checkpoint_and_stop(loop.save, loop.episodes):
        break
