"""Kuhn poker's Nash equilibria (Kuhn 1950) and the distance to them.

Player 0's equilibria form a one-parameter family: bet a Jack with
probability alpha in [0, 1/3], a King with 3 alpha, call with a Queen after
passing and facing a bet with alpha + 1/3; player 1's equilibrium strategy is
unique. Heinrich's thesis (fig. 3.2) measures learning in Kuhn poker as the
mean squared error of the average policy to the closest member of the family.
"""

import numpy as np
from open_spiel.python import policy as policy_lib

from nfsp_spiel.evaluation import policies


def equilibrium(game, alpha):
  """The Nash equilibrium with parameter `alpha` as an OpenSpiel TabularPolicy."""
  if not 0 <= alpha <= 1 / 3:
    raise ValueError(f"alpha={alpha}: Kuhn's equilibria have alpha in "
                     "[0, 1/3]")
  bet = {  # P(bet or call) by information state (cards 0 J, 1 Q, 2 K)
      "0": alpha, "1": 0.0, "2": 3 * alpha,
      "0pb": 0.0, "1pb": alpha + 1 / 3, "2pb": 1.0,
      "0p": 1 / 3, "1p": 0.0, "2p": 1.0,
      "0b": 0.0, "1b": 1 / 3, "2b": 1.0,
  }
  tabular = policy_lib.TabularPolicy(game)
  for key, index in tabular.state_lookup.items():
    tabular.action_probability_array[index] = [1 - bet[key], bet[key]]
  return tabular


def nash_mse(game, policy, grid=301):
  """Mean squared error over information states to the closest equilibrium."""
  if game.get_type().short_name != "kuhn_poker":
    raise ValueError(f"nash_mse needs kuhn_poker, got {game}")
  tabular = policies.as_tabular(game, policy)
  return min(
      float(np.mean((tabular.action_probability_array -
                     equilibrium(game, alpha).action_probability_array) ** 2))
      for alpha in np.linspace(0, 1 / 3, grid))
