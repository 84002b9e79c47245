"""NFSP beyond two players: OpenSpiel's RL loop with three of our agents,
and the training run's NashConv, against OpenSpiel's `nash_conv`."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

import nfsp_spiel  # noqa: F401
from nfsp_spiel.nfsp import agents_for
from nfsp_spiel.nfsp import NFSPConfig
from nfsp_spiel.nfsp import NFSPPolicy
from nfsp_spiel.nfsp import rl_loop
from nfsp_spiel.run import nfsp_training

GAME = "kuhn_poker(players=3)"
# Small memories and an early start, so that a few hundred episodes train
# both networks of every agent.
CONFIG = NFSPConfig.leduc(replay_buffer_capacity=20_000,
                          reservoir_buffer_capacity=20_000,
                          min_buffer_size_to_learn=32)


def test_three_agents_train_in_openspiels_rl_loop():
  game = pyspiel.load_game(GAME)
  agents = agents_for(game, CONFIG, seed=0)
  before = NFSPPolicy(game, agents).to_tabular().action_probability_array
  # OpenSpiel's own loop: `rl_environment`, `step` per agent.
  rl_loop.RLEnvironmentLoop(game, agents, seed=0).play(600)
  assert [agent.episodes for agent in agents] == [600] * 3
  for agent in agents:  # each agent learned: both networks took updates
    assert np.isfinite([agent.losses["rl_loss"], agent.losses["sl_loss"]]).all()
  after = NFSPPolicy(game, agents).to_tabular()
  assert np.abs(after.action_probability_array - before).max() > 0.01
  np.testing.assert_allclose(after.action_probability_array.sum(axis=1), 1.0)


def test_the_training_run_logs_openspiels_nash_conv():
  game = pyspiel.load_game(GAME)
  agents = agents_for(game, CONFIG, seed=1)
  settings = nfsp_training.EvaluationSettings()
  metrics = nfsp_training.evaluate(game, agents, settings)
  assert nfsp_training.metric(game) == "nash_conv"
  expected = openspiel_exploitability.nash_conv(
      game, NFSPPolicy(game, agents).to_tabular())
  assert metrics["nash_conv"] == pytest.approx(expected, abs=1e-9)
  assert {"br_gap_0", "br_gap_1", "br_gap_2"} <= metrics.keys()
  assert np.isfinite(list(metrics.values())).all()


def test_two_players_keep_exploitability():
  assert nfsp_training.metric(pyspiel.load_game("kuhn_poker")) == (
      "exploitability")
