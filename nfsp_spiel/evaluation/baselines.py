"""Fixed-strategy baselines for the hold'em games (`nfsp_lhe`, `river_poker`).

OpenSpiel policies, so `head_to_head`, `local_best_response` and OpenSpiel's
own tools take them (`bots` wraps any policy as one `pyspiel.Bot` per seat):

* `AlwaysCall`, `AlwaysRaise` (calls once raising is capped), `AlwaysFold`
  (checks when it may; it loses its blind in both seats against a raiser,
  750 mbb/h in LHE), and OpenSpiel's `UniformRandomPolicy`.
* `EquityThreshold`: raises when its check-down equity against a uniformly
  random holding is at least `raise_at`, calls when the equity covers the pot
  odds (asked / (pot + asked)), else folds (checks when free). Equity is exact
  from the flop on, looked up in `poker.equity_tables` (built in about a
  minute on first use, then cached on disk), and preflop a mean over
  `runouts` random boards, cached per holding class (169).
"""

import functools

import numpy as np
from open_spiel.python import policy as policy_lib
from open_spiel.python.bots import policy as policy_bot

from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.games import cards
from nfsp_spiel.games import nfsp_lhe
from nfsp_spiel.poker import equity_tables
from nfsp_spiel.poker import hand_ranks
from nfsp_spiel.games import poker

HOLDEM_GAMES = ("nfsp_lhe", "river_poker", "nfsp_lhe3")


def check_holdem(game, what):
  name = game.get_type().short_name
  if name not in HOLDEM_GAMES:
    raise ValueError(f"{what} plays the hold'em games {HOLDEM_GAMES}, not "
                     f"{game}")


class _Fixed(policy_lib.Policy):
  """Plays `ACTION` where it is legal, else checks or calls: the same at
  every holding."""
  ignores_private_cards = True  # LBR asks once per decision, not per holding

  def __init__(self, game):
    check_holdem(game, type(self).__name__)
    super().__init__(game, list(range(game.num_players())))

  def action_probabilities(self, state, player_id=None):
    legal = state.legal_actions()
    return {self.ACTION if self.ACTION in legal else poker.CALL: 1.0}

  def batch_action_probabilities(self, decisions):
    """(n, 3) for `batched_matches`: the same choice at every row."""
    return batched_matches.fixed_probabilities(decisions, self.ACTION)


class AlwaysCall(_Fixed):
  """Checks or calls."""
  ACTION = poker.CALL


class AlwaysRaise(_Fixed):
  """Bets or raises; calls when the raises are capped."""
  ACTION = poker.RAISE


class AlwaysFold(_Fixed):
  """Folds to a bet, checks otherwise."""
  ACTION = poker.FOLD


@functools.lru_cache(maxsize=None)
def _preflop_equity(high, low, suited, runouts):
  """Equity of a holding class (169 of them) against a random holding."""
  hole = [high * 4, low * 4 + (0 if suited else 1)]
  scores = hand_ranks.checkdown_scores(hole, [], cards.holdings(range(52)),
                                       samples=runouts, seed=high * 13 + low)
  return float(np.nanmean(scores))


def equity_against_uniform(hole, board, runouts=2000, tables=None):
  """Check-down equity of `hole` on `board` against a uniformly random
  holding: exact from the flop on (`equity_tables`, or `tables` of theirs),
  sampled preflop."""
  if not len(board):
    high, low = sorted((hole[0] // 4, hole[1] // 4), reverse=True)
    return _preflop_equity(high, low, hole[0] % 4 == hole[1] % 4, runouts)
  return float(equity_tables.postflop_equities(
      [hole], [board], [len(board)], tables)[0])


def decision_equities(decisions, runouts=2000, tables=None):
  """(n,) the acting player's equity against a uniformly random holding at
  each of `batched_matches` `decisions` (the board its round shows)
  (`holding_equities`)."""
  return holding_equities(decisions.hole, decisions.board,
                          np.asarray(nfsp_lhe.BOARD_CARDS)[decisions.round],
                          runouts, tables)


def holding_equities(holes, boards, num_board, runouts=2000, tables=None):
  """(n,) the equity against a uniformly random holding of each row's
  `holes` (n, 2) on the first `num_board` (n,: 0, 3, 4 or 5) cards of its
  `boards` (n, 5): postflop from `equity_tables` (`tables`, default the
  cached ones), preflop from `runouts` sampled run-outs
  (`equity_against_uniform`)."""
  holes, num_board = np.asarray(holes), np.asarray(num_board)
  equities = np.empty(len(num_board))
  postflop = num_board > 0
  if postflop.any():
    equities[postflop] = equity_tables.postflop_equities(
        holes[postflop], np.asarray(boards)[postflop], num_board[postflop],
        tables)
  for row in np.flatnonzero(~postflop):
    equities[row] = equity_against_uniform(holes[row].tolist(), [], runouts)
  return equities


class EquityThreshold(policy_lib.Policy):
  """Equity against a random holding decides; see the module docstring."""

  def __init__(self, game, raise_at=0.6, runouts=2000, tables=None):
    """`tables`: `equity_tables.Tables` (default: the cached ones, built on
    first use)."""
    check_holdem(game, "EquityThreshold")
    if game.num_players() != 2:
      raise ValueError(f"EquityThreshold plays heads-up (pot odds against "
                       f"one opponent), not {game}")
    if not 0.0 <= raise_at <= 1.0:
      raise ValueError(f"raise_at={raise_at}: an equity from 0 to 1")
    if runouts < 1:
      raise ValueError(f"runouts={runouts}: at least 1 sampled run-out")
    super().__init__(game, [0, 1])
    self.raise_at, self.runouts, self.tables = raise_at, runouts, tables

  def action_probabilities(self, state, player_id=None):
    player = state.current_player() if player_id is None else player_id
    equity = equity_against_uniform(state.hole_cards(player),
                                    state.board_cards(), self.runouts,
                                    self.tables)
    can_raise = poker.RAISE in state.legal_actions(player)
    spent = np.array([state.contributions()])
    return {int(self._choose(np.array([equity]), spent, np.array([player]),
                             np.array([can_raise]))[0]): 1.0}

  def batch_action_probabilities(self, decisions):
    """(n, 3) for `batched_matches`: the same rule on every row."""
    equities = decision_equities(decisions, self.runouts, self.tables)
    choices = self._choose(equities, decisions.contributions(),
                           decisions.player, decisions.legal[:, poker.RAISE] > 0)
    probs = np.zeros(decisions.legal.shape)
    probs[np.arange(len(choices)), choices] = 1.0
    return probs

  def _choose(self, equity, spent, player, can_raise):
    """Per row: raise at `raise_at` equity, call when the equity covers the
    pot odds, else fold (check when nothing is asked)."""
    rows = np.arange(len(player))
    asked = spent[rows, 1 - player] - spent[rows, player]
    with np.errstate(invalid="ignore", divide="ignore"):
      covered = equity >= asked / (spent.sum(axis=1) + asked)
    return np.where(can_raise & (equity >= self.raise_at), poker.RAISE,
                    np.where((asked <= 0) | covered, poker.CALL, poker.FOLD))


def bots(game, policy, seed=0):
  """{seat: pyspiel.Bot} playing `policy` (OpenSpiel's PolicyBot)."""
  return {seat: policy_bot.PolicyBot(seat, np.random.RandomState(seed + seat),
                                     policy) for seat in (0, 1)}
