"""A learner given its cards' equity (`nfsp.equity_inputs`), and the
fixed-opponent test run with it."""

import dataclasses

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib

import nfsp_spiel  # noqa: F401
from nfsp_spiel.core import checkpoints
from nfsp_spiel.evaluation import lhe_situations
from nfsp_spiel.nfsp import agent as agent_lib
from nfsp_spiel.nfsp import equity_inputs
from nfsp_spiel.nfsp import fixed_opponent
from .test_fixed_opponent import SETTING
from .test_fixed_opponent import _tiny_config
from .test_fixed_opponent import _train

EQUITY = dataclasses.replace(SETTING, inputs=fixed_opponent.CARDS_AND_EQUITY)


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


def test_equity_inputs_take_no_warm_start_and_only_known_names():
  with pytest.raises(ValueError, match="inputs='equity'"):
    dataclasses.replace(SETTING, inputs="equity")
  with pytest.raises(ValueError, match="warm_start=True"):
    fixed_opponent.Against("average", profile="run.npz", warm_start=True,
                           inputs=fixed_opponent.CARDS_AND_EQUITY)


def test_the_learner_stores_and_acts_on_the_cards_and_their_equity(game):
  run = fixed_opponent.FixedOpponentRun(game, _tiny_config(), EQUITY)
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
  whole = _train(game, tmp_path / "whole", 300, EQUITY)
  _train(game, tmp_path / "split", 200, EQUITY)
  split = _train(game, tmp_path / "split", 300, EQUITY)
  assert [r["step"] for r in split] == [r["step"] for r in whole]
  for a, b in zip(whole, split):
    for key in ("mbb_per_hand", "q_abs", "q_norm", "rl_loss"):
      np.testing.assert_equal(a[key], b[key], err_msg=key)
  assert whole[-1]["rl_loss"] > 0


def test_a_checkpoint_of_other_inputs_is_refused_and_reloads_alone(
    game, tmp_path):
  run = fixed_opponent.FixedOpponentRun(game, _tiny_config(), EQUITY)
  run.play(20)
  path = run.save(str(tmp_path / "checkpoint.npz"))
  cards = fixed_opponent.FixedOpponentRun(game, _tiny_config(), SETTING)
  with pytest.raises(checkpoints.CheckpointError):
    cards.restore(path)
  again = fixed_opponent.FixedOpponentRun.from_checkpoint(game, path)
  assert again.setting == EQUITY and again.episodes == run.episodes
