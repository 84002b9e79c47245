"""Many games of one OpenSpiel game stepped at once, for batched self-play
(`nfsp_spiel.selfplay`).

* `TreeGames`: a game small enough to enumerate (Kuhn, Leduc: 9457 histories)
  is compiled once into arrays (children, players, legal masks, chance
  distributions, returns, information-state tensors), so stepping all games is
  a handful of numpy indexing operations;
* `StateGames`: any other game (River poker, Limit Hold'em) as pyspiel states
  stepped in a Python loop, reading `state.info_state_ones(player)` where the
  game has it (this package's games) instead of building full tensors.
"""

import json

import numpy as np
import pyspiel

from nfsp_spiel import game_tensors

TERMINAL = -1
CHANCE = -2


class TooLarge(ValueError):
  """The game has more histories than a compiled tree may hold."""


def _player(state):
  if state.is_terminal():
    return TERMINAL
  if state.is_chance_node():
    return CHANCE
  return state.current_player()


def _check_game(game):
  game_type = game.get_type()
  if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
    raise ValueError(f"{game} is not a sequential game: the self-play driver "
                     "plays turn-based games")
  game_tensors.information_state_size(game)


class TreeGames:
  """A batch of games on the compiled tree of a small game."""

  def __init__(self, game, num_games, rng, max_nodes=1_000_000):
    _check_game(game)
    num_actions = game.num_distinct_actions()
    player, tensor_row, legal, children, outcomes, returns = (
        [], [], [], [], [], [])
    observation = game_tensors.reads_observations(game)
    rows = {}  # information-state string -> row of `tensors`
    tensors = []
    pending = [game.new_initial_state()]
    while pending:  # depth first; a node's id is its position in the lists
      state = pending.pop()
      node = len(player)
      if node >= max_nodes:
        raise TooLarge(f"{game} has more than max_nodes={max_nodes} "
                         "histories: use StateGames")
      p = _player(state)
      player.append(p)
      returns.append(state.returns() if p == TERMINAL else
                     [0.0] * game.num_players())
      mask = np.zeros(num_actions, np.float32)
      tensor_row.append(-1)
      if p >= 0:
        key = state.information_state_string(p)
        if key not in rows:
          rows[key] = len(tensors)
          tensors.append(game_tensors.state_tensor(state, p, observation))
        tensor_row[-1] = rows[key]
        mask[state.legal_actions()] = 1.0
      legal.append(mask)
      if p == CHANCE:
        actions, probs = zip(*state.chance_outcomes())
        outcomes.append((node, np.cumsum(probs)))
      else:
        actions = state.legal_actions() if p >= 0 else []
      children.append([(a, state.child(a)) for a in actions])
      pending += [child for _, child in reversed(children[-1])]
      children[-1] = [a for a, _ in children[-1]]  # ids: see _compile
    self._compile(player, tensor_row, legal, children, outcomes, returns,
                  tensors, num_actions)
    self.root = 0
    self.node = np.zeros(num_games, np.int64)
    self._rng = rng
    self.restart(np.arange(num_games))

  def _compile(self, player, tensor_row, legal, children, outcomes, returns,
               tensors, num_actions):
    # Depth-first ids: the first child of a node is node + 1 and each next
    # sibling starts after the previous sibling's subtree.
    count = len(player)
    sizes = np.ones(count, np.int64)
    for node in range(count - 1, -1, -1):
      child = node + 1
      for _ in children[node]:
        sizes[node] += sizes[child]
        child += sizes[child]
    self.player = np.array(player, np.int64)
    self.tensor_row = np.array(tensor_row, np.int64)
    self.legal = np.array(legal, np.float32)
    self.returns = np.array(returns, np.float64)
    self.tensors = np.array(tensors, np.float32)
    self.child = np.full((count, num_actions), -1, np.int64)
    max_outcomes = max([len(c) for c in children] + [1])
    self.chance_child = np.full((count, max_outcomes), -1, np.int64)
    self.chance_cumulative = np.full((count, max_outcomes), np.inf)
    for node, actions in enumerate(children):
      child = node + 1
      for k, action in enumerate(actions):
        if player[node] == CHANCE:
          self.chance_child[node, k] = child
        else:
          self.child[node, action] = child
        child += sizes[child]
    for node, cumulative in outcomes:
      self.chance_cumulative[node, :len(cumulative)] = cumulative
    self.num_nodes = count

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
