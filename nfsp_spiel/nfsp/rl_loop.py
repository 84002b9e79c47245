"""OpenSpiel's RL loop: every agent's `step`, one game at a time.

What OpenSpiel's own NFSP scripts run (`rl_environment.Environment`,
`agent.step(time_step)` for the player to move, then every agent's `step` on
the last time step): with this package's agents or any other
`rl_agent.AbstractAgent`s. The batched driver (`selfplay.SelfPlay`) is the
fast path; this one is the reference it is checked against.
`RLEnvironmentLoop` is that loop as a training driver (`examples/nfsp.py
--driver rl_environment`), with the drivers' `save` and `restore`.
"""

from open_spiel.python import rl_environment

from nfsp_spiel.nfsp import agent_checkpoints


def play_episodes(env, agents, num_episodes, is_evaluation=False,
                  check=None):
  """Plays `num_episodes` episodes of `env` with `agents` (one per player);
  `check(time_step, player, step_output)` sees every decision."""
  for _ in range(num_episodes):
    time_step = env.reset()
    while not time_step.last():
      player = time_step.observations["current_player"]
      output = agents[player].step(time_step, is_evaluation=is_evaluation)
      if check:
        check(time_step, player, output)
      time_step = env.step([output.action])
    for agent in agents:
      agent.step(time_step, is_evaluation=is_evaluation)
  return num_episodes


class RLEnvironmentLoop:
  """`play_episodes` as a driver: one game at a time in an
  `rl_environment.Environment` whose chance events are drawn with `seed`,
  `episodes` counted from the agents' own."""

  def __init__(self, game, agents, seed=0):
    self.env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed))
    self.agents = agents
    self.seed = seed
    self.episodes = agents[0].episodes

  def play(self, num_episodes):
    self.episodes += play_episodes(self.env, self.agents, num_episodes)

  def save(self, path, progress=None):
    return agent_checkpoints.save_agents(path, self.env.game, self.agents,
                                         progress, self._settings(self.seed))

  @classmethod
  def restore(cls, game, path, agents, seed=0, ignore=()):
    """The loop with `save`'s agents restored into `agents` (config fields in
    `ignore` may differ)."""
    agent_checkpoints.restore_agents(path, game, agents, cls._settings(seed),
                                     ignore)
    return cls(game, agents, seed)

  @staticmethod
  def _settings(seed):
    # The environment's games are not saved: a resumed run deals new ones.
    return {"driver": "rl_environment", "seed": seed}
