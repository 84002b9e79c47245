"""Policies with known properties, and the property every policy must
have, shared by the tests."""

import numpy as np
import pytest
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


def assert_legal_along_sampled_games(game, policy, games=20, seed=0):
  """Plays `games` games of `game` with every seat drawn from `policy` (and
  chance from its outcomes), asserting at each decision that the policy is
  a distribution over exactly the legal actions."""
  rng = np.random.default_rng(seed)
  for _ in range(games):
    state = game.new_initial_state()
    while not state.is_terminal():
      if state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes())
        state.apply_action(rng.choice(outcomes, p=probabilities))
        continue
      probabilities = policy.action_probabilities(state)
      assert sorted(probabilities) == sorted(state.legal_actions())
      assert sum(probabilities.values()) == pytest.approx(1.0)
      actions, weights = zip(*probabilities.items())
      state.apply_action(rng.choice(actions, p=weights))
