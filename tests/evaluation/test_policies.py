"""What the evaluation takes as a policy (`policies.as_policy`): callables,
per-player policies, RL agents (in evaluation mode), and the malformed or
mismatched ones it refuses."""

import numpy as np
from open_spiel.python import policy as policy_lib
from open_spiel.python import rl_agent
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation

import known_policies


def test_agents_callables_and_per_player_policies():
  game = pyspiel.load_game("kuhn_poker")
  equilibrium = known_policies.kuhn_equilibrium(game, 0.2)
  as_callable = lambda state: equilibrium.action_probabilities(state)  # noqa: E731
  per_player = [equilibrium, as_callable]
  for source in (as_callable, per_player, {0: as_callable, 1: equilibrium}):
    assert evaluation.exploitability(game, source) == pytest.approx(
        0.0, abs=1e-12)


class _TabularAgent(rl_agent.AbstractAgent):
  """An RL agent that plays a tabular policy from the info-state tensor."""

  def __init__(self, player_id, policy):
    super().__init__(player_id)
    self.player_id = player_id
    self._by_tensor = {tuple(policy.state_in[i]): policy.action_probability_array[i]
                       for i in range(len(policy.states))}

  def step(self, time_step, is_evaluation=False):
    tensor = tuple(time_step.observations["info_state"][self.player_id])
    probs = self._by_tensor[tensor]
    return rl_agent.StepOutput(action=int(np.argmax(probs)), probs=probs)


def test_rl_agents_are_evaluated_in_evaluation_mode():
  game = pyspiel.load_game("kuhn_poker")
  equilibrium = known_policies.kuhn_equilibrium(game, 1 / 3)
  agents = {p: _TabularAgent(p, equilibrium) for p in (0, 1)}
  assert evaluation.exploitability(game, agents) == pytest.approx(
      0.0, abs=1e-12)
  # A single agent stands for its own seat only.
  mixed = [agents[0], policy_lib.UniformRandomPolicy(game)]
  assert evaluation.best_response_values(game, mixed).best_response[1] == \
      pytest.approx(1 / 18, abs=1e-12)


@pytest.mark.parametrize("bad,match", [
    (lambda state: {0: 1.0, 5: 0.0, 7: 0.5}, "probability 0.5 to action 7"),
    (lambda state: {0: 0.3, 1: 0.3}, "sum to 0.6"),
    (lambda state: {0: 1.5, 1: -0.5}, "probability -0.5"),
])
def test_malformed_policies(bad, match):
  game = pyspiel.load_game("kuhn_poker")
  with pytest.raises(ValueError, match=match):
    evaluation.exploitability(game, bad)


def test_mismatched_games():
  kuhn = pyspiel.load_game("kuhn_poker")
  leduc = pyspiel.load_game("leduc_poker")
  with pytest.raises(ValueError, match="policy is for kuhn_poker"):
    evaluation.exploitability(leduc, policy_lib.UniformRandomPolicy(kuhn))
  with pytest.raises(ValueError, match="one policy per player"):
    evaluation.exploitability(kuhn, [policy_lib.UniformRandomPolicy(kuhn)])
