"""Scripts written for OpenSpiel's NFSP run with one import changed.

OpenSpiel's own Kuhn example (`nfsp_kuhn_pytorch.py`, read from the
installed package) runs with its import replaced; a loop shaped like its TF1
example runs on `openspiel_nfsp_tf1`; the constructors' defaults are
OpenSpiel's and every argument lands in the `NFSPConfig`.
"""

import enum
import importlib.util
import inspect
import re
import subprocess
import sys

import numpy as np
from open_spiel.python import policy
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import exploitability
import pytest

from nfsp_spiel import nfsp as nfsp_lib
from nfsp_spiel.nfsp import openspiel_nfsp
from nfsp_spiel.nfsp import openspiel_nfsp_tf1
from nfsp_spiel.core.quiet_tensorflow import tf
from nfsp_spiel.nfsp import rl_loop

OPENSPIELS_IMPORT = "from open_spiel.python.pytorch import nfsp\n"
OURS = "from nfsp_spiel.nfsp import openspiel_nfsp as nfsp\n"


# Slow: 55 s; test_a_tf1_script_learns_kuhn_with_one_import_changed stays.
@pytest.mark.slow
def test_openspiels_kuhn_example_learns_with_one_import_changed(tmp_path):
  source = importlib.util.find_spec(
      "open_spiel.python.examples.nfsp_kuhn_pytorch").origin
  with open(source) as f:
    script = f.read()
  assert script.count(OPENSPIELS_IMPORT) == 1
  path = tmp_path / "nfsp_kuhn.py"
  path.write_text(script.replace(OPENSPIELS_IMPORT, OURS))
  # The example's own settings: hidden [128], M_RL 200k, M_SL 2m, eta 0.1,
  # epsilon 0.06 -> 0.001, OpenSpiel's learning rates and cadence.
  result = subprocess.run(
      [sys.executable, str(path), "--num_train_episodes=60000",
       "--eval_every=10000"], cwd=tmp_path, capture_output=True, text=True,
      timeout=600, check=False)
  assert result.returncode == 0, result.stderr[-3000:]
  curve = [float(x) for x in
           re.findall(r"Exploitability AVG (\S+)", result.stderr)]
  # OpenSpiel's own agent: 0.42 at 10k episodes, 0.19 at 60k; an agent that
  # never learns stays at 0.42.
  assert len(curve) == 6 and curve[-1] < 0.25 and curve[-1] < curve[0] - 0.1, (
      curve)


class _AveragePolicies(policy.Policy):
  """The agents' average policies as one OpenSpiel policy, evaluated as
  OpenSpiel's examples do: one evaluation time step per state, inside
  `temp_mode_as`."""

  def __init__(self, game, agents, mode):
    super().__init__(game, list(range(game.num_players())))
    self._agents = agents
    self._mode = mode

  def action_probabilities(self, state, player_id=None):
    player = state.current_player()
    legal = state.legal_actions(player)
    observations = {"info_state": [None] * self.game.num_players(),
                    "legal_actions": [None] * self.game.num_players(),
                    "current_player": player}
    observations["info_state"][player] = state.information_state_tensor(
        player)
    observations["legal_actions"][player] = legal
    time_step = rl_environment.TimeStep(observations=observations,
                                        rewards=None, discounts=None,
                                        step_type=None)
    with self._agents[player].temp_mode_as(self._mode):
      probs = self._agents[player].step(time_step, is_evaluation=True).probs
    return {action: probs[action] for action in legal}


_train = rl_loop.play_episodes


def _tf1_agents(session, env, **changes):
  kwargs = {"replay_buffer_capacity": int(2e5), "epsilon_decay_duration":
            20_000, "epsilon_start": 0.06, "epsilon_end": 0.001,
            "min_buffer_size_to_learn": 100, "learn_every": 16, **changes}
  return [openspiel_nfsp_tf1.NFSP(
      session, player, env.observation_spec()["info_state"][0],
      env.action_spec()["num_actions"], [64], int(2e6), 0.1, **kwargs)
          for player in range(2)]


def test_a_tf1_script_learns_kuhn_with_one_import_changed():
  env = rl_environment.Environment("kuhn_poker", players=2)
  with tf.compat.v1.Session() as session:
    agents = _tf1_agents(session, env)
    evaluated = _AveragePolicies(env.game, agents,
                                 openspiel_nfsp_tf1.MODE.average_policy)
    session.run(tf.compat.v1.global_variables_initializer())
    start = exploitability.exploitability(env.game, evaluated)
    assert agents[0].loss == (None, None)
    _train(env, agents, 20_000)
    end = exploitability.exploitability(env.game, evaluated)
  assert start > 0.4 and end < 0.25, (start, end)
  assert all(loss is not None for loss in agents[0].loss)
  dqn = agents[0].config.best_response
  assert (dqn.epsilon_schedule, dqn.target_refit_every) == ("linear", 62)


def test_the_defaults_are_openspiels():
  openspiels = pytest.importorskip("open_spiel.python.pytorch.nfsp")
  theirs = inspect.signature(openspiels.NFSP).parameters
  ours = inspect.signature(openspiel_nfsp.NFSP).parameters
  assert list(ours)[:6] == list(theirs)[:6]
  for name, parameter in ours.items():
    if name != "kwargs":
      assert parameter.default == theirs[name].default, name
  dqn = {name: parameter.default for name, parameter in inspect.signature(
      openspiels.dqn.DQN).parameters.items()}
  config = openspiel_nfsp.openspiel_config([128], int(2e6), 0.1)
  ours = config.best_response
  assert (ours.replay_buffer_capacity, ours.epsilon_start, ours.epsilon_end,
          ours.epsilon_decay_duration, ours.epsilon_schedule) == (
              dqn["replay_buffer_capacity"], dqn["epsilon_start"],
              dqn["epsilon_end"], dqn["epsilon_decay_duration"],
              {"exp": "exponential"}[dqn["epsilon_decay_schedule_str"]])
  assert ours.target_refit_every == dqn["update_target_network_every"] // 64
  assert (dqn["discount_factor"], dqn["loss_str"], dqn["optimizer_str"],
          dqn["weight_update_coeff"], dqn["gradient_clipping"],
          dqn["device"]) == (1.0, "mse", "sgd", 0.995, None, "cpu")
  assert (ours.learning_rate, config.sl_learning_rate,
          config.batch_size, config.min_buffer_size_to_learn, config.learn_every,
          config.updates_per_learn, config.reward_scale, config.device) == (
              0.02, 0.01, 128, 1000, 64, 1, 1.0, "/CPU:0")


def test_the_arguments_land_in_the_config():
  env = rl_environment.Environment("kuhn_poker")
  agent = openspiel_nfsp.NFSP(
      1, env.observation_spec()["info_state"], 2, [32, 16], 3000, 0.25,
      batch_size=64, rl_learning_rate=0.05, sl_learning_rate=0.002,
      min_buffer_size_to_learn=10, learn_every=16, seed=7,
      replay_buffer_capacity=500, update_target_network_every=320,
      epsilon_start=0.06, epsilon_end=0.001, epsilon_decay_duration=20_000,
      epsilon_decay_schedule_str="linear", device="cuda:1",
      weight_update_coeff=1.0, huber_loss_parameter=2.0,
      allow_checkpointing=False)
  config = agent.config
  dqn = config.best_response
  assert (agent.player_id, agent.state_size, agent.num_actions) == (1, 11, 2)
  assert (config.hidden_layers, config.reservoir_buffer_capacity, config.reservoir_buffer_kind,
          config.anticipatory_param, config.batch_size, config.sl_learning_rate,
          config.learn_every, dqn.replay_buffer_capacity) == (
              (32, 16), 3000, "reservoir", 0.25, 64, 0.002, 16, 500)
  # Half the squared error at twice the rate: OpenSpiel's SGD step; no
  # update before a batch's worth of records.
  assert (dqn.learning_rate, config.min_buffer_size_to_learn) == (0.1, 64)
  assert (dqn.target_refit_every, config.updates_per_learn,
          config.device) == (20, 1, "/GPU:1")
  assert (dqn.epsilon_schedule, dqn.epsilon_start, dqn.epsilon_end,
          dqn.epsilon_decay_duration) == ("linear", 0.06, 0.001, 20_000)
  assert agent.epsilon == pytest.approx(0.06)
  agent.steps = 10_000
  assert agent.epsilon == pytest.approx((0.06 + 0.001) / 2)
  agent.steps = 50_000
  assert agent.epsilon == pytest.approx(0.001)
  seeded = [openspiel_nfsp.NFSP(0, 11, 2, [8], 100, 0.5, seed=s)
            for s in (7, 7, 8)]
  weights = [a.average_network.numpy_weights()[0] for a in seeded]
  assert (weights[0] == weights[1]).all() and (weights[0] != weights[2]).any()


@pytest.mark.parametrize("changes,error,message", [
    ({"optimizer_str": "adam"}, ValueError,
     r"optimizer_str='adam' is not supported: the agent descends by plain "
     r"SGD; allowed: \('sgd',\)"),
    ({"optimizer_str": "rmsprop"}, ValueError, "optimizer_str='rmsprop'"),
    ({"loss_str": "huber"}, ValueError, "loss_str='huber'"),
    ({"discount_factor": 0.99}, ValueError, "discount_factor=0.99"),
    ({"weight_update_coeff": 0.5}, ValueError, "weight_update_coeff=0.5"),
    ({"gradient_clipping": 10.0}, ValueError, "gradient_clipping=10.0"),
    ({"epsilon_decay_schedule_str": "cosine"}, ValueError,
     r"epsilon_decay_schedule_str='cosine'.*\('exp', 'linear'\)"),
    ({"replay_buffer_class": list}, ValueError,
     "replay_buffer_class=<class 'list'> is not supported"),
    ({"device": "mps"}, ValueError, "device='mps'"),
    ({"epsilon_decay": 0.5, "learning_rate": 0.1}, TypeError,
     r"take no arguments \['epsilon_decay', 'learning_rate'\]"),
])
def test_what_has_no_counterpart_is_refused(changes, error, message):
  with pytest.raises(error, match=message):
    openspiel_nfsp.NFSP(0, 11, 2, [8], 100, 0.1, **changes)


@pytest.mark.parametrize("changes,error,message", [
    ({"model_type": "conv2d"}, ValueError, "model_type='conv2d'"),
    ({"input_shape": (3, 3)}, ValueError, r"input_shape=\(3, 3\)"),
    ({"weight_update_coeff": 0.995}, TypeError,
     r"TF1 NFSP and DQN take no arguments \['weight_update_coeff'\]"),
    ({"optimizer_str": "adam"}, ValueError, "optimizer_str='adam'"),
])
def test_the_tf1_constructor_refuses_what_it_cannot_do(changes, error,
                                                       message):
  with pytest.raises(error, match=message):
    openspiel_nfsp_tf1.NFSP(None, 0, 11, 2, [8], 100, 0.1, **changes)


def test_a_multidimensional_state_shape_is_refused():
  with pytest.raises(ValueError, match=r"state_representation_size=\(3, 4\)"):
    openspiel_nfsp.NFSP(0, (3, 4), 2, [8], 100, 0.1)


def test_temp_mode_as_takes_each_openspiel_modes_spelling():
  env = rl_environment.Environment("kuhn_poker")
  agent = openspiel_nfsp.NFSP(0, 11, 2, [8], 100, 0.1)
  time_step = env.reset()
  average = nfsp_lib.NFSPPolicy(env.game, [agent, agent]).action_probabilities(
      env.get_state)
  tf1_mode = enum.Enum("mode", "best_response average_policy")  # from 1
  for mode in (openspiel_nfsp.MODE.BEST_RESPONSE,
               openspiel_nfsp_tf1.MODE.best_response,
               tf1_mode.best_response):
    with agent.temp_mode_as(mode):
      probs = agent.step(time_step, is_evaluation=True).probs
      assert agent.mode is openspiel_nfsp.MODE.BEST_RESPONSE
    assert sorted(np.round(probs, 6)) == [0.0, 1.0]
  for mode in (openspiel_nfsp.MODE.AVERAGE_POLICY, tf1_mode.average_policy):
    with agent.temp_mode_as(mode):
      probs = agent.step(time_step, is_evaluation=True).probs
    assert probs == pytest.approx([average[0], average[1]])
  assert agent._mode is None  # pylint: disable=protected-access


def test_step_counter_counts_every_training_step():
  env = rl_environment.Environment("kuhn_poker")
  agents = [openspiel_nfsp_tf1.NFSP(None, p, 11, 2, [8], 100, 0.1)
            for p in range(2)]
  calls = [0, 0]
  for _ in range(50):
    time_step = env.reset()
    while not time_step.last():
      player = time_step.observations["current_player"]
      calls[player] += 1
      time_step = env.step([agents[player].step(time_step).action])
    for player, agent in enumerate(agents):
      calls[player] += 1
      agent.step(time_step)
  assert [a.step_counter for a in agents] == calls
  assert [a.get_step_counter() for a in agents] == calls
  assert agents[0].steps == calls[0] - 50
