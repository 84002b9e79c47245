"""Many games of one OpenSpiel game stepped at once, for batched self-play
(`nfsp_spiel.nfsp.selfplay`).

* `TreeGames`: a game small enough to enumerate (Kuhn, Leduc: 9457 histories)
  is compiled once (`game_tree.GameTree`) into arrays (children, players,
  legal masks, chance distributions, returns, information-state tensors), so
  stepping all games is a handful of numpy indexing operations;
* `StateGames`: any other game (River poker, Limit Hold'em) as pyspiel states
  stepped in a Python loop, reading `state.info_state_ones(player)` where the
  game has it (this package's games) instead of building full tensors.
"""

import collections
import json

import numpy as np
import pyspiel

from nfsp_spiel.trees import game_tensors
from nfsp_spiel.trees import game_tree

# The sentinels of every compiled tree (`game_tree`), re-exported for the
# driver.
CHANCE = game_tree.CHANCE
TERMINAL = game_tree.TERMINAL
TooLarge = game_tree.TooLarge
_player = game_tree.player_of


def _check_game(game):
  game_type = game.get_type()
  if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
    raise ValueError(f"{game} is not a sequential game: the self-play driver "
                     "plays turn-based games")
  game_tensors.information_state_size(game)


class CompiledTree:
  """The arrays of a game's tree (`game_tree.GameTree`), read only.

  A node id is the tree's renumbered in the pre-order of the walk that
  takes children in action order (the ids that `TreeGames`' checkpoints
  have always held); per node, `player`, `legal` (a mask),
  `child[node, action]`, `chance_child` and `chance_cumulative` per chance
  outcome, `returns`, and `tensor_row`, the row of the mover's
  information-state tensor in `tensors`.
  """

  def __init__(self, tree, observation):
    count, num_actions = tree.num_nodes, tree.num_actions
    # This class' ids: the first child of a node is node + 1 and each next
    # sibling follows the previous sibling's subtree.
    order, pending = [], [0]
    child_start, num_children = tree.child_start.tolist(), (
        tree.num_children.tolist())
    children = tree.children.tolist()
    while pending:
      node = pending.pop()
      order.append(node)
      first = child_start[node]
      pending += children[first:first + num_children[node]][::-1]
    order = np.array(order, np.int64)  # this class' id -> the tree's
    new = np.empty(count, np.int64)
    new[order] = np.arange(count)
    self.player = tree.player[order]
    self.returns = tree.returns[order]
    size = game_tensors.information_state_size(tree.game)
    self.tensors = np.concatenate([tree.information_state_tensors(
        p, lambda state, p: game_tensors.state_tensor(state, p, observation)
    ).reshape(tree.num_infosets[p], size) for p in range(tree.num_players)])
    # The rows in the order of their first visit in this class' walk (as
    # the tensors were always laid out).
    rows, acting = tree.infoset_rows(), tree.player >= 0
    first = np.full(len(self.tensors), count, np.int64)
    np.minimum.at(first, rows[acting], new[acting])
    order = np.argsort(first, kind="stable")
    self.tensors = self.tensors[order]
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    self.tensor_row = np.full(count, -1, np.int64)
    self.tensor_row[new[acting]] = rank[rows[acting]]
    # The edges: a child's parent, the action to it and its slot among the
    # parent's children.
    below = tree.children
    above = np.repeat(np.arange(count), tree.num_children)
    slot = np.arange(len(below)) - tree.child_start[above]
    decision = tree.player[above] >= 0
    self.legal = np.zeros((count, num_actions), np.float32)
    self.child = np.full((count, num_actions), -1, np.int64)
    self.legal[new[above[decision]], tree.action[below[decision]]] = 1.0
    self.child[new[above[decision]], tree.action[below[decision]]] = (
        new[below[decision]])
    max_outcomes = max(int(tree.num_children.max()), 1)
    self.chance_child = np.full((count, max_outcomes), -1, np.int64)
    self.chance_cumulative = np.full((count, max_outcomes), np.inf)
    chance = ~decision
    self.chance_child[new[above[chance]], slot[chance]] = new[below[chance]]
    self.chance_cumulative[new[above[chance]], slot[chance]] = (
        tree.chance_cumulative()[chance])
    self.num_nodes = count
    for array in vars(self).values():
      if isinstance(array, np.ndarray):
        array.flags.writeable = False


# The last few games' compiled trees, by the game's string: the members of a
# population (`nfsp.population`) play one game, and compiling three-player
# Leduc's 1.8M histories takes most of a minute and 360 MiB.
_COMPILED = collections.OrderedDict()
KEEP_COMPILED = 2


def compiled_tree(game, max_nodes):
  """`game`'s `CompiledTree`, shared with every other caller for the same
  game while it is among the last `KEEP_COMPILED` compiled; `TooLarge` where
  the game has more than `max_nodes` histories."""
  key = str(game)
  if key in _COMPILED:
    _COMPILED.move_to_end(key)
    compiled = _COMPILED[key]
    if compiled.num_nodes > max_nodes:
      raise TooLarge(f"{game} has more than max_nodes={max_nodes} histories")
    return compiled
  compiled = CompiledTree(game_tree.GameTree(game, max_nodes),
                          game_tensors.reads_observations(game))
  _COMPILED[key] = compiled
  while len(_COMPILED) > KEEP_COMPILED:
    _COMPILED.popitem(last=False)
  return compiled


class TreeGames:
  """A batch of games on the compiled tree of a small game
  (`compiled_tree`, whose arrays it reads as its own attributes); a game's
  position is a node id of that tree."""

  def __init__(self, game, num_games, rng, max_nodes=1_000_000):
    _check_game(game)
    try:
      compiled = compiled_tree(game, max_nodes)
    except TooLarge as error:
      raise TooLarge(f"{error}: use StateGames") from None
    self.__dict__.update(vars(compiled))
    self.root = 0
    self.node = np.zeros(num_games, np.int64)
    self._rng = rng
    self.restart(np.arange(num_games))

  def restart(self, games):
    self.node[games] = self.root
    self._resolve_chance(games)

  def _resolve_chance(self, games):
    games = games[self.player[self.node[games]] == CHANCE]
    while games.size:
      nodes = self.node[games]
      uniforms = self._rng.random(len(games))
      k = (self.chance_cumulative[nodes] <= uniforms[:, None]).sum(axis=1)
      k = np.minimum(k, (self.chance_child[nodes] >= 0).sum(axis=1) - 1)
      self.node[games] = self.chance_child[nodes, k]
      games = games[self.player[self.node[games]] == CHANCE]

  def current_player(self):
    return self.player[self.node]

  def tensors_and_legal(self, games, player):
    del player  # the node's information state is its mover's
    nodes = self.node[games]
    return self.tensors[self.tensor_row[nodes]], self.legal[nodes]

  def apply(self, games, actions):
    self.node[games] = self.child[self.node[games], actions]
    self._resolve_chance(games)

  def final_returns(self, games):
    return self.returns[self.node[games]]

  def state(self):
    return {"node": self.node.copy()}

  def load_state(self, state):
    self.node[:] = state["node"]


class StateGames:
  """A batch of games as pyspiel states (any sequential game)."""

  def __init__(self, game, num_games, rng):
    _check_game(game)
    self.game = game
    self._size = game_tensors.information_state_size(game)
    self._observation = game_tensors.reads_observations(game)
    self._num_actions = game.num_distinct_actions()
    self._rng = rng
    self.states = [None] * num_games
    self.restart(np.arange(num_games))

  def restart(self, games):
    for g in games:
      self.states[g] = self.game.new_initial_state()
      self._resolve_chance(self.states[g])

  def _resolve_chance(self, state):
    while state.is_chance_node():
      actions, probs = zip(*state.chance_outcomes())
      cumulative = np.cumsum(probs)
      k = min(int((cumulative <= self._rng.random()).sum()), len(actions) - 1)
      state.apply_action(actions[k])

  def current_player(self):
    return np.array([_player(s) for s in self.states], np.int64)

  def tensors_and_legal(self, games, player):
    tensors = np.zeros((len(games), self._size), np.float32)
    legal = np.zeros((len(games), self._num_actions), np.float32)
    for i, g in enumerate(games):
      state = self.states[g]
      if hasattr(state, "info_state_ones"):
        tensors[i, state.info_state_ones(player)] = 1.0
      else:
        tensors[i] = game_tensors.state_tensor(state, player, self._observation)
      legal[i, state.legal_actions()] = 1.0
    return tensors, legal

  def apply(self, games, actions):
    for g, action in zip(games, actions):
      self.states[g].apply_action(int(action))
      self._resolve_chance(self.states[g])

  def final_returns(self, games):
    return np.array([self.states[g].returns() for g in games])

  def state(self):
    return {"states": json.dumps([s.serialize() for s in self.states])}

  def load_state(self, state):
    self.states = [self.game.deserialize_state(s)
                   for s in json.loads(str(state["states"]))]


BACKENDS = ("auto", "tree", "states")


def make_games(game, num_games, rng, backend="auto", max_nodes=200_000):
  """`TreeGames` or `StateGames`; "auto" compiles a tree when the game has at
  most `max_nodes` histories (walking that many costs a few seconds)."""
  if backend not in BACKENDS:
    raise ValueError(f"backend={backend!r}: must be one of {BACKENDS}")
  if backend == "states":
    return StateGames(game, num_games, rng)
  try:
    return TreeGames(game, num_games, rng,
                     max_nodes if backend == "auto" else 10**8)
  except TooLarge:
    return StateGames(game, num_games, rng)
