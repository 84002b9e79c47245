"""Diagnostics for sample-based fictitious play (Heinrich's thesis, sec. 5.6.1).

* `best_response_gaps`: per player i, how much less a learned best response
  beta_i wins against the average strategy pi_-i than an exact best
  response; `best_response_quality` (thesis eq. 5.2, fig. 5.1) is their mean.
* `strategy_distance`: squared distance between two strategy profiles over
  the information states, e.g. FSP's counting-model average against XFP's
  exact average (fig. 5.2).
"""

import numpy as np

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
      value = form.value(profile)
      gaps.append(float(exact[player] - (value if player == 0 else -value)))
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
