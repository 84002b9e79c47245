"""Agents given their cards' equity (`nfsp.equity_inputs`): in the
fixed-opponent test and in self-play."""

import dataclasses

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib

import nfsp_spiel  # noqa: F401
from nfsp_spiel.core import checkpoints
from nfsp_spiel.evaluation import lhe_situations
from nfsp_spiel.nfsp import agent as agent_lib
from nfsp_spiel.nfsp import agent_policies
from nfsp_spiel.nfsp import average_profile
from nfsp_spiel.nfsp import drivers
from nfsp_spiel.nfsp import equity_inputs
from nfsp_spiel.nfsp import fixed_opponent
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.nfsp.config import NFSPConfig
from nfsp_spiel.run import nfsp_training
from .test_fixed_opponent import SETTING
from .test_fixed_opponent import _tiny_config
from .test_fixed_opponent import _train


def _equity_config():
  return _tiny_config().replace(inputs="cards_and_equity")


@pytest.fixture(scope="module")
def game():
  return pyspiel.load_game("nfsp_lhe")


def _decisions(game, count, seed):
  """(information-state tensors, the equity of the cards each shows) at
  `count` decisions per player of random play, the equity from the state's
  own cards (`lhe_situations.sample_situations`, one state at a time)."""
  found = lhe_situations.sample_situations(
      game, policy_lib.UniformRandomPolicy(game), count, seed)
  situations = found[0] + found[1]
  return (np.array([s.tensor for s in situations]),
          np.array([s.equity for s in situations]))


def test_the_bits_are_a_thermometer_of_each_states_equity(game):
  tensors, equities = _decisions(game, 40, seed=4)
  bits = equity_inputs.equity_bits(np.concatenate([tensors, np.zeros(
      (1, tensors.shape[1]), np.float32)]))
  assert bits.shape == (81, equity_inputs.LEVELS)
  # Bit k set exactly where the equity exceeds k / LEVELS.
  for row, equity in enumerate(equities):
    count = int(bits[row].sum())
    assert bits[row, :count].all() and not bits[row, count:].any()
    assert (count - 1) / equity_inputs.LEVELS < equity <= (
        count / equity_inputs.LEVELS if count < equity_inputs.LEVELS else 1)
  assert len(set(bits[:-1].sum(axis=1))) > 5  # strengths differ
  assert not bits[-1].any()  # a terminal transition's zeros


def test_the_wrapper_needs_an_agent_of_the_larger_input(game):
  agent = agent_lib.NFSP(0, 288, 3, _tiny_config())
  with pytest.raises(ValueError, match="agent.state_size=288"):
    equity_inputs.EquityInputs(agent)


def test_equity_inputs_take_no_warm_start_and_only_known_names(game):
  with pytest.raises(ValueError, match="inputs='equity'"):
    _tiny_config().replace(inputs="equity")
  with pytest.raises(ValueError, match="inputs='cards_and_equity' with "
                     "warm_start=True"):
    fixed_opponent.FixedOpponentRun(game, _equity_config(), fixed_opponent.
                                    Against("average", profile="run.npz",
                                            warm_start=True))
  with pytest.raises(ValueError, match="inputs=.cards_and_equity. reads Limit Hold.em.s cards: the game must be nfsp_lhe"):
    agent_lib.agents_for(pyspiel.load_game("nfsp_leduc"), _equity_config())


def test_the_learner_stores_and_acts_on_the_cards_and_their_equity(game):
  run = fixed_opponent.FixedOpponentRun(game, _equity_config(), SETTING)
  run.play(300)
  inner = run.learner.agent
  assert inner.state_size == 288 + equity_inputs.LEVELS
  assert run.learner.state_size == 288
  inner.store()
  states = _stored_states(inner)
  np.testing.assert_array_equal(states[:, 288:],
                                equity_inputs.equity_bits(states[:, :288]))
  assert states[:, 288:].any()
  metrics = run.metrics()
  assert np.isfinite(metrics["mbb_per_hand"]) and metrics["q_spread"] > 0
  # Q at the game's tensors is Q of the agent at the wrapped inputs.
  tensors = states[:5, :288]
  np.testing.assert_array_equal(
      run.learner.best_response_learner.q_values(tensors),
      inner.best_response_learner.q_values(states[:5]))


def _stored_states(agent):
  """The states of the transitions in `agent`'s M_RL, unpacked from its
  bits."""
  learner = agent.best_response_learner
  records = learner.memory.fields["record"][:len(learner.memory)]
  if learner._packed is not None:  # pylint: disable=protected-access
    records = learner._packed.unpack(records)  # pylint: disable=protected-access
  return np.asarray(records[:, :agent.state_size], np.float32)


def test_a_resumed_equity_run_takes_the_same_steps(game, tmp_path):
  whole = _train(game, tmp_path / "whole", 300, config=_equity_config())
  _train(game, tmp_path / "split", 200, config=_equity_config())
  split = _train(game, tmp_path / "split", 300, config=_equity_config())
  assert [r["step"] for r in split] == [r["step"] for r in whole]
  for a, b in zip(whole, split):
    for key in ("mbb_per_hand", "q_abs", "q_norm", "rl_loss"):
      np.testing.assert_equal(a[key], b[key], err_msg=key)
  assert whole[-1]["rl_loss"] > 0


def test_a_checkpoint_of_other_inputs_is_refused_and_reloads_alone(
    game, tmp_path):
  run = fixed_opponent.FixedOpponentRun(game, _equity_config(), SETTING)
  run.play(20)
  path = run.save(str(tmp_path / "checkpoint.npz"))
  cards = fixed_opponent.FixedOpponentRun(game, _tiny_config(), SETTING)
  with pytest.raises(checkpoints.CheckpointError):
    cards.restore(path)
  again = fixed_opponent.FixedOpponentRun.from_checkpoint(game, path)
  assert again.setting == SETTING and again.episodes == run.episodes
  assert again.config.inputs == "cards_and_equity"


def _self_play(game, config, episodes, seed=3, restore_from=None):
  """Both players' agents of `config` after batched self-play to
  `episodes` (continuing the checkpoint `restore_from` where given), and
  the driver."""
  agents = agent_lib.agents_for(game, config, seed=2)
  settings = dict(num_games=16, seed=seed, learn_locksteps=2)
  if restore_from:
    driver = selfplay.SelfPlay.restore(game, restore_from, agents, **settings)
  else:
    driver = selfplay.SelfPlay(game, agents, **settings)
  driver.play(episodes - driver.episodes)
  return agents, driver


def test_self_play_reads_the_equity_and_resumes_exactly(game, tmp_path):
  straight, _ = _self_play(game, _equity_config(), 400)
  for agent in straight:
    assert isinstance(agent, equity_inputs.EquityInputs)
    agent.store()
    states = _stored_states(agent.agent)
    np.testing.assert_array_equal(states[:, 288:],
                                  equity_inputs.equity_bits(states[:, :288]))
    assert agent.agent.steps > 0 and agent.losses["rl_loss"] > 0
  _, halfway = _self_play(game, _equity_config(), 200)
  path = halfway.save(str(tmp_path / "run.npz"))
  resumed, _ = _self_play(game, _equity_config(), 400, restore_from=path)
  for a, b in zip(straight, resumed):
    for x, y in zip(a.best_response_learner.weights,
                    b.best_response_learner.weights):
      np.testing.assert_array_equal(x, y)
  with pytest.raises(checkpoints.CheckpointError):
    _self_play(game, _tiny_config(), 400, restore_from=path)


def test_a_self_play_run_with_the_equity_is_evaluated_as_any(game):
  """The training loop's Limit Hold'em evaluation, LBR's range queries
  included, plays the wrapped agents' policies."""
  agents, _ = _self_play(game, _equity_config(), 100)
  settings = nfsp_training.EvaluationSettings(eval_deals=20, lbr_hands=2,
                                              smooct_deals=20)
  metrics = nfsp_training.evaluate(game, agents, settings)
  for name in ("mbb_per_hand_vs_equity_threshold", "mbb_per_hand_vs_smooct",
               "lbr_mbb_per_hand", "br_edge_0", "q_spread_1"):
    assert np.isfinite(metrics[name]), name


@pytest.mark.parametrize("settings, message", [
    (dict(actors=2), "not with --actors"),
    (dict(driver="rl_environment"), "not with --actors"),
])
def test_the_drivers_take_the_equity_in_one_self_play_run_only(
    game, settings, message):
  with pytest.raises(ValueError, match=message):
    drivers.makers(game, _equity_config(), 0,
                   drivers.DriverSettings(**settings))
  with pytest.raises(ValueError, match="the game must be nfsp_lhe"):
    drivers.makers(pyspiel.load_game("kuhn_poker"),
                   NFSPConfig(inputs="cards_and_equity"), 0,
                   drivers.DriverSettings())


def test_an_equity_runs_saved_average_plays_as_its_agents(game, tmp_path):
  """`average_profile` reads a checkpoint's networks with the run's inputs:
  the equity bits added as the live agents add them."""
  agents, driver = _self_play(game, _equity_config(), 100)
  path = driver.save(str(tmp_path / "run.npz"))
  saved = average_profile.from_checkpoint(game, path)
  live = agent_policies.NFSPPolicy(game, agents, "average")
  tensors, _ = _decisions(game, 10, seed=6)
  legal = np.ones((len(tensors), 3), np.float32)
  for player in range(2):
    np.testing.assert_allclose(
        saved._agents[player].probabilities(tensors, legal, "average"),  # pylint: disable=protected-access
        agents[player].probabilities(tensors, legal, "average"), atol=1e-5)
  state = game.new_initial_state()
  while state.is_chance_node():
    state.apply_action(state.legal_actions()[0])
  assert saved.action_probabilities(state) == pytest.approx(
      live.action_probabilities(state), abs=1e-5)
  cards = _tiny_config()
  # The same weights said to read the cards alone are refused by size.
  with pytest.raises(ValueError, match=r"networks of 308 inputs; .* reading "
                     r"288 \(inputs='cards'\)"):
    average_profile._policy(  # pylint: disable=protected-access
        game, *average_profile.checkpoint_weights(path)[:1],
        {**saved.settings, "config": cards.header_fields()}, "average", "x")
