"""Exploitability and NashConv through OpenSpiel's tools.

Two-player zero-sum games go through OpenSpiel's C++ best response
(`pyspiel.TabularBestResponse`, `pyspiel.expected_returns`) on the tabulated
policy; other sequential games with information-state strings (three-player
Kuhn and Leduc, general-sum games) on the arrays of
`sequence_form.NPlayerSequenceForm` (compiled once per game and cached; best
responses to the others' joint reach, the same values as OpenSpiel's Python
`exploitability` module, which walks the tree per player and on
`leduc_poker(players=3)` takes minutes an evaluation:
`benchmarks/nash_conv_vs_openspiel.py`); the rest through that module. River
poker and `nfsp_leduc`, whose ~10M (River, 60-card Leduc) states OpenSpiel
cannot walk here, use the exact vectorised best response on their public tree
x private hands (`public_tree`), tested equal to OpenSpiel's tools on every
instance both can run. Policies made by a compiled game
(`SequenceForm.to_tabular`, e.g. XFP's average) are evaluated on its arrays.
"""

import collections
import functools

import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import best_response as py_best_response
from open_spiel.python.algorithms import expected_game_score
from open_spiel.python.algorithms import exploitability as py_exploitability

from nfsp_spiel.trees import public_tree
from nfsp_spiel.trees import sequence_form
from nfsp_spiel.evaluation import policies

Values = collections.namedtuple("Values", "best_response on_policy")


@functools.lru_cache(maxsize=4)
def public_tree_form(game_string):
  """The (cached) public-tree sequence form of River poker or nfsp_leduc."""
  return public_tree.public_tree_form(pyspiel.load_game(game_string))


@functools.lru_cache(maxsize=2)
def n_player_form(game_string):
  """The (cached) `NPlayerSequenceForm` of a sequential game (compiling
  `leduc_poker(players=3)` walks its 1.8M histories once: 20 s on a loaded
  2-core machine)."""
  return sequence_form.NPlayerSequenceForm(pyspiel.load_game(game_string))


def _on_arrays(game):
  """Whether `best_response_values` evaluates `game` on an
  `NPlayerSequenceForm`: sequential games with information-state strings
  that OpenSpiel's C++ best response does not take."""
  return not _uses_cpp(game) and not sequence_form.sequential_problems(game)


def _n_player_strategies(form, game, source):
  """Strategy arrays on `form` of anything `as_policy` takes: each player's
  rows read from its `TabularPolicy` where it has one over every information
  state (checked on the arrays as `checked_probabilities` checks a state;
  tabulating a three-player Leduc profile afresh takes seconds), else from
  `as_tabular`."""
  policy = policies.as_policy(game, source)
  strategies = []
  for player in range(game.num_players()):
    own = (policy.policy_of(player)
           if isinstance(policy, policies.PerPlayerPolicy) else policy)
    try:
      if not isinstance(own, policy_lib.TabularPolicy):
        raise KeyError(player)
      strategy = own.action_probability_array[[
          own.state_lookup[key] for key in form.keys[player]]]
    except KeyError:  # not a table over every information state
      return form.strategies_of(policies.as_tabular(game, policy))
    legal = form.legal[player]
    malformed = ((strategy < 0).any(1) | ((strategy > 0) & ~legal).any(1) |
                 (np.abs(np.where(legal, strategy, 0.0).sum(1) - 1.0) > 1e-6))
    if malformed.any():
      row = int(np.flatnonzero(malformed)[0])
      state = form.states[player][row]
      policies.checked_probabilities(  # raises, naming the state
          {a: p for a, p in enumerate(strategy[row]) if p != 0},
          state.legal_actions(), form.num_actions,
          lambda s=state, q=player: s.information_state_string(q))
    strategies.append(strategy)
  return strategies


def _public_tree_strategies(form, source):
  """Strategy arrays of anything `as_policy` takes, distributions checked."""
  policy = policies.as_policy(form.game, source)
  strategies = [form.uniform(p) for p in (0, 1)]
  for p in (0, 1):
    for row, state in zip(form.reachable[p], form.states[p]):
      strategies[p][row] = policies.checked_probabilities(
          policy.action_probabilities(state, p),
          list(np.flatnonzero(form.legal[p][row])), form.num_actions,
          lambda s=state, q=p: s.information_state_string(q))
  return strategies


def public_tree_tabular(game, source):
  """A River poker / nfsp_leduc `TabularPolicy` over its information states.

  It carries the compiled form, so evaluating it again is cheap.
  """
  form = public_tree_form(str(game))
  return form.to_tabular(_public_tree_strategies(form, source))


def _uses_cpp(game):
  game_type = game.get_type()
  return (game.num_players() == 2 and
          game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL and
          game_type.utility in (pyspiel.GameType.Utility.ZERO_SUM,
                                pyspiel.GameType.Utility.CONSTANT_SUM))


# Games whose trees no exact best response can walk: evaluate them in matches.
_INTRACTABLE = ("nfsp_lhe", "universal_poker")
# Games evaluated on their public tree x private hands (`public_tree`).
PUBLIC_TREE_GAMES = ("river_poker", "nfsp_leduc")


def best_response_values(game, policy):
  """Each player's best-response value against the others, and on-policy value.

  `policy` is anything `policies.as_policy` accepts. Returns
  `Values(best_response=array, on_policy=array)`, one entry per player.
  """
  if game.get_type().short_name in _INTRACTABLE:
    raise ValueError(
        f"{game}: an exact best response is intractable here (heads-up limit "
        "hold'em has ~10^14 states); measure policies with "
        "evaluation.head_to_head instead")
  form = getattr(policy, "sequence_form", None)
  if form is not None and str(form.game) == str(game):
    # Made by a compiled game (XFP): exact values on its arrays.
    strategies = getattr(policy, "strategies", None)
    return Values(*form.values(strategies or form.strategies_of(policy)))
  if game.get_type().short_name in PUBLIC_TREE_GAMES:
    form = public_tree_form(str(game))
    return Values(*form.values(_public_tree_strategies(form, policy)))
  if _on_arrays(game):
    form = n_player_form(str(game))
    return Values(*form.values(_n_player_strategies(form, game, policy)))
  tabular = policies.as_tabular(game, policy)
  if _uses_cpp(game):
    table = _cpp_table(tabular)
    root = game.new_initial_state()
    best = [pyspiel.TabularBestResponse(game, p, table).value_from_state(
        root) for p in range(2)]
    on_policy = pyspiel.expected_returns(root, pyspiel.TabularPolicy(table),
                                         -1, True)
    return Values(np.array(best), np.array(on_policy))
  root = game.new_initial_state()
  best = [py_best_response.BestResponsePolicy(game, p, tabular).value(root)
          for p in range(game.num_players())]
  on_policy = py_exploitability._state_values(  # pylint: disable=protected-access
      root, game.num_players(), tabular)
  return Values(np.array(best), np.array(on_policy))


def _cpp_table(tabular):
  """A TabularPolicy as the {state: [(action, probability)]} of C++ tools."""
  return {key: [(a, p) for a, p in enumerate(tabular.action_probability_array[
      i]) if tabular.legal_actions_mask[i][a]]
          for key, i in tabular.state_lookup.items()}


def seat_values(game, policy, opponent=None):
  """Exactly, per seat p, what `policy` expects to win playing p while every
  other seat plays `opponent` (uniform random by default): the NFSP-ARM
  paper's reward against a random player (its figs. 6-7), without sampling.

  Both are anything `policies.as_policy` accepts; the game's tree is walked
  once per seat (in C++ where `best_response_values` uses it).
  """
  if game.get_type().short_name in _INTRACTABLE:
    raise ValueError(f"{game}: too large to walk; use evaluation.head_to_head")
  mine, others = (policies.as_tabular(game, p) for p in (
      policy, opponent or policy_lib.UniformRandomPolicy(game)))
  if _uses_cpp(game):  # converted once, walked once per seat
    mine, others = (pyspiel.TabularPolicy(_cpp_table(t))
                    for t in (mine, others))
  root = game.new_initial_state()
  values = []
  for seat in range(game.num_players()):
    seats = [mine if p == seat else others
             for p in range(game.num_players())]
    values.append(pyspiel.expected_returns(root, seats, -1, True)[seat]
                  if _uses_cpp(game) else
                  expected_game_score.policy_value(root, seats)[seat])
  return np.array(values)


def nash_conv(game, policy):
  """Sum over players of what a best response gains over the policy's value."""
  values = best_response_values(game, policy)
  return float(np.sum(values.best_response - values.on_policy))


def exploitability(game, policy):
  """OpenSpiel's exploitability: NashConv / number of players.

  For two-player zero-sum games, the mean best-response value.
  """
  return nash_conv(game, policy) / game.num_players()
