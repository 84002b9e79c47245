"""Diagnostics for sample-based fictitious play (Heinrich's thesis, sec. 5.6.1).

* `best_response_gaps`: per player i, how much less a learned best response
  beta_i wins against the average strategy pi_-i than an exact best
  response; `best_response_quality` (thesis eq. 5.2, fig. 5.1) is their mean.
* `strategy_distance`: squared distance between two strategy profiles over
  the information states, e.g. FSP's counting-model average against XFP's
  exact average (fig. 5.2).
"""

import collections

import numpy as np
from open_spiel.python.algorithms import best_response as py_best_response

from nfsp_spiel.evaluation import best_responses
from nfsp_spiel.evaluation import policies


def best_response_quality(game, average_policy, learned_best_responses):
  """Thesis eq. 5.2: mean over players of R(BR(pi_-i)) - R(beta_i, pi_-i).

  Arguments as `best_response_gaps`'; 0 means every learned best response is
  exact.
  """
  return float(np.mean(best_response_gaps(game, average_policy,
                                          learned_best_responses)))


def best_response_gaps(game, average_policy, learned_best_responses):
  """R(BR(pi_-i)) - R(beta_i, pi_-i) for each player i given, in order.

  `learned_best_responses` holds one policy (or agent, callable) per player,
  as a list or {player: policy}; `average_policy` anything `as_policy` takes.
  """
  if isinstance(learned_best_responses, (list, tuple)):
    learned_best_responses = dict(enumerate(learned_best_responses))
  form = _common_form(game, [average_policy,
                             *learned_best_responses.values()])
  if form is not None:  # all on one compiled game: exact values on arrays
    average = average_policy.strategies
    exact = form.values(average)[0]
    gaps = []
    for player, learned in sorted(learned_best_responses.items()):
      profile = list(average)
      profile[player] = learned.strategies[player]
      gaps.append(float(exact[player] - form.player_value(profile, player)))
    return gaps
  average = policies.as_policy(game, average_policy)
  exact = best_responses.best_response_values(game, average).best_response
  gaps = []
  for player, learned in sorted(learned_best_responses.items()):
    profile = {p: average for p in range(game.num_players())}
    profile[player] = learned
    learned_value = best_responses.best_response_values(
        game, profile).on_policy[player]
    gaps.append(float(exact[player] - learned_value))
  return gaps


StateGap = collections.namedtuple(
    "StateGap", "information_state gap reach action_values")
StateGap.__doc__ = """One information state's share of a best-response gap.

gap: its term of the sum (see `best_response_gap_by_state`); reach: the
probability that chance, the average strategy of the others and the learned
policy reach it; action_values: per legal action, the player's expected
return from the state on when it takes the action and plays an exact best
response afterwards (conditional on reaching the state)."""


def best_response_gap_by_state(game, average_policy, learned, player):
  """`player`'s best-response gap R(BR(pi_-i)) - R(beta_i, pi_-i) as a sum
  over its information states I (the performance-difference identity):

    gap(I) = reach(I) * (V_BR(I) - sum_a beta_i(a | I) Q_BR(I, a)),

  where reach(I) is the chance, pi_-i and beta_i reach probability and the
  values are conditional on I, each action followed by an exact best
  response. The terms are non-negative and add up to
  `best_response_gaps`' entry for `player`; returned as `StateGap`s, the
  largest first. Walks the game tree (OpenSpiel's `BestResponsePolicy`):
  for games of Leduc's size."""
  average = policies.as_policy(game, average_policy)
  learned = policies.as_policy(game, learned)
  exact = py_best_response.BestResponsePolicy(game, player, average)
  terms = []
  for key, states in exact.infosets.items():
    state = states[0][0]
    beta = learned.action_probabilities(state, player)
    weight = sum(w for _, w in states)
    own_reach = _own_reach(game, state, player, learned)
    values = {a: sum(w * exact.q_value(s, a) for s, w in states) / weight
              for a in state.legal_actions(player)} if weight > 0 else {}
    shortfall = (max(values.values()) -
                 sum(p * values[a] for a, p in beta.items())
                 if values else 0.0)
    terms.append(StateGap(key, own_reach * weight * shortfall,
                          own_reach * weight, values))
  return sorted(terms, key=lambda term: -term.gap)


def _own_reach(game, state, player, learned):
  """The product of `learned`'s probabilities of `player`'s own actions on
  the way to `state` (the same for every state of its information state)."""
  reach, replay = 1.0, game.new_initial_state()
  for action in state.history():
    if replay.current_player() == player:
      reach *= learned.action_probabilities(replay, player).get(action, 0.0)
    replay.apply_action(action)
  return reach


def _common_form(game, policies_):
  """The compiled game all `policies_` carry arrays of, else None.

  (`sequence_form.SequenceFormPolicy`s of one form; a learned best response
  of player p is read from its `strategies[p]`.)
  """
  forms = {id(getattr(p, "sequence_form", None)) for p in policies_}
  first = getattr(policies_[0], "sequence_form", None)
  if (first is None or len(forms) != 1 or str(first.game) != str(game) or
      not all(hasattr(p, "strategies") for p in policies_)):
    return None
  return first


def strategy_distance(game, policy_a, policy_b, reduce="sum"):
  """Squared Euclidean distance of the two profiles' action distributions.

  Summed (`reduce="sum"`) or averaged (`"mean"`) over information states.
  """
  if reduce not in ("sum", "mean"):
    raise ValueError(f"reduce={reduce!r}: expected 'sum' or 'mean'")
  tabulate = (best_responses.public_tree_tabular
              if game.get_type().short_name in best_responses.PUBLIC_TREE_GAMES
              else policies.as_tabular)
  a = tabulate(game, policy_a).action_probability_array
  b = tabulate(game, policy_b).action_probability_array
  per_state = np.sum((a - b) ** 2, axis=1)
  return float(per_state.sum() if reduce == "sum" else per_state.mean())
