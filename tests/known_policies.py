"""Policies with known properties, shared by the evaluation tests."""

import numpy as np
from open_spiel.python import policy as policy_lib


def random_tabular(game, seed, states=None):
  """A seeded random TabularPolicy (no ties, unlike the uniform policy)."""
  tabular = policy_lib.TabularPolicy(game, states=states)
  rng = np.random.default_rng(seed)
  probs = rng.random(tabular.action_probability_array.shape) ** 3
  probs *= tabular.legal_actions_mask
  tabular.action_probability_array = probs / probs.sum(1, keepdims=True)
  return tabular


def kuhn_equilibrium(game, alpha):
  """Kuhn's one-parameter Nash family (Kuhn 1950), alpha in [0, 1/3]."""
  bet = {  # P(bet/call) by information state
      "0": alpha, "1": 0.0, "2": 3 * alpha,
      "0pb": 0.0, "1pb": alpha + 1 / 3, "2pb": 1.0,
      "0p": 1 / 3, "1p": 0.0, "2p": 1.0,
      "0b": 0.0, "1b": 1 / 3, "2b": 1.0,
  }
  tabular = policy_lib.TabularPolicy(game)
  for key, index in tabular.state_lookup.items():
    tabular.action_probability_array[index] = [1 - bet[key], bet[key]]
  return tabular
