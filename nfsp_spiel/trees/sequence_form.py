"""A two-player zero-sum OpenSpiel game compiled into sequence-form arrays.

The game is walked once (`game_tree.GameTree`, kept as `game_tree`); what
full-width algorithms need is kept as flat arrays (von Stengel 1996's
sequence form):

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

`NPlayerSequenceForm` compiles sequential games of any number of players and
any utility the same way (best responses to the others' joint reach, exact
NashConv).
"""

import collections
import weakref

import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python import rl_agent

from nfsp_spiel.trees import game_tree

# Relative tolerance under which action values count as tied; ties go to the
# lowest action id, as OpenSpiel's best response does for exact ties, unless
# a tie-breaker (`OpenSpielTieBreak`) is given.
TIE_TOLERANCE = 1e-12


def sequential_problems(game):
  """What keeps `game`'s histories from compiling into sequences of
  information states, in words; empty if nothing."""
  game_type = game.get_type()
  problems = []
  if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
    problems.append(f"dynamics {game_type.dynamics}")
  if not game_type.provides_information_state_string:
    problems.append("no information-state strings")
  return problems


def check_sequential(game, who):
  """Raises ValueError unless `who` can compile `game` for N players."""
  problems = sequential_problems(game)
  if problems:
    raise ValueError(f"{who} needs a sequential game with information-state "
                     f"strings; {game} has {', '.join(problems)}")


def check_two_player_zero_sum(game, who):
  """Raises ValueError unless `game` suits a two-player zero-sum solver."""
  game_type = game.get_type()
  problems = []
  if game.num_players() != 2:
    problems.append(f"{game.num_players()} players")
  if game_type.utility not in (pyspiel.GameType.Utility.ZERO_SUM,
                               pyspiel.GameType.Utility.CONSTANT_SUM):
    problems.append(f"utility {game_type.utility}")
  problems += sequential_problems(game)
  if problems:
    raise ValueError(f"{who} needs a sequential two-player zero-sum game with "
                     f"information-state strings; {game} has "
                     f"{', '.join(problems)}")


class SequenceForm:
  """A compiled two-player zero-sum game; see the module docstring.

  Subclasses compile other representations into the same strategy space
  (`public_tree.PublicTreeSequenceForm`), or other games
  (`NPlayerSequenceForm`); they override `_check`,
  `_sequence_payoffs`, `value` and `player_value`, the only methods that look
  at the kind of game or its payoffs.
  """

  def __init__(self, game, tree=None):
    """Compiles `game`, or reads `tree` (its `game_tree.GameTree`) if given."""
    self._check(game)
    self.game_tree = tree or game_tree.GameTree(game)
    # The tree's numbering is the form's: information states and terminals
    # in the order of its walk (a pre-order: an information state is met
    # before those below it).
    t = self.game_tree
    players = range(game.num_players())
    last = t.last_moves()  # each player's last (information state, action)
    self._build(game, [t.legal_actions(p) for p in players],
                [[last[node][p] for node in t.first_node[p]] for p in players])
    self.keys, self.states = t.keys, t.states  # per player, per information state
    self.num_states = t.num_nodes
    self.num_information_states = sum(len(keys) for keys in t.keys)
    terminals = np.flatnonzero(t.player == game_tree.TERMINAL)
    self.utility = t.returns[terminals, 0]  # player 0's, per terminal
    self.chance = t.reach[terminals]
    last = np.array([last[node] for node in terminals], np.int64).reshape(
        -1, len(players), 2)
    self.terminal_sequence = np.stack(  # [player, terminal]
        [self.sequence_of(p, last[:, p]) for p in players])

  def _check(self, game):
    """Raises ValueError unless this form can hold `game`."""
    check_two_player_zero_sum(game, "SequenceForm")

  def _build(self, game, legal, parents):
    """The strategy space from, per player and information state, its legal
    actions and the player's previous (information state, action), (-1, -1)
    for none, listed parents first."""
    self.game = game
    self.num_actions = game.num_distinct_actions()
    self.legal, self.sequence, self.parent_sequence = [], [], []
    self.depth, self.num_sequences, self.levels = [], [], []
    for p in range(len(legal)):
      mask = np.zeros((len(legal[p]), self.num_actions), bool)
      for row, actions in enumerate(legal[p]):
        mask[row, actions] = True
      table = -np.ones(mask.shape, np.int64)  # sequence 0 is the empty one
      table[mask] = np.arange(1, mask.sum() + 1)
      self.legal.append(mask)
      self.sequence.append(table)
      self.num_sequences.append(int(mask.sum()) + 1)
      parent = np.array(parents[p], np.int64).reshape(-1, 2)
      self.parent_sequence.append(self.sequence_of(p, parent))
      depth = np.zeros(len(parent), np.int64)
      for row, (infoset, _) in enumerate(parent):
        depth[row] = 0 if infoset < 0 else depth[infoset] + 1
      self.depth.append(depth)
      # Information states grouped by depth, shallow first.
      self.levels.append([np.flatnonzero(depth == d)
                          for d in range(depth.max() + 1 if len(depth) else 0)])
    self._skeleton, self._rows = None, None  # see to_tabular
    self._key_rows = None  # see row_of

  def sequence_of(self, player, pairs):
    """Sequence ids of (information state, action) pairs; 0 for (-1, -1)."""
    pairs = np.asarray(pairs, np.int64).reshape(-1, 2)
    ids = self.sequence[player][np.maximum(pairs[:, 0], 0), pairs[:, 1]]
    return np.where(pairs[:, 0] >= 0, ids, 0)

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

  def best_response(self, player, opponent_strategy, noise=0.0, rng=None,
                    break_ties=None):
    """`player`'s best response to `opponent_strategy` by backward induction.

    Returns (value, one-hot strategy array). With `noise`, each information
    state backs up a uniform-random legal action's value (and plays it) with
    that probability, as in the thesis' sec. 4.5.3. Where several actions
    tie, `break_ties(row, response)` picks one for information state `row`
    given the choices below it in `response` (default: the lowest action).
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
      if break_ties is not None:
        for i in np.flatnonzero(tied.sum(1) > 1):
          choice[i] = break_ties(infosets[i], response)
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

  def player_value(self, strategies, player):
    """`player`'s expected utility under the profile."""
    value = self.value(strategies)
    return value if player == 0 else -value

  def values(self, strategies):
    """(best-response values, on-policy values) of both players."""
    best = [self.best_response(p, strategies[1 - p])[0] for p in (0, 1)]
    on_policy = self.value(strategies)
    return np.array(best), np.array([on_policy, -on_policy])

  def exploitability(self, strategies):
    """Mean best-response value against the profile (OpenSpiel's definition)."""
    return 0.5 * float(np.sum(self.values(strategies)[0]))

  # --- OpenSpiel policies ---------------------------------------------------

  def to_tabular(self, strategies):
    """The profile as an OpenSpiel `TabularPolicy`.

    The policy carries this compiled form (`policy.sequence_form`), which lets
    `nfsp_spiel.evaluation` evaluate it on the arrays instead of the tree.
    """
    if self._skeleton is None:
      states = {key: state for keys, states in zip(self.keys, self.states)
                for key, state in zip(keys, states)}
      self._skeleton = policy_lib.TabularPolicy(self.game, states=states)
      self._rows = [np.array([self._skeleton.state_lookup[k] for k in keys],
                             np.int64) for keys in self.keys]
    tabular = self._skeleton.__copy__(copy_action_probability_array=True)
    for rows, strategy in zip(self._rows, strategies):
      tabular.action_probability_array[rows] = strategy
    tabular.sequence_form = self
    return tabular

  def row_of(self, player, key):
    """The row of `player`'s information state `key` in strategy arrays."""
    if self._key_rows is None:
      rows = getattr(self, "reachable", None) or [
          np.arange(len(k)) for k in self.keys]
      self._key_rows = [dict(zip(k, r)) for k, r in zip(self.keys, rows)]
    return self._key_rows[player][key]

  def strategies_of(self, tabular):
    """The strategy arrays of a `TabularPolicy` over this game's states."""
    if self._skeleton is not None and (
        tabular.state_lookup is self._skeleton.state_lookup):
      rows = self._rows  # made by to_tabular: rows known
    else:
      rows = [np.array([tabular.state_lookup[k] for k in keys], np.int64)
              for keys in self.keys]
    return [tabular.action_probability_array[r] for r in rows]


class NPlayerSequenceForm(SequenceForm):
  """A sequential game of N players on sequence-form arrays (any utility).

  Each player's best response is to the others' joint reach: a terminal
  history's payoff is weighted by chance times the product over the
  opponents of their realization probabilities (sequence-form reach is a
  product over players, von Stengel 1996). `nash_conv` is the sum over
  players of what a best response gains over the profile's value (for two
  players of a zero-sum game, twice the exploitability); fictitious play
  (`fictitious_play.n_player`) and the evaluation module
  (`evaluation.nash_conv`) compute it here.

  `best_response(player, strategies)` takes the whole profile (`player`'s own
  strategy is unread), where the two-player form takes the opponent's.
  """

  def __init__(self, game, tree=None):
    super().__init__(game, tree)
    t = self.game_tree
    self.num_players = game.num_players()
    # Every player's payoff per terminal: general-sum, unlike `utility`.
    self.returns = t.returns[t.player == game_tree.TERMINAL]

  def _check(self, game):
    check_sequential(game, "NPlayerSequenceForm")

  def _reach_of_others(self, player, strategies):
    """Per terminal: chance times the product over the players other than
    `player` of their realization probabilities (`player`=None: over all)."""
    reach = self.chance
    for other, strategy in enumerate(strategies):
      if other != player:
        reach = reach * self.reach(other, strategy)[
            self.terminal_sequence[other]]
    return reach

  def _sequence_payoffs(self, player, opponent_strategy):
    """Per own sequence, the payoff of terminals it is the last one before,
    weighted by chance and the others' joint reach (`opponent_strategy` is
    the whole profile)."""
    weights = self.returns[:, player] * self._reach_of_others(
        player, opponent_strategy)
    return np.bincount(self.terminal_sequence[player], weights,
                       minlength=self.num_sequences[player])

  def on_policy_values(self, strategies):
    """Every player's expected utility under the profile."""
    return self._reach_of_others(None, strategies) @ self.returns

  def value(self, strategies):
    """Player 0's expected utility under the profile."""
    return float(self.on_policy_values(strategies)[0])

  def player_value(self, strategies, player):
    return float(self.on_policy_values(strategies)[player])

  def values(self, strategies):
    """(best-response values, on-policy values) of every player."""
    best = [self.best_response(p, strategies)[0]
            for p in range(self.num_players)]
    return np.array(best), self.on_policy_values(strategies)

  def nash_conv(self, strategies):
    """Sum over players of a best response's gain over the profile's value."""
    best, on_policy = self.values(strategies)
    return float(np.sum(best - on_policy))

  def exploitability(self, strategies):
    """OpenSpiel's exploitability: NashConv / number of players."""
    return self.nash_conv(strategies) / self.num_players


class OpenSpielTieBreak:
  """`best_response`'s `break_ties` choosing as OpenSpiel's best response.

  OpenSpiel's Python `BestResponsePolicy` (behind its `exploitability` and
  `fictitious_play` modules) plays the first legal action of largest
  counterfactual value, with float sums of its own making: per information
  state, over its histories in depth-first order, each weighted by the
  others' reach multiplied from the deepest move up; a history's value sums
  its children in action order, skipping zero probabilities. Where actions
  tie mathematically the last bits of those sums decide: against XFP's second
  Kuhn poker average, OpenSpiel's sum for passing with the Queen comes out
  2.8e-17 below betting's, both -1/18. This tie-breaker redoes those sums,
  in that order, for the tied information states only (the others' reach of
  every history in one array product per best response, over a walk of the
  tree made once per game and responder), so that solvers on arrays make OpenSpiel's choices
  given the same, bit for bit, strategies of the others. It needs the walked
  tree's states (`SequenceForm`, not a public tree).
  """

  def __init__(self, form, player, strategies):
    """`strategies`: the profile responded to (`player`'s own is unread)."""
    self._form, self._player = form, player
    self._strategies = strategies
    self._reach = None  # the others' reach of each walked history, on first tie
    self._values = {}  # history string -> value, below decided states

  def __call__(self, row, response):
    walk = _responder_walk(self._form, self._player)
    if self._reach is None:
      self._reach = walk.reach(self._strategies)
    members = [(walk.states[i], self._reach[i]) for i in walk.rows[row]]
    # max() keeps the first of equal keys: the lowest action on exact ties.
    return max(members[0][0].legal_actions(), key=lambda action: sum(
        reach * self._value(state.child(action), response)
        for state, reach in members))

  def _transitions(self, state):
    """(action, probability) of each child; the responder's own moves 1."""
    if state.is_chance_node():
      return state.chance_outcomes()
    actor = state.current_player()
    if actor == self._player:
      return [(action, 1.0) for action in state.legal_actions()]
    probs = self._strategies[actor][self._form.row_of(
        actor, state.information_state_string(actor))]
    return [(action, probs[action]) for action in state.legal_actions()]

  def _value(self, state, response):
    """`state`'s value to the responder, summed as OpenSpiel sums it."""
    key = state.history_str()
    if key not in self._values:
      if state.is_terminal():
        value = state.returns()[self._player]
      elif state.current_player() == self._player:
        row = self._form.row_of(self._player,
                                state.information_state_string(self._player))
        value = self._value(state.child(int(response[row].argmax())),
                            response)
      else:
        value = sum(probability * self._value(state.child(action), response)
                    for action, probability in self._transitions(state)
                    if probability > 0)
      self._values[key] = value
    return self._values[key]


class _ResponderWalk:
  """The responder's histories of a game, walked once (OpenSpiel's depth-first
  order), and the moves that lead to each: what `OpenSpielTieBreak` weighs
  them by. A history's reach is the product of its path's probabilities
  taken from the path's end, as OpenSpiel multiplies them; the paths are
  stored right-aligned, padded with exact 1.0s in front, so one product per
  column from the last reproduces those floats to the bit for every history
  at once, the others' moves read from the profile of the moment."""

  def __init__(self, form, player):
    self.states, paths = [], []
    self.rows = collections.defaultdict(list)  # row -> indices, walk order
    stack = [(form.game.new_initial_state(), [])]
    while stack:  # depth first, children in action order
      state, path = stack.pop()
      if state.is_terminal():
        continue
      if state.current_player() == player:
        self.rows[form.row_of(player, state.information_state_string(
            player))].append(len(self.states))
        self.states.append(state)
        paths.append(path)
      if state.is_chance_node():
        moves = [(action, (probability, -1, -1, -1))
                 for action, probability in state.chance_outcomes()]
      elif state.current_player() == player:
        moves = [(action, (1.0, -1, -1, -1))
                 for action in state.legal_actions()]
      else:
        actor = state.current_player()
        row = form.row_of(actor, state.information_state_string(actor))
        moves = [(action, (0.0, actor, row, action))
                 for action in state.legal_actions()]
      stack.extend((state.child(action), path + [move])
                   for action, move in reversed(moves))
    depth = max(map(len, paths), default=0)
    table = np.zeros((len(paths), depth, 4))
    table[:, :, 0] = 1.0
    table[:, :, 1:] = -1
    for i, path in enumerate(paths):
      if path:
        table[i, depth - len(path):] = path
    self.constant = table[:, :, 0]
    self.actor, self.row, self.action = table[:, :, 1:].astype(
        np.int64).transpose(2, 0, 1)

  def reach(self, strategies):
    """The others' reach of every walked history under `strategies`."""
    factors = self.constant.copy()
    for actor in np.unique(self.actor[self.actor >= 0]):
      moved = self.actor == actor
      factors[moved] = strategies[actor][self.row[moved], self.action[moved]]
    reach = np.ones(len(factors))
    for column in reversed(range(factors.shape[1])):
      reach = reach * factors[:, column]
    return reach


# One walk per (compiled game, responder), made at the first tie: a walk of
# Leduc's tree costs ~30 ms, and late in a run ties come at most iterations.
_WALKS = weakref.WeakKeyDictionary()


def _responder_walk(form, player):
  walks = _WALKS.setdefault(form, {})
  if player not in walks:
    walks[player] = _ResponderWalk(form, player)
  return walks[player]


class SequenceFormPolicy(policy_lib.Policy):
  """Strategy arrays of a compiled game as an OpenSpiel policy, without a table.

  Cheap to make (XFP hands one to the evaluation module every evaluation);
  `to_tabular()` gives the OpenSpiel `TabularPolicy`.
  """

  def __init__(self, form, strategies):
    super().__init__(form.game, list(range(form.game.num_players())))
    self.sequence_form = form
    self.strategies = strategies

  def action_probabilities(self, state, player_id=None):
    player = state.current_player() if player_id is None else player_id
    row = self.sequence_form.row_of(player,
                                    state.information_state_string(player))
    probs = self.strategies[player][row]
    return {a: probs[a] for a in state.legal_actions(player)}

  def to_tabular(self, states=None):
    del states  # the compiled game knows its states
    return self.sequence_form.to_tabular(self.strategies)

  def agent(self, player_id, seed=0):
    """An `rl_agent.AbstractAgent` for `player_id` that plays this policy."""
    return PolicyAgent(self, player_id, seed)


class PolicyAgent(rl_agent.AbstractAgent):
  """Plays a `SequenceFormPolicy` in OpenSpiel RL loops (`rl_environment`).

  The agent finds the state's row by its information-state tensor. Where
  several information states share a tensor (the 30-dim Leduc encoding
  drops suits) and the policy plays them differently, the tensor cannot
  say which to play: then the agent reads the state from the time step
  (`rl_environment.Environment(..., include_full_state=True)`) and refuses
  to guess without it.
  """

  def __init__(self, policy, player_id, seed=0):
    super().__init__(player_id)
    self.player_id = player_id
    self._policy = policy
    form = policy.sequence_form
    strategies = policy.strategies[player_id]
    self._rows = {}
    self._ambiguous = set()  # tensors of information states played apart
    for key, state in zip(form.keys[player_id], form.states[player_id]):
      tensor = np.asarray(state.information_state_tensor(player_id),
                          np.float32).tobytes()
      row = form.row_of(player_id, key)
      first = self._rows.setdefault(tensor, row)
      if not np.allclose(strategies[first], strategies[row], atol=1e-12):
        self._ambiguous.add(tensor)
    self._rng = np.random.default_rng(seed)

  def _row(self, observations):
    tensor = np.asarray(observations["info_state"][self.player_id],
                        np.float32).tobytes()
    if tensor not in self._ambiguous:
      return self._rows[tensor]
    if not observations.get("serialized_state"):
      raise ValueError(
          "information states that share this information-state tensor are "
          "played differently by the policy; create the environment with "
          "rl_environment.Environment(..., include_full_state=True) so that "
          "the agent can tell them apart")
    _, state = pyspiel.deserialize_game_and_state(
        observations["serialized_state"])
    return self._policy.sequence_form.row_of(
        self.player_id, state.information_state_string(self.player_id))

  def step(self, time_step, is_evaluation=False):
    if time_step.last():
      return None
    probs = self._policy.strategies[self.player_id][
        self._row(time_step.observations)]
    action = int(self._rng.choice(len(probs), p=probs / probs.sum()))
    return rl_agent.StepOutput(action=action, probs=probs)
