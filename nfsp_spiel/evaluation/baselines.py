"""Fixed-strategy baselines for the hold'em games (`nfsp_lhe`, `river_poker`).

OpenSpiel policies, so `head_to_head`, `local_best_response` and OpenSpiel's
own tools take them (`bots` wraps any policy as one `pyspiel.Bot` per seat):

* `AlwaysCall`, `AlwaysRaise` (calls once raising is capped), `AlwaysFold`
  (checks when it may; it loses its blind in both seats against a raiser,
  750 mbb/h in LHE), and OpenSpiel's `UniformRandomPolicy`.
* `EquityThreshold`: raises when its check-down equity against a uniformly
  random holding is at least `raise_at`, calls when the equity covers the pot
  odds (asked / (pot + asked)), else folds (checks when free). Equity is exact
  from the flop on (`hand_ranks.checkdown_scores`), and preflop a mean over
  `runouts` random boards, cached per holding class (169).
"""

import functools

import numpy as np
from open_spiel.python import policy as policy_lib
from open_spiel.python.bots import policy as policy_bot

from nfsp_spiel.games import cards
from nfsp_spiel.poker import hand_ranks
from nfsp_spiel.games import poker

HOLDEM_GAMES = ("nfsp_lhe", "river_poker")


def check_holdem(game, what):
  name = game.get_type().short_name
  if name not in HOLDEM_GAMES:
    raise ValueError(f"{what} plays the hold'em games {HOLDEM_GAMES}, not "
                     f"{game}")


class _Fixed(policy_lib.Policy):
  """Plays by the legal actions alone: the same at every holding."""
  ignores_private_cards = True  # LBR asks once per decision, not per holding

  def __init__(self, game):
    check_holdem(game, type(self).__name__)
    super().__init__(game, [0, 1])

  def action_probabilities(self, state, player_id=None):
    legal = state.legal_actions()
    return {self._choose(legal): 1.0}


class AlwaysCall(_Fixed):
  """Checks or calls."""

  @staticmethod
  def _choose(legal):
    return poker.CALL


class AlwaysRaise(_Fixed):
  """Bets or raises; calls when the raises are capped."""

  @staticmethod
  def _choose(legal):
    return poker.RAISE if poker.RAISE in legal else poker.CALL


class AlwaysFold(_Fixed):
  """Folds to a bet, checks otherwise."""

  @staticmethod
  def _choose(legal):
    return poker.FOLD if poker.FOLD in legal else poker.CALL


@functools.lru_cache(maxsize=None)
def _preflop_equity(high, low, suited, runouts):
  """Equity of a holding class (169 of them) against a random holding."""
  hole = [high * 4, low * 4 + (0 if suited else 1)]
  scores = hand_ranks.checkdown_scores(hole, [], cards.holdings(range(52)),
                                       samples=runouts, seed=high * 13 + low)
  return float(np.nanmean(scores))


def equity_against_uniform(hole, board, runouts=2000):
  """Check-down equity of `hole` on `board` against a uniformly random
  holding: exact from the flop on, sampled preflop."""
  if not board:
    high, low = sorted((hole[0] // 4, hole[1] // 4), reverse=True)
    return _preflop_equity(high, low, hole[0] % 4 == hole[1] % 4, runouts)
  return float(np.nanmean(hand_ranks.checkdown_scores(
      hole, board, cards.holdings(range(52)))))


class EquityThreshold(policy_lib.Policy):
  """Equity against a random holding decides; see the module docstring."""

  def __init__(self, game, raise_at=0.6, runouts=2000):
    check_holdem(game, "EquityThreshold")
    if not 0.0 <= raise_at <= 1.0:
      raise ValueError(f"raise_at={raise_at}: an equity from 0 to 1")
    if runouts < 1:
      raise ValueError(f"runouts={runouts}: at least 1 sampled run-out")
    super().__init__(game, [0, 1])
    self.raise_at, self.runouts = raise_at, runouts

  def action_probabilities(self, state, player_id=None):
    player = state.current_player() if player_id is None else player_id
    legal = state.legal_actions(player)
    equity = equity_against_uniform(state.hole_cards(player),
                                    state.board_cards(), self.runouts)
    spent = state.contributions()
    asked = spent[1 - player] - spent[player]
    if poker.RAISE in legal and equity >= self.raise_at:
      return {poker.RAISE: 1.0}
    if asked <= 0 or equity >= asked / (sum(spent) + asked):
      return {poker.CALL: 1.0}
    return {poker.FOLD: 1.0}


def bots(game, policy, seed=0):
  """{seat: pyspiel.Bot} playing `policy` (OpenSpiel's PolicyBot)."""
  return {seat: policy_bot.PolicyBot(seat, np.random.RandomState(seed + seat),
                                     policy) for seat in (0, 1)}
