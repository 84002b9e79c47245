"""Exact best responses in River poker on the public tree x private holdings.

OpenSpiel's generic best response walks every state of River poker (~10M with
the papers' defaults) and cannot finish here. River poker's betting is public
and the only private information is the holdings, so a strategy profile is a
few (holdings x actions) arrays, one per public decision node, and every value
is a handful of (holdings x holdings) matrix-vector products:

* `deal` is the joint law of the holdings, P[h0, h1] (zero where they overlap);
* at a terminal node, player 0 wins `u0(h0, h1)`: +-contribution after a fold,
  stake * sign(strength[h0] - strength[h1]) at a showdown;
* the counterfactual value of player i's holding h at node n is
  sum over the opponent's holdings of P * (opponent reach at n) * u_i; a best
  response takes the max over its own actions at its nodes and sums over the
  opponent's, backwards from the terminals (Johanson et al. 2011 style vector
  best response).

Blocking cards are in P: overlapping holdings have probability 0.
`PublicTree` also serves full-width algorithms that want these arrays (XFP).
"""

import collections

import numpy as np
from nfsp_spiel.evaluation.policies import checked_probabilities
from nfsp_spiel.games import river_poker

Node = collections.namedtuple(
    "Node", "betting player children terminal folder contributions")
Node.__doc__ = """A public betting node.

player: who acts (-1 at terminals); children: {action: node index};
terminal: None, "fold" or "showdown"; folder: the player who folded;
contributions: chips each player has put in.
"""

Values = collections.namedtuple("Values", "best_response on_policy")


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
    self.decision_nodes = [i for i, n in enumerate(self.nodes) if n.player >= 0]

  def _any_deal(self):
    """A state right after some deal of positive probability."""
    state = self.game.new_initial_state()
    while state.is_chance_node():
      state.apply_action(state.chance_outcomes()[0][0])
    return state

  def _build(self, state, betting):
    index = len(self.nodes)
    self.nodes.append(None)
    children = {}
    if not state.is_terminal():
      for action in state.legal_actions():
        children[action] = self._build(
            state.child(action), betting + river_poker.ACTION_CHARS[action])
    contributions = state.contributions()
    folder = (len(betting) - 1) % 2 if betting.endswith("f") else -1
    self.nodes[index] = Node(
        betting=betting,
        player=-1 if state.is_terminal() else state.current_player(),
        children=children,
        terminal=(None if not state.is_terminal() else
                  "fold" if folder >= 0 else "showdown"),
        folder=folder,
        contributions=tuple(contributions))
    return index

  # --- policies as arrays ---------------------------------------------------

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

  def policy_arrays(self, policy):
    """{decision node: (hands x 3) action probabilities} of an OpenSpiel policy.

    Unreachable holdings get zeros (they never matter). Raises ValueError if
    the policy puts probability on an illegal action or does not sum to one.
    """
    arrays = {}
    for node in self.decision_nodes:
      player = self.nodes[node].player
      legal = list(self.nodes[node].children)
      probs = np.zeros((self.num_hands, 3))
      for hand in self.reachable_hands(player):
        state = self.representative_state(node, hand)
        probs[hand] = checked_probabilities(
            policy.action_probabilities(state, player), legal, 3,
            lambda: state.information_state_string(player))
      arrays[node] = probs
    return arrays

  # --- values ---------------------------------------------------------------

  def _reaches(self, arrays, player):
    """Per node, the reach probability of each of `player`'s holdings."""
    reach = [None] * len(self.nodes)
    reach[0] = np.ones(self.num_hands)
    for index, node in enumerate(self.nodes):
      for action, child in node.children.items():
        reach[child] = (reach[index] * arrays[index][:, action]
                        if node.player == player else reach[index])
    return reach

  def _terminal_values(self, node, opponent_reach, player):
    """Counterfactual values of `player`'s holdings at a terminal node."""
    if node.terminal == "fold":  # the folder loses what it put in
      matrix = self.deal
      scale = node.contributions[node.folder] * (
          -1.0 if node.folder == player else 1.0)
    else:  # `showdown` holds player 0's sign; both put in the same
      matrix = self.showdown
      scale = node.contributions[0] * (1.0 if player == 0 else -1.0)
    matrix = matrix if player == 0 else matrix.T
    return scale * (matrix @ opponent_reach)

  def counterfactual_values(self, arrays, player, best_response):
    """Per node, `player`'s counterfactual values against the profile.

    With `best_response`, `player` maximises at its own nodes; otherwise it
    follows its own `arrays`.
    """
    opponent_reach = self._reaches(arrays, 1 - player)
    values = [None] * len(self.nodes)
    for index in reversed(range(len(self.nodes))):
      node = self.nodes[index]
      if node.terminal:
        values[index] = self._terminal_values(node, opponent_reach[index],
                                              player)
      elif node.player != player:
        values[index] = sum(values[c] for c in node.children.values())
      else:
        children = np.stack([values[c] for c in node.children.values()], 1)
        if best_response:
          values[index] = children.max(1)
        else:
          own = arrays[index][:, list(node.children)]
          values[index] = (children * own).sum(1)
    return values

  def values(self, arrays):
    """Best-response and on-policy values of both players."""
    best = [self.counterfactual_values(arrays, p, True)[0].sum() for p in (0, 1)]
    on_policy0 = self.counterfactual_values(arrays, 0, False)[0].sum()
    return Values(best_response=np.array(best),
                  on_policy=np.array([on_policy0, -on_policy0]))

  def best_response_arrays(self, arrays, player):
    """`player`'s best response as one-hot arrays at its decision nodes."""
    values = self.counterfactual_values(arrays, player, True)
    response = {}
    for index in self.decision_nodes:
      node = self.nodes[index]
      if node.player == player:
        children = np.stack([values[c] for c in node.children.values()], 1)
        probs = np.zeros((self.num_hands, 3))
        best = np.array(list(node.children))[children.argmax(1)]
        probs[np.arange(self.num_hands), best] = 1.0
        response[index] = probs
    return response
