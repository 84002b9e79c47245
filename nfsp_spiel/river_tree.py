"""River poker on its public tree x private holdings, as a sequence form.

OpenSpiel's generic tools walk every state of River poker (~10M with the
papers' defaults). River poker's betting is public and the only private
information is the holdings, so it compiles into:

* `PublicTree`: the public betting nodes, the joint deal law P[h0, h1] of the
  holdings (zero where they share a card: blocking), and the showdown matrix
  P * sign(strength[h0] - strength[h1]);
* `RiverSequenceForm`: the same strategy space and methods as
  `sequence_form.SequenceForm` (information state = public decision node x
  holding), whose payoffs are one matrix-vector product per public terminal:
  the counterfactual value of player i's holding h at terminal t is
  sum over the opponent's holdings of P * (opponent's reach at t) * u_i.

Best responses, values and XFP updates then cost milliseconds on the full
game (Johanson et al. 2011's vectorised best response). The evaluation module
and XFP both use it.
"""

import collections

import numpy as np

from nfsp_spiel import sequence_form
from nfsp_spiel.games import river_poker

Node = collections.namedtuple(
    "Node", "betting player children terminal folder contributions")
Node.__doc__ = """A public betting node.

player: who acts (-1 at terminals); children: {action: node index};
terminal: None, "fold" or "showdown"; folder: the player who folded;
contributions: chips each player has put in.
"""


class PublicTree:
  """River poker's public betting tree with the deal's matrices."""

  def __init__(self, game):
    if game.get_type().short_name != "river_poker":
      raise ValueError(f"PublicTree needs a river_poker game, got {game}")
    self.game = game
    self.num_hands = len(game.hands)
    joint = np.outer(*game.beliefs) * game.compatible
    self.deal = joint / joint.sum()
    strength = game.strength
    self.showdown = self.deal * np.sign(strength[:, None] - strength[None, :])
    self.nodes = []
    self._build(self._any_deal(), "")

  def _any_deal(self):
    """A state right after some deal of positive probability."""
    state = self.game.new_initial_state()
    while state.is_chance_node():
      state.apply_action(state.chance_outcomes()[0][0])
    return state

  def _build(self, state, betting):
    """Pre-order: parents get lower indices than their children."""
    index = len(self.nodes)
    self.nodes.append(None)
    children = {}
    if not state.is_terminal():
      for action in state.legal_actions():
        children[action] = self._build(
            state.child(action), betting + river_poker.ACTION_CHARS[action])
    folder = (len(betting) - 1) % 2 if betting.endswith("f") else -1
    self.nodes[index] = Node(
        betting=betting,
        player=-1 if state.is_terminal() else state.current_player(),
        children=children,
        terminal=(None if not state.is_terminal() else
                  "fold" if folder >= 0 else "showdown"),
        folder=folder,
        contributions=tuple(state.contributions()))
    return index

  def reachable_hands(self, player):
    """Holdings with positive probability for `player`."""
    return np.flatnonzero(self.deal.sum(1 - player) > 0)

  def representative_state(self, node, hand):
    """A state at decision `node` where its player holds `hand`."""
    player = self.nodes[node].player
    column = self.deal[hand] if player == 0 else self.deal[:, hand]
    hands = [hand, int(np.argmax(column))]
    if player == 1:
      hands.reverse()
    state = self.game.new_initial_state()
    for h in hands:
      for card in self.game.hands[h]:
        state.apply_action(int(card))
    for action in self.nodes[node].betting:
      state.apply_action(river_poker.ACTION_CHARS.index(action))
    return state

  def terminal_values(self, node, opponent_reach, player):
    """Counterfactual values of `player`'s holdings at a terminal node."""
    node = self.nodes[node]
    if node.terminal == "fold":  # the folder loses what it put in
      matrix = self.deal
      scale = node.contributions[node.folder] * (
          -1.0 if node.folder == player else 1.0)
    else:  # `showdown` holds player 0's sign; both put in the same
      matrix = self.showdown
      scale = node.contributions[0] * (1.0 if player == 0 else -1.0)
    matrix = matrix if player == 0 else matrix.T
    return scale * (matrix @ opponent_reach)


class RiverSequenceForm(sequence_form.SequenceForm):
  """River poker's strategy space: (public decision node, holding) states.

  Player p's information state k * H + h is its k-th public decision node
  (in `decision_nodes[p]`) with holding h, for all H holdings; holdings that
  are never dealt have no OpenSpiel state and play uniformly.
  """

  def __init__(self, game):  # pylint: disable=super-init-not-called
    self.tree = tree = PublicTree(game)
    hands = tree.num_hands
    self.decision_nodes = [[i for i, n in enumerate(tree.nodes)
                            if n.player == p] for p in (0, 1)]
    # Each player's last own (decision node, action) above every node.
    previous = [[None] * len(tree.nodes) for _ in (0, 1)]
    for index, node in enumerate(tree.nodes):
      for action, child in node.children.items():
        for p in (0, 1):
          previous[p][child] = ((index, action) if node.player == p else
                                previous[p][index])
    position = [{node: k for k, node in enumerate(nodes)}
                for nodes in self.decision_nodes]

    def pairs(player, node):
      """(information state, action) per holding of `player`'s last move."""
      if previous[player][node] is None:
        return np.full((hands, 2), -1)
      above, action = previous[player][node]
      infosets = position[player][above] * hands + np.arange(hands)
      return np.stack([infosets, np.full(hands, action)], 1)

    keys, states, legal, parents = [[], []], [[], []], [[], []], [[], []]
    self.reachable = []
    for p in (0, 1):
      for node in self.decision_nodes[p]:
        legal[p] += [list(tree.nodes[node].children)] * hands
        parents[p] += pairs(p, node).tolist()
      reachable = np.zeros(len(legal[p]), bool)
      for k, node in enumerate(self.decision_nodes[p]):
        for hand in tree.reachable_hands(p):
          reachable[k * hands + hand] = True
          state = tree.representative_state(node, hand)
          keys[p].append(state.information_state_string(p))
          states[p].append(state)
      self.reachable.append(np.flatnonzero(reachable))
    self._build(game, keys, states, legal, parents)
    self.num_states = None  # not walked
    self.terminals = [i for i, n in enumerate(tree.nodes) if n.terminal]
    self._terminal_sequences = [
        np.concatenate([self.sequence_of(p, pairs(p, t))
                        for t in self.terminals]) for p in (0, 1)]

  def node_reach(self, player, strategy):
    """Per public node, the reach probability of each of `player`'s holdings."""
    hands = self.tree.num_hands
    reach = [None] * len(self.tree.nodes)
    reach[0] = np.ones(hands)
    position = {node: k for k, node in enumerate(self.decision_nodes[player])}
    for index, node in enumerate(self.tree.nodes):
      for action, child in node.children.items():
        if node.player == player:
          rows = strategy[position[index] * hands:(position[index] + 1) * hands]
          reach[child] = reach[index] * rows[:, action]
        else:
          reach[child] = reach[index]
    return reach

  def _sequence_payoffs(self, player, opponent_strategy):
    opponent_reach = self.node_reach(1 - player, opponent_strategy)
    weights = np.concatenate([
        self.tree.terminal_values(t, opponent_reach[t], player)
        for t in self.terminals])
    return np.bincount(self._terminal_sequences[player], weights,
                       minlength=self.num_sequences[player])

  def value(self, strategies):
    reach0 = self.node_reach(0, strategies[0])
    reach1 = self.node_reach(1, strategies[1])
    return float(sum(reach0[t] @ self.tree.terminal_values(t, reach1[t], 0)
                     for t in self.terminals))

  def to_tabular(self, strategies):
    """As `SequenceForm.to_tabular`, over the reachable information states."""
    return super().to_tabular([s[r] for s, r in zip(strategies,
                                                     self.reachable)])

  def strategies_of(self, tabular):
    strategies = [self.uniform(p) for p in (0, 1)]
    for p, rows in enumerate(super().strategies_of(tabular)):
      strategies[p][self.reachable[p]] = rows
    return strategies
