"""NFSP's best-response part checked alone: learning against a fixed opponent.

In self-play the best response chases the other player's moving average, so
a flat Limit Hold'em curve cannot tell a reinforcement learner that does not
learn from one whose target keeps moving. Against a fixed, card-independent
opponent (always-call or always-raise) the target stands still: an agent
that always plays its epsilon-greedy best response (`anticipatory_param=1`,
the NFSP paper's DQN baseline) must come to beat it, and by about what
simple card-aware play wins against the same opponent (the
equity-threshold player). `FixedOpponentRun` runs that test through the
same batched self-play driver and learning calls as NFSP's training, and
measures the greedy Q policy in batched matches (`evaluation.
batched_matches`) on the same deals at every evaluation; it is a run that
`run.nfsp_training.train` drives in a `RunDirectory`, checkpointed and
resumed as every training binary's.

The opponent may also be a trained run's frozen average strategy (seat 1's
average network of an NFSP checkpoint, `Against.profile`), and the learner
may start from that checkpoint's seat-0 best response (`warm_start`): then
the test asks whether NFSP's own best response, its target stopped, comes
to exploit the average it was responding to. With the config's `inputs` set
to "cards_and_equity" the learner also reads its cards' equity
(`nfsp.equity_inputs`): whether learning hand strength from the raw cards is
what holds it back.
"""

import dataclasses
import os
import json

import numpy as np

from nfsp_spiel import evaluation
from nfsp_spiel.core import checkpoints
from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.games import poker
from nfsp_spiel.nfsp import agent as agent_lib
from nfsp_spiel.nfsp import agent_checkpoints
from nfsp_spiel.nfsp import average_profile
from nfsp_spiel.nfsp import batched_agent
from nfsp_spiel.nfsp import drivers
from nfsp_spiel.nfsp import lhe_diagnostics
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.nfsp.agent_policies import NFSPPolicy
from nfsp_spiel.nfsp import config as config_lib
from nfsp_spiel.nfsp.config import NFSPConfig
from nfsp_spiel.trees.game_tensors import information_state_size

OPPONENTS = {"always_call": poker.CALL, "always_raise": poker.RAISE}
# The opponent that plays `Against.profile`'s seat-1 average strategy.
AVERAGE = "average"


class _NonLearner:
  """What a `selfplay.SelfPlay` participant that stores and learns nothing
  answers besides its moves."""

  def __init__(self, player_id, state_size):
    self.player_id = player_id
    self.state_size = state_size

  def observe_transitions(self, *unused_args, **unused_kwargs):
    """A fixed player keeps no transitions."""

  def begin_episodes(self, num_games):
    return np.zeros(num_games, bool)  # never "on its best response"

  def record_steps(self, states, actions, best_response, learn=True):
    del states, actions, best_response, learn
    return 0  # no learning calls fall due

  def count_episodes(self, num_episodes):
    del num_episodes


class FixedActionPlayer(_NonLearner):
  """A `selfplay.SelfPlay` participant that plays `action` where legal, else
  checks or calls (the rule of `baselines.AlwaysCall` / `AlwaysRaise`),
  whatever its cards; it stores and learns nothing."""

  def __init__(self, player_id, state_size, action):
    super().__init__(player_id, state_size)
    self.action = action

  def act(self, states, legal, best_response):
    del states, best_response
    legal = np.asarray(legal, bool)
    return np.where(legal[:, self.action], self.action, poker.CALL), None


class AveragePlayer(_NonLearner):
  """A `selfplay.SelfPlay` participant that samples its moves from a frozen
  average network (`average_profile.FrozenAverage` of `weights`) with its
  own random stream (`rng`, saved with the run); it stores and learns
  nothing."""

  def __init__(self, player_id, state_size, weights, rng):
    super().__init__(player_id, state_size)
    self.average = average_profile.FrozenAverage(weights)
    self.rng = rng

  def act(self, states, legal, best_response):
    del best_response
    probs = self.average.probabilities(states, legal, "average")
    return batched_agent.sample(probs, self.rng.random(len(probs))), None


@dataclasses.dataclass
class Against:
  """The test's setting: `opponent` (a key of `OPPONENTS`, or `AVERAGE`:
  seat 1's average strategy in the NFSP run checkpoint `profile`) in seat 1,
  the learner in seat 0, from that checkpoint's seat-0 best response where
  `warm_start`; `num_deals` deals per
  evaluation match."""
  opponent: str = "always_raise"
  num_deals: int = 2000
  seed: int = 0
  num_games: int = 128
  profile: str = ""
  warm_start: bool = False

  def __post_init__(self):
    if self.opponent not in (*OPPONENTS, AVERAGE):
      raise ValueError(f"opponent={self.opponent!r}: must be one of "
                       f"{sorted((*OPPONENTS, AVERAGE))}")
    if (self.opponent == AVERAGE) != bool(self.profile):
      raise ValueError(f"profile={self.profile!r}: opponent={AVERAGE!r} "
                       "plays the average strategy of the NFSP checkpoint "
                       "`profile`, which no other opponent takes")
    if self.warm_start and not self.profile:
      raise ValueError("warm_start=True: the learner starts from the seat-0 "
                       "best response of the checkpoint `profile`; give one")

  def header_settings(self):
    """The setting's part of a run's checkpoint header (the fields of a
    frozen-average test only where it is one, so that earlier runs'
    checkpoints keep their headers)."""
    settings = {"opponent": self.opponent, "num_deals": self.num_deals}
    if self.profile:
      # The file, not the route to it: a run resumed through a link to the
      # same folder plays the same profile.
      settings.update(profile=os.path.realpath(self.profile),
                      warm_start=self.warm_start)
    return settings


def references(game, setting):
  """mbb/h in seat 0 against the fixed opponent of fixed baselines, on the
  evaluation's deals: what a best response must at least reach."""
  opponent = _baseline(game, setting)
  unit = 1000.0 / evaluation.big_blind(game)
  return {name: unit * float(batched_matches.play_profile(
      (policy, opponent), setting.num_deals, setting.seed).mean())
          for name, policy in (("equity_threshold",
                                baselines.EquityThreshold(game)),
                               ("always_call", baselines.AlwaysCall(game)))}


def _baseline(game, setting):
  """The opponent as an OpenSpiel policy, for the evaluation's matches."""
  if setting.opponent == AVERAGE:
    return average_profile.from_checkpoint(game, setting.profile)
  return {"always_call": baselines.AlwaysCall,
          "always_raise": baselines.AlwaysRaise}[setting.opponent](game)


class FixedOpponentRun(drivers.DriverLoop):
  """A seat-0 agent of `config` (its `anticipatory_param` set to 1) learning
  against `setting`'s fixed opponent, as `run.nfsp_training.train` drives a
  run (`episodes`, `play`, `metrics`, `save`; `restore` continues from a
  checkpoint exactly where `save` stopped, and refuses one of another
  configuration or setting).

  `metrics()`: `mbb_per_hand` (greedy Q policy, seat 0, with `mbb_stderr`),
  what that policy does in those matches (`greedy_<round>_<action>`: its
  mean probability of each action per betting round) and the scale of its
  Q there and how its fold output compares with folding's exact value
  (`lhe_diagnostics.q_diagnostics`), the agent's
  losses, its Q network's weight norm, `sgd_updates` (the updates of each
  network due so far: `updates_per_learn` per `learn_every` own steps; the
  few due before `min_buffer_size_to_learn` records are counted though not
  made) and `reference_<name>`: `references`, the same in every row."""

  columns = ("mbb_per_hand",)  # what the progress bar shows

  def __init__(self, game, config, setting):
    if game.get_type().short_name != "nfsp_lhe":
      raise ValueError(f"FixedOpponentRun: game={game} must be nfsp_lhe (the "
                       "batched matches play heads-up Limit Hold'em)")
    if setting.warm_start and config.inputs != config_lib.CARDS:
      raise ValueError(f"NFSPConfig.inputs={config.inputs!r} with "
                       "warm_start=True: the checkpoint's networks read the "
                       "cards alone")
    self.game = game
    self.setting = setting
    self.config = dataclasses.replace(config, anticipatory_param=1.0)
    # First, so that a profile of another game is refused by name.
    self._opponent = _baseline(game, setting)
    size = information_state_size(game)
    self.learner = agent_lib.agent_for(game, 0, self.config, setting.seed)
    if setting.opponent == AVERAGE:
      averages, _ = average_profile.checkpoint_weights(setting.profile)
      fixed = AveragePlayer(1, size, averages[1],
                            np.random.default_rng([setting.seed, 1]))
    else:
      fixed = FixedActionPlayer(1, size, OPPONENTS[setting.opponent])
    if setting.warm_start:
      self._warm_start(setting.profile)
    self.fixed = fixed
    self.driver = selfplay.SelfPlay(game, [self.learner, fixed],
                                    setting.num_games, seed=setting.seed)
    self._greedy = NFSPPolicy(game, [self.learner, None], "best_response")
    self._references = None

  @classmethod
  def from_checkpoint(cls, game, path):
    """The run `save` wrote to `path`, its configuration and setting read
    from the file's header: to look into a run's networks without its
    command line."""
    fields = checkpoints.read_header(path)["config"]
    setting = Against(fields["opponent"], fields["num_deals"],
                      fields["seed"], fields["num_games"],
                      fields.get("profile", ""),
                      fields.get("warm_start", False))
    return cls(game, NFSPConfig.from_header(fields), setting).restore(path)

  def _warm_start(self, profile):
    """Seat 0's best-response networks (Q and target) of the checkpoint
    `profile` in place of the learner's fresh ones; its exploration and
    memory start afresh."""
    learner = self.learner.best_response_learner
    for name, network in learner.networks().items():
      weights, _ = average_profile.checkpoint_weights(profile, network=name)
      network.assign(weights[0])
    # Restoring the learner's (unchanged) state refreshes what it acts from.
    learner.load_state_arrays(learner.state_arrays())

  @staticmethod
  def shown(name):
    return name in FixedOpponentRun.columns

  def metrics(self):
    """The row of an evaluation (see the class docstring)."""
    if self._references is None:
      self._references = {f"reference_{name}": value for name, value in
                          references(self.game, self.setting).items()}
    unit = 1000.0 / evaluation.big_blind(self.game)
    recorder = lhe_diagnostics.DecisionRecorder(self._greedy)
    chips = batched_matches.play_profile((recorder, self._opponent),
                                         self.setting.num_deals,
                                         self.setting.seed)
    metrics = {"mbb_per_hand": unit * float(chips.mean()),
               "mbb_stderr": unit * float(chips.std(ddof=1)
                                          / np.sqrt(len(chips)))}
    metrics.update(recorder.frequencies("greedy"))
    metrics.update(lhe_diagnostics.q_diagnostics(self.learner, 0, recorder))
    metrics.update(self.learner.losses)
    metrics["q_norm"] = lhe_diagnostics.weight_norm(
        self.learner.networks()["q_network"])
    metrics["sgd_updates"] = (self.learner.steps // self.config.learn_every
                              * self.config.updates_per_learn)
    return {**metrics, **self._references}

  def _header_settings(self):
    """The checkpoint header's settings beyond the learner's config: the
    driver's and the test's (the opponent and the evaluation's deals)."""
    return {**self.driver.driver_settings(), "test": "fixed_opponent",
            **self.setting.header_settings()}

  def save(self, path, progress=None):
    """The learner, the games in flight and a frozen average's random
    stream in one file (atomic), with a training run's `progress`."""
    extra = self.driver.driver_arrays()
    if isinstance(self.fixed, AveragePlayer):
      extra["opponent_rng"] = json.dumps(self.fixed.rng.bit_generator.state)
    return agent_checkpoints.save_agents(
        path, self.game, [self.learner], progress, self._header_settings(),
        **extra)

  def restore(self, path):
    """Continues from `save`'s file: the same steps as a run never
    interrupted. One of another game, configuration or setting raises
    `checkpoints.CheckpointError` and changes nothing."""
    extra = agent_checkpoints.restore_agents(path, self.game, [self.learner],
                                             self._header_settings())
    self.driver.load_driver_arrays(extra)
    if isinstance(self.fixed, AveragePlayer):
      self.fixed.rng.bit_generator.state = json.loads(
          str(extra["opponent_rng"]))
    return self
