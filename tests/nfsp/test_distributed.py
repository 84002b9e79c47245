"""NFSP on Ray (`nfsp_spiel.nfsp.distributed`): records reach the learner whole,
the learning calls per game step are one process's, actors refresh their
weights, a killed actor is restarted, a run checkpoints and resumes."""

import dataclasses
import sys

import numpy as np
import pyspiel
import pytest

from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp import distributed

ray = pytest.importorskip("ray")

KUHN = pyspiel.load_game("kuhn_poker")
SMALL = nfsp.NFSPConfig.leduc(
    best_response=nfsp.DQNConfig(replay_buffer_capacity=20_000), hidden_layers=(16,),
    reservoir_buffer_capacity=100_000)
TWO = distributed.DistributedConfig(num_actors=2, num_games=32, locksteps=4)


@pytest.fixture(scope="module", autouse=True)
def local_ray():
  ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False)
  yield
  ray.shutdown()


def _learner_agents(loop):
  """The learner's agents, fetched whole (memories included)."""
  return ray.get(loop.learner.checkpoint_arrays.remote())


def test_bad_settings_name_the_parameter():
  with pytest.raises(ValueError, match="num_actors=0"):
    distributed.DistributedConfig(num_actors=0)
  with pytest.raises(ValueError, match="backend='trees'"):
    distributed.DistributedConfig(backend="trees")
  with pytest.raises(ValueError, match="locksteps=2.5"):
    distributed.DistributedConfig(locksteps=2.5)


def test_without_ray_the_error_says_how_to_install_it(monkeypatch):
  monkeypatch.setitem(sys.modules, "ray", None)
  with pytest.raises(ImportError, match=r"nfsp_spiel\[distributed\]"):
    distributed.import_ray()


def test_records_moved_between_copies_are_what_one_agent_stores():
  """An acting copy's records, added to a learner copy, fill the learner's
  memories as the acting copy's own `store` would have filled its own."""
  acting = nfsp.agents_for(KUHN, SMALL, seed=3)
  loop = selfplay.SelfPlay(KUHN, acting, num_games=16, seed=3, learn=False)
  learner = nfsp.agents_for(KUHN, SMALL, seed=3)
  total_steps = 0
  for _ in range(40):
    loop.step()
    for source, target in zip(acting, learner):
      steps = source.steps - target.steps
      rl, sl = source.take_records()
      target.add_records(rl, sl, steps)
      total_steps += steps
  for source, target in zip(acting, learner):
    assert target.steps == source.steps
    assert source.take_records()[0].shape[0] == 0  # taken, none left
    target.store()
  assert sum(a.steps for a in learner) == total_steps == 40 * 16
  # Every step but the episodes' pending last ones became an M_RL record.
  pending = sum(loop.waiting_moves())
  assert sum(len(a.rl_memory) for a in learner) == total_steps - pending
  assert all(len(a.sl_memory) > 0 for a in learner)
  # Nothing learned on the acting side: their weights never changed.
  fresh = nfsp.agents_for(KUHN, SMALL, seed=3)
  for a, b in zip(acting, fresh):
    for x, y in zip(a.acting_weights()[1], b.acting_weights()[1]):
      np.testing.assert_array_equal(x, y)


# Slow: Ray, 40 s; the records' and games' bookkeeping without Ray stays (Ray
# itself runs only in the slow run).
@pytest.mark.slow
def test_two_actors_feed_the_learner_and_get_its_weights():
  loop = distributed.DistributedSelfPlay(KUHN, SMALL, seed=0, distributed=TWO)
  try:
    loop.play(20_000)
    episodes, parts = _learner_agents(loop)
    assert episodes == loop.episodes >= 20_000
    steps = [int(part["counters"][0]) for part in parts]
    assert sum(steps) == sum(loop.agents[p].steps for p in range(2))
    # The learning calls of one process: one per learn_every own steps,
    # `updates_per_learn` SGD updates each (DQN counts its updates), but
    # none while M_RL holds fewer than min_buffer_size_to_learn transitions.
    per_call = SMALL.updates_per_learn
    filling = SMALL.min_buffer_size_to_learn // SMALL.learn_every + 2
    for step, part in zip(steps, parts):
      calls = step // SMALL.learn_every
      skipped = calls * per_call - int(part["counters"][2])
      assert 0 <= skipped <= filling * per_call, (calls, skipped)
    # Actors act with recent weights: a chunk is 4 * 32 = 128 steps, and
    # with 2 actors the learner may be a few chunks ahead, never hundreds.
    assert np.mean(loop.staleness[10:]) < 8 * 128
    # The driver's copies hold the learner's networks.
    for agent, part in zip(loop.agents, parts):
      for i, weights in enumerate(agent.acting_weights()[1]):
        np.testing.assert_array_equal(weights, part[f"average_network_{i}"])
    # And the strategy learned: one process with these settings and seed
    # reaches 0.400 at 20k episodes from 0.520 (uniform play: 0.458).
    exploitability = evaluation.exploitability(
        KUHN, nfsp.NFSPPolicy(KUHN, loop.agents).to_tabular())
    assert exploitability < 0.45, exploitability
  finally:
    loop.close()


# Slow (40 s, Ray). The default run keeps test_two_actors_feed_the_learner...
@pytest.mark.slow
def test_a_killed_actor_is_restarted_and_the_run_goes_on():
  loop = distributed.DistributedSelfPlay(KUHN, SMALL, seed=1, distributed=TWO)
  try:
    loop.play(2_000)
    ray.kill(loop.actors[0], no_restart=False)
    chunks = loop.chunks[0]
    for _ in range(200):  # until the restarted actor's chunks arrive
      loop.play(500)
      if loop.restarts:
        break
    assert loop.restarts == 1 and loop.lost_chunks <= 1
    assert loop.chunks[0] > chunks
    episodes, _ = _learner_agents(loop)
    assert episodes == loop.episodes
  finally:
    loop.close()


# Slow: the default run resumes --actors 2 after a SIGKILL (test_run_directory).
@pytest.mark.slow
def test_a_run_resumes_from_its_checkpoint(tmp_path):
  path = tmp_path / "checkpoint.npz"
  loop = distributed.DistributedSelfPlay(KUHN, SMALL, seed=2, distributed=TWO)
  try:
    loop.play(5_000)
    loop.save(path)
    saved_episodes, saved = _learner_agents(loop)
  finally:
    loop.close()
  one = dataclasses.replace(TWO, num_actors=1)  # another actor count is fine
  resumed = distributed.DistributedSelfPlay.restore(KUHN, path, SMALL, seed=2,
                                                    distributed=one)
  try:
    episodes, parts = _learner_agents(resumed)
    assert episodes == resumed.episodes == saved_episodes
    for before, after in zip(saved, parts):
      for key in ("average_network_0", "q_network_1", "sl_memory_field_record",
                  "rl_memory_field_record", "counters"):
        np.testing.assert_array_equal(before[key], after[key])
    resumed.play(3_000)
    assert resumed.episodes >= saved_episodes + 3_000
  finally:
    resumed.close()
  # A single-process checkpoint is another driver's: refused.
  agents = nfsp.agents_for(KUHN, SMALL, seed=2)
  selfplay.SelfPlay(KUHN, agents, 32, seed=2).save(tmp_path / "single.npz")
  with pytest.raises(checkpoints.CheckpointError, match="driver"):
    distributed.DistributedSelfPlay.restore(KUHN, tmp_path / "single.npz",
                                            SMALL, seed=2, distributed=one)


# Slow (40 s, Ray); the numbering itself is checked without Ray below.
@pytest.mark.slow
def test_nfsp_arm_games_stay_apart_across_actors():
  """ARM's n-step returns follow each record's game: two actors' games must
  never share a number at the learner."""
  config = nfsp.NFSPConfig.nfsp_arm(
      hidden_layers=(16,),
      best_response=nfsp.ARMConfig(iteration_steps=500, updates=10))
  loop = distributed.DistributedSelfPlay(KUHN, config, seed=0, distributed=TWO)
  try:
    loop.play(3_000)
    _, parts = _learner_agents(loop)
    iterations = [int(part["learner_iterations"]) for part in parts]
    assert min(iterations) >= 1  # ARM iterations ran on the learner
    games = np.concatenate([part["rl_memory_waiting"][:, -1]
                            for part in parts])
    # Actor i's games are numbered i * 32 .. i * 32 + 31 (first start).
    assert set(np.unique(games // TWO.num_games)) <= {0, 1}
  finally:
    loop.close()


def test_the_learner_numbers_each_actor_start_s_games_apart():
  config = nfsp.NFSPConfig.nfsp_arm(
      hidden_layers=(8,), best_response=nfsp.ARMConfig(iteration_steps=10**6))
  learner = distributed.Learner(str(KUHN), config, seed=0)

  def chunk(actor, games=(0, 5)):  # one transition per player and game
    rl = np.zeros((len(games), learner.agents[0].rl_memory.shape[1]),
                  np.float32)
    rl[:, -1] = games
    sl = np.zeros((0, learner.agents[0].sl_memory.fields["record"].shape[1]),
                  np.float32)
    return {"records": [(rl, sl, len(games))] * 2, "episodes": 1,
            "actor": actor, "games": 32}

  for actor in [(0, 0), (1, 0), (1, 777), (0, 0)]:
    learner.receive(chunk(actor))
  learner.agents[0].store()
  games = learner.agents[0].rl_memory[:, -1]
  np.testing.assert_array_equal(games, [0, 5, 32, 37, 64, 69, 0, 5])
  # A resumed learner's new starts number after the saved records' games.
  episodes, parts = learner.checkpoint_arrays()
  resumed = distributed.Learner(str(KUHN), config, seed=0)
  resumed.load_checkpoint(parts, episodes, "memory")
  resumed.receive(chunk((0, 0), games=(1,)))
  resumed.agents[1].store()
  assert resumed.agents[1].rl_memory[-1, -1] == 70 + 1
