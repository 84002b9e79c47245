"""Full-width extensive-form fictitious play on arrays: XFP, Hendon's FP, GFP.

Heinrich, Lanctot & Silver, "Fictitious Self-Play in Extensive-Form Games",
ICML 2015, Alg. 1 and Thm. 7; Heinrich's thesis (2017), ch. 4 and app. B.

Each iteration computes every player's exact best response beta to the
others' average strategy by backward induction over information states, then
moves the average towards it with effective stepsize lambda(u) per state u:

* `xfp` (eq. 4.3): lambda = a x_beta(u) / ((1 - a) x_pi(u) + a x_beta(u)),
  the realization-weighted update, realization-equivalent to mixing the
  strategies as wholes; a = 1/(t+1) by default, or a constant;
* `hendon` (thesis 4.5.1, Hendon et al. 1996): lambda = a, unweighted;
* `gfp` (thesis app. B, eq. B.3/B.4): geometric fictitious play, which also
  plays local best responses from every depth of the player's tree.

The game is compiled once into sequence-form arrays (`sequence_form`; River
poker and nfsp_leduc into their public tree x hands, `public_tree`; games of
more than two players into `sequence_form.NPlayerSequenceForm`, where a best
response weighs each terminal by the product of the others' reach), so an
iteration is a handful of vectorised operations, linear in the tree size.
`XFPSolver` has the interface of OpenSpiel's `fictitious_play.XFPSolver`
(`iteration()`, `average_policy()` as an OpenSpiel policy,
`average_policy_tables()`, `save_oracles` and `get_empirical_metagame()`)
for two-player zero-sum games and sequential games of any number of players;
OpenSpiel's walks the states one by one. Beyond two players fictitious play
need not converge to a Nash equilibrium; `nash_conv()` measures the average.

Same trajectory: on OpenSpiel's games the averages equal those of OpenSpiel's
XFPSolver to the bit (measured: Kuhn poker for 2000 iterations, Leduc for
50). Two things make it so. The update rounds in OpenSpiel's order
(`realization_weighted_update`). And where actions tie, OpenSpiel's best
response plays the one its own float sums make largest, so that between
actions of mathematically equal value their last bits decide (on Kuhn,
betting with the Queen at iterations 3 to 5, 2.8e-17 above passing, both
-1/18; the lowest action would pass, and the runs would part from there, this
one 1.1e-3 off -1/18 after 100 iterations where OpenSpiel's is 3.5e-4 off):
the best responses redo OpenSpiel's sums at such ties
(`sequence_form.OpenSpielTieBreak`: a walk of the tree once per game and
player, about 30 ms on Leduc, then one array product per best response that
ties; 2 ties in Leduc's first 1000 iterations, but at most iterations late
in a run where states go unreached: 5,349 ties in thesis fig. 4.3's
Hendon-stepsize run from iteration 86,578 to 107,735, 11 s where a walk per
tie took minutes). Public-tree forms (River poker, nfsp_leduc) take the
lowest tied action.
"""

import dataclasses
import itertools
from typing import Callable, Optional, Union

import numpy as np

from nfsp_spiel.core import checkpoints
from nfsp_spiel import evaluation
from nfsp_spiel.fictitious_play import n_player
from nfsp_spiel.trees import public_tree
from nfsp_spiel.trees import sequence_form

STEPSIZE_RULES = ("xfp", "hendon", "gfp")
INITIAL_STRATEGIES = ("uniform", "random")


@dataclasses.dataclass
class XFPConfig:
  """XFP's options; the defaults are the papers' XFP.

  Attributes:
    stepsize: "xfp" (realization-weighted, thesis eq. 4.3), "hendon"
      (unweighted 1/(t+1), thesis 4.5.1) or "gfp" (thesis app. B).
    alpha: the basic stepsize a_t: None for 1/(t+1) (thesis 4.4), a constant
      (thesis 4.5.3, fig. 4.6), or a function of the iteration t >= 1.
    initial_strategy: "uniform", or "random" per-state weights drawn uniformly
      and normalised (thesis 4.5.1).
    best_response_noise: probability that a backward-induction step backs up
      a uniform-random action's value instead of the best (thesis 4.5.3).
    seed: seeds the random initial strategy and the noise.
  """
  stepsize: str = "xfp"
  alpha: Union[None, float, Callable[[int], float]] = None
  initial_strategy: str = "uniform"
  best_response_noise: float = 0.0
  seed: int = 0

  def __post_init__(self):
    if self.stepsize not in STEPSIZE_RULES:
      raise ValueError(f"stepsize={self.stepsize!r}: expected one of "
                       f"{STEPSIZE_RULES}")
    if self.initial_strategy not in INITIAL_STRATEGIES:
      raise ValueError(f"initial_strategy={self.initial_strategy!r}: expected "
                       f"one of {INITIAL_STRATEGIES}")
    if isinstance(self.alpha, (int, float)) and not 0 < self.alpha <= 1:
      raise ValueError(f"alpha={self.alpha}: a constant stepsize must be in "
                       "(0, 1]")
    if not 0.0 <= self.best_response_noise <= 1.0:
      raise ValueError(f"best_response_noise={self.best_response_noise}: must "
                       "be in [0, 1]")

  def alpha_at(self, t):
    """The basic stepsize of the update that produces pi_{t+1}."""
    if self.alpha is None:
      return 1.0 / (t + 1)
    return self.alpha(t) if callable(self.alpha) else float(self.alpha)


def mixture_reach(alpha, reach_average, reach_response):
  """Per information state, its reach under the mixture (1 - a) pi + a beta
  of the strategies as wholes (Thm. 7): eq. 4.3's denominator."""
  return (1 - alpha) * reach_average + alpha * reach_response


def realization_weighted_step(alpha, reach_average, reach_response):
  """Eq. 4.3's effective stepsize per information state (0 where unreached)."""
  denominator = mixture_reach(alpha, reach_average, reach_response)
  return np.divide(alpha * reach_response, denominator,
                   out=np.zeros_like(denominator), where=denominator > 0)


def realization_weighted_update(alpha, average, response, reach_average,
                                reach_response):
  """The average moved towards the response by eq. 4.3's stepsize.

  Computed per action as average + (alpha x_beta (beta - average)) /
  ((1 - alpha) x_pi + alpha x_beta), the order in which OpenSpiel's
  XFPSolver rounds, so that both give the same bits (which ties between
  best-response actions can depend on); unreached states stay.
  """
  denominator = mixture_reach(alpha, reach_average, reach_response)[:, None]
  moved = (alpha * reach_response)[:, None] * (response - average)
  return average + np.divide(moved, denominator, out=np.zeros_like(moved),
                             where=denominator > 0)


def gfp_update(form, player, average, response, alpha):
  """The geometric update, eq. B.3 with local stepsizes from eq. B.4."""
  reach = form.reach(player, average)           # x_pi of every sequence
  local = np.zeros(form.num_sequences[player])  # alpha[sigma]
  local[0] = alpha
  updated = average.copy()
  legal = form.legal[player]
  for depth, infosets in enumerate(form.levels[player]):
    parent = form.parent_sequence[player][infosets]
    routine = (1 - alpha) ** (depth + 1) * reach[parent]
    weight = local[parent]
    total = routine + weight
    mixed = routine[:, None] * average[infosets] + weight[:, None] * response[
        infosets]
    updated[infosets] = np.where(total[:, None] > 0, mixed / np.where(
        total > 0, total, 1.0)[:, None], average[infosets])
    table = form.sequence[player][infosets]
    mask = legal[infosets]
    child = (weight[:, None] * response[infosets] + alpha *
             (1 - alpha) ** (depth + 1) * reach[parent][:, None] *
             average[infosets])
    local[table[mask]] = child[mask]
  return updated


class XFPSolver:
  """Extensive-form fictitious play on a compiled game; see the module docstring.

  Drop-in for OpenSpiel's `fictitious_play.XFPSolver`:
  `XFPSolver(game, save_oracles=...)`, `iteration()`, `average_policy()`,
  `average_policy_tables()`, `get_empirical_metagame()`; plus
  `exploitability()`, `nash_conv()` and the strategy arrays. Its episode samplers
  (`sample_episode(s)`) have no counterpart: the meta-game is exact here.
  """

  def __init__(self, game, config: Optional[XFPConfig] = None,
               save_oracles=False, **overrides):
    """Compiles `game`; `config` and `overrides` (its fields) set the rule.

    Args:
      game: a two-player zero-sum OpenSpiel game, or a sequential game of
        more players (any utility) with information-state strings.
      config: an `XFPConfig`; None for the papers' XFP.
      save_oracles: keep every player's initial strategy and every best
        response in `oracles`, for `get_empirical_metagame()`.
      **overrides: `XFPConfig` fields replacing `config`'s.
    """
    self.config = dataclasses.replace(config or XFPConfig(), **overrides)
    self.form = n_player.compile_game(game, "XFPSolver")
    self.game = game
    self.players = range(game.num_players())
    self._rng = np.random.default_rng(self.config.seed)
    if self.config.initial_strategy == "uniform":
      self.strategies = [self.form.uniform(p) for p in self.players]
    else:
      self.strategies = [self.form.random_strategy(p, self._rng)
                         for p in self.players]
    self.iterations = 0
    self._exact = None  # exact best responses to the current average
    # Per player: the initial strategy, then each iteration's best response.
    self.oracles = ([[s] for s in self.strategies] if save_oracles else None)

  def exact_best_responses(self):
    """[(value, one-hot strategy)] of every player against the average."""
    if self._exact is None:
      self._exact = [self.form.best_response(p, self._opponents(p),
                                             break_ties=self._tie_break(p))
                     for p in self.players]
    return self._exact

  def _opponents(self, player):
    return n_player.opponents(self.form, self.strategies, player)

  def _tie_break(self, player):
    """OpenSpiel's choice among tied actions where the game was walked;
    public trees have no histories to redo its sums on: the lowest action."""
    if isinstance(self.form, public_tree.PublicTreeSequenceForm):
      return None
    return sequence_form.OpenSpielTieBreak(self.form, player, self.strategies)

  @property
  def state_visits_per_iteration(self):
    """An iteration's work in the papers' cost model, a machine-independent
    clock to compare with `fsp.FSPSolver.state_visits`: a best response per
    player visits every game state and the average update every information
    state (thesis 5.6.2: XFP "performs computation at each state"). The
    arrays here do that work in products, but its amount, the game's size,
    is the same."""
    return (len(self.players) * self.form.num_states +
            self.form.num_information_states)

  @property
  def state_visits(self):
    """`state_visits_per_iteration` summed over the iterations so far."""
    return self.iterations * self.state_visits_per_iteration

  def exploitability(self):
    """Exploitability of the average profile, through the evaluation module:
    NashConv / number of players (OpenSpiel's definition).

    The policy carries the compiled game, so this costs a best response per
    player on arrays (about a millisecond on Leduc, 50 ms on 60-card Leduc).
    """
    return evaluation.exploitability(self.game, self.policy())

  def nash_conv(self):
    """NashConv of the average profile (the measure beyond two players)."""
    return evaluation.nash_conv(self.game, self.policy())

  def iteration(self):
    """One fictitious-play step: best responses, then the average update."""
    noise = self.config.best_response_noise
    if noise > 0:
      responses = [self.form.best_response(p, self._opponents(p), noise,
                                           self._rng)[1] for p in self.players]
    else:
      responses = [response for _, response in self.exact_best_responses()]
    if self.oracles is not None:
      for oracles, response in zip(self.oracles, responses):
        oracles.append(response)
    self.iterations += 1
    alpha = self.config.alpha_at(self.iterations)
    self.strategies = [self._update(p, responses[p], alpha)
                       for p in self.players]
    self._exact = None

  def _update(self, player, response, alpha):
    average = self.strategies[player]
    if self.config.stepsize == "gfp":
      return gfp_update(self.form, player, average, response, alpha)
    if self.config.stepsize == "hendon":
      return average + alpha * (response - average)
    return realization_weighted_update(
        alpha, average, response, self.form.infoset_reach(player, average),
        self.form.infoset_reach(player, response))

  def average_policy(self):
    """The average strategy profile as an OpenSpiel `TabularPolicy`."""
    return self.form.to_tabular(self.strategies)

  def policy(self):
    """The average profile as a light OpenSpiel policy over the arrays."""
    return sequence_form.SequenceFormPolicy(self.form, self.strategies)

  def average_policy_tables(self):
    """Per player, {information state string: {action: probability}} of the
    average strategy, as OpenSpiel's `XFPSolver.average_policy_tables()`."""
    tabular = self.average_policy()
    tables = [{} for _ in range(self.game.num_players())]
    for state in tabular.states:
      key = state.information_state_string()
      row = tabular.policy_for_key(key)
      tables[state.current_player()][key] = {
          action: float(row[action]) for action in state.legal_actions()}
    return tables

  def get_empirical_metagame(self, sims_per_entry, seed=None):
    """The meta-game of the oracles kept with `save_oracles=True`.

    Args:
      sims_per_entry: episodes per entry in OpenSpiel's XFPSolver, whose
        entries are sampled averages; here they are the expected returns
        themselves, computed on the arrays, so no episodes are played.
      seed: seeds OpenSpiel's sampling; unused for the same reason.

    Returns:
      Per player, a K x ... x K array (one axis per player) whose
      [i, j, ...] is that player's expected return when player 0 plays its
      oracle i, player 1 its oracle j, ... (oracle 0: the initial strategy;
      oracle k: iteration k's response).
    """
    del sims_per_entry, seed  # exact expectations need no samples
    if self.oracles is None:
      raise ValueError("no oracles kept: create the solver with "
                       "XFPSolver(game, save_oracles=True)")
    shape = tuple(len(oracles) for oracles in self.oracles)
    values = np.zeros((len(self.players),) + shape)
    for entry in itertools.product(*map(range, shape)):
      profile = [oracles[i] for oracles, i in zip(self.oracles, entry)]
      for p in self.players:
        values[(p,) + entry] = self.form.player_value(profile, p)
    return list(values)

  def checkpoint_header(self):
    """What this solver's checkpoints hold: XFP, the game, the config."""
    return checkpoints.header("XFP", self.game, self.config)

  def save(self, path, progress=None):
    """Checkpoints the run (average strategies, iteration, RNG) to `path`,
    with a training run's `progress` (`run_directory`) beside it."""
    return checkpoints.save(path, self.checkpoint_header(), self._rng,
                            progress, iterations=self.iterations,
                            **{f"strategy{p}": self.strategies[p]
                               for p in self.players})

  @classmethod
  def restore(cls, game, path, config=None, **overrides):
    """A solver resumed from `save`'s checkpoint; one of another algorithm,
    game or config raises `checkpoints.CheckpointError`."""
    solver = cls(game, config, **overrides)
    data = checkpoints.load(path, solver.checkpoint_header(), solver._rng)  # pylint: disable=protected-access
    checkpoints.check_shapes(path, data, {
        f"strategy{p}": solver.strategies[p] for p in solver.players})
    solver.strategies = [data[f"strategy{p}"] for p in solver.players]
    solver.iterations = int(data["iterations"])
    return solver
