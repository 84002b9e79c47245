"""Population training: each member is the run it would be alone."""

import json

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel.core import checkpoints
from nfsp_spiel.core import hardware
from nfsp_spiel.nfsp import agents_for
from nfsp_spiel.nfsp import ARMConfig
from nfsp_spiel.nfsp import NFSPConfig
from nfsp_spiel.nfsp import population
from nfsp_spiel.nfsp.selfplay import SelfPlay

# Leduc with the paper's networks, learning after a few hundred records and
# small memories, so that both networks train within a few thousand
# episodes.
SMALL = NFSPConfig.leduc().replace(
    min_buffer_size_to_learn=200, reservoir_buffer_capacity=20_000,
    replay_buffer_capacity=20_000)
GAMES = 32


@pytest.fixture(scope="module")
def leduc():
  return pyspiel.load_game("nfsp_leduc")


def _single(game, config, seed, episodes):
  driver = SelfPlay(game, agents_for(game, config, seed=seed), GAMES, seed)
  driver.play(episodes)
  return driver


def _assert_same_run(member, single, weights_rtol=0.0):
  """Everything a run holds, to the bit (the weights within `weights_rtol`
  where the stacked call's rounding may differ)."""
  assert member.episodes == single.episodes
  for ours, theirs in zip(member.agents, single.agents):
    assert (ours.steps, ours.episodes) == (theirs.steps, theirs.episodes)
    ours.store()
    theirs.store()
    memories = ((ours.sl_memory.state(), theirs.sl_memory.state()),
                (ours.best_response_learner.memory_arrays(),
                 theirs.best_response_learner.memory_arrays()))
    for mine, other in memories:
      assert mine.keys() == other.keys()
      for key in mine:
        np.testing.assert_array_equal(mine[key], other[key])
    for mine, other in zip(ours.acting_weights(), theirs.acting_weights()):
      for a, b in zip(mine, other):
        np.testing.assert_allclose(a, b, rtol=weights_rtol, atol=0)
    assert (ours.rng.bit_generator.state == theirs.rng.bit_generator.state)


@pytest.mark.parametrize("learning", ["stacked", "separate"])
def test_members_are_the_runs_they_would_be_alone(leduc, learning):
  """K = 3 (seeds 0, 2, 4): after 1,500 episodes every member holds the
  single run's memories, weights, counters and random state, bit for bit,
  though members end their episodes at different locksteps, whether their
  learning calls are stacked or each member's own."""
  seeds = [0, 2, 4]
  pop = population.Population(leduc, SMALL, seeds, GAMES, learning=learning)
  pop.play(1500)
  assert len({tuple(m.agents[0].losses.values()) for m in pop.members}) == 3
  for member, seed in zip(pop.members, seeds):
    single = _single(leduc, SMALL, seed, 1500)
    assert np.isfinite(single.agents[0].losses["sl_loss"])  # both learned
    _assert_same_run(member, single)


# Slow: 45 s; test_members_are_the_runs_they_would_be_alone stays (seeds).
@pytest.mark.slow
def test_a_sweep_is_one_population(leduc):
  """Members differing in learning rates, eta, exploration, target refits,
  TD-error clipping and M_SL's kind are each their single run."""
  configs = [SMALL, SMALL.replace(rl_learning_rate=0.05, anticipatory_param=0.5,
                                  sl_learning_rate=0.01, epsilon_start=0.2,
                                  target_refit_every=50, td_error_clip=0.05,
                                  reservoir_buffer_kind="exponential_reservoir")]
  pop = population.Population(leduc, configs, [6, 6], GAMES,
                              learning="stacked")
  pop.play(1500)
  for member, config in zip(pop.members, configs):
    _assert_same_run(member, _single(leduc, config, 6, 1500))


# Slow (80 s): the stacked ARM iteration. DQN members, exact, stay in the
# default run.
@pytest.mark.slow
def test_arm_members(leduc):
  """NFSP-ARM members (an ARM iteration in the stacked call: a loop of Adam
  steps) play their single runs' games, actions and memories; their weights
  differ from the single runs' in the last bits (1.5e-8 at most after
  1,500 episodes; 800 here: XLA rounds the stacked Adam steps' reductions
  otherwise), which has not changed an action yet."""
  config = NFSPConfig.nfsp_arm().replace(
      best_response=ARMConfig(iteration_steps=300, updates=20, batch_size=16),
      min_buffer_size_to_learn=200, reservoir_buffer_capacity=20_000)
  configs = [config, config.replace(arm_learning_rate=2e-3)]
  pop = population.Population(leduc, configs, [0, 2], GAMES,
                              learning="stacked")
  pop.play(800)
  for member, (config, seed) in zip(pop.members, zip(configs, [0, 2])):
    single = _single(leduc, config, seed, 800)
    assert int(single.agents[0].best_response_learner.iterations.numpy()) > 1
    _assert_same_run(member, single, weights_rtol=1e-5)


# Slow: 70 s; test_a_population_of_one_is_its_single_run saves and restores.
@pytest.mark.slow
def test_resume_continues_exactly(leduc, tmp_path):
  """Saved after 1,000 episodes and restored into a new population, it ends
  where the uninterrupted one does; another population's checkpoint is
  refused."""
  seeds = [0, 2]
  whole = population.Population(leduc, SMALL, seeds, GAMES,
                                learning="stacked")
  whole.play(1000)
  path = whole.save(tmp_path / "population")
  whole.play(1000)
  resumed = population.Population.restore(leduc, path, SMALL, seeds, GAMES,
                                          learning="stacked")
  resumed.play(1000)
  for ours, theirs in zip(resumed.members, whole.members):
    _assert_same_run(ours, theirs)
  with pytest.raises(checkpoints.CheckpointError, match="member1/seed"):
    population.Population.restore(leduc, path, SMALL, [0, 4], GAMES)
  with pytest.raises(checkpoints.CheckpointError, match="members"):
    population.Population.restore(leduc, path, SMALL, [0], GAMES)


def test_a_population_saved_before_a_field_was_added_resumes(
    leduc, tmp_path, monkeypatch):
  """A checkpoint whose members' settings lack a field added since (here
  `precision`, which joined after the first populations were saved) resumes
  with the value it ran with, and is refused where this run differs."""
  seeds = [0, 2]
  whole = population.Population(leduc, SMALL, seeds, GAMES)
  whole.play(300)
  path = whole.save(tmp_path / "population")
  with np.load(path) as data:
    arrays = {key: data[key] for key in data.files}
  header = json.loads(str(arrays[checkpoints.HEADER]))
  for k in range(len(seeds)):
    del header["config"][f"member{k}/precision"]
  arrays[checkpoints.HEADER] = json.dumps(header)
  np.savez(path, **arrays)
  resumed = population.Population.restore(leduc, path, SMALL, seeds, GAMES)
  whole.play(300)
  resumed.play(300)
  for ours, theirs in zip(resumed.members, whole.members):
    _assert_same_run(ours, theirs)
  # bfloat16 is refused on a machine without its units: emulate them
  monkeypatch.setattr(hardware, "bfloat16_units", lambda device=None: True)
  with pytest.raises(checkpoints.CheckpointError,
                     match="member0/precision: 'float32' there, 'bfloat16'"):
    population.Population.restore(leduc, path,
                                  SMALL.replace(precision="bfloat16"), seeds,
                                  GAMES)


def test_members_must_share_shapes(leduc):
  with pytest.raises(ValueError, match="hidden_layers"):
    population.Population(leduc, [SMALL, SMALL.replace(hidden_layers=(32,))],
                          [0, 2])
  with pytest.raises(ValueError, match="target network"):
    population.Population(leduc, [SMALL, SMALL.replace(target_refit_every=0)],
                          [0, 2])
  with pytest.raises(ValueError, match="double_q"):  # member 0's graph
    population.Population(leduc, [SMALL, SMALL.replace(double_q=True)], [0, 2])
  with pytest.raises(ValueError, match="2 configs for 3 seeds"):
    population.Population(leduc, [SMALL, SMALL], [0, 2, 4])
  with pytest.raises(ValueError, match="learns with arm"):
    population.Population(leduc, [SMALL, SMALL.replace(best_response="arm")],
                          [0, 2])


def test_auto_stacks_from_three_members_of_small_networks():
  """Where the stacked call was measured faster (the module docstring)."""
  lhe = NFSPConfig.lhe()
  assert [population.stacks([SMALL] * k) for k in (1, 2, 3, 4, 8)] == [
      False, False, True, True, True]
  assert not population.stacks([lhe] * 4)
  assert population.stacks([SMALL] * 2, "stacked")
  assert not population.stacks([SMALL], "stacked")  # nothing to stack
  assert not population.stacks([SMALL] * 8, "separate")
  with pytest.raises(ValueError, match="learning='fused'.*auto"):
    population.Population(pyspiel.load_game("nfsp_leduc"), SMALL, [0, 2],
                          learning="fused")


def test_spaced_seeds_share_no_stream():
  seeds = population.spaced_seeds(4, 2, first=10)
  assert seeds == [10, 12, 14, 16]
  streams = [s + p for s in seeds for p in range(2)]
  assert len(set(streams)) == len(streams)


def test_a_population_of_one_is_its_single_run(leduc, tmp_path):
  """K = 1 learns through the single run's fused call: equal to the bit,
  across a save and restore too."""
  pop = population.Population(leduc, SMALL, [4], GAMES)
  pop.play(600)
  path = pop.save(tmp_path / "one")
  pop.play(400)
  resumed = population.Population.restore(leduc, path, SMALL, [4], GAMES)
  resumed.play(400)
  single = _single(leduc, SMALL, 4, 1000)
  _assert_same_run(pop.members[0], single)
  _assert_same_run(resumed.members[0], single)
