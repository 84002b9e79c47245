"""NFSP agent: epsilon schedules, anticipatory dynamics, OpenSpiel RL-loop
conformance, checkpoints and bad input."""

import json

import numpy as np
from open_spiel.python import rl_agent
from open_spiel.python import rl_environment
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import rl_loop

SMALL = nfsp.NFSPConfig(best_response=nfsp.DQNConfig(replay_buffer_capacity=5000),
                        reservoir_buffer_capacity=20000, learn_every=16,
                        batch_size=32, min_buffer_size_to_learn=32)


def _env(game, seed=0):
  return rl_environment.Environment(
      game, chance_event_sampler=rl_environment.ChanceEventSampler(seed))


_play = rl_loop.play_episodes


def test_epsilon_schedules():
  """Polynomial (the public code's): 0.06 / (1 + 0.01 sqrt(k)); inverse
  square root: 0.06 / sqrt(1 + k); k = own steps / learn_every."""
  agent = nfsp.NFSP(0, 11, 2, nfsp.NFSPConfig())
  assert agent.epsilon == pytest.approx(0.06)
  agent.steps = 64 * 10_000  # k = 10^4: sqrt(k) = 100
  assert agent.epsilon == pytest.approx(0.03)
  literal = nfsp.NFSP(0, 11, 2, nfsp.NFSPConfig(
      best_response=nfsp.DQNConfig(epsilon_schedule="inverse_sqrt"),
      learn_every=128))
  literal.steps = 128 * 99
  assert literal.epsilon == pytest.approx(0.006)


def test_rl_loop_conformance_and_evaluation_does_not_learn():
  """Legal actions only, full distributions summing to one, over Leduc in
  OpenSpiel's own RL loop; evaluation steps change no agent state."""
  env = _env("leduc_poker", 3)
  agents = nfsp.agents_for(env.game, SMALL, seed=1)
  assert all(isinstance(a, rl_agent.AbstractAgent) for a in agents)

  def check(time_step, player, output):
    legal = time_step.observations["legal_actions"][player]
    assert output.action in legal
    assert output.probs.shape == (env.game.num_distinct_actions(),)
    assert output.probs.sum() == pytest.approx(1.0)
    assert output.probs[np.setdiff1d(np.arange(3), legal)].sum() == 0.0

  _play(env, agents, 300, check=check)
  for agent in agents:
    agent.store()
  assert agents[0].rl_memory.seen > 0 and agents[0].best_response_learner.updates.numpy() > 0
  before = [(a.steps, a.episodes, a.rl_memory.seen, a.sl_memory.seen,
             [w.copy() for w in a.best_response_learner.weights], a.checkpoint_arrays())
            for a in agents]
  _play(env, agents, 100, is_evaluation=True, check=check)
  for agent, (steps, episodes, rl_seen, sl_seen, weights, arrays) in zip(
      agents, before):
    assert (agent.steps, agent.episodes) == (steps, episodes)
    assert (agent.rl_memory.seen, agent.sl_memory.seen) == (rl_seen, sl_seen)
    for a, b in zip(agent.best_response_learner.weights, weights):
      np.testing.assert_array_equal(a, b)
    # The training RNG did not move (evaluation samples from its own).
    assert (json.loads(agent.checkpoint_arrays()["rng"])[0] ==
            json.loads(arrays["rng"])[0])


def test_anticipatory_choice_is_per_episode_and_only_best_responses_reach_sl():
  """Per episode all of an agent's steps follow one policy (epsilon-greedy
  Q with probability eta); M_SL receives exactly the best-response steps."""
  env = _env("kuhn_poker", 0)
  agents = nfsp.agents_for(env.game, SMALL.replace(
      anticipatory_param=0.3, learn_every=10**9), seed=0)
  best_response_steps, episodes_in_mode = 0, []
  for _ in range(2000):
    time_step = env.reset()
    modes = []
    while not time_step.last():
      player = time_step.observations["current_player"]
      agent = agents[player]
      epsilon = agent.epsilon
      output = agent.step(time_step)
      probs = output.probs
      mode, _ = agent.episode()
      modes.append((player, mode))
      if player == 0:
        best_response_steps += mode
        # An episode's policy is fixed: Pi's softmax never has exact 0/1
        # masses, epsilon-greedy's does (epsilon/2 and 1 - epsilon/2).
        greedy = np.isclose(probs.max(), 1 - epsilon / 2)
        assert greedy == mode
      time_step = env.step([output.action])
    for agent in agents:
      agent.step(time_step)
    player0 = {m for p, m in modes if p == 0}
    assert len(player0) == 1
    episodes_in_mode.append(player0.pop())
  agents[0].store()
  assert agents[0].sl_memory.seen == best_response_steps
  assert np.mean(episodes_in_mode) == pytest.approx(0.3, abs=0.03)


def test_dqn_baseline_average_network_only_observes():
  """eta = 1: every step is a best-response step, all reach M_SL, and the
  average network never acts."""
  env = _env("kuhn_poker", 0)
  agents = nfsp.agents_for(env.game, SMALL.replace(anticipatory_param=1.0),
                           seed=0)
  _play(env, agents, 500)
  for agent in agents:
    agent.store()
    assert agent.sl_memory.seen == agent.steps


def test_policies_are_openspiel_policies():
  game = pyspiel.load_game("kuhn_poker")
  agents = nfsp.agents_for(game, SMALL)
  for kind in nfsp.POLICIES:
    learned = nfsp.NFSPPolicy(game, agents, kind)
    tabular = learned.to_tabular()
    for state in tabular.states:
      probs = learned.action_probabilities(state)
      np.testing.assert_allclose(
          tabular.policy_for_key(state.information_state_string())[
              list(probs)], list(probs.values()), rtol=1e-6)
      assert sum(probs.values()) == pytest.approx(1.0)
  greedy = nfsp.NFSPPolicy(game, agents, "greedy_average").to_tabular()
  assert set(np.unique(greedy.action_probability_array)) <= {0.0, 1.0}


def test_checkpoint_round_trip(tmp_path):
  env = _env("kuhn_poker", 0)
  agents = nfsp.agents_for(env.game, SMALL, seed=0)
  _play(env, agents, 400)
  path = nfsp.save_agents(tmp_path / "ckpt", env.game, agents)
  copies = nfsp.agents_for(env.game, SMALL, seed=7)
  nfsp.restore_agents(path, env.game, copies)
  for agent, copy in zip(agents, copies):
    a, b = agent.checkpoint_arrays(), copy.checkpoint_arrays()
    assert a.keys() == b.keys()
    for key in a:
      np.testing.assert_array_equal(a[key], b[key], err_msg=key)
  # Both continue identically: same RNG, memories, weights and counters.
  env_a = _env("kuhn_poker", 5)
  env_b = _env("kuhn_poker", 5)
  _play(env_a, agents, 200)
  _play(env_b, copies, 200)
  for agent, copy in zip(agents, copies):
    for a, b in zip(agent.best_response_learner.weights, copy.best_response_learner.weights):
      np.testing.assert_array_equal(a, b)


def test_checkpoint_errors_change_nothing(tmp_path):
  game = pyspiel.load_game("kuhn_poker")
  agents = nfsp.agents_for(game, SMALL, seed=0)
  path = nfsp.save_agents(str(tmp_path / "ckpt.npz"), game, agents)
  other = nfsp.agents_for(game, SMALL.replace(anticipatory_param=0.5),
                          seed=1)
  weights = [w.copy() for w in other[0].best_response_learner.weights]
  with pytest.raises(ValueError, match="with other settings \\(anticipatory_param: 0.1 there, 0.5 here\\)"):
    nfsp.restore_agents(path, game, other)
  for a, b in zip(other[0].best_response_learner.weights, weights):
    np.testing.assert_array_equal(a, b)
  with pytest.raises(ValueError, match="holds NFSP on kuhn_poker"):
    nfsp.restore_agents(path, pyspiel.load_game("leduc_poker"),
                        nfsp.agents_for(pyspiel.load_game("leduc_poker"),
                                        SMALL))
  with pytest.raises(FileNotFoundError, match="no checkpoint at"):
    nfsp.restore_agents(str(tmp_path / "missing.npz"), game, agents)


def test_bad_input():
  # Tic-Tac-Toe is read through its observation tensor (perfect information);
  # an imperfect-information game without information-state tensors is not.
  assert nfsp.agents_for(pyspiel.load_game("tic_tac_toe"),
                         SMALL)[0].state_size == 27
  with pytest.raises(ValueError, match="provides no information-state"):
    nfsp.agents_for(pyspiel.load_game("liars_dice_ir"), SMALL)
  with pytest.raises(ValueError, match="NFSPConfig.reservoir_buffer_kind='fifo'"):
    nfsp.NFSPConfig(reservoir_buffer_kind="fifo")
  with pytest.raises(ValueError, match="NFSPConfig.anticipatory_param=1.5"):
    nfsp.NFSPConfig(anticipatory_param=1.5)
  with pytest.raises(ValueError, match="NFSPConfig.memory_dtype='int4'.*"
                     "'float32', 'uint8' or 'bits'"):
    nfsp.NFSPConfig(memory_dtype="int4")
  with pytest.raises(ValueError, match="NFSPConfig.batch_size=0"):
    nfsp.NFSPConfig(batch_size=0)
  agent = nfsp.NFSP(0, 10, 2, SMALL)
  env = rl_environment.Environment("kuhn_poker")
  with pytest.raises(ValueError, match=r"shape \(1, 11\).*input size 10"):
    agent.step(env.reset())
  with pytest.raises(ValueError, match="policy='greedy'"):
    agent.probabilities(np.zeros((1, 10)), np.ones((1, 2)), "greedy")
  with pytest.raises(TypeError, match="NFSPConfig"):
    nfsp.NFSP(0, 10, 2, {"anticipatory_param": 0.1})
  for args, match in (((0, 0, 2), "state_size=0"), ((0, 11, 0), "num_actions=0"),
                      ((0, 30.7, 3), "state_size=30.7"),
                      ((-1, 11, 2), "player_id=-1"),
                      ((0, "11", 2), "state_size='11'")):
    with pytest.raises(ValueError, match=match + ": must be a whole number"):
      nfsp.NFSP(*args, SMALL)
  assert nfsp.NFSP(np.int64(1), 11.0, 2, SMALL).state_size == 11
  with pytest.raises(ValueError, match="player_id=7: the time step has 2"):
    nfsp.NFSP(7, 11, 2, SMALL).step(env.reset())
  leduc = rl_environment.Environment("leduc_poker")
  time_step = leduc.reset()
  time_step.observations["legal_actions"][0] = [0, 1, 2]
  with pytest.raises(ValueError, match="legal action 2 does not fit "
                     "num_actions=2"):
    nfsp.NFSP(0, 30, 2, SMALL).step(time_step)


def test_sl_memory_policy_counts_actions_per_information_state():
  """M_SL's raw frequencies at the information states whose tensors it
  holds, uniform elsewhere; states sharing a tensor share them."""
  game = pyspiel.load_game("kuhn_poker")
  agents = nfsp.agents_for(game, SMALL)
  state = game.new_initial_state()
  state.apply_action(0)  # player 0 holds the jack
  state.apply_action(1)
  jack = np.asarray(state.information_state_tensor(0), np.float32)
  # Three passes and a bet at the jack's first decision, nothing else.
  agents[0].record_steps(np.repeat(jack[None], 4, axis=0), [0, 0, 0, 1],
                         [True] * 4)
  tabular = nfsp.sl_memory_policy(game, agents)
  np.testing.assert_allclose(
      tabular.policy_for_key(state.information_state_string(0)), [0.75, 0.25])
  state.apply_action(0)
  state.apply_action(1)  # jack, pass, bet: never recorded
  np.testing.assert_allclose(
      tabular.policy_for_key(state.information_state_string(0)), [0.5, 0.5])
  assert (tabular.action_probability_array[
      np.array(list(tabular.state_lookup.values()))] >= 0).all()


# Slow: the fused call's numbers: tests/test_same_numbers.py.
@pytest.mark.slow
def test_learning_together_is_learning_one_agent_after_the_other():
  """`FusedLearning` (one compiled call for several agents, as the batched
  driver makes them) takes the same updates as each agent's own `learn`:
  the same batches, the same weights after, the same losses; an agent with
  no call due or no memory ready is left alone."""
  game = pyspiel.load_game("kuhn_poker")
  pairs = [nfsp.agents_for(game, SMALL, seed=3) for _ in range(2)]
  for agents in pairs:
    _play(_env(game), agents, 400)
    assert min(len(agent.sl_memory) for agent in agents) >= 32  # ready
  idle = nfsp.NFSP(0, 11, 2, SMALL, seed=5)  # empty memories
  apart, together = pairs
  apart[0].learn(1)
  apart[1].learn(2)
  idle_weights = idle.best_response_learner.weights
  nfsp.FusedLearning().learn([*together, idle], [1, 2, 3])
  for a, b in zip(apart, together):
    assert int(a.best_response_learner.updates.numpy()) == int(b.best_response_learner.updates.numpy()) > 0
    assert np.isfinite(list(a.losses.values())).all()
    assert a.losses == pytest.approx(b.losses, rel=1e-6)
    for x, y in zip(
        a.best_response_learner.weights + a.average_policy.weights,
        b.best_response_learner.weights + b.average_policy.weights):
      np.testing.assert_allclose(x, y, rtol=1e-6, atol=1e-7)
  assert idle.best_response_learner.weights is idle_weights
  assert int(idle.best_response_learner.updates.numpy()) == 0
