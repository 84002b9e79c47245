"""OpenSpiel's RL loop: every agent's `step`, one game at a time.

What OpenSpiel's own NFSP scripts run (`rl_environment.Environment`,
`agent.step(time_step)` for the player to move, then every agent's `step` on
the last time step): with this package's agents or any other
`rl_agent.AbstractAgent`s. The batched driver (`selfplay.SelfPlay`) is the
fast path; this one is the reference it is checked against.
"""


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
