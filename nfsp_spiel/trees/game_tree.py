"""An OpenSpiel game's histories walked once into arrays: the one compiled
game tree that this package's full-width and tree-search code builds on.

* `sequence_form.SequenceForm` reads its information states, legal actions,
  terminal utilities and chance probabilities (and each player's previous own
  move along the parent links);
* `smooth_uct.SmoothUCT` simulates on its node arrays in a numba kernel;
* `batched_games.TreeGames` steps many games on it (renumbered: see there);
* the poker searches' own trees (`trees.betting_tree.BettingTree`,
  `public_tree`) are other structures, the betting alone or public nodes x
  private hands, and share its sentinels (`player_of`).

Nodes are numbered in the pre-order of a depth-first walk that takes each
node's children last to first (the walk `SequenceForm` has always made:
information states and terminals keep the numbers that checkpoints hold), so
a parent's id is below its children's. Per node: `player` (a player id,
`CHANCE` or `TERMINAL`), `parent` (-1 at the root), `action` (the action or
chance outcome leading to it from the parent, -1 at the root), `probability`
(the chance probability of that outcome, 1 after a decision), `reach` (the
product of the chance probabilities from the root), `returns` (every
player's, zero above the terminals), `pot` (the sum of `contributions()`
where the game's states have it, else NaN) and `infoset`: the acting
player's information state, numbered per player in first-visit order (-1 at
chance and terminal nodes). A node's children are consecutive in `children`
from `child_start[node]`, `num_children[node]` of them, in the order of
`legal_actions()` or `chance_outcomes()`.

Per player p and information state i: `keys[p][i]` (the information-state
string), `states[p][i]` (its first state in the walk) and `first_node[p][i]`; `offset` numbers them over all players.
Importing this module loads no TensorFlow.
"""

import numpy as np
import pyspiel

# The sentinels of `player`, for every compiled tree in this package.
CHANCE = int(pyspiel.PlayerId.CHANCE)  # -1, OpenSpiel's
TERMINAL = -2  # not OpenSpiel's -4: so that arrays of players fit an int8


class TooLarge(ValueError):
  """The game has more histories than a compiled tree may hold."""


def player_of(state):
  """`state`'s entry in a compiled tree's `player`: the mover, `CHANCE` or
  `TERMINAL`."""
  if state.is_terminal():
    return TERMINAL
  if state.is_chance_node():
    return CHANCE
  return state.current_player()


def more_histories_than(game, limit):
  """Whether `game` has more than `limit` histories, told without walking
  them all: breadth-first, and each state made adds its children to the
  count before any of them is made, so a game far larger than `limit` is
  told in a few thousand steps (Limit Hold'em's deals: 52 x 51 x 50 x ...;
  the full walk would make `limit` states first, seconds to minutes for a
  game written in Python)."""
  root = game.new_initial_state()
  count, level = 1 + len(_moves(root)), [root]
  while level:
    below = []
    for state in level:
      for action in _moves(state):
        child = state.child(action)
        count += len(_moves(child))
        if count > limit:
          return True
        below.append(child)
    level = below
  return False


def _moves(state):
  """The actions or chance outcomes that lead from `state` to its children."""
  if state.is_terminal():
    return []
  if state.is_chance_node():
    return [outcome for outcome, _ in state.chance_outcomes()]
  return state.legal_actions()


class GameTree:
  """A game's histories as arrays; see the module docstring.

  `max_nodes` (None: no limit) raises `TooLarge` on a larger game.
  """

  def __init__(self, game, max_nodes=None):
    self.game = game
    self.num_players = game.num_players()
    self.num_actions = game.num_distinct_actions()
    nodes = []  # per node: (parent, action, probability, reach, player,
    # information state, pot)
    child_start, num_children, children = [], [], []
    returns = {}  # terminal node -> returns
    self.keys = [[] for _ in range(self.num_players)]
    self.states = [[] for _ in range(self.num_players)]
    self.first_node = [[] for _ in range(self.num_players)]
    index = [{} for _ in range(self.num_players)]
    if max_nodes is not None and more_histories_than(game, max_nodes):
      raise TooLarge(f"{game} has more than max_nodes={max_nodes} histories")
    root = game.new_initial_state()
    has_pot = hasattr(root, "contributions")
    # (state, parent, slot among the parent's children, action, chance
    # probability, chance reach); popped last first.
    pending = [(root, -1, 0, -1, 1.0, 1.0)]
    while pending:
      state, up, slot, move, p_move, p_reach = pending.pop()
      node = len(nodes)
      if max_nodes is not None and node >= max_nodes:
        raise TooLarge(f"{game} has more than max_nodes={max_nodes} "
                       "histories")
      if up >= 0:
        children[child_start[up] + slot] = node
      pot = sum(state.contributions()) if has_pot else np.nan
      child_start.append(len(children))
      if state.is_terminal():
        nodes.append((up, move, p_move, p_reach, TERMINAL, -1, pot))
        num_children.append(0)
        returns[node] = state.returns()
        continue
      if state.is_chance_node():
        nodes.append((up, move, p_move, p_reach, CHANCE, -1, pot))
        below = [(state.child(a), node, k, a, p, p_reach * p)
                 for k, (a, p) in enumerate(state.chance_outcomes())]
      else:
        mover = state.current_player()
        key = state.information_state_string(mover)
        if key not in index[mover]:
          index[mover][key] = len(self.keys[mover])
          self.keys[mover].append(key)
          self.states[mover].append(state)
          self.first_node[mover].append(node)
        nodes.append((up, move, p_move, p_reach, mover, index[mover][key],
                      pot))
        below = [(state.child(a), node, k, a, 1.0, p_reach)
                 for k, a in enumerate(state.legal_actions())]
      num_children.append(len(below))
      children += [-1] * len(below)
      pending += below
    (parent, action, probability, reach, player, infoset, pot) = (
        zip(*nodes) if nodes else ((),) * 7)
    self.player = np.array(player, np.int64)
    self.parent = np.array(parent, np.int64)
    self.action = np.array(action, np.int64)
    self.probability = np.array(probability, np.float64)
    self.reach = np.array(reach, np.float64)
    self.returns = np.zeros((len(nodes), self.num_players))
    if returns:
      self.returns[list(returns)] = list(returns.values())
    self.pot = np.array(pot, np.float64)
    self.infoset = np.array(infoset, np.int64)
    self.child_start = np.array(child_start, np.int64)
    self.num_children = np.array(num_children, np.int64)
    self.children = np.array(children, np.int64)
    self.first_node = [np.array(f, np.int64) for f in self.first_node]
    self.num_infosets = [len(k) for k in self.keys]
    # Player p's information state i is row offset[p] + i of a numbering
    # over all players (tables over every information state).
    self.offset = tuple(int(x) for x in np.cumsum([0] + self.num_infosets[:-1]))
    self.num_nodes = len(nodes)

  def children_of(self, node):
    """The ids of `node`'s children, in action (outcome) order."""
    first = self.child_start[node]
    return self.children[first:first + self.num_children[node]]

  def infoset_rows(self):
    """Per node, the acting player's information state in the numbering over
    all players (`offset`), -1 at chance and terminal nodes."""
    rows = np.full(self.num_nodes, -1, np.int64)
    acting = self.infoset >= 0
    rows[acting] = np.take(self.offset, self.player[acting]) + (
        self.infoset[acting])
    return rows

  def chance_cumulative(self):
    """Per child slot (as `children`): the cumulative chance probability of
    the outcomes up to it at chance nodes (np.cumsum of each node's), 0 at
    decision nodes."""
    cumulative = np.zeros(len(self.children))
    for node in np.flatnonzero(self.player == CHANCE):
      first, n = self.child_start[node], self.num_children[node]
      cumulative[first:first + n] = np.cumsum(
          self.probability[self.children[first:first + n]])
    return cumulative

  def legal_actions(self, player):
    """Per information state of `player`, its legal actions (an array)."""
    return [self.action[self.children_of(node)]
            for node in self.first_node[player]]

  def information_state_tensors(self, player, tensor_of=None):
    """The tensors of `player`'s information states, one row each, from
    their first states: `tensor_of(state, player)`, by default
    `state.information_state_tensor(player)`. Computed on each call."""
    tensor_of = tensor_of or (
        lambda state, p: state.information_state_tensor(p))
    return np.array([tensor_of(state, player)
                     for state in self.states[player]], np.float32)

  def last_moves(self):
    """Per node, each player's last own (information state, action) above
    it, (-1, -1) for none: a list of tuples of pairs (parents have lower
    ids, so one pass in id order)."""
    none = ((-1, -1),) * self.num_players
    player, infoset = self.player.tolist(), self.infoset.tolist()
    parent, action = self.parent.tolist(), self.action.tolist()
    last = [none] * self.num_nodes
    for node in range(1, self.num_nodes):
      up = parent[node]
      mover = player[up]
      if mover >= 0:
        moves = list(last[up])
        moves[mover] = (infoset[up], action[node])
        last[node] = tuple(moves)
      else:
        last[node] = last[up]
    return last
