"""A two-player zero-sum OpenSpiel game compiled into sequence-form arrays.

The game tree is walked once; what full-width algorithms need is kept as flat
arrays (von Stengel 1996's sequence form):

* per player, information states with their legal actions, the player's own
  sequence leading to each (`parent_sequence`, 0 is the empty sequence), their
  depth in the player's information-state tree, and one sequence id per
  (information state, legal action);
* per terminal history, player 0's utility, the chance probability, and each
  player's last own sequence on the way there.

A behavioural strategy is an (information states x actions) array per
player. Realization probabilities, best responses by backward induction over
information states, and values against a profile are then a few `bincount`s
and one short loop over information-state depths, linear in the tree size.
"""

import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib

# Relative tolerance under which action values count as tied; ties go to the
# lowest action id, as OpenSpiel's best response does for exact ties.
TIE_TOLERANCE = 1e-12


def check_two_player_zero_sum(game, who):
  """Raises ValueError unless `game` suits a two-player zero-sum solver."""
  game_type = game.get_type()
  problems = []
  if game.num_players() != 2:
    problems.append(f"{game.num_players()} players")
  if game_type.utility not in (pyspiel.GameType.Utility.ZERO_SUM,
                               pyspiel.GameType.Utility.CONSTANT_SUM):
    problems.append(f"utility {game_type.utility}")
  if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
    problems.append(f"dynamics {game_type.dynamics}")
  if not game_type.provides_information_state_string:
    problems.append("no information-state strings")
  if problems:
    raise ValueError(f"{who} needs a sequential two-player zero-sum game with "
                     f"information-state strings; {game} has "
                     f"{', '.join(problems)}")


class _Player:
  """One player's information states and sequences, while compiling."""

  def __init__(self, num_actions):
    self.num_actions = num_actions
    self.keys, self.states, self.legal, self.parent, self.depth = (
        [], [], [], [], [])
    self.index = {}
    self.sequences = [None]  # sequence 0: the empty sequence

  def infoset(self, key, state, parent_sequence, depth):
    if key not in self.index:
      self.index[key] = len(self.keys)
      self.keys.append(key)
      self.states.append(state)
      mask = np.zeros(self.num_actions, bool)
      mask[state.legal_actions()] = True
      self.legal.append(mask)
      self.parent.append(parent_sequence)
      self.depth.append(depth)
    return self.index[key]


class SequenceForm:
  """A compiled two-player zero-sum game; see the module docstring."""

  def __init__(self, game):
    check_two_player_zero_sum(game, "SequenceForm")
    self.game = game
    self.num_actions = game.num_distinct_actions()
    players = [_Player(self.num_actions) for _ in range(2)]
    utilities, chance, last = [], [], []
    self.num_states = 0
    # Iterative walk: (state, chance probability, last sequence and own
    # depth of each player).
    stack = [(game.new_initial_state(), 1.0, (0, 0), (0, 0))]
    sequence_ids = [{}, {}]
    while stack:
      state, probability, sequences, depths = stack.pop()
      self.num_states += 1
      if state.is_terminal():
        utilities.append(state.returns()[0])
        chance.append(probability)
        last.append(sequences)
        continue
      if state.is_chance_node():
        for action, p in state.chance_outcomes():
          stack.append((state.child(action), probability * p, sequences,
                        depths))
        continue
      player = state.current_player()
      own = players[player]
      infoset = own.infoset(state.information_state_string(player), state,
                            sequences[player], depths[player])
      for action in state.legal_actions():
        sequence = sequence_ids[player].setdefault((infoset, action),
                                                   len(own.sequences))
        if sequence == len(own.sequences):
          own.sequences.append((infoset, action))
        child_sequences = list(sequences)
        child_sequences[player] = sequence
        child_depths = list(depths)
        child_depths[player] += 1
        stack.append((state.child(action), probability,
                      tuple(child_sequences), tuple(child_depths)))
    self.utility = np.array(utilities)           # player 0's, per terminal
    self.chance = np.array(chance)
    self.terminal_sequence = np.array(last, np.int64).T  # [player, terminal]
    self.keys = [p.keys for p in players]
    self.states = [p.states for p in players]
    self.legal = [np.array(p.legal).reshape(-1, self.num_actions)
                  for p in players]
    self.parent_sequence = [np.array(p.parent, np.int64) for p in players]
    self.depth = [np.array(p.depth, np.int64) for p in players]
    self.num_sequences = [len(p.sequences) for p in players]
    self.sequence = []  # [player][infoset, action] -> sequence id or -1
    for p, own in enumerate(players):
      table = -np.ones((len(own.keys), self.num_actions), np.int64)
      for sequence, (infoset, action) in enumerate(own.sequences[1:], 1):
        table[infoset, action] = sequence
      self.sequence.append(table)
    # Information states grouped by depth, shallow first.
    self.levels = [[np.flatnonzero(d == level) for level in range(d.max() + 1)]
                   if len(d) else [] for d in self.depth]

  # --- strategies -----------------------------------------------------------

  def uniform(self, player):
    legal = self.legal[player].astype(float)
    return legal / legal.sum(1, keepdims=True)

  def random_strategy(self, player, rng):
    """Uniform-random weights per information state, normalised (thesis 4.5.1)."""
    weights = rng.random(self.legal[player].shape) * self.legal[player]
    return weights / weights.sum(1, keepdims=True)

  def reach(self, player, strategy):
    """Realization probability x(sigma) of each of `player`'s sequences."""
    reach = np.ones(self.num_sequences[player])
    legal = self.legal[player]
    for infosets in self.levels[player]:
      parent = reach[self.parent_sequence[player][infosets]]
      table = self.sequence[player][infosets]
      mask = legal[infosets]
      reach[table[mask]] = (parent[:, None] * strategy[infosets])[mask]
    return reach

  def infoset_reach(self, player, strategy):
    """x(sigma_u): the realization probability of reaching each infoset."""
    return self.reach(player, strategy)[self.parent_sequence[player]]

  # --- values and best responses --------------------------------------------

  def _sequence_payoffs(self, player, opponent_strategy):
    """Per own sequence, the payoff of terminals it is the last one before."""
    opponent = 1 - player
    opponent_reach = self.reach(opponent, opponent_strategy)[
        self.terminal_sequence[opponent]]
    sign = 1.0 if player == 0 else -1.0
    weights = sign * self.utility * self.chance * opponent_reach
    return np.bincount(self.terminal_sequence[player], weights,
                       minlength=self.num_sequences[player])

  def best_response(self, player, opponent_strategy, noise=0.0, rng=None):
    """`player`'s best response to `opponent_strategy` by backward induction.

    Returns (value, one-hot strategy array). With `noise`, each information
    state backs up a uniform-random legal action's value (and plays it) with
    that probability, as in the thesis' sec. 4.5.3.
    """
    values = self._sequence_payoffs(player, opponent_strategy)
    legal = self.legal[player]
    response = np.zeros(legal.shape)
    for infosets in reversed(self.levels[player]):
      table = self.sequence[player][infosets]
      q = np.where(legal[infosets], values[np.maximum(table, 0)], -np.inf)
      best = q.max(1, keepdims=True)
      tied = q >= best - TIE_TOLERANCE * (1.0 + np.abs(best))
      choice = tied.argmax(1)  # lowest tied action
      if noise > 0.0:
        explore = rng.random(len(infosets)) < noise
        random_legal = (rng.random(legal[infosets].shape) *
                        legal[infosets]).argmax(1)
        choice = np.where(explore, random_legal, choice)
      response[infosets, choice] = 1.0
      np.add.at(values, self.parent_sequence[player][infosets],
                q[np.arange(len(infosets)), choice])
    return values[0], response

  def value(self, strategies):
    """Player 0's expected utility under the profile."""
    reach0 = self.reach(0, strategies[0])[self.terminal_sequence[0]]
    reach1 = self.reach(1, strategies[1])[self.terminal_sequence[1]]
    return float(np.sum(self.utility * self.chance * reach0 * reach1))

  def exploitability(self, strategies):
    """Mean best-response value against the profile (OpenSpiel's definition)."""
    return 0.5 * (self.best_response(0, strategies[1])[0] +
                  self.best_response(1, strategies[0])[0])

  # --- OpenSpiel policies ---------------------------------------------------

  def to_tabular(self, strategies):
    """The profile as an OpenSpiel `TabularPolicy`."""
    states = {key: state for p in (0, 1)
              for key, state in zip(self.keys[p], self.states[p])}
    tabular = policy_lib.TabularPolicy(self.game, states=states)
    for p in (0, 1):
      for key, probs in zip(self.keys[p], strategies[p]):
        tabular.action_probability_array[tabular.state_lookup[key]] = probs
    return tabular
