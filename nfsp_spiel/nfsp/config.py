"""NFSP's configuration: every hyperparameter, with the papers' values.

Heinrich & Silver 2016 (NFSP paper) sec. 4.1 (Leduc), 4.2 (the DQN
baseline), 4.3 (Limit Hold'em), read through Heinrich's own Leduc code
(`Johannes-H/nfsp-leduc`) where the paper is vague.

`NFSPConfig` holds what every NFSP agent has (the average network, M_SL,
the learning schedule, the anticipatory parameter eta) and, in
`best_response`, the configuration of its best-response learner:
`DQNConfig` (the NFSP paper's) or `ARMConfig` (NFSP-ARM's), each with only
the fields its learner reads. A learner
configuration builds its learner (`build`), which is how a new learner
plugs in without touching the agent (`nfsp_spiel.nfsp.learner`).

The configurations live in this module, without TensorFlow, so that a binary
can define and parse its flags before paying for TensorFlow's import (which
is also why `DQNConfig` and `ARMConfig` sit here and not beside their
learners).

Names: a setting OpenSpiel's NFSP (`open_spiel/python/pytorch/nfsp.py`,
`jax/nfsp.py`) or its DQN has takes OpenSpiel's name (`anticipatory_param`,
`reservoir_buffer_capacity`, `replay_buffer_capacity`,
`min_buffer_size_to_learn`, `rl_learning_rate`, `epsilon_decay_duration`,
...), in the configuration, the flags of examples/nfsp.py, its sweeps and the
checkpoint headers alike. The learner's settings have a flat name too, as
OpenSpiel's NFSP passes its DQN's arguments (`LEARNER_FIELDS`:
`rl_learning_rate` is DQN's `learning_rate`, `replay_buffer_capacity`,
`epsilon_start`, ... are DQN's own, NFSP-ARM's are `arm_<field>`):
`NFSPConfig(...)`, `NFSPConfig.replace`, `dataclasses.replace`, the presets
and the flags take them. The names that differ from OpenSpiel's on purpose
say why where they are defined (`hidden_layers`, `target_refit_every`,
`epsilon_schedule`).

Checkpoints and older scripts may carry the names of earlier versions
(`anticipatory`, `sl_memory_capacity`, `rl_memory_capacity`, ...) or the
learner's settings flat: the constructor and `replace` accept them
(`RENAMED_FIELDS`, old name -> name), and `upgrade_header` turns an old
header into `header_fields`' form.
"""

import dataclasses
import importlib
import json

from nfsp_spiel.core import hardware

RESERVOIR_BUFFER_KINDS = ("reservoir", "exponential_reservoir",
                          "sliding_window")
EPSILON_SCHEDULES = ("polynomial", "inverse_sqrt", "linear", "exponential")
INITIALISATIONS = ("torch", "glorot")  # nfsp_spiel.nfsp.networks' weights
POLICIES = ("average", "best_response", "greedy_average")
PRECISIONS = ("float32", "bfloat16")  # nfsp_spiel.nfsp.networks' products
# What the networks read (nfsp_spiel.nfsp.equity_inputs).
CARDS, CARDS_AND_EQUITY = "cards", "cards_and_equity"
INPUTS = (CARDS, CARDS_AND_EQUITY)
BEST_RESPONSES = ("dqn", "arm")  # the shipped learners' `kind`s
# NFSP-ARM's hidden layers per game, from the authors' scripts
# (`NFSPConfig.nfsp_arm`).
NFSP_ARM_HIDDEN_LAYERS = {"leduc_poker": (128, 128, 64),
                          "liars_dice": (64, 128, 64),
                          "tic_tac_toe": (128, 128, 64)}
NFSP_ARM_GAMES = tuple(NFSP_ARM_HIDDEN_LAYERS)


def _check(owner, config, checks):
  """Raises one ValueError naming the first field of `config` that fails."""
  for name, ok, allowed in checks:
    if not ok:
      raise ValueError(f"{owner}.{name}={getattr(config, name)!r}: must be "
                       f"{allowed}")


def _positive_integers(config, names):
  return [(name, getattr(config, name) >= 1, "a positive integer")
          for name in names]


def _build(module, cls, config, state_size, num_actions, rng):
  """The learner `cls` of `nfsp_spiel.nfsp.<module>` (imported here, on
  first use, so that this module stays free of TensorFlow)."""
  learner = getattr(importlib.import_module(f"nfsp_spiel.nfsp.{module}"), cls)
  return learner(state_size, num_actions, config, rng)


@dataclasses.dataclass(frozen=True)
class DQNConfig:
  """DQN's hyperparameters (NFSP paper sec. 3 and 4.1; thesis eq. 6.1-6.2).

  DQN also reads the agent's shared `hidden_layers`, `init`, `batch_size`,
  `updates_per_learn`, `min_buffer_size_to_learn` and `memory_dtype`
  (`NFSPConfig`), as the paper trains both networks alike.

  Attributes:
    learning_rate: plain SGD on half the mean squared TD error of eq. 6.1
      (0.1, sec. 4.1; the half is qlearner.lua's gradient (Q - target) /
      batch: stepsize 0.2 on the full mean is the same update).
    replay_buffer_capacity: M_RL, a circular buffer (200k, sec. 4.1).
    target_refit_every: DQN updates between target-network refits (300,
      sec. 4.1); 0 bootstraps from the Q-network itself, as the public Leduc
      code does (`q_target_net_refresh = 0`). Not OpenSpiel's
      `update_target_network_every`, which counts the agent's steps: the
      paper counts updates, and one name with two units would take a step
      count for an update count (`openspiel_nfsp` converts).
    epsilon_start: exploration of epsilon-greedy(Q) at the start (0.06,
      sec. 4.1).
    epsilon_schedule: how epsilon decays with the iteration k = steps /
      learn_every (not OpenSpiel's `epsilon_decay_schedule_str`: it takes
      schedules OpenSpiel lacks, and names OpenSpiel's "exp"
      "exponential"). "polynomial": epsilon_start / (1 + epsilon_decay *
      sqrt(k)), the public code's (`util.polynomialDecay` with exponent 0.5,
      `explo_const = 1e-2`): still 0.02 after a million Leduc episodes.
      "inverse_sqrt": epsilon_start / sqrt(1 + k), the paper's words read
      literally (0.0005 by then; this package's earlier default). "linear"
      and "exponential" are OpenSpiel's DQN schedules (for scripts written
      for its NFSP, `nfsp_spiel.nfsp.openspiel_nfsp`): from epsilon_start to
      epsilon_end over epsilon_decay_duration of the agent's steps, linearly, or
      as end + (start - end) exp(-min(t, steps) / steps).
    epsilon_decay: the polynomial schedule's constant (0.01, leduc_fsp3.lua).
    epsilon_end, epsilon_decay_duration: the linear and exponential
      schedules' end and length (OpenSpiel's names).
    double_q: bootstrap as double DQN does (van Hasselt, Guez and Silver
      2016): the Q-network picks the next action, the target network (or,
      without one, the Q-network) values it. Not the papers' (False): a
      diagnostic of Q-learning's overestimation, which the max over noisy
      estimates of eq. 6.1 is known for.
    td_error_clip: c > 0 replaces eq. 6.1's squared error by the Huber
      loss of threshold c: the TD error's gradient is clipped to [-c, c],
      as Mnih et al. (2015) clip theirs (at 1, with rewards clipped to
      [-1, 1]). 0: none, the papers' (sec. 4.3 "vanilla SGD";
      `qlearner.lua`). Not the papers': a remedy tried for the Limit
      Hold'em run whose Q-network diverged under plain SGD at 0.1
      (docs/figures/nfsp_lhe_divergence.py).
  """
  kind = "dqn"
  learning_rate: float = 0.1
  replay_buffer_capacity: int = 200_000
  target_refit_every: int = 300
  epsilon_start: float = 0.06
  epsilon_schedule: str = "polynomial"
  epsilon_decay: float = 0.01
  epsilon_end: float = 0.0
  epsilon_decay_duration: int = 1_000_000
  double_q: bool = False
  td_error_clip: float = 0.0

  def __post_init__(self):
    _check("DQNConfig", self, [
        ("double_q", isinstance(self.double_q, bool),
         "True or False"),
        ("td_error_clip", self.td_error_clip >= 0,
         "non-negative (0: the squared error, no clipping)"),
        ("learning_rate", self.learning_rate > 0, "positive"),
        ("target_refit_every", self.target_refit_every >= 0,
         "a non-negative integer (0: no target network)"),
        ("epsilon_start", 0 <= self.epsilon_start <= 1, "in [0, 1]"),
        ("epsilon_schedule", self.epsilon_schedule in EPSILON_SCHEDULES,
         f"one of {EPSILON_SCHEDULES}"),
        ("epsilon_decay", self.epsilon_decay >= 0, "non-negative"),
        ("epsilon_end", 0 <= self.epsilon_end <= self.epsilon_start,
         "in [0, epsilon_start]"),
        *_positive_integers(self, ("replay_buffer_capacity",
                                   "epsilon_decay_duration"))])

  def shapes(self):
    """What must be equal for learners to be stacked in a population
    (`nfsp_spiel.nfsp.stacked_learning`): whether there is a target
    network, and the bootstrap rule (the stacked graph is member 0's)."""
    return {"target network": self.target_refit_every > 0,
            "double_q": self.double_q}

  def build(self, state_size, num_actions, config, rng):
    """The learner (`nfsp_spiel.nfsp.dqn.DQN`) for an agent of `config`."""
    return _build("dqn", "DQN", config, state_size, num_actions, rng)


@dataclasses.dataclass(frozen=True)
class ARMConfig:
  """ARM's hyperparameters (Jin et al. 2018, Alg. 1, as the NFSP-ARM
  authors' `RMFSP/arm_tf.py` and `main_leduc.py` set them; ARM also reads
  the agent's shared `hidden_layers` and `init`).

  Attributes:
    iteration_steps: transitions of the agent per ARM iteration (4000:
      the NFSP-ARM authors' `main_leduc.py` runs one when M_RL holds 4000).
    updates, batch_size: Adam steps per iteration and their minibatch (1000
      and 32, `arm_tf.py`).
    learning_rate: Adam's stepsize (8e-4, `arm_tf.py`).
    n_step, discount: n and gamma of the n-step returns (4 and 0.9,
      `arm_tf.py`'s N_STEP_SIZE and GAMMA).
    target_tau: how far V' moves towards V after each step (0.01,
      `arm_tf.py`).
  """
  kind = "arm"
  iteration_steps: int = 4000
  updates: int = 1000
  batch_size: int = 32
  learning_rate: float = 8e-4
  n_step: int = 4
  discount: float = 0.9
  target_tau: float = 0.01

  def __post_init__(self):
    _check("ARMConfig", self, [
        ("learning_rate", self.learning_rate > 0, "positive"),
        ("discount", 0 < self.discount <= 1, "in (0, 1]"),
        ("target_tau", 0 < self.target_tau <= 1, "in (0, 1]"),
        *_positive_integers(self, ("iteration_steps", "updates",
                                   "batch_size", "n_step"))])

  def shapes(self):
    """What must be equal for learners to be stacked in a population."""
    return {"iteration_steps": self.iteration_steps, "updates": self.updates,
            "batch_size": self.batch_size}

  def build(self, state_size, num_actions, config, rng):
    """The learner (`nfsp_spiel.nfsp.arm.ARM`) for an agent of `config`."""
    return _build("arm", "ARM", config, state_size, num_actions, rng)


LEARNER_CONFIGS = {"dqn": DQNConfig, "arm": ARMConfig}

# The learners' settings by their flat names, as OpenSpiel's NFSP takes its
# DQN's (and as checkpoints written before the learners' configurations were
# split off store them): flat name -> (learner kind, field).
LEARNER_FIELDS = {
    **{("rl_learning_rate" if field.name == "learning_rate" else field.name):
       ("dqn", field.name) for field in dataclasses.fields(DQNConfig)},
    **{f"arm_{field.name}": ("arm", field.name)
       for field in dataclasses.fields(ARMConfig)},
}

# Names of earlier versions, as old checkpoints' headers and old scripts
# carry them: old name -> name (a flat learner setting's, or a header's
# `best_response.<field>`).
_RENAMED_DQN_FIELDS = {"memory_capacity": "replay_buffer_capacity",
                       "epsilon_decay_steps": "epsilon_decay_duration"}
RENAMED_FIELDS = {
    "anticipatory": "anticipatory_param",
    "sl_memory_capacity": "reservoir_buffer_capacity",
    "sl_memory": "reservoir_buffer_kind",
    "sl_min_probability": "reservoir_buffer_min_probability",
    "min_memory_to_learn": "min_buffer_size_to_learn",
    "rl_memory_capacity": "replay_buffer_capacity",
    "epsilon_decay_steps": "epsilon_decay_duration",
    **{f"best_response.{old}": f"best_response.{new}"
       for old, new in _RENAMED_DQN_FIELDS.items()},
}


def renamed(fields):
  """`fields` ({name: value}) with the names of earlier versions replaced
  by theirs (`RENAMED_FIELDS`); an old name given beside its new one
  raises."""
  both = sorted(old for old, new in RENAMED_FIELDS.items()
                if old in fields and new in fields)
  if both:
    raise ValueError(f"NFSPConfig.{both[0]}={fields[both[0]]!r}: an earlier "
                     f"name of {RENAMED_FIELDS[both[0]]}, which is given too")
  return {RENAMED_FIELDS.get(name, name): value
          for name, value in fields.items()}


@dataclasses.dataclass(frozen=True)
class NFSPConfig:
  """NFSP's hyperparameters; defaults are the NFSP paper's Leduc experiment.

  Where the paper (sec. 4.1; thesis sec. 6.6.1) is vague, Heinrich's public
  Leduc code (GitHub Johannes-H/nfsp-leduc: `leduc_fsp3.lua`,
  `fsp/algo/fsp3.lua`, `fsp/learner/qlearner.lua`, `fsp/simulator/leduc.lua`)
  settles it; each field names its source. That code plays 128 games in
  lockstep: one *iteration* is one step in each game (both players' steps
  together), after which every player makes 2 SGD updates per network. An
  agent here counts only its own steps, about half of a two-player game's, so
  "every 128 steps in the game" is `learn_every=64` own steps, and the
  exploration schedule's iteration counter is `steps / learn_every`.

  Attributes:
    best_response: the best-response learner's configuration: `DQNConfig()`
      (the NFSP paper's), `ARMConfig()` (NFSP-ARM's) or any configuration
      with a `kind` and a `build` method (`nfsp_spiel.nfsp.learner`). The
      names "dqn" and "arm" stand for those learners with their defaults.
    hidden_layers: ReLU layer sizes of both networks (sec. 4.1: [64]; fig. 1a
      sweeps sizes). OpenSpiel's `hidden_layers_sizes` (`openspiel_nfsp`
      maps it): both learners and `networks` read this one tuple by this
      name, which no other setting shares.
    reservoir_buffer_capacity: M_SL (2m, sec. 4.1), OpenSpiel's name for it.
    reservoir_buffer_kind: what M_SL is: "reservoir" (Vitter; sec. 4.1),
      "exponential_reservoir" (Osborne et al.; sec. 4.3, fig. 1b) or
      "sliding_window" (fig. 1b's ablation: a circular buffer in its place).
    reservoir_buffer_min_probability: the exponential reservoir's minimum
      replacement probability (0.25, sec. 4.3).
    sl_learning_rate: plain SGD on the mean cross-entropy of eq. 6.3 (0.005,
      sec. 4.1; avglearner.lua).
    batch_size: minibatch of each update (128, sec. 4.1).
    learn_every: the agent's own steps between learning calls (64: the
      paper's 128 steps in the game, both players' together, fsp3.lua).
    updates_per_learn: SGD updates per network per learning call (2,
      sec. 4.1).
    anticipatory_param: eta, the probability of following the learner's
      policy (epsilon-greedy(Q) under DQN) in an episode (0.1, sec. 4.1; 1.0
      is the DQN baseline).
    min_buffer_size_to_learn: records a memory needs before its network
      trains (1000, leduc_fsp3.lua's `minReplayData`; the paper is silent).
      OpenSpiel's NFSP also waits for `batch_size` records; here a memory
      of fewer records than a batch samples with repeats.
    init: starting weights, "torch" (uniform +-1/sqrt(fan_in), biases too:
      Torch7's `nn.Linear`, which the public code uses) or "glorot"
      (Glorot-uniform weights, zero biases).
    reward_scale: rewards are multiplied by this before they reach M_RL.
      The public Leduc code scales chips by 0.0385 (~1/26, Leduc's largest
      pot; `REW_SCALE` in `fsp/simulator/leduc.lua`), although the thesis
      (sec. 6.5) says monetary units map to rewards 1:1. In chips, SGD at 0.1
      learns faster at first but its best responses stall (README: player
      0's best-response gap 0.2-0.3 against 0.02-0.1 here).
    memory_dtype: how M_SL stores states: "float32"; "uint8", the papers'
      0/1 encodings in a quarter of the space; "bits", one bit per entry
      (LHE's 288 in 36 bytes: the paper's 30m records in 1.1 GB). M_RL
      keeps float32 rows (rewards), 1.4 GB at LHE's 600k.
    evaluation_policy: what `step(..., is_evaluation=True)` plays: "average"
      (Pi, the strategy NFSP converges with), "best_response" (the learner's
      greedy policy) or "greedy_average" (argmax Pi; sec. 4.3).
    device: TensorFlow device for the networks and updates ("/CPU:0",
      "/GPU:0"); None lets TensorFlow place them (a GPU when it sees one).
    precision: the learning calls' matrix products, "float32" (the papers')
      or "bfloat16" (mixed precision: bfloat16 products, float32 weights,
      losses and updates; `networks.outputs`), for the large networks on
      machines with bfloat16 units (a GPU; a CPU with avx512_bf16 or
      amx_bf16), where it is checked when the agent is built. Acting stays
      float32 (numpy).
    inputs: what the networks read: "cards", the game's information-state
      tensor (the papers'), or, in Limit Hold'em (`nfsp_lhe`) only,
      "cards_and_equity": the same followed by the check-down equity of
      the player's cards (`nfsp.equity_inputs`; a diagnostic of whether
      learning hand strength from the raw cards is what holds NFSP back,
      not the paper's setting).
  """
  best_response: object = DQNConfig()
  hidden_layers: tuple = (64,)
  reservoir_buffer_capacity: int = 2_000_000
  reservoir_buffer_kind: str = "reservoir"
  reservoir_buffer_min_probability: float = 0.25
  sl_learning_rate: float = 0.005
  batch_size: int = 128
  learn_every: int = 64
  updates_per_learn: int = 2
  anticipatory_param: float = 0.1
  min_buffer_size_to_learn: int = 1000
  init: str = "torch"
  reward_scale: float = 0.0385
  memory_dtype: str = "float32"
  evaluation_policy: str = "average"
  device: str | None = None
  precision: str = "float32"
  inputs: str = CARDS

  def __post_init__(self):
    object.__setattr__(self, "hidden_layers",
                       tuple(int(h) for h in self.hidden_layers))
    if isinstance(self.best_response, str):
      if self.best_response not in LEARNER_CONFIGS:
        raise ValueError(f"NFSPConfig.best_response={self.best_response!r}: "
                         f"must be one of {BEST_RESPONSES} or a learner "
                         "configuration (DQNConfig(), ARMConfig(), ...)")
      object.__setattr__(self, "best_response",
                         LEARNER_CONFIGS[self.best_response]())
    if not (hasattr(self.best_response, "build") and
            hasattr(self.best_response, "kind")):
      raise ValueError(f"NFSPConfig.best_response={self.best_response!r}: "
                       "must be a learner configuration (DQNConfig(), "
                       "ARMConfig(), or one with `kind` and `build`)")
    _check("NFSPConfig", self, [
        ("hidden_layers", all(h > 0 for h in self.hidden_layers),
         "positive layer sizes"),
        ("reservoir_buffer_kind",
         self.reservoir_buffer_kind in RESERVOIR_BUFFER_KINDS,
         f"one of {RESERVOIR_BUFFER_KINDS}"),
        ("reservoir_buffer_min_probability",
         0 < self.reservoir_buffer_min_probability <= 1, "in (0, 1]"),
        ("anticipatory_param", 0 <= self.anticipatory_param <= 1,
         "in [0, 1]"),
        ("init", self.init in INITIALISATIONS,
         f"one of {INITIALISATIONS}"),
        ("reward_scale", self.reward_scale > 0, "positive"),
        ("sl_learning_rate", self.sl_learning_rate > 0, "positive"),
        ("memory_dtype", self.memory_dtype in ("float32", "uint8", "bits"),
         "'float32', 'uint8' or 'bits'"),
        ("evaluation_policy", self.evaluation_policy in POLICIES,
         f"one of {POLICIES}"),
        ("precision", self.precision in PRECISIONS, f"one of {PRECISIONS}"),
        ("inputs", self.inputs in INPUTS, f"one of {INPUTS}"),
        *_positive_integers(self, ("reservoir_buffer_capacity", "batch_size",
                                   "learn_every", "updates_per_learn",
                                   "min_buffer_size_to_learn"))])

  def replace(self, **changes):
    """A copy with `changes`: this class's fields, or the learner's in their
    flat names (`LEARNER_FIELDS`: `rl_learning_rate=0.05`,
    `epsilon_start=0.1`, `arm_updates=10`, ...) when the learner is of
    that kind, by their names or earlier ones (`RENAMED_FIELDS`);
    `best_response` may be a kind's name ("arm")."""
    changes = renamed(changes)
    learner = changes.pop("best_response", self.best_response)
    if isinstance(learner, str):
      if learner not in LEARNER_CONFIGS:
        raise ValueError(f"NFSPConfig.best_response={learner!r}: must be one "
                         f"of {BEST_RESPONSES} or a learner configuration")
      learner = (self.best_response if self.best_response.kind == learner
                 else LEARNER_CONFIGS[learner]())
    learner_changes = {}
    for name in [name for name in changes if name in LEARNER_FIELDS]:
      kind, field = LEARNER_FIELDS[name]
      if kind != learner.kind:
        raise ValueError(f"NFSPConfig.{name}={changes[name]!r}: a setting of "
                         f"the {kind!r} learner, this configuration's is "
                         f"{learner.kind!r}")
      learner_changes[field] = changes.pop(name)
    if learner_changes:
      learner = dataclasses.replace(learner, **learner_changes)
    return dataclasses.replace(self, best_response=learner, **changes)

  @classmethod
  def _preset(cls, settings, changes):
    """The default configuration with a preset's `settings`, and `changes`
    over them (in any name `replace` takes)."""
    return cls().replace(**{**settings, **renamed(changes)})

  @classmethod
  def leduc(cls, **changes):
    """The NFSP paper's Leduc Hold'em experiment (sec. 4.1, with the public
    code's readings: see the class docstring)."""
    return cls().replace(**changes)

  @classmethod
  def lhe(cls, **changes):
    """The NFSP paper's Limit Texas Hold'em settings (sec. 4.3), read as the
    Leduc preset is: 256 game steps per iteration (128 of one agent's),
    learning from 1000 records, rewards in units of the largest pot (480
    chips in OpenSpiel's ACPC game, as Leduc's 0.0385 is 1/26, `REW_SCALE`
    in Heinrich's fsp/simulator/leduc.lua). That scale is our reading: the
    thesis (sec. 6.5) maps monetary units to rewards 1:1, its unit the small
    blind (bets of 2 and 4 units, sec. 2.3.1), i.e. 1/5 per chip here,
    96 times ours. Under plain SGD at 0.1 the thesis' scale diverges here
    (NaN Q loss after about 45k episodes, in either precision) and 1/48 does
    no better than 1/480 (docs/figures/fig_nfsp_lhe_reward_scale.py; the
    recipe learns on Leduc: fig_nfsp_lhe_recipe_leduc.py). Epsilon
    "decayed to 0, more slowly than in Leduc": the same polynomial schedule
    over iterations twice as long, i.e. per game step sqrt(2) slower.
    M_SL stores states as bits: in bytes, its 30m records would take 8.7 GB.

    `precision`: "bfloat16" where the machine has bfloat16 units for
    `device` (`core.hardware.bfloat16_units`: a GPU, or a CPU with
    avx512_bf16 or amx_bf16), else "float32"; the choice is written into the
    config, so a checkpoint records it and a resume elsewhere is refused,
    not silently switched. bfloat16 is the default only because both
    precisions' learning curves agree within their seed bands
    (docs/figures/fig_nfsp_precision_lhe.py; BUILD_NOTES "Mixed
    precision")."""
    if "precision" not in changes:
      changes["precision"] = ("bfloat16" if hardware.bfloat16_units(
          changes.get("device")) else "float32")
    return cls._preset(dict(
        hidden_layers=(1024, 512, 1024, 512), replay_buffer_capacity=600_000,
        reservoir_buffer_capacity=30_000_000,
        reservoir_buffer_kind="exponential_reservoir",
        sl_learning_rate=0.01, batch_size=256, learn_every=128,
        target_refit_every=1000, epsilon_start=0.08,
        reward_scale=1 / 480, memory_dtype="bits"), changes)

  @classmethod
  def dqn(cls, **changes):
    """Sec. 4.2's DQN baseline on Leduc: eta = 1 (the average network only
    observes), the best calibration the paper found: learning rate 0.1,
    exploration from 0.12, a 2m sliding-window M_RL; everything else as the
    Leduc preset."""
    return cls._preset(dict(anticipatory_param=1.0, epsilon_start=0.12,
                            replay_buffer_capacity=2_000_000), changes)

  @classmethod
  def nfsp_arm(cls, game="leduc_poker", **changes):
    """NFSP-ARM (Chen et al., Alg. 1) as the authors ran it, per game.

    The paper's text gives almost no settings: sec. 5.1 points to the NFSP
    paper's Leduc experiment for NFSP's part (this class's defaults: SGD
    0.005 on the average network, a 2m reservoir M_SL, 128-record batches,
    updates every 128 game steps) and sec. 5.2 and 5.3 run the other games
    "following the settings in Leduc section". Where the text is silent
    the values are those of the authors' scripts (GitHub
    zhangli140/CCNT_HCIS, folder RMFSP/ at commit a052663, since deleted):

    * eta 0.5 (`anticipatory_param`): `main_leduc.py` line 41 and
      `main_liars_dice.py` line 40, each with the comment "0.1 origin"
      (the NFSP paper's 0.1);
    * hidden layers [128, 128, 64] on Leduc (`main_leduc.py` lines 34-36)
      and [64, 128, 64] on Liar's Dice (`main_liars_dice.py` lines 33-35).
      Their NFSP-ARM agent sizes its ARM network and its (unevaluated)
      average network with this one list (`nfsp_arm.py` lines 50, 82-83
      and 104), so `hidden_layers` sizes both networks here too.
      Tic-Tac-Toe has no script of its own (their README runs it by
      changing the game in one of the two): it takes Leduc's sizes;
    * an ARM iteration when M_RL holds 4000 transitions
      (`main_leduc.py` line 246; the `arm_iteration_steps` default) and
      ARM's optimiser, returns and target (the arm_* defaults,
      `arm_tf.py`), with the games' own rewards (`arm_tf.py` scales none).

    Their average policy is a table of summed ARM action distributions
    (`nfsp_arm.py` lines 207-250 and 317-329); the paper describes NFSP's
    average network trained on M_SL, which is what this agent keeps. Their
    scripts run 15m episodes (`main_leduc.py` and `main_liars_dice.py`
    line 27/26). `game`: one of NFSP_ARM_GAMES."""
    if game not in NFSP_ARM_HIDDEN_LAYERS:
      raise ValueError(f"NFSPConfig.nfsp_arm game={game!r}: must be one of "
                       f"{tuple(NFSP_ARM_HIDDEN_LAYERS)}")
    return cls._preset(dict(best_response="arm", reward_scale=1.0,
                            anticipatory_param=0.5,
                            hidden_layers=NFSP_ARM_HIDDEN_LAYERS[game]),
                       changes)

  @classmethod
  def arm(cls, game="leduc_poker", **changes):
    """Plain ARM, the NFSP-ARM paper's third curve: every episode plays
    ARM's own policy (eta = 1), which is what is evaluated; the average
    network only watches, as in the DQN baseline. Otherwise the NFSP-ARM
    preset's values for `game` (its network sizes)."""
    return cls.nfsp_arm(game, **{**dict(anticipatory_param=1.0,
                                        evaluation_policy="best_response"),
                                 **renamed(changes)})

  @classmethod
  def nfsp_arm_baseline(cls, **changes):
    """The NFSP the NFSP-ARM authors compare against: OpenSpiel's TF1 NFSP
    (their copy, RMFSP/nfsp.py at commit a052663, with OpenSpiel's TF1
    DQN) called by their `main_nfsp.py` on Leduc. The same agent as
    `openspiel_nfsp_tf1.NFSP(...)` with their arguments gives
    (`openspiel_nfsp.openspiel_config`):

    * hidden layers [64] (`main_nfsp.py` lines 28-29), M_RL 200k (line
      31), M_SL a 2m reservoir (line 33), eta 0.5 (line 35);
    * epsilon from 0.06 to 1e-5 linearly over 15m steps (lines 81-83; the
      15m is their episode budget, line 24, passed as
      `epsilon_decay_duration`): OpenSpiel counts only best-response
      steps there, this agent all of its steps;
    * `nfsp.py` lines 57-62: batches of 128, SGD 0.01 on both networks
      (the RL stepsize doubled here: this DQN descends half the squared
      TD error, the same step), learning from 1000 records, every 64 of
      the agent's steps, one update per network;
    * OpenSpiel's TF1 DQN defaults: the target network copied every 1000
      steps (every 1000 // 64 = 15 Q updates), undiscounted returns;
    * rewards in chips (OpenSpiel scales none)."""
    return cls._preset(dict(
        hidden_layers=(64,), replay_buffer_capacity=200_000,
        reservoir_buffer_capacity=2_000_000, anticipatory_param=0.5,
        batch_size=128, rl_learning_rate=0.02, sl_learning_rate=0.01,
        min_buffer_size_to_learn=1000, learn_every=64, updates_per_learn=1,
        target_refit_every=1000 // 64, epsilon_start=0.06, epsilon_end=1e-5,
        epsilon_decay_duration=15_000_000,
        epsilon_schedule="linear", reward_scale=1.0), changes)


  def header_fields(self):
    """The configuration as one flat dict for checkpoint headers: this
    class's fields, the learner's `kind` as `best_response` and its fields
    as `best_response.<field>`."""
    fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
              if f.name != "best_response"}
    learner = self.best_response
    fields["best_response"] = learner.kind
    for field in dataclasses.fields(learner):
      fields[f"best_response.{field.name}"] = getattr(learner, field.name)
    return json.loads(json.dumps(fields))

  def to_json(self):
    return json.dumps(self.header_fields(), sort_keys=True)

  @classmethod
  def from_header(cls, fields):
    """The configuration of a checkpoint header's config dict, of this
    version or an earlier one (`upgrade_header`); keys of neither (a
    driver's settings) are ignored, fields a header lacks take their
    defaults."""
    fields = upgrade_header(fields)
    kind = fields.get("best_response", "dqn")
    if kind not in LEARNER_CONFIGS:
      raise ValueError(f"a checkpoint's best_response={kind!r}: this package "
                       f"knows {BEST_RESPONSES}")
    learner_class = LEARNER_CONFIGS[kind]
    learner = learner_class(**{
        f.name: fields[f"best_response.{f.name}"]
        for f in dataclasses.fields(learner_class)
        if f"best_response.{f.name}" in fields})
    own = {f.name: fields[f.name] for f in dataclasses.fields(cls)
           if f.name in fields and f.name != "best_response"}
    return cls(best_response=learner, **own)


def upgrade_header(fields):
  """A checkpoint header's config dict in `header_fields`' form: earlier
  versions' names become this one's (`RENAMED_FIELDS`), and a flat header,
  written before the learners' configurations were split off, has its
  learner's fields nested (`LEARNER_FIELDS`) and the other learners'
  dropped (which it carried with their defaults); other keys stay."""
  fields = renamed(fields)
  if not any(name in fields for name in LEARNER_FIELDS):
    return fields
  kind = fields.get("best_response", "dqn")
  upgraded = {}
  for name, value in fields.items():
    if name in LEARNER_FIELDS:
      learner, field = LEARNER_FIELDS[name]
      if learner == kind:
        upgraded[f"best_response.{field}"] = value
    else:
      upgraded[name] = value
  return upgraded


def _accept_flat_and_old_names(cls):
  """Lets `cls`'s constructor (and so `dataclasses.replace`) take earlier
  versions' names (`RENAMED_FIELDS`) and the learner's flat names
  (`LEARNER_FIELDS`), as the presets, the flags and older scripts give
  them: the flat ones go to the learner through `replace`."""
  dataclass_init = cls.__init__

  def __init__(self, *args, **changes):
    changes = renamed(changes)
    flat = {name: changes.pop(name) for name in list(changes)
            if name in LEARNER_FIELDS}
    dataclass_init(self, *args, **changes)
    if flat:
      object.__setattr__(self, "best_response",
                         self.replace(**flat).best_response)

  __init__.__doc__ = dataclass_init.__doc__
  cls.__init__ = __init__
  return cls


_accept_flat_and_old_names(NFSPConfig)


def complete_header(fields):
  """A checkpoint header's config dict as this version writes it: upgraded
  (`upgrade_header`), with the defaults of fields added since it was written
  (those of its learner's kind)."""
  fields = upgrade_header(fields)
  kind = fields.get("best_response", "dqn")
  defaults = NFSPConfig().header_fields()
  if kind in LEARNER_CONFIGS:
    defaults = NFSPConfig(best_response=kind).header_fields()
  else:  # a learner this package does not ship: its own fields only
    defaults = {k: v for k, v in defaults.items()
                if not k.startswith("best_response.")}
  return {**defaults, **fields}
