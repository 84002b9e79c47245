"""The driver that trains NFSP agents, from a binary's settings, new or resumed.

`DriverSettings` says how the agents play: one run's batched self-play
(`selfplay.SelfPlay`), OpenSpiel's RL loop one game at a time
(`rl_loop.RLEnvironmentLoop`), Ray actors playing batched self-play for a
learner (`distributed.DistributedSelfPlay`), or, for the members of
`sweep.population_members`, a population (`population.Population`).
`DriverSettings.check` refuses settings that do not go together, in
`ValueError`s that start with the setting as `examples/nfsp.py`'s flag names
it (`actors=2 runs ...`); `makers` returns (new driver, resumed driver)
makers, as `run_directory` users open a run, and `branch` starts a run from
another run's checkpoint with some learning settings changed.

The drivers import TensorFlow (and Ray): `makers` imports them, so that the
settings are checked at once.
"""

import dataclasses

from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp import agent_checkpoints
from nfsp_spiel.nfsp import config as config_lib


class DriverLoop:
  """What every loop over one driver shares as `run.nfsp_training.train`
  drives it (`len` 1, `episodes`/`played`, `play`): subclasses set
  `self.driver` and add `metrics` and `save`."""

  driver = None

  def __len__(self):
    return 1  # one run

  @property
  def episodes(self):
    return self.driver.episodes

  played = episodes

  def play(self, num_episodes):
    self.driver.play(num_episodes)


@dataclasses.dataclass(frozen=True)
class DriverSettings:
  """How the agents play. `driver`: "selfplay" (batched games) or
  "rl_environment" (OpenSpiel's RL loop); `num_games`, `backend` and
  `learn_locksteps` (None: 1) and `background_learning` (None: off):
  batched self-play's (`selfplay.SelfPlay`), a population's and each Ray
  actor's (but `learn_locksteps` and `background_learning`, one run's
  alone); `population_learning`: a population's `learning`; `actors` > 0:
  that many Ray actors (`distributed.DistributedConfig`, with
  `ray_address`, `learner_gpus` and `locksteps`, None: its default);
  `branch_from`: another run's checkpoint a fresh run starts from
  (`branch`)."""
  driver: str = "selfplay"
  num_games: int = 128
  backend: str = "auto"
  learn_locksteps: int | None = None
  population_learning: str = "auto"
  actors: int = 0
  ray_address: str | None = None
  learner_gpus: float = 0.0
  locksteps: int | None = None
  branch_from: str | None = None
  background_learning: bool | None = None

  def check(self, population=False):
    """Refuses settings that do not go together; `population`: the agents
    are a population's members (the binary's --seeds or --sweep)."""
    if population and (self.actors or self.driver != "selfplay"):
      other = (f"--actors={self.actors}" if self.actors
               else f"--driver={self.driver}")
      raise ValueError("seeds/--sweep train a population with batched "
                       f"self-play (--driver=selfplay), not with {other}")
    if self.actors and self.driver != "selfplay":
      raise ValueError(f"actors={self.actors} runs batched self-play in each "
                       f"actor, not --driver={self.driver}")
    if self.learn_locksteps is not None and (
        self.actors or self.driver != "selfplay" or population):
      raise ValueError(f"learn_locksteps={self.learn_locksteps} sets one "
                       "batched self-play run's learning (--driver="
                       "selfplay, no --actors, --seeds or --sweep)")
    if self.background_learning and (
        self.actors or self.driver != "selfplay" or population):
      raise ValueError("background_learning=True sets one batched self-play "
                       "run's learning (--driver=selfplay, no --actors, "
                       "--seeds or --sweep)")
    if self.branch_from is not None and (self.actors or population):
      raise ValueError(f"branch_from={self.branch_from!r} starts one run "
                       "(no --actors, --seeds or --sweep) from another "
                       "run's checkpoint")


def branch(resumed, path, config):
  """(driver, changed) where `resumed(path, ignore)` restores the run whose
  checkpoint is at `path`: its agents, memories, games in flight and random
  streams continue under this run's settings (`config`), which may differ
  from that run's in `agent_checkpoints.BRANCH_FIELDS` only (how agents
  learn and explore); `changed`: {field: [that run's value, this run's]},
  empty where nothing differs. A difference in any other setting raises
  `checkpoints.CheckpointError` naming it."""
  there = config_lib.complete_header(checkpoints.read_header(path)["config"])
  here = config.header_fields()
  changed = {f: [there.get(f), here.get(f)]
             for f in agent_checkpoints.BRANCH_FIELDS
             if there.get(f) != here.get(f)}
  try:
    return resumed(path, tuple(changed)), changed
  except checkpoints.CheckpointError as error:
    if not error.differing:  # another game, driver or a damaged file
      raise
    raise checkpoints.CheckpointError(
        f"{path!r} differs from this run in {', '.join(error.differing)}: a "
        f"branch may change only {', '.join(agent_checkpoints.BRANCH_FIELDS)}",
        error.differing) from error


def makers(game, config, seed, settings, members=()):
  """(new driver, resumed driver) makers: `new()` and `resumed(path)` (the
  driver restored from the checkpoint at `path`) of the population of
  `members` (`sweep.Member`s: their configs and seeds), of the Ray driver
  where `settings.actors` (an ImportError that says how to install Ray where
  it is missing), else of one run of `settings.driver` with `config` and
  `seed`."""
  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import agent
  from nfsp_spiel.nfsp import population
  from nfsp_spiel.nfsp import rl_loop
  from nfsp_spiel.nfsp import selfplay
  from nfsp_spiel.core import hardware
  # pylint: enable=g-import-not-at-top
  all_configs = (config, *(m.config for m in members))
  hardware.set_learning_threads(config.precision, game.num_players())
  for each in all_configs:
    agent.check_inputs(game, each)
  other = [c.inputs for c in all_configs if c.inputs != config_lib.CARDS]
  if other and (members or settings.actors or settings.driver != "selfplay"):
    # The wrapper (`equity_inputs`) serves batched self-play's calls only.
    raise ValueError(f"inputs={other[0]!r} is read in one run's batched "
                     "self-play (--driver=selfplay), not with --actors, "
                     "--seeds, --sweep or --driver=rl_environment")
  if members:
    configs, seeds = [m.config for m in members], [m.seed for m in members]
    kwargs = dict(num_games=settings.num_games, backend=settings.backend,
                  learning=settings.population_learning)
    return (lambda: population.Population(game, configs, seeds, **kwargs),
            lambda path: population.Population.restore(
                game, path, configs, seeds, **kwargs))
  if settings.actors:
    from nfsp_spiel.nfsp import distributed  # pylint: disable=g-import-not-at-top
    distributed.import_ray()
    changes = {"num_actors": settings.actors, "num_games": settings.num_games,
               "backend": settings.backend, "address": settings.ray_address,
               "learner_gpus": settings.learner_gpus,
               "locksteps": settings.locksteps}
    ray_settings = distributed.DistributedConfig(
        **{k: v for k, v in changes.items() if v is not None})
    driver = distributed.DistributedSelfPlay
    return (lambda: driver(game, config, seed, ray_settings),
            lambda path: driver.restore(game, path, config, seed,
                                        ray_settings))
  agents = lambda: agent.agents_for(game, config, seed=seed)  # noqa: E731
  if settings.driver == "rl_environment":
    loop = rl_loop.RLEnvironmentLoop
    return (lambda: loop(game, agents(), seed),
            lambda path, ignore=(): loop.restore(game, path, agents(), seed,
                                                 ignore))
  kwargs = dict(num_games=settings.num_games, seed=seed,
                backend=settings.backend,
                learn_locksteps=settings.learn_locksteps or 1,
                background_learning=bool(settings.background_learning))
  return (lambda: selfplay.SelfPlay(game, agents(), **kwargs),
          lambda path, ignore=(): selfplay.SelfPlay.restore(
              game, path, agents(), ignore, **kwargs))
