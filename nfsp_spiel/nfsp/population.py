"""Population training: K independent NFSP runs in one process.

Seeds and small sweeps are what NFSP's results rest on (the thesis averaged
fig. 3.2 over 50 runs), and on a small game each run spends most of its time
in TensorFlow's per-call overhead, which a call pays whatever it computes.
A `Population` trains K members, each a batched self-play run
(`nfsp_spiel.nfsp.selfplay.SelfPlay`) with its own agents, memories, random
streams and games, in lockstep: every member makes its moves, then all the
learning calls that fell due are made in one compiled call with the members'
weights stacked (`nfsp_spiel.nfsp.stacked_learning`), then the members'
finished games end.

Members share the game, `num_games` and every setting that sets a shape
(network sizes, batch size, updates per learning call, memory dtype, the
learner); they may differ in seed and in every scalar setting (learning
rates, eta, the exploration schedule, reward scale, target refit period,
memory kinds and capacities), so a small sweep is one run.

Member k is the run `SelfPlay(game, agents_for(game, configs[k],
seeds[k]), num_games, seeds[k])` makes alone: its games, actions, memories
and random draws are that run's, and `play` / `play_to` stop each member
where that run would stop. Its weights may differ from the single run's in
the last bits (the stacked call's reductions; `stacked_learning` says when),
and two runs that once sample an action differently go their own ways from
there; `tests/nfsp/test_population.py` checks DQN members bit for bit and
NFSP-ARM members' games and memories bit for bit, weights within 1e-5.

Learning (`learning=`): "stacked" is the one call above; "separate" makes
each member's calls through its own fused call, as its single run does (K
calls a lockstep; bit for bit the single runs). "auto" (the default) stacks
where stacking measured faster than separate calls
(`benchmarks/population_episodes.py --learning stacked,separate`; BUILD_NOTES,
"Population training: K runs in one process"): at least
`STACK_FROM_MEMBERS` members whose hidden layers have at most
`STACK_UP_TO_UNITS` units each. Limit Hold'em's networks and populations of
two learn separately: a stacked call costs per member about what the
member's own call costs, so stacking saves nothing there.

Seeds: `agents_for` seeds player p's agent with seed + p and the driver's
games with seed, so runs of seeds s and s + 1 share random streams (agent 1
of one, agent 0 and the games of the other): give members seeds at least
`num_players` apart for independent runs (`spaced_seeds`).
"""

from nfsp_spiel.core import checkpoints
from nfsp_spiel.core import hardware
from nfsp_spiel.nfsp import agent as agent_lib
from nfsp_spiel.nfsp import agent_checkpoints
from nfsp_spiel.nfsp import config as config_lib
from nfsp_spiel.nfsp import fused_learning
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.nfsp import stacked_learning


LEARNING = ("auto", "stacked", "separate")
STACK_FROM_MEMBERS = 3
STACK_UP_TO_UNITS = 256


def stacks(configs, learning="auto"):
  """Whether a population of members with `configs` learns in one stacked
  call (`learning`: see the module docstring)."""
  if learning not in LEARNING:
    raise ValueError(f"learning={learning!r}: must be one of {LEARNING}")
  if learning != "auto":
    return learning == "stacked" and len(configs) > 1
  return (len(configs) >= STACK_FROM_MEMBERS and
          max(configs[0].hidden_layers, default=0) <= STACK_UP_TO_UNITS)


def spaced_seeds(count, players, first=0):
  """`count` seeds whose runs share no random stream (`agents_for` uses
  seed .. seed + players - 1, the games seed): first, first + players, ..."""
  return [first + k * players for k in range(count)]


class Population:
  """K NFSP runs trained together; see the module docstring. `configs`:
  one `NFSPConfig` per member, or one for all; `seeds`: one per member."""

  def __init__(self, game, configs, seeds, num_games=128, backend="auto",
               learning="auto"):
    seeds = [int(seed) for seed in seeds]
    if not seeds:
      raise ValueError("seeds=[]: a population needs at least one member")
    if not isinstance(configs, (list, tuple)):
      configs = [configs] * len(seeds)
    if len(configs) != len(seeds):
      raise ValueError(f"{len(configs)} configs for {len(seeds)} seeds: give "
                       "one config per member, or one for all")
    stacked_learning.check_stackable(configs)
    self.game = game
    self.configs = list(configs)
    self.seeds = seeds
    self.members = [selfplay.SelfPlay(
        game, agent_lib.agents_for(game, config, seed=seed), num_games, seed,
        backend, learn=False) for config, seed in zip(configs, seeds)]
    agents = [member.agents for member in self.members]
    self._learning = (stacked_learning.StackedLearning(agents)
                      if stacks(self.configs, learning) else
                      _SeparateLearning(agents))

  def __len__(self):
    return len(self.members)

  @property
  def agents(self):
    """`agents[k][p]`: member k's agent of player p."""
    return [member.agents for member in self.members]

  @property
  def episodes(self):
    """Each member's episodes played."""
    return [member.episodes for member in self.members]

  def play(self, num_episodes):
    """Each member plays until it has ended `num_episodes` more episodes,
    stopping at the lockstep where it alone would (members that got there
    wait for the others); returns `episodes`."""
    return self._play_to([episodes + num_episodes
                          for episodes in self.episodes])

  def play_to(self, episodes):
    """Each member below `episodes` plays until it has reached it (as a
    run of its own evaluated every so many episodes would); returns
    `episodes`."""
    return self._play_to([episodes] * len(self.members))

  def _play_to(self, targets):
    with hardware.acting_threads():
      while True:
        playing = [k for k, member in enumerate(self.members)
                   if member.episodes < targets[k]]
        if not playing:
          return self.episodes
        self.step(playing)

  def step(self, members=None):
    """One lockstep of `members` (indices; default all): their moves, every
    learning call that fell due in one stacked call, their games' ends."""
    members = range(len(self.members)) if members is None else members
    due = [[0] * self.game.num_players() for _ in self.members]
    for k in members:
      due[k] = self.members[k].move()
    self._learning.learn(due)
    for k in members:
      self.members[k].end_episodes()

  # ---- checkpoints: every member in one file ----

  def _header(self):
    fields = {"members": len(self.members)}
    for k, (config, member) in enumerate(zip(self.configs, self.members)):
      settings = {**config.header_fields(), **member.driver_settings()}
      for name, value in settings.items():
        if name not in agent_checkpoints.IGNORED_FIELDS:
          fields[f"member{k}/{name}"] = value
    return checkpoints.header("NFSP population", self.game, fields)

  def save(self, path, progress=None):
    """Every member's agents and games in flight in one file (atomic), with
    a training run's `progress`; returns the path."""
    self._learning.write_back()
    arrays = {}
    for k, member in enumerate(self.members):
      for p, agent in enumerate(member.agents):
        for key, value in agent_checkpoints.agent_arrays(agent).items():
          arrays[f"member{k}/agent{p}/{key}"] = value
      for key, value in member.driver_arrays().items():
        arrays[f"member{k}/{key}"] = value
    return checkpoints.write(path, self._header(), arrays, progress)

  @classmethod
  def restore(cls, game, path, configs, seeds, num_games=128,
              backend="auto", learning="auto"):
    """The population `cls(game, configs, seeds, num_games, backend,
    learning)` continued exactly where `save` stopped. A checkpoint of
    another game, member count or member setting raises
    `checkpoints.CheckpointError`. (`learning` may differ from the run that
    saved: the weights are each member's either way.)"""
    population = cls(game, configs, seeds, num_games, backend, learning)
    population._load(path)  # pylint: disable=protected-access
    return population

  def _load(self, path):
    data = checkpoints.read(path, self._header(),
                            upgrade=_complete_member_settings)
    path = checkpoints.path_of(path)
    parts = {}
    for k, member in enumerate(self.members):
      for p, agent in enumerate(member.agents):
        prefix = f"member{k}/agent{p}/"
        parts[k, p] = {key[len(prefix):]: value for key, value in data.items()
                       if key.startswith(prefix)}
        agent_checkpoints.check_agent_arrays(agent, parts[k, p], path)
    for k, member in enumerate(self.members):
      for p, agent in enumerate(member.agents):
        agent_checkpoints.load_agent_arrays(agent, parts[k, p], path)
      prefix = f"member{k}/"
      member.load_driver_arrays({
          key[len(prefix):]: value for key, value in data.items()
          if key.startswith(prefix)
          and not key[len(prefix):].startswith("agent")})
    self._learning.reload()


def _complete_member_settings(fields):
  """A population header's config with each member's settings as this
  version writes them (`config.complete_header`: fields added since the file
  was written take the values it ran with), so earlier populations resume."""
  members, completed = {}, {}
  for key, value in fields.items():
    member, slash, name = key.partition("/")
    if slash and member.startswith("member"):
      members.setdefault(member, {})[name] = value
    else:
      completed[key] = value
  for member, settings in members.items():
    completed.update({f"{member}/{name}": value for name, value
                      in config_lib.complete_header(settings).items()
                      if name not in agent_checkpoints.IGNORED_FIELDS})
  return completed


class _SeparateLearning:
  """Each member learns through its own fused call, as its single run does
  (`StackedLearning`'s interface)."""

  def __init__(self, agents):
    self._agents = agents
    self._learning = [fused_learning.FusedLearning() for _ in agents]

  def learn(self, calls):
    for agents, learning, due in zip(self._agents, self._learning, calls):
      learning.learn(agents, due)

  def write_back(self):
    pass  # the agents' variables are the weights

  def reload(self):
    pass
