"""Head-to-head matches on heads-up Limit Hold'em, many deals at once.

`matches.head_to_head` plays one OpenSpiel state at a time: per decision a
state copy, a policy call, a Python dict. On `nfsp_lhe` that costs about a
quarter of a second per duplicate deal against the SmooCT-like profile, an
hour for the paper's 25,000 hands. Here all the match's games advance
together through the betting (`trees.betting_tree.BettingTree`: a node and
the deal's cards are the whole state), and each side answers, per step, the
decisions of every game where it acts in one call,
`batch_action_probabilities(Decisions)`: one forward pass of a network over
all of them, one vectorised table look-up for a greedy profile.

The match is the same one `head_to_head` plays (a test checks it deal by
deal): deal i's cards are the ones `head_to_head`'s chance stream deals
(`np.random.default_rng([seed, 1, i])`, one uniform per card, the remaining
cards in ascending order), each deal is played in both seatings, and the
k-th decision of the game of deal i in seating s takes the k-th uniform of
`np.random.default_rng([seed, 2, i, s])` through the inverse CDF of the
policy's probabilities in action order.
"""

import dataclasses
import functools
from typing import Protocol

import numba
import numpy as np

from nfsp_spiel.games import nfsp_lhe
from nfsp_spiel.games import poker
from nfsp_spiel.poker import hand_ranks
from nfsp_spiel.trees.betting_tree import BettingTree

NUM_ACTIONS = 3  # poker.FOLD, poker.CALL, poker.RAISE
_CARDS_PER_DEAL = 9  # two hole cards each, then the flop, turn and river


@functools.lru_cache(maxsize=1)
def betting_tree():
  """The one `BettingTree` the matches walk (built once, ~0.2 s)."""
  return BettingTree()


class DecisionRows:
  """What the batches of decisions share (dataclasses of per-row arrays with
  `player`, `round`, `hole`, `board`, `legal` and a `betting_part()`)."""

  def __len__(self):
    return len(self.legal)

  def rows(self, index):
    """The decisions at `index` (a mask or indices)."""
    return dataclasses.replace(self, **{
        field.name: getattr(self, field.name)[index]
        for field in dataclasses.fields(self)
        if isinstance(getattr(self, field.name), np.ndarray)})

  def information_state_tensors(self):
    """The acting players' information-state tensors (float32; equal to
    the game's own: the tests check it)."""
    return np.concatenate(
        [nfsp_lhe.card_tensors(self.hole, self.board, self.round),
         self.betting_part().astype(np.float32)], axis=1)


@dataclasses.dataclass(frozen=True)
class Decisions(DecisionRows):
  """n decision points of `nfsp_lhe` games: what a batched policy sees.

  Attributes:
    tree: the `BettingTree` that `node` indexes.
    node: (n,) betting nodes (the betting so far).
    player: (n,) the acting player (0 is the big blind).
    round: (n,) betting round, 0 preflop ... 3 river.
    hole: (n, 2) the acting player's hole cards (card ids rank * 4 + suit).
    board: (n, 5) the deal's whole board; round r shows its first
      `nfsp_lhe.BOARD_CARDS[r]` cards and a policy must not read the rest.
    legal: (n, 3) bool, the legal actions (fold, call, raise).
  """
  tree: BettingTree
  node: np.ndarray
  player: np.ndarray
  round: np.ndarray
  hole: np.ndarray
  board: np.ndarray
  legal: np.ndarray

  def describe(self, row):
    """Where decision `row` is, for error messages."""
    return f"betting node {self.node[row]}"

  def betting_part(self):
    """(n, 80) the betting part of the information-state tensors."""
    return self.tree.betting_tensor[self.node]

  def contributions(self):
    """(n, 2) chips each player has put in (blinds included)."""
    return self.tree.contributions[self.node]


class BatchedPolicy(Protocol):
  """What `play` asks of each side (besides being an OpenSpiel policy)."""

  def batch_action_probabilities(self, decisions: Decisions) -> np.ndarray:
    """(n, 3) probabilities of fold, call and raise, zero where illegal."""


def plays_batched(policy):
  """Whether `policy` answers `Decisions` (`BatchedPolicy`)."""
  return callable(getattr(policy, "batch_action_probabilities", None))


def deal_cards(num_deals, seed, cards_per_deal=_CARDS_PER_DEAL, first=0):
  """(num_deals, cards_per_deal) cards of deals first, first + 1, ... as
  `matches` deals them with `seed`: each player's two hole cards in seat
  order, then the flop, turn and river (9 cards heads-up, 11 with three
  players)."""
  uniforms = np.array([np.random.default_rng([seed, 1, deal]).random(
      cards_per_deal) for deal in range(first, first + num_deals)]).reshape(
          num_deals, cards_per_deal)
  # `matches.chance_action`'s arithmetic, for n cards left of equal chance.
  index = np.empty(uniforms.shape, np.int64)
  for i in range(cards_per_deal):
    left = 52 - i
    cumulative = np.cumsum([1.0 / left] * left)
    index[:, i] = np.minimum(np.searchsorted(
        cumulative, uniforms[:, i] * cumulative[-1], side="right"), left - 1)
  return _cards_from_indices(index)


@numba.njit(cache=True)
def _cards_from_indices(index):
  """Each deal's cards, card i the index[i]-th of those left, ascending."""
  cards = np.empty_like(index)
  for deal in range(index.shape[0]):
    left = list(range(52))
    for i in range(index.shape[1]):
      cards[deal, i] = left.pop(index[deal, i])
  return cards


@numba.njit(cache=True)
def _showdown_signs(cards):
  """+1 where player 0's hand wins the deal's showdown, -1 loses, 0 ties."""
  signs = np.empty(cards.shape[0])
  for deal in range(cards.shape[0]):
    signs[deal] = hand_ranks.showdown_sign(cards[deal, 0:2], cards[deal, 2:4],
                                           cards[deal, 4:9])
  return signs


def _child_by_action(tree):
  """(nodes, 3): the child each action leads to, -1 where illegal."""
  child = np.full((len(tree.player), NUM_ACTIONS), -1, np.int64)
  parent = np.repeat(np.arange(len(tree.player)), tree.num_children)
  child[parent, tree.actions] = tree.children
  return child


def sample(probs, uniforms):
  """Inverse-CDF choice per row of (n, k) probabilities (in action order)
  from one uniform each; the rule `matches.head_to_head` plays by."""
  cdf = np.cumsum(probs, axis=1)
  cdf /= cdf[:, -1:]
  return np.minimum((cdf <= uniforms[:, None]).sum(axis=1), probs.shape[1] - 1)


def checked(probs, decisions, side):
  """`probs` if they are a distribution over each row's legal actions."""
  probs = np.asarray(probs, np.float64)
  if probs.shape != (len(decisions), NUM_ACTIONS):
    raise ValueError(f"{side}.batch_action_probabilities gave shape "
                     f"{probs.shape}, not ({len(decisions)}, {NUM_ACTIONS})")
  bad = ((probs < 0) | (~decisions.legal & (probs != 0))).any(axis=1) | (
      np.abs(probs.sum(axis=1) - 1.0) > 1e-6)
  if bad.any():
    row = int(np.flatnonzero(bad)[0])
    raise ValueError(f"{side}.batch_action_probabilities gave {probs[row]} "
                     f"at {decisions.describe(row)}, where the legal "
                     f"actions are {np.flatnonzero(decisions.legal[row])}")
  return probs


def play(first, second, num_deals, seed=0):
  """`first`'s returns per deal against `second` (both `BatchedPolicy`s),
  each deal played in both seatings: (num_deals,) mean chips per game."""
  deal = np.repeat(np.arange(num_deals), 2)  # game g plays deal g // 2,
  first_seat = np.tile([0, 1], num_deals)  # with `first` in seat g % 2
  # Game g's player p is policy sides[g, p] of (first, second).
  sides = np.stack([first_seat, 1 - first_seat], axis=1)
  player0 = play_games({"first": first, "second": second}, sides,
                       deal_cards(num_deals, seed), deal, first_seat, seed)
  return np.where(first_seat == 0, player0, -player0).reshape(
      num_deals, 2).mean(axis=1)


def play_profile(seats, num_deals, seed=0, stream=0):
  """Player 0's chips on each of `num_deals` deals (one game each) where
  player p plays `seats[p]`; the deals and decision uniforms are `play`'s
  for the seating `stream` (0 or 1), so two profiles played with the same
  `seed` and `stream` share every card and every uniform (common random
  numbers: their difference is far less noisy than either)."""
  return play_games({f"seats[{p}]": seat for p, seat in enumerate(seats)},
                    np.tile(np.arange(len(seats)), (num_deals, 1)),
                    deal_cards(num_deals, seed), np.arange(num_deals),
                    np.full(num_deals, stream), seed)


def play_games(policies, sides, cards, deal, stream, seed):
  """Player 0's chips in each game g, played on the cards of deal
  `deal[g]` with player p the `sides[g, p]`-th of the `policies` (name ->
  `BatchedPolicy`, the name for error messages), and its k-th
  decision taking the k-th uniform of
  `np.random.default_rng([seed, 2, deal[g], stream[g]])`."""
  tree = betting_tree()
  child_by_action = _child_by_action(tree)
  uniforms = np.array([np.random.default_rng([seed, 2, d, s]).random(
      tree.max_depth) for d, s in zip(deal, stream)]).reshape(
          len(deal), tree.max_depth)
  node = np.zeros(len(deal), np.int64)
  step = np.zeros(len(deal), np.int64)
  active = np.arange(len(deal))
  while active.size:
    at = node[active]
    player = tree.player[at]
    holes = 2 * player[:, None] + np.arange(2)
    decisions = Decisions(
        tree, at, player, tree.round[at],
        np.take_along_axis(cards[deal[active]], holes, axis=1),
        cards[deal[active], 4:], child_by_action[at] >= 0)
    probs = np.empty((len(active), NUM_ACTIONS))
    side = sides[active, player]
    for index, (name, policy) in enumerate(policies.items()):
      rows = side == index
      if rows.any():
        subset = decisions.rows(rows)
        probs[rows] = checked(policy.batch_action_probabilities(subset),
                              subset, name)
    action = sample(probs, uniforms[active, step[active]])
    node[active] = child_by_action[at, action]
    step[active] += 1
    active = active[tree.player[node[active]] >= 0]
  loser = tree.fold_loser[node]
  folded = np.where(loser == 1, tree.contributions[node, 1],
                    -tree.contributions[node, 0])
  showdown = tree.contributions[node, 0] * _showdown_signs(cards)[deal]
  return np.where(loser >= 0, folded, showdown)


def fixed_probabilities(decisions, action):
  """(n, 3): `action` where legal, else call (the fixed baselines' rule:
  raise when raising is capped calls, fold when nothing is bet checks)."""
  chosen = np.where(decisions.legal[:, action], action, poker.CALL)
  probs = np.zeros((len(decisions), NUM_ACTIONS))
  probs[np.arange(len(decisions)), chosen] = 1.0
  return probs
