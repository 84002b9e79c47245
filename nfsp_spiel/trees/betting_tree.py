"""The betting of heads-up Limit Hold'em (`nfsp_lhe`'s rules) as arrays.

Without the cards, the betting is a small tree (16,584 nodes: 6,378
decisions, 10,206 terminals), which the searches and the batched matches walk
instead of OpenSpiel states: a deal's cards and a node say everything about a
state (its player, legal actions, pot, payoff at a terminal, the betting part
of its information-state tensor).
"""

import collections
import functools

import numpy as np

from nfsp_spiel.games import nfsp_lhe
from nfsp_spiel.games import poker
from nfsp_spiel.trees import game_tree

_FOLD, _CALL, _RAISE = poker.FOLD, poker.CALL, poker.RAISE
_TERMINAL = game_tree.TERMINAL


class BettingTree:
  """The betting of heads-up limit hold'em as arrays, breadth first.

  Per node: `player` (0, 1, or `game_tree.TERMINAL`), `round` (0 preflop ... 3
  river), `raises` (raises so far in the round), `contributions` (chips,
  blinds included), `fold_loser` (the player who folded, else -1); a
  decision node's children are consecutive in `children` from
  `child_start`, `actions` the OpenSpiel action of each. `node_of` maps a
  betting sequence (a tuple of actions) to its node. Given `num_buckets`
  per round (a card abstraction's), a decision node's information states
  are numbered `offset[node] + bucket`, `num_infosets` in all. Compiled from
  `nfsp_lhe`'s rule constants; `smooth_uct.lhe` searches it and
  `evaluation.batched_matches` plays many deals through it at once.
  """

  def __init__(self, num_buckets=None):
    player, round_, contributions, fold_loser, raised = [], [], [], [], []
    child_start, num_children, children, actions = [], [], [], []
    self.node_of = {}
    # (betting so far, round, contributions, raises this round, to act,
    # actions this round, folded by)
    pending = collections.deque([((), 0, nfsp_lhe.BLINDS, 0,
                                   nfsp_lhe.FIRST_PLAYER[0], 0, -1)])
    while pending:
      betting, r, chips, raises, p, acted, folded = pending.popleft()
      node = len(player)
      self.node_of[betting] = node
      round_.append(r)
      raised.append(raises)
      contributions.append(chips)
      fold_loser.append(folded)
      child_start.append(len(children))
      if folded >= 0 or p == _TERMINAL:
        player.append(_TERMINAL)
        num_children.append(0)
        continue
      player.append(p)
      legal = [_CALL] + [_RAISE] * (raises < nfsp_lhe.MAX_RAISES[r])
      if chips[p] < max(chips):
        legal.insert(0, _FOLD)  # folding is legal only facing a bet
      num_children.append(len(legal))
      for action in legal:
        children.append(-1)  # set when the child is numbered
        actions.append(action)
        pending.append(self._child(betting, r, chips, raises, p, acted,
                                   action))
    self.player = np.array(player, np.int64)
    self.round = np.array(round_, np.int64)
    self.raises = np.array(raised, np.int64)
    self.contributions = np.array(contributions, np.float64)
    self.fold_loser = np.array(fold_loser, np.int64)
    self.child_start = np.array(child_start, np.int64)
    self.num_children = np.array(num_children, np.int64)
    self.actions = np.array(actions, np.int64)
    for betting, node in self.node_of.items():  # children follow parents
      if betting:
        parent = self.node_of[betting[:-1]]
        slot = np.flatnonzero(self.actions[
            self.child_start[parent]:self.child_start[parent] +
            self.num_children[parent]] == betting[-1])[0]
        children[self.child_start[parent] + slot] = node
    self.children = np.array(children, np.int64)
    self.offset = self.num_infosets = None
    if num_buckets is not None:
      sizes = np.where(self.player >= 0, np.take(num_buckets, self.round), 0)
      self.offset = np.concatenate([[0], np.cumsum(sizes)[:-1]])
      self.num_infosets = int(sizes.sum())
    self.max_depth = max(len(b) for b in self.node_of) + 1

  @staticmethod
  def _child(betting, r, chips, raises, p, acted, action):
    """The pending entry of the node after `action`."""
    betting = betting + (action,)
    if action == _FOLD:
      return betting, r, chips, raises, p, acted, p
    chips = list(chips)
    if action == _RAISE:
      chips[p] = max(chips) + nfsp_lhe.RAISE_SIZES[r]
      return betting, r, tuple(chips), raises + 1, 1 - p, acted + 1, -1
    chips[p] = max(chips)
    if acted + 1 < 2:  # the other player has not acted this round
      return betting, r, tuple(chips), raises, 1 - p, acted + 1, -1
    if r == nfsp_lhe.NUM_ROUNDS - 1:
      return betting, r, tuple(chips), raises, _TERMINAL, acted + 1, -1
    return betting, r + 1, tuple(chips), 0, nfsp_lhe.FIRST_PLAYER[r + 1], 0, -1

  def parents(self):
    """Each node's parent (-1 at the root): children follow parents."""
    parent = np.full(len(self.player), -1, np.int64)
    parent[self.children] = np.repeat(np.arange(len(self.player)),
                                      self.num_children)
    return parent

  @functools.cached_property
  def betting_tensor(self):
    """(nodes, 80) uint8: the betting part of `nfsp_lhe`'s information-state
    tensor at each node ([player][round][raises so far][call, raise], a
    fold has no slot), the same for both players."""
    size = nfsp_lhe.TENSOR_SIZE - nfsp_lhe.BETTING_OFFSET
    ones = np.zeros((len(self.player), size), np.uint8)
    parent = self.parents()
    action = np.full(len(self.player), -1, np.int64)
    action[self.children] = self.actions
    for node in range(1, len(self.player)):  # parents first
      up = parent[node]
      ones[node] = ones[up]
      if action[node] != poker.FOLD:
        ones[node, poker.betting_index(
            self.player[up], self.round[up], self.raises[up], action[node],
            nfsp_lhe.NUM_ROUNDS, max(nfsp_lhe.MAX_RAISES))] = 1
    return ones
