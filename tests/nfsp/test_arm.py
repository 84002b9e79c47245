"""ARM (`nfsp_spiel.nfsp.arm`) and NFSP-ARM: the policy, the targets, learning."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment

import nfsp_spiel  # noqa: F401  (registers the games)
from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.core.quiet_tensorflow import tf
from nfsp_spiel.nfsp import arm
from nfsp_spiel.nfsp import config as nfsp_config
from nfsp_spiel.nfsp import rl_loop
from nfsp_spiel.nfsp import transitions

# A small NFSP-ARM: iterations of 200 transitions, 50 updates each; eta 0.1
# and one layer of 64, the values the tests below were measured with (the
# preset now takes the authors' eta 0.5 and Leduc's [128, 128, 64]).
SMALL = nfsp.NFSPConfig.nfsp_arm(
    best_response=nfsp.ARMConfig(iteration_steps=200, updates=50),
    reservoir_buffer_capacity=20_000, min_buffer_size_to_learn=100, anticipatory_param=0.1,
    hidden_layers=(64,))


def test_regret_matching_by_hand():
  # outputs [Q+(a0), Q+(a1), Q+(a2), V]
  outputs = np.array([[3.0, 1.0, 0.0, 1.0],    # advantages 2, 0, -1
                      [0.5, 2.5, 9.0, 0.5],    # a2 illegal: 0, 2 -> a1
                      [0.0, 1.0, 2.0, 5.0],    # none positive: uniform
                      [4.0, 2.0, 3.0, 1.0]])   # 3, 1, 2
  legal = np.array([[1, 1, 1], [1, 1, 0], [1, 0, 1], [1, 1, 1]], np.float64)
  np.testing.assert_allclose(arm.regret_matching(outputs, legal), [
      [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.0, 0.5],
      [3 / 6, 1 / 6, 2 / 6]])


def _records(rows, state_size=2, num_actions=2):
  """M_RL rows from (state, action, reward, next_state, done) tuples."""
  out = []
  for state, action, reward, next_state, done in rows:
    out.append([*state, action, reward, *next_state, *([1.0] * num_actions),
                done])
  return np.array(out, np.float32)


def test_n_step_returns_follow_each_game_by_hand():
  """Two games interleaved: game 7 plays s0 -> s1 -> s2 -> end (reward 4
  at the end), game 3 plays t0 -> t1 and is still running when the batch
  ends. n = 2, gamma = 0.5."""
  s = [[0, i] for i in range(4)]
  t = [[1, i] for i in range(3)]
  records = _records([
      (s[0], 0, 0.0, s[1], 0),   # row 0, game 7
      (t[0], 1, 1.0, t[1], 0),   # row 1, game 3
      (s[1], 1, 0.0, s[2], 0),   # row 2, game 7
      (t[1], 0, 2.0, t[2], 0),   # row 3, game 3 (runs on past the batch)
      (s[2], 0, 4.0, [0, 0], 1),  # row 4, game 7, episode ends
  ])
  games = np.array([7, 3, 7, 3, 7])
  returns, bootstrap_states, weights = arm.n_step_targets(
      transitions.record_columns(2, 2), records, games, n=2, discount=0.5)
  # row 0: r0 + .5 r2, then bootstraps from s2 (row 2's next state) at .25
  # row 1: 1 + .5 * 2, bootstraps from t2 at .25
  # row 2: 0 + .5 * 4, the episode ended: no bootstrap
  # row 3: 2, the batch holds no more of game 3: bootstraps from t2 at .5
  # row 4: 4, ended
  np.testing.assert_allclose(returns, [0.0, 2.0, 2.0, 2.0, 4.0])
  np.testing.assert_allclose(weights, [0.25, 0.25, 0.0, 0.5, 0.0])
  np.testing.assert_array_equal(bootstrap_states[[0, 1, 3]],
                                [s[2], t[2], t[2]])


def test_targets_and_loss_match_numpy_on_a_fixed_batch():
  rng = np.random.default_rng(0)
  config = nfsp.NFSPConfig.nfsp_arm(hidden_layers=(5,))
  learner = arm.ARM(4, 3, config, np.random.default_rng(1))
  # Move the target copy away from the network, as mid-iteration.
  learner.target_network.assign(
      [w + 0.1 for w in learner.network.numpy_weights()])
  learner.iterations.assign(3)
  states = rng.random((6, 4)).astype(np.float32)
  actions = np.array([0, 1, 2, 0, 1, 2], np.int32)
  returns = rng.normal(size=6).astype(np.float32)
  bootstrap_states = rng.random((6, 4)).astype(np.float32)
  weights = np.array([0.0, 0.9**4, 0.9, 0.0, 0.81, 1.0], np.float32)
  outputs = learner.outputs(states)
  carried = np.maximum(outputs[np.arange(6), actions] - outputs[:, -1], 0.0)
  target_weights = learner.target_network.numpy_weights()
  from nfsp_spiel.nfsp import networks  # pylint: disable=g-import-not-at-top
  value_targets = returns + weights * networks.forward(
      target_weights, bootstrap_states)[:, -1]
  advantage_targets = carried + value_targets
  got_carried = learner.carried_advantages(tf.constant(states),
                                           tf.constant(actions))
  np.testing.assert_allclose(got_carried, carried, rtol=1e-5, atol=1e-6)
  got_value, got_advantage = learner.targets(
      got_carried, tf.constant(returns), tf.constant(bootstrap_states),
      tf.constant(weights))
  np.testing.assert_allclose(got_value, value_targets, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(got_advantage, advantage_targets, rtol=1e-5,
                             atol=1e-6)
  expected_loss = (np.mean((value_targets - outputs[:, -1])**2) + np.mean(
      (advantage_targets - outputs[np.arange(6), actions])**2))
  loss = learner.loss(tf.constant(states), tf.constant(actions),
                      got_value, got_advantage)
  assert float(loss) == pytest.approx(expected_loss, rel=1e-5)
  # The first iteration carries nothing (Q+_0 = 0).
  learner.iterations.assign(0)
  assert not learner.carried_advantages(tf.constant(states),
                                        tf.constant(actions)).numpy().any()


def test_an_iteration_fits_v_to_the_returns():
  """Many steps on one batch of terminal transitions: V(o) approaches the
  mean return of o's transitions and Q+(o, a) that of (o, a) (first
  iteration: nothing carried)."""
  config = nfsp.NFSPConfig.nfsp_arm(
      hidden_layers=(16,), best_response=nfsp.ARMConfig(
          updates=1500, iteration_steps=400, learning_rate=1e-2))
  learner = arm.ARM(2, 2, config, np.random.default_rng(0))
  rng = np.random.default_rng(1)
  actions = rng.integers(0, 2, 400)
  rewards = np.where(actions == 0, 1.0, -1.0) + rng.normal(0, 0.1, 400)
  rows = _records([([1.0, 0.0], a, r, [0.0, 0.0], 1)
                   for a, r in zip(actions, rewards)])
  learner.add(np.concatenate([rows, np.arange(400)[:, None]], axis=1))
  inputs = learner.learning_batches(1)
  tf.function(learner.learn)(*[tf.constant(x) for x in inputs])
  learner.set_acting_weights(learner.network.numpy_weights())
  q0, q1, value = learner.outputs(np.array([[1.0, 0.0]], np.float32))[0]
  assert value == pytest.approx(rewards.mean(), abs=0.05)
  assert q0 == pytest.approx(rewards[actions == 0].mean(), abs=0.05)
  assert q1 == pytest.approx(rewards[actions == 1].mean(), abs=0.05)
  # regret matching then plays the better action only
  np.testing.assert_allclose(learner.policy_probabilities(
      np.array([[1.0, 0.0]], np.float32), np.ones((1, 2))), [[1.0, 0.0]])


# Slow: ARM learning: test_nfsp_arm_learns_kuhn stays.
@pytest.mark.slow
def test_arm_average_play_approaches_rock_paper_scissors_equilibrium():
  """Plain ARM on a one-state game: ARM's own policy starts far from the
  uniform equilibrium (a random network's regret matching) and keeps moving
  (its exploitability stays 0.5-0.8); its average play nears the equilibrium:
  the action counts of M_SL (everything ARM played) and the average network
  fitted to them. Measured with this seed: counts 0.27 -> 0.042, network
  0.22 -> 0.055 from 10k to 60k episodes. With seed 4 ARM's policies lock
  onto pure strategies after 30k episodes (exploitability 1.0, counts rising
  to 0.57): ARM fits Q+ only at the actions it takes, so an action regret
  matching stops playing is not re-evaluated (README, NFSP-ARM)."""
  game = pyspiel.convert_to_turn_based(pyspiel.load_game("matrix_rps"))
  config = nfsp.NFSPConfig.arm(best_response=nfsp.ARMConfig(
                                   iteration_steps=500, updates=200),
                               reservoir_buffer_capacity=200_000,
                               min_buffer_size_to_learn=500,
                               hidden_layers=(64,))  # as measured
  agents = nfsp.agents_for(game, config, seed=3)
  loop = selfplay.SelfPlay(game, agents, num_games=100, seed=3)

  def exploitability(kind):
    return evaluation.exploitability(
        game, nfsp.NFSPPolicy(game, agents, kind).to_tabular())

  assert exploitability("best_response") > 0.5
  loop.play(60_000)
  assert exploitability("average") < 0.08
  assert evaluation.exploitability(
      game, nfsp.sl_memory_policy(game, agents)) < 0.08
  assert exploitability("best_response") > 0.3  # ARM itself does not settle
  # One iteration per 500 transitions (the last one completes after the
  # last learning call).
  assert int(agents[0].best_response_learner.iterations.numpy()) == 119


def test_nfsp_arm_learns_kuhn():
  """Measured with these seeds: exploitability 0.471 at the start, 0.253,
  0.216, 0.196, 0.157 after 30k, 60k, 90k, 120k episodes (NFSP's DQN agents
  with the same memories: 0.507, 0.264, 0.131, 0.142, 0.129)."""
  game = pyspiel.load_game("kuhn_poker")
  agents = nfsp.agents_for(game, SMALL, seed=0)
  loop = selfplay.SelfPlay(game, agents, num_games=64, seed=0)
  policy = nfsp.NFSPPolicy(game, agents)
  assert evaluation.exploitability(game, policy.to_tabular()) > 0.4
  loop.play(120_000)
  assert evaluation.exploitability(game, policy.to_tabular()) < 0.2


def test_checkpoint_resumes_exactly(tmp_path):
  game = pyspiel.load_game("leduc_poker")

  def fresh():
    agents = nfsp.agents_for(game, SMALL, seed=5)
    return agents, selfplay.SelfPlay(game, agents, num_games=16, seed=5)

  agents, loop = fresh()
  loop.play(700)
  path = loop.save(str(tmp_path / "checkpoint.npz"))
  loop.play(700)
  again = nfsp.agents_for(game, SMALL, seed=5)
  resumed = selfplay.SelfPlay.restore(game, path, again, num_games=16, seed=5)
  resumed.play(700)
  for a, b in zip(agents, again):
    assert int(a.best_response_learner.iterations.numpy()) == int(
        b.best_response_learner.iterations.numpy()) > 2
    for x, y in zip(a.best_response_learner.weights,
                    b.best_response_learner.weights):
      np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(a.best_response_learner.waiting,
                                  b.best_response_learner.waiting)


def test_a_dqn_checkpoint_is_refused_by_an_arm_agent(tmp_path):
  game = pyspiel.load_game("kuhn_poker")
  path = selfplay.SelfPlay(game, nfsp.agents_for(game), 4).save(
      str(tmp_path / "dqn.npz"))
  with pytest.raises(Exception, match="best_response"):
    selfplay.SelfPlay.restore(game, path, nfsp.agents_for(game, SMALL),
                              num_games=4)


@pytest.mark.parametrize("name", ["leduc_poker", "tic_tac_toe"])
def test_runs_in_openspiels_rl_environment(name):
  game = pyspiel.load_game(name)
  env = rl_environment.Environment(game)
  agents = nfsp.agents_for(game, SMALL)
  rl_loop.play_episodes(env, agents, 150)
  assert int(agents[0].best_response_learner.iterations.numpy()) >= 1
  assert np.isfinite(agents[0].losses["rl_loss"])


def test_bad_input_is_named():
  with pytest.raises(ValueError, match="best_response='sarsa'.*'dqn', 'arm'"):
    nfsp.NFSPConfig(best_response="sarsa")
  with pytest.raises(ValueError, match=r"ARMConfig.discount=0: must be in "
                     r"\(0, 1\]"):
    nfsp.ARMConfig(discount=0)
  with pytest.raises(ValueError, match="ARMConfig.discount=0"):
    nfsp.NFSPConfig.nfsp_arm(arm_discount=0)  # the flat name, as before
  with pytest.raises(ValueError, match="liars_dice_ir.*no information-state "
                     "tensors.*imperfect information"):
    nfsp.agents_for(pyspiel.load_game("liars_dice_ir"), SMALL)


def test_nfsp_arm_presets_hold_the_authors_values():
  """The NFSP-ARM authors' scripts (zhangli140/CCNT_HCIS, RMFSP/ at commit
  a052663): eta 0.5 (`main_leduc.py` line 41, `main_liars_dice.py` line
  40), hidden layers [128, 128, 64] on Leduc (`main_leduc.py` lines 34-36)
  and [64, 128, 64] on Liar's Dice (`main_liars_dice.py` lines 33-35), an
  ARM iteration per 4000 transitions (`main_leduc.py` line 246); NFSP's
  part otherwise the NFSP paper's Leduc settings (sec. 5.1)."""
  leduc = nfsp.NFSPConfig.nfsp_arm()
  assert leduc == nfsp.NFSPConfig.nfsp_arm("leduc_poker")
  assert (leduc.best_response, leduc.anticipatory_param, leduc.hidden_layers,
          leduc.best_response.iteration_steps, leduc.reward_scale) == (
              nfsp.ARMConfig(), 0.5, (128, 128, 64), 4000, 1.0)
  paper = nfsp.NFSPConfig.leduc()
  for name in ("reservoir_buffer_capacity", "reservoir_buffer_kind",
               "sl_learning_rate",
               "batch_size", "learn_every", "updates_per_learn",
               "min_buffer_size_to_learn", "evaluation_policy"):
    assert getattr(leduc, name) == getattr(paper, name), name
  assert nfsp.NFSPConfig.nfsp_arm("liars_dice").hidden_layers == (64, 128, 64)
  assert nfsp.NFSPConfig.nfsp_arm("tic_tac_toe").hidden_layers == (
      128, 128, 64)
  assert nfsp.NFSPConfig.nfsp_arm(hidden_layers=(64,)).hidden_layers == (64,)
  for game in nfsp_config.NFSP_ARM_GAMES:
    plain = nfsp.NFSPConfig.arm(game)
    assert (plain.anticipatory_param, plain.evaluation_policy,
            plain.hidden_layers) == (
                1.0, "best_response", nfsp.NFSPConfig.nfsp_arm(game)
                .hidden_layers)
  with pytest.raises(ValueError, match="game='kuhn_poker'.*'leduc_poker', "
                     "'liars_dice', 'tic_tac_toe'"):
    nfsp.NFSPConfig.nfsp_arm("kuhn_poker")


def test_the_authors_nfsp_baseline_is_openspiels_tf1_nfsp_with_their_arguments():
  """`main_nfsp.py` lines 24-35 and 81-83 calling their copy of OpenSpiel's
  TF1 NFSP (`nfsp.py` lines 57-62) through this package's TF1 wrapper."""
  from nfsp_spiel.nfsp import openspiel_nfsp  # pylint: disable=g-import-not-at-top
  baseline = nfsp.NFSPConfig.nfsp_arm_baseline()
  theirs = openspiel_nfsp.openspiel_config(
      [64], int(2e6), 0.5, replay_buffer_capacity=int(2e5),
      epsilon_decay_duration=int(15e6), epsilon_start=0.06,
      epsilon_end=0.00001, weight_update_coeff=1.0,
      epsilon_decay_schedule_str="linear")
  assert baseline == theirs.replace(device=None)
  dqn = baseline.best_response
  assert isinstance(dqn, nfsp.DQNConfig)
  assert (baseline.hidden_layers, baseline.anticipatory_param,
          dqn.replay_buffer_capacity, baseline.sl_learning_rate,
          dqn.learning_rate, dqn.target_refit_every,
          dqn.epsilon_end, dqn.epsilon_decay_duration) == (
              (64,), 0.5, 200_000, 0.01, 0.02, 15, 1e-5, 15_000_000)


def test_both_networks_take_the_presets_sizes_and_checkpoints_keep_them(
    tmp_path):
  """The authors' agent sizes its ARM network and its average network with
  one list (`nfsp_arm.py` lines 50, 82-83, 104): so do these agents; a
  checkpoint of one game's sizes is refused by an agent of another's."""
  game = pyspiel.load_game("leduc_poker")
  size = game.information_state_tensor_size()
  agents = nfsp.agents_for(
      game, nfsp.NFSPConfig.nfsp_arm(reservoir_buffer_capacity=1000), seed=0)
  widths = [size, 128, 128, 64]
  for agent in agents:
    arm_shapes = [w.shape for w in agent.best_response_learner.weights]
    average_shapes = [w.shape for w in agent.average_network.numpy_weights()]
    assert arm_shapes[0::2] == [(a, b) for a, b in zip(
        widths, widths[1:] + [game.num_distinct_actions() + 1])]
    assert average_shapes[0::2] == [(a, b) for a, b in zip(
        widths, widths[1:] + [game.num_distinct_actions()])]
  path = nfsp.save_agents(str(tmp_path / "leduc.npz"), game, agents)
  other = nfsp.agents_for(
      game, nfsp.NFSPConfig.nfsp_arm("liars_dice", reservoir_buffer_capacity=1000))
  with pytest.raises(ValueError, match="hidden_layers"):
    nfsp.restore_agents(path, game, other)
