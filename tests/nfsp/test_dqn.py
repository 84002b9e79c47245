"""DQN best-response learner: target-network lag, TD loss, epsilon-greedy."""

import numpy as np
import pytest
import tensorflow as tf

from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import dqn
from nfsp_spiel.nfsp import networks
from nfsp_spiel.nfsp import transitions


def _agent(refit_every):
  config = nfsp.NFSPConfig(
      best_response=nfsp.DQNConfig(replay_buffer_capacity=100,
                                   target_refit_every=refit_every),
      reservoir_buffer_capacity=100, batch_size=8, min_buffer_size_to_learn=8,
      updates_per_learn=1)
  agent = nfsp.NFSP(0, 4, 3, config, seed=0)
  rng = np.random.default_rng(0)
  agent.observe_transitions(rng.random((50, 4)), rng.integers(3, size=50),
                            rng.normal(size=50), rng.random((50, 4)),
                            np.ones((50, 3)), np.zeros(50))
  return agent


def test_target_network_lags_by_the_configured_updates():
  agent = _agent(refit_every=3)
  initial = agent.best_response_learner.target_network.numpy_weights()
  snapshots = []
  for _ in range(7):
    agent.learn()
    snapshots.append(agent.best_response_learner.q_network.numpy_weights())
  target = agent.best_response_learner.target_network.numpy_weights()
  # Refits after updates 3 and 6: the target holds update 6's weights.
  for a, b in zip(target, snapshots[5]):
    np.testing.assert_array_equal(a, b)
  assert any(not np.array_equal(a, b) for a, b in zip(target, snapshots[6]))
  fresh = _agent(refit_every=3)
  fresh.learn()
  fresh.learn()
  for a, b in zip(fresh.best_response_learner.target_network.numpy_weights(), initial):
    np.testing.assert_array_equal(a, b)
  assert int(agent.best_response_learner.updates.numpy()) == 7


def test_td_loss_matches_a_numpy_computation():
  rng = np.random.default_rng(1)
  learner = dqn.DQN(4, 3, nfsp.NFSPConfig(hidden_layers=(5,)), rng)
  batch = {"state": rng.random((6, 4)).astype(np.float32),
           "action": np.array([0, 1, 2, 0, 1, 2], np.int32),
           "reward": rng.normal(size=6).astype(np.float32),
           "next_state": rng.random((6, 4)).astype(np.float32),
           "next_legal": np.array([[1, 0, 1]] * 5 + [[0, 0, 0]], np.float32),
           "done": np.array([0, 0, 0, 0, 0, 1], np.float32)}
  q = learner.q_values(batch["state"])
  next_q = np.where(batch["next_legal"] > 0,
                    learner.q_values(batch["next_state"]), -np.inf).max(1)
  next_q[-1] = 0.0
  # Half the mean squared TD error: gradient (Q - target) / batch, the
  # scale of Heinrich's qlearner.lua.
  expected = 0.5 * np.mean((batch["reward"] + next_q - q[np.arange(6),
                                                         batch["action"]]) ** 2)
  loss = learner.loss({k: tf.constant(v) for k, v in batch.items()})
  assert float(loss) == pytest.approx(expected, rel=1e-5)


def test_without_a_target_network_the_q_network_bootstraps_itself():
  """target_refit_every=0 (Heinrich's public Leduc code): the TD target's
  max comes from the Q-network being trained."""
  rng = np.random.default_rng(3)
  no_target = nfsp.NFSPConfig(
      hidden_layers=(5,), best_response=nfsp.DQNConfig(target_refit_every=0))
  online = dqn.DQN(4, 3, no_target, rng)
  assert online.target_network is None
  batch = {"state": rng.random((4, 4)).astype(np.float32),
           "action": np.array([0, 1, 2, 0], np.int32),
           "reward": rng.normal(size=4).astype(np.float32),
           "next_state": rng.random((4, 4)).astype(np.float32),
           "next_legal": np.ones((4, 3), np.float32),
           "done": np.zeros(4, np.float32)}
  q = online.q_values(batch["state"])
  next_q = online.q_values(batch["next_state"]).max(1)
  expected = 0.5 * np.mean((batch["reward"] + next_q - q[np.arange(4),
                                                         batch["action"]]) ** 2)
  loss = online.loss({k: tf.constant(v) for k, v in batch.items()})
  assert float(loss) == pytest.approx(expected, rel=1e-5)
  lagging = dqn.DQN(4, 3, nfsp.NFSPConfig(hidden_layers=(5,)), rng)  # its target differs
  lagging.q_network.assign(online.q_network.numpy_weights())
  lagged = lagging.loss({k: tf.constant(v) for k, v in batch.items()})
  assert float(lagged) != pytest.approx(expected, rel=1e-3)


def test_double_q_values_the_q_networks_choice_by_the_target_network():
  """double_q (van Hasselt et al. 2016): the next action is the Q-network's
  argmax over the legal actions, its value the target network's; eq. 6.1's
  max over the target network is larger or equal wherever they differ."""
  rng = np.random.default_rng(4)
  config = nfsp.NFSPConfig(hidden_layers=(5,)).replace(double_q=True)
  learner = dqn.DQN(4, 3, config, rng)
  target = dqn.DQN(4, 3, nfsp.NFSPConfig(hidden_layers=(5,)), rng)
  learner.target_network.assign(target.q_network.numpy_weights())
  batch = {"state": rng.random((32, 4)).astype(np.float32),
           "action": rng.integers(3, size=32).astype(np.int32),
           "reward": rng.normal(size=32).astype(np.float32),
           "next_state": rng.random((32, 4)).astype(np.float32),
           "next_legal": np.array([[1, 1, 1], [0, 1, 1]] * 16, np.float32),
           "done": np.array([0] * 31 + [1], np.float32)}
  q = learner.q_values(batch["state"])[np.arange(32), batch["action"]]
  legal = batch["next_legal"] > 0
  choice = np.where(legal, learner.q_values(batch["next_state"]),
                    -np.inf).argmax(1)
  valued = target.q_values(batch["next_state"])
  double = valued[np.arange(32), choice] * (1 - batch["done"])
  single = np.where(legal, valued, -np.inf).max(1) * (1 - batch["done"])
  assert (choice != np.where(legal, valued, -np.inf).argmax(1)).any()
  loss = learner.loss({k: tf.constant(v) for k, v in batch.items()})
  expected = 0.5 * np.mean((batch["reward"] + double - q) ** 2)
  assert float(loss) == pytest.approx(expected, rel=1e-5)
  plain = dqn.DQN(4, 3, nfsp.NFSPConfig(hidden_layers=(5,)),
                  np.random.default_rng(0))
  plain.q_network.assign(learner.q_network.numpy_weights())
  plain.target_network.assign(target.q_network.numpy_weights())
  assert float(plain.loss({k: tf.constant(v) for k, v in batch.items()})
               ) == pytest.approx(0.5 * np.mean(
                   (batch["reward"] + single - q) ** 2), rel=1e-5)
  assert (single >= double - 1e-6).all()


def test_an_update_moves_q_by_the_gradient_of_half_the_squared_error():
  """One SGD step at stepsize lr on a single transition moves the output
  bias of the taken action by lr * (target - Q), nothing else of it."""
  rng = np.random.default_rng(2)
  no_target = nfsp.NFSPConfig(
      hidden_layers=(5,), best_response=nfsp.DQNConfig(target_refit_every=0))
  learner = dqn.DQN(4, 3, no_target, rng)
  batch = {"state": rng.random((1, 4)).astype(np.float32),
           "action": np.array([1], np.int32),
           "reward": np.array([0.7], np.float32),
           "next_state": np.zeros((1, 4), np.float32),
           "next_legal": np.zeros((1, 3), np.float32),
           "done": np.ones(1, np.float32)}
  q = learner.q_values(batch["state"])[0, 1]
  bias = learner.q_network.numpy_weights()[-1]
  records = transitions.records(learner.record_fields(), **batch)
  learner.learn(tf.constant(records[None], tf.float32))  # one update
  moved = learner.q_network.numpy_weights()[-1] - bias
  np.testing.assert_allclose(moved, [0.0, 0.1 * (0.7 - q), 0.0], rtol=1e-5,
                             atol=1e-7)


def test_td_error_clip_is_the_huber_loss():
  """td_error_clip=c (Mnih et al. 2015): half the squared TD error within
  c, c (|error| - c / 2) beyond; one SGD step on a single transition moves
  the taken action's output bias by lr * clip(target - Q, -c, c)."""
  rng = np.random.default_rng(5)
  config = nfsp.NFSPConfig(hidden_layers=(5,)).replace(td_error_clip=0.5,
                                                       target_refit_every=0)
  learner = dqn.DQN(4, 3, config, rng)
  batch = {"state": rng.random((8, 4)).astype(np.float32),
           "action": rng.integers(3, size=8).astype(np.int32),
           "reward": np.array([-3, -1, -0.2, 0, 0.1, 0.4, 1, 3], np.float32),
           "next_state": np.zeros((8, 4), np.float32),
           "next_legal": np.zeros((8, 3), np.float32),
           "done": np.ones(8, np.float32)}
  errors = batch["reward"] - learner.q_values(batch["state"])[
      np.arange(8), batch["action"]]
  assert (np.abs(errors) > 0.5).sum() >= 3 and (np.abs(errors) < 0.5).any()
  expected = np.where(np.abs(errors) <= 0.5, 0.5 * errors ** 2,
                      0.5 * (np.abs(errors) - 0.25))
  loss = learner.loss({k: tf.constant(v) for k, v in batch.items()})
  assert float(loss) == pytest.approx(expected.mean(), rel=1e-5)
  first = {k: v[:1] for k, v in batch.items()}  # error near -3: clipped
  bias = learner.q_network.numpy_weights()[-1]
  action = first["action"][0]
  learner.learn(tf.constant(transitions.records(
      learner.record_fields(), **first)[None], tf.float32))
  moved = learner.q_network.numpy_weights()[-1] - bias
  np.testing.assert_allclose(moved[action], 0.1 * -0.5, rtol=1e-5)
  with pytest.raises(ValueError, match="td_error_clip=-1"):
    nfsp.DQNConfig(td_error_clip=-1)


def test_torch_initialisation_bounds():
  """Torch7's nn.Linear default: weights and biases in +-1/sqrt(fan_in)."""
  rng = np.random.default_rng(0)
  for fan_in, fan_out in ((30, 64), (64, 3)):
    weights, bias = networks.initial_layer(fan_in, fan_out, "torch", rng)
    limit = 1 / np.sqrt(fan_in)
    assert np.abs(weights).max() <= limit and np.abs(bias).max() <= limit
    assert np.abs(weights).max() > 0.9 * limit and np.abs(bias).min() > 0
  weights, bias = networks.initial_layer(30, 64, "glorot", rng)
  assert not bias.any() and np.abs(weights).max() <= np.sqrt(6 / 94)
  with pytest.raises(ValueError, match="init='he'"):
    networks.initial_layer(3, 3, "he", rng)


def test_epsilon_greedy_distribution():
  probs = dqn.epsilon_greedy(np.array([[5.0, 9.0, 1.0], [3.0, 2.0, 1.0]]),
                             np.array([[1, 0, 1], [1, 1, 1]], np.float64),
                             0.3)
  np.testing.assert_allclose(probs, [[0.85, 0.0, 0.15], [0.8, 0.1, 0.1]])


def test_learning_reduces_the_td_loss():
  """Fitting a memory of 50 transitions: the TD loss falls."""
  learner = _agent(refit_every=1000)
  learner.store()
  batch = learner.rl_memory.sample((1, 8))["record"]
  first = None
  for _ in range(200):
    learner.learn()
    first = first if first is not None else learner.losses["rl_loss"]
  assert batch.shape == (1, 8, 4 + 1 + 1 + 4 + 3 + 1)
  assert learner.losses["rl_loss"] < first
