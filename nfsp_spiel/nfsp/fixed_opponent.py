"""NFSP's best-response part checked alone: learning against a fixed opponent.

In self-play the best response chases the other player's moving average, so
a flat Limit Hold'em curve cannot tell a reinforcement learner that does not
learn from one whose target keeps moving. Against a fixed, card-independent
opponent (always-call or always-raise) the target stands still: an agent
that always plays its epsilon-greedy best response (`anticipatory_param=1`,
the NFSP paper's DQN baseline) must come to beat it, and by about what
simple card-aware play wins against the same opponent (the
equity-threshold player). `train_against` runs that test through the same
batched self-play driver and learning calls as NFSP's training, and
measures the greedy Q policy in batched matches (`evaluation.
batched_matches`) on the same deals at every evaluation.
"""

import dataclasses

import numpy as np

from nfsp_spiel import evaluation
from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.games import poker
from nfsp_spiel.nfsp import agent as agent_lib
from nfsp_spiel.nfsp import lhe_diagnostics
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.nfsp.agent_policies import NFSPPolicy
from nfsp_spiel.trees.game_tensors import information_state_size

OPPONENTS = {"always_call": poker.CALL, "always_raise": poker.RAISE}


class FixedActionPlayer:
  """A `selfplay.SelfPlay` participant that plays `action` where legal, else
  checks or calls (the rule of `baselines.AlwaysCall` / `AlwaysRaise`),
  whatever its cards; it stores and learns nothing."""

  def __init__(self, player_id, state_size, action):
    self.player_id = player_id
    self.state_size = state_size
    self.action = action

  def observe_transitions(self, *unused_args, **unused_kwargs):
    """A fixed player keeps no transitions."""

  def begin_episodes(self, num_games):
    return np.zeros(num_games, bool)  # never "on its best response"

  def act(self, states, legal, best_response):
    del states, best_response
    legal = np.asarray(legal, bool)
    return np.where(legal[:, self.action], self.action, poker.CALL), None

  def record_steps(self, states, actions, best_response, learn=True):
    del states, actions, best_response, learn
    return 0  # no learning calls fall due

  def count_episodes(self, num_episodes):
    del num_episodes


@dataclasses.dataclass
class Against:
  """The test's setting: `opponent` (a key of `OPPONENTS`) in seat 1, the
  learner in seat 0; `num_deals` deals per evaluation match."""
  opponent: str = "always_raise"
  num_deals: int = 2000
  seed: int = 0
  num_games: int = 128

  def __post_init__(self):
    if self.opponent not in OPPONENTS:
      raise ValueError(f"opponent={self.opponent!r}: must be one of "
                       f"{sorted(OPPONENTS)}")


def references(game, setting):
  """mbb/h in seat 0 against the fixed opponent of fixed baselines, on the
  evaluation's deals: what a best response must at least reach."""
  opponent = _baseline(game, setting.opponent)
  unit = 1000.0 / evaluation.big_blind(game)
  return {name: unit * float(batched_matches.play_profile(
      (policy, opponent), setting.num_deals, setting.seed).mean())
          for name, policy in (("equity_threshold",
                                baselines.EquityThreshold(game)),
                               ("always_call", baselines.AlwaysCall(game)))}


def _baseline(game, opponent):
  return {"always_call": baselines.AlwaysCall,
          "always_raise": baselines.AlwaysRaise}[opponent](game)


def train_against(game, config, setting, episodes, eval_every):
  """Trains a seat-0 agent of `config` (its `anticipatory_param` set to 1)
  against `setting`'s fixed opponent for `episodes` episodes; yields
  (episodes so far, metrics) at episode 0 and after every `eval_every`:
  `mbb_per_hand` (greedy Q policy, seat 0, with `mbb_stderr`), what that
  policy does in those matches (`greedy_<round>_<action>`: its mean
  probability of each action per betting round) and the scale of its Q
  there (`q_abs`, `q_spread`: `lhe_diagnostics.q_scale`), the agent's
  losses, its Q network's weight norm and `sgd_updates`, the updates of
  each network due so far (`updates_per_learn` per `learn_every` own
  steps; the few due before `min_buffer_size_to_learn` records are
  counted though not made)."""
  if game.get_type().short_name != "nfsp_lhe":
    raise ValueError(f"train_against: game={game} must be nfsp_lhe (the "
                     "batched matches play heads-up Limit Hold'em)")
  config = dataclasses.replace(config, anticipatory_param=1.0)
  size = information_state_size(game)
  learner = agent_lib.NFSP(0, size, game.num_distinct_actions(), config,
                           seed=setting.seed)
  fixed = FixedActionPlayer(1, size, OPPONENTS[setting.opponent])
  driver = selfplay.SelfPlay(game, [learner, fixed], setting.num_games,
                             seed=setting.seed)
  greedy = NFSPPolicy(game, [learner, None], "best_response")
  opponent = _baseline(game, setting.opponent)
  unit = 1000.0 / evaluation.big_blind(game)

  def measure():
    recorder = lhe_diagnostics.DecisionRecorder(greedy)
    chips = batched_matches.play_profile((recorder, opponent),
                                         setting.num_deals, setting.seed)
    metrics = {"mbb_per_hand": unit * float(chips.mean()),
               "mbb_stderr": unit * float(chips.std(ddof=1)
                                          / np.sqrt(len(chips)))}
    metrics.update(recorder.frequencies("greedy"))
    metrics.update(lhe_diagnostics.q_scale(learner, 0, recorder))
    metrics.update(learner.losses)
    metrics["q_norm"] = lhe_diagnostics.weight_norm(
        learner.networks()["q_network"])
    metrics["sgd_updates"] = (learner.steps // config.learn_every
                              * config.updates_per_learn)
    return metrics

  yield 0, measure()
  while driver.episodes < episodes:
    driver.play(min(eval_every, episodes - driver.episodes))
    yield driver.episodes, measure()
