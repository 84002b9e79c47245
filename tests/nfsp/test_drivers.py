"""`nfsp.drivers`: the driver a binary's settings make, new and resumed, and
the settings that do not go together."""

import re

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp import drivers
from nfsp_spiel.nfsp import population
from nfsp_spiel.nfsp import rl_loop
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.nfsp import sweep
from nfsp_spiel.nfsp.config import NFSPConfig

CONFIG = NFSPConfig.leduc().replace(hidden_layers=(8,),
                                    replay_buffer_capacity=200,
                                    reservoir_buffer_capacity=200,
                                    min_buffer_size_to_learn=20)


@pytest.mark.parametrize("settings, population, error", [
    (dict(actors=2), True, "seeds/--sweep train a population with batched "
     "self-play (--driver=selfplay), not with --actors=2"),
    (dict(driver="rl_environment"), True, "seeds/--sweep train a population "
     "with batched self-play (--driver=selfplay), not with "
     "--driver=rl_environment"),
    (dict(actors=2, driver="rl_environment"), False, "actors=2 runs batched "
     "self-play in each actor, not --driver=rl_environment"),
    (dict(learn_locksteps=8), True, "learn_locksteps=8 sets one batched "
     "self-play run's learning"),
    (dict(learn_locksteps=8, driver="rl_environment"), False,
     "learn_locksteps=8 sets one"),
    (dict(learn_locksteps=8, actors=2), False, "learn_locksteps=8 sets one"),
    (dict(background_learning=True), True, "background_learning=True sets "
     "one batched self-play run's learning"),
    (dict(background_learning=True, actors=2), False,
     "background_learning=True sets one"),
    (dict(background_learning=True, driver="rl_environment"), False,
     "background_learning=True sets one"),
    (dict(branch_from="a.npz"), True, "branch_from='a.npz' starts one run"),
    (dict(branch_from="a.npz", actors=2), False, "branch_from='a.npz'")])
def test_settings_that_do_not_go_together_are_refused(settings, population,
                                                      error):
  with pytest.raises(ValueError, match="^" + re.escape(error)):
    drivers.DriverSettings(**settings).check(population)


@pytest.mark.parametrize("settings, population", [
    (dict(), False), (dict(), True), (dict(learn_locksteps=8), False),
    (dict(background_learning=True), False),
    (dict(background_learning=False), True),
    (dict(driver="rl_environment"), False), (dict(actors=2), False)])
def test_settings_that_go_together_pass(settings, population):
  drivers.DriverSettings(**settings).check(population)


@pytest.mark.parametrize("settings, kind", [
    (drivers.DriverSettings(num_games=4, learn_locksteps=2),
     selfplay.SelfPlay),
    (drivers.DriverSettings(num_games=4, learn_locksteps=2,
                            background_learning=True), selfplay.SelfPlay),
    (drivers.DriverSettings(driver="rl_environment"),
     rl_loop.RLEnvironmentLoop)])
def test_one_runs_driver_is_made_new_and_resumed(tmp_path, settings, kind):
  game = pyspiel.load_game("kuhn_poker")
  new, resumed = drivers.makers(game, CONFIG, 3, settings)
  driver = new()
  assert isinstance(driver, kind)
  assert [agent.config for agent in driver.agents] == [CONFIG] * 2
  if kind is selfplay.SelfPlay:
    assert (driver.num_games, driver.learn_locksteps) == (4, 2)
    assert driver.background_learning == bool(settings.background_learning)
  driver.play(50)
  path = driver.save(tmp_path / "checkpoint.npz")
  again = resumed(path)
  assert isinstance(again, kind) and again.episodes == driver.episodes


@pytest.mark.parametrize("settings", [
    drivers.DriverSettings(num_games=4),
    drivers.DriverSettings(driver="rl_environment")])
def test_a_branch_continues_another_runs_agents_with_new_learning_settings(
    tmp_path, settings):
  """`branch`: the other run's agents, memories and clock under this run's
  settings, which may change how agents learn (here TD-error clipping and
  the SL rate) but not what shapes an array."""
  game = pyspiel.load_game("kuhn_poker")
  parent = drivers.makers(game, CONFIG, 3, settings)[0]()
  parent.play(60)
  path = parent.save(tmp_path / "parent.npz")
  changed = CONFIG.replace(td_error_clip=1.0, sl_learning_rate=0.05)
  resumed = drivers.makers(game, changed, 3, settings)[1]
  child, changes = drivers.branch(resumed, path, changed)
  assert changes == {"best_response.td_error_clip": [0.0, 1.0],
                     "sl_learning_rate": [CONFIG.sl_learning_rate, 0.05]}
  assert child.episodes == parent.episodes
  assert [agent.config for agent in child.agents] == [changed] * 2
  for ours, theirs in zip(child.agents, parent.agents):
    for mine, other in zip(ours.acting_weights(), theirs.acting_weights()):
      for a, b in zip(mine, other):
        np.testing.assert_array_equal(a, b)
  same = drivers.makers(game, CONFIG, 3, settings)[1]
  assert drivers.branch(same, path, CONFIG)[1] == {}
  wider_config = changed.replace(hidden_layers=(9,))
  wider = drivers.makers(game, wider_config, 3, settings)[1]
  with pytest.raises(checkpoints.CheckpointError,
                     match="differs from this run in hidden_layers: a branch "
                     "may change only"):
    drivers.branch(wider, path, wider_config)


def test_members_make_a_population(tmp_path):
  game = pyspiel.load_game("kuhn_poker")
  members = sweep.population_members(CONFIG, [0, 2],
                                     ["anticipatory_param=0.1,0.5"])
  settings = drivers.DriverSettings(num_games=4,
                                    population_learning="separate")
  new, resumed = drivers.makers(game, CONFIG, 0, settings, members)
  driver = new()
  assert isinstance(driver, population.Population) and len(driver) == 4
  assert driver.seeds == [0, 2, 0, 2]
  assert [c.anticipatory_param for c in driver.configs] == [0.1, 0.1, 0.5,
                                                           0.5]
  driver.play(20)
  path = driver.save(tmp_path / "checkpoint.npz")
  assert np.array_equal(resumed(path).episodes, driver.episodes)
