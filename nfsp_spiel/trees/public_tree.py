"""Poker games on their public tree x private hands, as sequence forms.

OpenSpiel's generic tools walk every state: ~10M for River poker, ~15M for
60-card Leduc. In these games the betting and the board are public and the
only private information is each player's hand, dealt first, so they compile
into a public tree whose terminals carry (hands x hands) matrices:

* `RiverPublicTree`: River poker's betting, the joint deal law P[h0, h1] of
  the holdings (zero where they share a card: blocking) and the showdown
  matrix P * sign(strength[h0] - strength[h1]);
* `LeducPublicTree`: Leduc's two betting rounds with the public card b between
  them; below b the deal law is P restricted to hands other than b, over the
  N - 2 cards b could have been;
* `PublicTreeSequenceForm`: the strategy space and methods of
  `sequence_form.SequenceForm` (information state = a player's public decision
  node x own hand), with one matrix-vector product per public terminal: the
  counterfactual value of player i's hand h at terminal t is the sum over the
  opponent's hands of M_t[h, h'] * (opponent's reach of h' at t) * u_i.

Best responses, values and XFP updates cost milliseconds (River poker) to tens
of milliseconds (60-card Leduc) instead of walking millions of states
(Johanson et al. 2011's vectorised best response). The evaluation module and
XFP both use `public_tree_form`.

A public tree is not `game_tree.GameTree`: that one is the histories, one
node per deal and betting (the millions of states above), this one the
public nodes alone, the deal kept as matrices; it is built by walking one
deal's betting, the chance node's children are the public cards rather than
`chance_outcomes()`, and its strategy space is the sequence form's. What the
two share is the convention for who is at a node (`game_tree.player_of`:
`CHANCE`, `TERMINAL` or the mover) and `SequenceForm`'s methods.
"""

import collections
import functools

import numpy as np
import threadpoolctl

from nfsp_spiel.trees import game_tree
from nfsp_spiel.trees import sequence_form
from nfsp_spiel.games import nfsp_leduc
from nfsp_spiel.games import poker

Node = collections.namedtuple(
    "Node", "actions player children terminal folder contributions board")
Node.__doc__ = """A public node.

actions: the public actions from the root (betting, and Leduc's board card);
player: who acts (`game_tree.player_of`: the mover, `game_tree.CHANCE` or
`game_tree.TERMINAL`); children: {action: node
index}; terminal: None, "fold" or "showdown"; folder: who folded; stake: what
each player has put in; board: the public card above (Leduc), or -1.
"""


class _PublicTree:
  """Builds the public nodes by walking states with some deal of the hands."""

  num_hands = None

  def _build(self, state, actions, board=-1, folder=-1):
    """Appends `state`'s public subtree in pre-order; returns its index."""
    index = len(self.nodes)
    self.nodes.append(None)
    children = {}
    if state.is_chance_node():  # Leduc's public card
      for card in range(self.num_hands):
        children[card] = self._build(self._state_after(actions, card),
                                     actions + (card,), board=card)
    elif not state.is_terminal():
      player = state.current_player()
      for action in state.legal_actions():
        children[action] = self._build(
            state.child(action), actions + (action,), board,
            folder=player if action == poker.FOLD else -1)
    self.nodes[index] = Node(
        actions=actions,
        player=game_tree.player_of(state),
        children=children,
        terminal=(None if not state.is_terminal() else
                  "fold" if folder >= 0 else "showdown"),
        folder=folder,
        contributions=tuple(state.contributions()),
        board=board)
    return index

  def reachable_hands(self, player, node):
    """Hands of `player` that can be dealt at `node`."""
    matrix = self.deal_at(node)
    return np.flatnonzero(matrix.sum(1 - player) > 0)

  def utility(self, node, hand0, hand1):
    """Player 0's payoff at terminal `node` when the hands are dealt so."""
    info = self.nodes[node]
    if info.terminal == "fold":
      won = info.contributions[info.folder]
      return -won if info.folder == 0 else won
    diff = self.strength(node, hand0) - self.strength(node, hand1)
    return info.contributions[0] * float(np.sign(diff))

  def terminal_values(self, node, opponent_reach, player):
    """Counterfactual values of `player`'s hands at a terminal node."""
    node_info = self.nodes[node]
    if node_info.terminal == "fold":  # the folder loses what it put in
      matrix = self.deal_at(node)
      scale = node_info.contributions[node_info.folder] * (
          -1.0 if node_info.folder == player else 1.0)
    else:  # the showdown matrix holds player 0's sign; both put in the same
      matrix = self.showdown_at(node)
      scale = node_info.contributions[0] * (1.0 if player == 0 else -1.0)
    matrix = matrix if player == 0 else matrix.T
    return scale * (matrix @ opponent_reach)


class RiverPublicTree(_PublicTree):
  """River poker's public betting tree with the deal's matrices."""

  def __init__(self, game):
    self.game = game
    self.num_hands = len(game.hands)
    joint = np.outer(*game.beliefs) * game.compatible
    self.deal = joint / joint.sum()
    strength = game.strength
    self.showdown = self.deal * np.sign(strength[:, None] - strength[None, :])
    self.nodes = []
    state = game.new_initial_state()
    while state.is_chance_node():
      state.apply_action(state.chance_outcomes()[0][0])
    self._build(state, ())
    self._cumulative_deal = np.cumsum(self.deal.ravel())

  def sample_deals(self, rng, count):
    """`count` (hand0, hand1) pairs drawn from the joint deal law."""
    index = np.searchsorted(self._cumulative_deal,
                            rng.random(count) * self._cumulative_deal[-1],
                            side="right")
    return np.stack(np.divmod(np.minimum(index, self.deal.size - 1),
                              self.num_hands), 1)

  def sample_board(self, node, hand0, hand1, rng):
    raise ValueError("River poker has no public chance node")

  def strength(self, node, hand):
    del node
    return self.game.strength[hand]

  def deal_at(self, node):
    del node
    return self.deal

  def showdown_at(self, node):
    del node
    return self.showdown

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
    for action in self.nodes[node].actions:
      state.apply_action(action)
    return state


class LeducPublicTree(_PublicTree):
  """nfsp_leduc's public tree: round 1, the public card, round 2."""

  def __init__(self, game):
    self.game = game
    n = self.num_hands = game.num_cards
    self.deal = (1.0 - np.eye(n)) / (n * (n - 1))
    cards = np.arange(n)
    # Below public card b: neither hand is b, and b was 1 of n - 2 cards.
    self.board_deals = np.stack([
        self.deal * np.outer(cards != b, cards != b) / (n - 2)
        for b in range(n)])
    self.values = np.array([[nfsp_leduc.hand_value(c, b, game.suits,
                                                   game.ranks)
                             for c in range(n)] for b in range(n)])
    self.board_showdowns = self.board_deals * np.sign(
        self.values[:, :, None] - self.values[:, None, :])
    self.nodes = []
    self._build(self._state_after((), None), ())

  def _state_after(self, actions, board):
    """A state after `actions` (then `board`), dealt two cards other than it."""
    state = self.game.new_initial_state()
    for card in [c for c in range(self.num_hands) if c != board][:2]:
      state.apply_action(card)
    for action in actions:
      state.apply_action(action)
    if board is not None:
      state.apply_action(board)
    return state

  def sample_deals(self, rng, count):
    """`count` pairs of two different cards, uniformly."""
    hand0 = rng.integers(self.num_hands, size=count)
    hand1 = rng.integers(self.num_hands - 1, size=count)
    return np.stack([hand0, hand1 + (hand1 >= hand0)], 1)

  def sample_board(self, node, hand0, hand1, rng):
    """The public card (a child action of chance `node`) given the hands."""
    del node
    low, high = sorted((hand0, hand1))
    board = int(rng.integers(self.num_hands - 2))
    board += board >= low
    return board + (board >= high)

  def strength(self, node, hand):
    return self.values[self.nodes[node].board, hand]

  def deal_at(self, node):
    board = self.nodes[node].board
    return self.deal if board < 0 else self.board_deals[board]

  def showdown_at(self, node):
    return self.board_showdowns[self.nodes[node].board]

  def representative_state(self, node, hand):
    """A state at decision `node` where its player holds `hand`."""
    info = self.nodes[node]
    player = info.player
    other = next(c for c in range(self.num_hands) if c not in (hand,
                                                               info.board))
    state = self.game.new_initial_state()
    for card in ((hand, other) if player == 0 else (other, hand)):
      state.apply_action(card)
    for action in info.actions:
      state.apply_action(action)
    return state


def public_tree(game):
  """The public tree of one of our poker games, or None."""
  name = game.get_type().short_name
  if name == "river_poker":
    return RiverPublicTree(game)
  if name == "nfsp_leduc":
    return LeducPublicTree(game)
  return None


@functools.lru_cache(maxsize=None)
def _blas():
  return threadpoolctl.ThreadpoolController().select(user_api="blas")


def _one_blas_thread(method):
  """Runs `method` with BLAS on one thread. Its products (a 1081 x 1081
  deal matrix by a vector at most) are too small to share: with a second
  process on a 2-core machine, OpenBLAS's threads made an XFP iteration on
  River poker 2x slower (10.3 against 5.2 ms; 3.7 against 3.5 ms idle).
  Setting the limit costs ~6 us."""

  @functools.wraps(method)
  def wrapper(*args, **kwargs):
    with _blas().limit(limits=1):
      return method(*args, **kwargs)

  return wrapper


class PublicTreeSequenceForm(sequence_form.SequenceForm):
  """A public tree's strategy space: (public decision node, own hand) states.

  Player p's information state k * H + h is its k-th public decision node
  (in `decision_nodes[p]`) with hand h, for all H hands; hands that cannot be
  dealt there have no OpenSpiel state and play uniformly. Keys and
  representative states (for OpenSpiel policies) are built on first use.
  """

  def __init__(self, game, tree):  # pylint: disable=super-init-not-called
    sequence_form.check_two_player_zero_sum(game, "PublicTreeSequenceForm")
    self.tree = tree
    hands = tree.num_hands
    self.decision_nodes = [[i for i, n in enumerate(tree.nodes)
                            if n.player == p] for p in (0, 1)]
    self._position = [{node: k for k, node in enumerate(nodes)}
                      for nodes in self.decision_nodes]
    # Each player's last own (decision node, action) above every node.
    previous = [[None] * len(tree.nodes) for _ in (0, 1)]
    for index, node in enumerate(tree.nodes):
      for action, child in node.children.items():
        for p in (0, 1):
          previous[p][child] = ((index, action) if node.player == p else
                                previous[p][index])

    def pairs(player, node):
      """(information state, action) per hand of `player`'s last move."""
      if previous[player][node] is None:
        return np.full((hands, 2), -1)
      above, action = previous[player][node]
      infosets = self._position[player][above] * hands + np.arange(hands)
      return np.stack([infosets, np.full(hands, action)], 1)

    legal, parents = [[], []], [[], []]
    for p in (0, 1):
      for node in self.decision_nodes[p]:
        legal[p] += [list(tree.nodes[node].children)] * hands
        parents[p] += pairs(p, node).tolist()
    self._build(game, legal, parents)
    self._described = None
    # The game states below the deal, counted without walking them: a public
    # node holds one state per pair of hands its deal law allows (the deal's
    # own chance nodes are not counted). XFP's cost per iteration in the
    # papers' model, which walks every state (thesis 5.6.2).
    self.num_states = sum(int(np.count_nonzero(tree.deal_at(node)))
                          for node in range(len(tree.nodes)))
    # The rows of hands that can be dealt at their node (other rows exist
    # only to keep the arrays rectangular).
    self.num_information_states = sum(
        len(tree.reachable_hands(p, node))
        for p in (0, 1) for node in self.decision_nodes[p])
    self.terminals = [i for i, n in enumerate(tree.nodes) if n.terminal]
    self._terminal_sequences = [
        np.concatenate([self.sequence_of(p, pairs(p, t))
                        for t in self.terminals]) for p in (0, 1)]

  def _describe(self):
    """Keys, representative states and rows of the dealable states."""
    if self._described is None:
      hands = self.tree.num_hands
      keys, states, rows = [[], []], [[], []], [[], []]
      for p in (0, 1):
        for k, node in enumerate(self.decision_nodes[p]):
          for hand in self.tree.reachable_hands(p, node):
            state = self.tree.representative_state(node, hand)
            keys[p].append(state.information_state_string(p))
            states[p].append(state)
            rows[p].append(k * hands + hand)
      self._described = keys, states, [np.array(r, np.int64) for r in rows]
    return self._described

  @property
  def keys(self):
    return self._describe()[0]

  @property
  def states(self):
    return self._describe()[1]

  @property
  def reachable(self):
    """Per player, the rows of the information states that can occur."""
    return self._describe()[2]

  def node_row(self, player, node, hand):
    """The strategy-array row of `player` holding `hand` at decision `node`."""
    return self._position[player][node] * self.tree.num_hands + hand

  def node_reach(self, player, strategy):
    """Per public node, the reach probability of each of `player`'s hands."""
    hands = self.tree.num_hands
    reach = [None] * len(self.tree.nodes)
    reach[0] = np.ones(hands)
    position = self._position[player]
    for index, node in enumerate(self.tree.nodes):
      for action, child in node.children.items():
        if node.player == player:
          k = position[index]
          reach[child] = reach[index] * strategy[k * hands:(k + 1) * hands,
                                                 action]
        else:
          reach[child] = reach[index]
    return reach

  @_one_blas_thread
  def _sequence_payoffs(self, player, opponent_strategy):
    opponent_reach = self.node_reach(1 - player, opponent_strategy)
    weights = np.concatenate([
        self.tree.terminal_values(t, opponent_reach[t], player)
        for t in self.terminals])
    return np.bincount(self._terminal_sequences[player], weights,
                       minlength=self.num_sequences[player])

  @_one_blas_thread
  def value(self, strategies):
    reach0 = self.node_reach(0, strategies[0])
    reach1 = self.node_reach(1, strategies[1])
    return float(sum(reach0[t] @ self.tree.terminal_values(t, reach1[t], 0)
                     for t in self.terminals))

  def to_tabular(self, strategies):
    """As `SequenceForm.to_tabular`, over the states that can occur."""
    return super().to_tabular([s[r] for s, r in zip(strategies,
                                                     self.reachable)])

  def strategies_of(self, tabular):
    strategies = [self.uniform(p) for p in (0, 1)]
    for p, rows in enumerate(super().strategies_of(tabular)):
      strategies[p][self.reachable[p]] = rows
    return strategies


def public_tree_form(game):
  """`game`'s public-tree sequence form, or None if it has no public tree."""
  tree = public_tree(game)
  return None if tree is None else PublicTreeSequenceForm(game, tree)
