"""`rl_loop.RLEnvironmentLoop`: OpenSpiel's RL loop as a training driver
that saves and restores its agents."""

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp import agents_for
from nfsp_spiel.nfsp import agent_checkpoints
from nfsp_spiel.nfsp import NFSPConfig
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
