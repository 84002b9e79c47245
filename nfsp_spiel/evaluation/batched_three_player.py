"""Three-player Limit Hold'em matches (`nfsp_lhe3`), many deals at once.

`matches.three_player_match` plays one policy against two copies of another,
each deal three times with the player in each seat, one OpenSpiel state at a
time: about 500 deals a second between greedy profiles, so the 1-2 million
deals that errors of 1 mbb/h (thesis table 3.3's) need would take an hour. Here
all of a chunk's games advance together: the betting is played on arrays by
`trees.three_player_betting` (the rules the Smooth UCT search plays, checked
against the game), and each side answers the decisions of every game where
it acts in one call, `batch_action_probabilities(ThreePlayerDecisions)`.

The match is the one `three_player_match` plays (a test checks it deal by
deal): deal i's cards come from `np.random.default_rng([seed, 1, i])` as
`batched_matches.deal_cards` deals them, and the k-th decision of the game
with the player in seat s takes the k-th uniform of
`np.random.default_rng([seed, 2, i, s])` through the inverse CDF of the
acting policy's probabilities in action order.
"""

import dataclasses

import numba
import numpy as np

from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.games import nfsp_lhe
from nfsp_spiel.trees import three_player_betting as betting

NUM_PLAYERS = betting.NUM_PLAYERS
NUM_ACTIONS = batched_matches.NUM_ACTIONS
# The betting block of `nfsp_lhe3`'s tensor: [player][round][raises so far
# in the round][fold, call, raise] (games/nfsp_lhe3.py).
_RAISE_SLOTS = max(nfsp_lhe.MAX_RAISES) + 1
_BETTING_WIDTH = NUM_PLAYERS * nfsp_lhe.NUM_ROUNDS * _RAISE_SLOTS * NUM_ACTIONS
CHUNK_DEALS = 20_000  # deals played together: ~100 MB of uniforms and state


@dataclasses.dataclass(frozen=True)
class ThreePlayerDecisions(batched_matches.DecisionRows):
  """n decision points of `nfsp_lhe3` games: what a batched policy sees.

  Attributes:
    betting: (n,) uint64, the betting so far as
      `three_player_betting.betting_hash` names it.
    betting_ones: (n, 180) bool, the betting part of the information-state
      tensor (every player's actions so far by round and raises).
    player: (n,) the acting player (0 small blind, 1 big blind, 2 button).
    round: (n,) betting round, 0 preflop ... 3 river.
    hole: (n, 2) the acting player's hole cards.
    board: (n, 5) the deal's whole board; round r shows its first
      `nfsp_lhe.BOARD_CARDS[r]` cards and a policy must not read the rest.
    legal: (n, 3) bool, the legal actions (fold, call, raise).
  """
  betting: np.ndarray
  betting_ones: np.ndarray
  player: np.ndarray
  round: np.ndarray
  hole: np.ndarray
  board: np.ndarray
  legal: np.ndarray

  def describe(self, row):
    """Where decision `row` is, for error messages."""
    return (f"player {self.player[row]}'s decision in round "
            f"{self.round[row]} (betting hash {self.betting[row]})")

  def betting_part(self):
    """(n, 180) the betting part of the information-state tensors."""
    return self.betting_ones


@numba.njit(cache=True)
def _begin(chips, active, bet, history):
  for g in range(len(history)):
    betting.begin(chips[g], active[g], bet[g])
    history[g] = betting.EMPTY_BETTING


@numba.njit(cache=True)
def _legal_masks(games, chips, bet):
  masks = np.zeros((len(games), NUM_ACTIONS), np.bool_)
  legal = np.empty(NUM_ACTIONS, np.int64)
  for i in range(len(games)):
    for j in range(betting.legal_actions(chips[games[i]], bet[games[i]],
                                         legal)):
      masks[i, legal[j]] = True
  return masks


@numba.njit(cache=True)
def _advance(games, actions, chips, active, bet, history, ones):
  """Plays actions[i] in game games[i]: its chips, counters, betting hash
  and tensor slot."""
  for i in range(len(games)):
    g, action = games[i], actions[i]
    slot = ((bet[g, betting.PLAYER] * nfsp_lhe.NUM_ROUNDS +
             bet[g, betting.ROUND]) * _RAISE_SLOTS + bet[g, betting.RAISES])
    ones[g, slot * NUM_ACTIONS + action] = True
    history[g] = betting.mix(history[g], action)
    betting.apply(action, chips[g], active[g], bet[g])


@numba.njit(cache=True)
def _chips_won(cards, deal, chips, active, bet):
  """(games, 3): each player's chips won in each game."""
  won = np.empty((len(deal), NUM_PLAYERS))
  ranks = np.empty(NUM_PLAYERS, np.int64)
  for g in range(len(deal)):
    betting.returns(cards[deal[g]], chips[g], active[g], bet[g], ranks,
                    won[g])
  return won


def _play_chunk(player, opponent, first_deal, num_deals, seed):
  """Scores of deals first_deal ... first_deal + num_deals - 1."""
  cards = batched_matches.deal_cards(num_deals, seed, betting.CARDS_PER_DEAL,
                                     first=first_deal)
  deal = np.repeat(np.arange(num_deals), NUM_PLAYERS)  # game g: deal g // 3,
  seat = np.tile(np.arange(NUM_PLAYERS), num_deals)  # `player` in seat g % 3
  uniforms = np.array([np.random.default_rng(
      [seed, 2, first_deal + d, s]).random(betting.MAX_DECISIONS)
                       for d, s in zip(deal, seat)]).reshape(
                           len(deal), betting.MAX_DECISIONS)
  games = len(deal)
  chips = np.empty((games, NUM_PLAYERS))
  active = np.empty((games, NUM_PLAYERS), np.bool_)
  bet = np.empty((games, betting.COUNTERS), np.int64)
  history = np.empty(games, np.uint64)
  ones = np.zeros((games, _BETTING_WIDTH), np.bool_)
  _begin(chips, active, bet, history)
  step = np.zeros(games, np.int64)
  playing = np.arange(games)
  while playing.size:
    acting = bet[playing, betting.PLAYER]
    holes = 2 * acting[:, None] + np.arange(2)
    decisions = ThreePlayerDecisions(
        history[playing], ones[playing], acting, bet[playing, betting.ROUND],
        np.take_along_axis(cards[deal[playing]], holes, axis=1),
        cards[deal[playing], 2 * NUM_PLAYERS:],
        _legal_masks(playing, chips, bet))
    probs = np.empty((len(playing), NUM_ACTIONS))
    mine = acting == seat[playing]
    for side, policy, rows in (("player", player, mine),
                               ("opponent", opponent, ~mine)):
      if rows.any():
        subset = decisions.rows(rows)
        probs[rows] = batched_matches.checked(
            policy.batch_action_probabilities(subset), subset, side)
    actions = batched_matches.sample(probs, uniforms[playing, step[playing]])
    _advance(playing, actions, chips, active, bet, history, ones)
    step[playing] += 1
    playing = playing[bet[playing, betting.OVER] == 0]
  won = _chips_won(cards, deal, chips, active, bet)[np.arange(games), seat]
  won = won.reshape(num_deals, NUM_PLAYERS) / NUM_PLAYERS
  # Summed seat by seat, in the order `three_player_match` adds them.
  return (won[:, 0] + won[:, 1]) + won[:, 2]


def play(player, opponent, num_deals, seed=0):
  """`player`'s chips won per deal against two copies of `opponent` (both
  answering `ThreePlayerDecisions`), each deal played with `player` in
  each seat: (num_deals,) mean chips per game."""
  return np.concatenate([
      _play_chunk(player, opponent, first, min(CHUNK_DEALS, num_deals - first),
                  seed) for first in range(0, num_deals, CHUNK_DEALS)])
