"""`rl_loop.RLEnvironmentLoop`: OpenSpiel's RL loop as a training driver
that saves and restores its agents, with two players or three."""

import numpy as np
import pyspiel
import pytest

import known_policies
import nfsp_spiel  # noqa: F401
from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp import agents_for
from nfsp_spiel.nfsp import agent_checkpoints
from nfsp_spiel.nfsp import NFSPConfig
from nfsp_spiel.nfsp import NFSPPolicy
from nfsp_spiel.nfsp import rl_loop

CONFIG = NFSPConfig.leduc().replace(replay_buffer_capacity=500,
                                    reservoir_buffer_capacity=500,
                                    min_buffer_size_to_learn=50)


def test_a_restored_loop_has_the_saved_agents(tmp_path):
  game = pyspiel.load_game("kuhn_poker")
  loop = rl_loop.RLEnvironmentLoop(game, agents_for(game, CONFIG, 3), seed=3)
  loop.play(300)
  assert loop.episodes == 300
  path = loop.save(tmp_path / "checkpoint.npz")
  restored = rl_loop.RLEnvironmentLoop.restore(
      game, path, agents_for(game, CONFIG, 3), seed=3)
  assert restored.episodes == 300
  for agent, saved in zip(restored.agents, loop.agents):
    mine, theirs = (agent_checkpoints.agent_arrays(agent),
                    agent_checkpoints.agent_arrays(saved))
    assert mine.keys() == theirs.keys()
    for name in mine:
      np.testing.assert_array_equal(mine[name], theirs[name])
  restored.play(10)
  assert restored.episodes == 310 == restored.agents[0].episodes


def test_another_seed_is_not_this_run(tmp_path):
  game = pyspiel.load_game("kuhn_poker")
  loop = rl_loop.RLEnvironmentLoop(game, agents_for(game, CONFIG), seed=0)
  loop.play(5)
  path = loop.save(tmp_path / "checkpoint.npz")
  with pytest.raises(checkpoints.CheckpointError, match="seed"):
    rl_loop.RLEnvironmentLoop.restore(game, path, agents_for(game, CONFIG),
                                      seed=1)


THREE_PLAYERS = "kuhn_poker(players=3)"
# Small memories and an early start, so that a few hundred episodes train
# both networks of every agent.
THREE_PLAYER_CONFIG = NFSPConfig.leduc(replay_buffer_capacity=20_000,
                                       reservoir_buffer_capacity=20_000,
                                       min_buffer_size_to_learn=32)


def test_three_agents_train_on_three_player_leduc():
  """Leduc's three-player game (1.8M histories) through the same loop: every
  agent's networks learn, and its average policy is a distribution over the
  legal actions wherever a game goes."""
  game = pyspiel.load_game("leduc_poker(players=3)")
  agents = agents_for(game, THREE_PLAYER_CONFIG, seed=0)
  rl_loop.RLEnvironmentLoop(game, agents, seed=0).play(300)
  assert [agent.episodes for agent in agents] == [300] * 3
  for agent in agents:
    assert np.isfinite([agent.losses["rl_loss"], agent.losses["sl_loss"]]).all()
  known_policies.assert_legal_along_sampled_games(game,
                                                  NFSPPolicy(game, agents))


def test_three_agents_train_in_openspiels_rl_loop():
  game = pyspiel.load_game(THREE_PLAYERS)
  agents = agents_for(game, THREE_PLAYER_CONFIG, seed=0)
  before = NFSPPolicy(game, agents).to_tabular().action_probability_array
  # OpenSpiel's own loop: `rl_environment`, `step` per agent.
  rl_loop.RLEnvironmentLoop(game, agents, seed=0).play(600)
  assert [agent.episodes for agent in agents] == [600] * 3
  for agent in agents:  # each agent learned: both networks took updates
    assert np.isfinite([agent.losses["rl_loss"], agent.losses["sl_loss"]]).all()
  after = NFSPPolicy(game, agents).to_tabular()
  assert np.abs(after.action_probability_array - before).max() > 0.01
  np.testing.assert_allclose(after.action_probability_array.sum(axis=1), 1.0)
