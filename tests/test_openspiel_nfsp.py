"""A script written for OpenSpiel's NFSP runs with one import changed.

The loop below is how OpenSpiel's `nfsp_kuhn_pytorch.py` example trains and
evaluates its agents (constructor call, kwargs, `temp_mode_as` evaluation
through a policy, `loss`), written against `nfsp_spiel.openspiel_nfsp`.
"""

import numpy as np
from open_spiel.python import policy
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import exploitability
import pytest

from nfsp_spiel import openspiel_nfsp as nfsp  # was: open_spiel...pytorch


class _AveragePolicies(policy.Policy):
  """The agents' average policies as one OpenSpiel policy, as the example
  evaluates them: a time step per state, played in MODE.AVERAGE_POLICY."""

  def __init__(self, env, agents):
    super().__init__(env.game, [0, 1])
    self._agents = agents

  def action_probabilities(self, state, player_id=None):
    player = state.current_player()
    legal = state.legal_actions(player)
    observations = {"info_state": [None, None],
                    "legal_actions": [None, None], "current_player": player}
    observations["info_state"][player] = state.information_state_tensor(
        player)
    observations["legal_actions"][player] = legal
    time_step = rl_environment.TimeStep(observations=observations,
                                        rewards=None, discounts=None,
                                        step_type=None)
    with self._agents[player].temp_mode_as(nfsp.MODE.AVERAGE_POLICY):
      probs = self._agents[player].step(time_step, is_evaluation=True).probs
    return {action: probs[action] for action in legal}


def _agents(env, **changes):
  kwargs = {"replay_buffer_capacity": int(2e5), "epsilon_decay_duration":
            20_000, "epsilon_start": 0.06, "epsilon_end": 0.001, **changes}
  return [nfsp.NFSP(player, env.observation_spec()["info_state"][0],
                    env.action_spec()["num_actions"], [64], int(2e6), 0.1,
                    min_buffer_size_to_learn=100, learn_every=16, **kwargs)
          for player in range(2)]


def test_openspiels_example_loop_learns_kuhn():
  env = rl_environment.Environment("kuhn_poker", players=2)
  agents = _agents(env)
  evaluated = _AveragePolicies(env, agents)
  start = exploitability.exploitability(env.game, evaluated)
  assert agents[0].loss == (None, None)
  for _ in range(20_000):
    time_step = env.reset()
    while not time_step.last():
      player = time_step.observations["current_player"]
      time_step = env.step([agents[player].step(time_step).action])
    for agent in agents:
      agent.step(time_step)
  end = exploitability.exploitability(env.game, evaluated)
  assert start > 0.4 and end < 0.25, (start, end)
  assert all(loss is not None for loss in agents[0].loss)
  assert agents[0].step_counter == agents[0].steps > 0
  assert agents[0].mode in (nfsp.MODE.BEST_RESPONSE,
                            nfsp.MODE.AVERAGE_POLICY)


def test_the_arguments_land_in_the_config():
  env = rl_environment.Environment("kuhn_poker")
  agent = _agents(env, update_target_network_every=320,
                  epsilon_decay_schedule_str="linear")[1]
  config = agent.config
  assert (config.hidden_layers, config.sl_memory_capacity,
          config.anticipatory, config.rl_memory_capacity) == (
              (64,), 2_000_000, 0.1, 200_000)
  assert (config.min_memory_to_learn, config.learn_every,
          config.target_refit_every, config.updates_per_learn) == (
              100, 16, 20, 1)
  assert (config.epsilon_schedule, config.epsilon_start, config.epsilon_end,
          config.epsilon_decay_steps) == ("linear", 0.06, 0.001, 20_000)
  assert agent.player_id == 1 and agent.epsilon == pytest.approx(0.06)
  agent.steps = 10_000
  assert agent.epsilon == pytest.approx((0.06 + 0.001) / 2)
  agent.steps = 50_000
  assert agent.epsilon == pytest.approx(0.001)


@pytest.mark.parametrize("changes,message", [
    ({"optimizer_str": "adam"}, "optimizer_str='adam': this agent supports"),
    ({"loss_str": "huber"}, "loss_str='huber'"),
    ({"discount_factor": 0.99}, "discount_factor=0.99"),
    ({"weight_update_coeff": 0.5}, "weight_update_coeff=0.5"),
])
def test_what_has_no_counterpart_is_refused(changes, message):
  env = rl_environment.Environment("kuhn_poker")
  with pytest.raises(ValueError, match=message):
    _agents(env, **changes)
  with pytest.raises(TypeError, match=r"\['replay_buffer_class'\]"):
    _agents(env, replay_buffer_class=list)


def test_temp_mode_as_plays_the_greedy_best_response_and_restores():
  env = rl_environment.Environment("kuhn_poker")
  agent = _agents(env)[0]
  time_step = env.reset()
  with agent.temp_mode_as(nfsp.MODE.best_response):  # the TF1 spelling
    probs = agent.step(time_step, is_evaluation=True).probs
    assert agent.mode is nfsp.MODE.BEST_RESPONSE
  assert sorted(np.round(probs, 6)) == [0.0, 1.0]
  assert agent._mode is None  # pylint: disable=protected-access
