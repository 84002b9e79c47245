"""Policies with known properties, shared by the evaluation tests."""

import numpy as np
from open_spiel.python import policy as policy_lib

from nfsp_spiel.evaluation import kuhn


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
  return kuhn.equilibrium(game, alpha)
