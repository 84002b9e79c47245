"""NFSP self-play on a Ray cluster: actors play, one learner trains.

NFSP (Heinrich & Silver 2016, `nfsp_spiel.nfsp.agent`) split along the actor /
learner seam of Acme and of PokerRL's distributed NFSP, on Ray
(https://docs.ray.io): `ray.init()` starts a local cluster, an address
joins one started with Ray's own `ray start`.

* `SelfPlayActor` (one Ray actor per `num_actors`): the batched driver
  (`selfplay.SelfPlay`, with `learn=False`) on its own `num_games` games,
  with acting copies of every player's agent. Each `play` call plays
  `locksteps` locksteps and returns what the agents recorded
  (`NFSP.take_records`: M_RL transitions, M_SL best-response records, step
  and episode counts); before it, every `refresh_every` calls, it loads the
  newest weights the learner has published, if any (it never waits for them).
* `Learner` (one Ray actor, on the GPU where Ray gives it one): the agents
  with their memories and networks. `receive` adds a chunk of records
  (`NFSP.add_records`) and makes the learning calls its steps made due: one
  per `learn_every` of a player's steps, the paper's ratio of SGD updates to
  game steps, all players' in one compiled call (`FusedLearning`);
  then it publishes the acting weights (`ray.put`, once per new version).
* `DistributedSelfPlay`: the driver's loop, with `SelfPlay`'s interface
  (`play`, `episodes`, `save`, `restore`, `agents`), so that
  `examples/nfsp.py --actors N` runs it where it runs `SelfPlay`.

The same as in one process: the per-episode anticipatory choice, the epsilon
schedule (an actor's agents count the learner's steps of their player, plus
their own since the last refresh), the memories and reservoir sampling (the
learner's agents are ordinary NFSP agents), the learning calls per game step
and the learner's batches. What differs is the acting weights' age: one
process acts with weights at most one lockstep (`num_games` steps) old, an
actor with those of its last refresh; `staleness` records, per chunk, how
many game steps the learner had received when its weights were published
and when its records arrived (benchmarks/distributed_learning.py measures
its effect on learning). NFSP-ARM is served by the same mechanism: its
records carry their game, numbered per actor and actor start so that the
learner's n-step returns never join two actors' games.

Fault tolerance: Ray restarts a dead actor (`max_restarts`); the driver
counts the chunk it had in flight as lost (`lost_chunks`: that actor's
in-flight episodes, never counted as played) and starts it anew, with fresh
seeds. A checkpoint (`save`) is the learner's agents, written by the driver
(the learner may sit on another node); `restore` gives them back to a new
learner, and actors start new games.
"""

import collections
import dataclasses
import time

import numpy as np
import pyspiel

from nfsp_spiel.core import checks
from nfsp_spiel.core import hardware
from nfsp_spiel.nfsp import agent as agent_lib
from nfsp_spiel.nfsp import agent_checkpoints
from nfsp_spiel.nfsp import fused_learning
from nfsp_spiel.nfsp import agent_policies
from nfsp_spiel.nfsp import selfplay

INSTALL_HINT = ("nfsp_spiel.nfsp.distributed needs Ray: pip install "
                "'nfsp_spiel[distributed]'")
# A seed-sequence tag of the actors' seeds: no other seed of a run is a
# sequence of this length ending in it (numpy pads sequences with zeros).
_ACTOR_SEED_TAG = 0x5E1F


def import_ray():
  """Ray, or an ImportError that says how to install it."""
  try:
    import ray  # pylint: disable=g-import-not-at-top
  except ImportError as error:
    raise ImportError(INSTALL_HINT) from error
  return ray


@dataclasses.dataclass(frozen=True)
class DistributedConfig:
  """How self-play is spread over Ray (what the agents learn is
  `NFSPConfig`'s).

  Attributes:
    num_actors: Ray actors playing self-play games (each a process).
    num_games: games each actor plays at once (`selfplay.SelfPlay`).
    locksteps: locksteps per `play` call: an actor's records travel to the
      learner in chunks of `locksteps * num_games` game steps.
    refresh_every: an actor loads the newest published weights before every
      `refresh_every`-th chunk (1: before each).
    backend: how actors hold their games (`selfplay.make_games`).
    learner_gpus: GPUs Ray gives the learner (1 on a GPU machine; its
      TensorFlow then places the networks there).
    address: the Ray cluster to join ("auto", "ray://host:10001"); None
      starts a local one with a CPU per actor and one for the learner.
    max_restarts: times Ray restarts a dead actor.
    actor_timeout: seconds an actor may keep failing before the run stops.
  """
  num_actors: int = 2
  num_games: int = 128
  locksteps: int = 8
  refresh_every: int = 1
  backend: str = "auto"
  learner_gpus: float = 0.0
  address: str | None = None
  max_restarts: int = 3
  actor_timeout: float = 300.0

  def __post_init__(self):
    for name, minimum in (("num_actors", 1), ("num_games", 1),
                          ("locksteps", 1), ("refresh_every", 1),
                          ("max_restarts", 0)):
      checks.whole_number(name, getattr(self, name), minimum)
    if self.backend not in selfplay.BACKENDS:
      raise ValueError(f"backend={self.backend!r}: must be one of "
                       f"{selfplay.BACKENDS}")
    if self.learner_gpus < 0 or self.actor_timeout <= 0:
      raise ValueError(f"learner_gpus={self.learner_gpus}, actor_timeout="
                       f"{self.actor_timeout}: must be >= 0 and > 0")


def _load_game(name):
  import nfsp_spiel  # pylint: disable=g-import-not-at-top,unused-import
  return pyspiel.load_game(name)  # the package's games are registered now


class Learner:
  """The agents, their memories and networks (a Ray actor's class)."""

  def __init__(self, game_name, config, seed):
    self.game = _load_game(game_name)
    self.agents = agent_lib.agents_for(self.game, config, seed)
    self._learning = fused_learning.FusedLearning()
    self.episodes = 0
    self._published = (None, None)  # (version, weights' object reference)
    self._game_bases = {}  # (actor, start) -> its games' first number
    self._next_game = 0
    self.busy_seconds = 0.0  # in `receive`: where a learner saturates

  def _game_base(self, actor, num_games):
    """The number of an actor start's game 0: ARM's records carry their
    game, and the n-step returns must never join two starts' games."""
    if actor not in self._game_bases:
      self._game_bases[actor] = self._next_game
      self._next_game += num_games
    return float(self._game_bases[actor])

  @property
  def version(self):
    """Game steps received: the acting weights change only with them."""
    return sum(agent.steps for agent in self.agents)

  def receive(self, chunk):
    """Adds an actor's chunk and makes the learning calls it made due;
    returns `publication()`."""
    started = time.perf_counter()
    base = self._game_base(chunk["actor"], chunk["games"])
    due = []
    for agent, (rl, sl, steps) in zip(self.agents, chunk["records"]):
      due.append(agent.add_records(rl, sl, steps, first_game=base))
    for agent in self.agents:
      agent.count_episodes(chunk["episodes"])
    self.episodes += chunk["episodes"]
    self._learning.learn_in_groups(self.agents, due)
    publication = self.publication()
    self.busy_seconds += time.perf_counter() - started
    return publication

  def publication(self):
    """{"version", "steps" (per player), "weights": [reference to every
    agent's `acting_weights()`]}: the reference inside a list, so that an
    actor fetches the weights only when their version is new to it."""
    ray = import_ray()
    if self._published[0] != self.version:
      self._published = (self.version, ray.put(
          [agent.acting_weights() for agent in self.agents]))
    return {"version": self.version,
            "steps": [agent.steps for agent in self.agents],
            "weights": [self._published[1]]}

  def snapshot(self):
    """What the driver's copies need for evaluation and logging."""
    return {"weights": [agent.acting_weights() for agent in self.agents],
            "counters": [(agent.steps, agent.episodes) for agent in
                         self.agents],
            "losses": [agent.losses for agent in self.agents],
            "episodes": self.episodes, "busy_seconds": self.busy_seconds}

  def diagnostics(self):
    """`agent_policies.diagnostics` (it reads M_SL, which only the learner
    holds)."""
    return agent_policies.diagnostics(self.game, self.agents)

  def checkpoint_arrays(self):
    return self.episodes, [agent.checkpoint_arrays() for agent in self.agents]

  def load_checkpoint(self, parts, episodes, path):
    for agent, part in zip(self.agents, parts):
      agent.load_checkpoint_arrays(part, path)
    self.episodes = episodes
    self._published = (None, None)
    # Games in flight at the save are gone: new starts number theirs after.
    self._game_bases = {}
    self._next_game = max(agent.games_recorded() for agent in self.agents)


class SelfPlayActor:
  """Batched self-play with acting copies of the agents (a Ray actor's
  class). A first start is seeded by (run seed, actor); one Ray restarts
  takes fresh entropy, so that it never replays the games of an earlier
  start."""

  def __init__(self, game_name, config, seed, index, distributed):
    ray = import_ray()
    game = _load_game(game_name)
    restarted = ray.get_runtime_context().was_current_actor_reconstructed
    self.start = (int(np.random.SeedSequence().entropy % 2**62) if restarted
                  else 0)
    seeds = np.random.SeedSequence([seed, index, self.start, _ACTOR_SEED_TAG]
                                   ).generate_state(2)
    agents = agent_lib.agents_for(game, config, int(seeds[0]))
    self.selfplay = selfplay.SelfPlay(
        game, agents, distributed.num_games, seed=int(seeds[1]),
        backend=distributed.backend, learn=False)
    self._index = index
    self._refresh_every = distributed.refresh_every
    self._locksteps = distributed.locksteps
    self._chunks = 0
    self._version = None

  def _refresh(self, publications):
    """Loads the newest of the `publications` ready (references to
    `Learner.publication()`s, oldest first); waits only for the first."""
    ray = import_ray()
    if self._version is None:
      ray.wait(publications[:1])
    elif self._chunks % self._refresh_every:
      return
    ready = set(ray.wait(publications, num_returns=len(publications),
                         timeout=0)[0])
    newest = [ref for ref in publications if ref in ready]
    if not newest:
      return
    publication = ray.get(newest[-1])
    if publication["version"] == self._version:
      return
    weights = ray.get(publication["weights"][0])
    for agent, agent_weights, steps in zip(self.selfplay.agents, weights,
                                           publication["steps"]):
      # The exploration schedule counts the player's steps.
      agent.load_acting_weights(agent_weights, steps)
    self._version = publication["version"]

  def play(self, publications):
    """Plays a chunk with the newest weights among `publications` (see
    `_refresh`); returns (summary, chunk)."""
    started = time.perf_counter()
    self._refresh(publications)
    loop = self.selfplay
    episodes, steps = loop.episodes, [a.steps for a in loop.agents]
    with hardware.acting_threads():
      for _ in range(self._locksteps):
        loop.step()
    records = []
    for p, agent in enumerate(loop.agents):
      rl, sl = agent.take_records()
      records.append((rl, sl, agent.steps - steps[p]))
    self._chunks += 1
    chunk = {"records": records, "episodes": loop.episodes - episodes,
             "actor": (self._index, self.start), "games": loop.num_games}
    summary = {"episodes": chunk["episodes"], "version": self._version,
               "steps": sum(r[2] for r in records), "start": self.start,
               "bytes": sum(rl.nbytes + sl.nbytes for rl, sl, _ in records),
               "seconds": time.perf_counter() - started}
    return summary, chunk


class DistributedSelfPlay:
  """NFSP self-play over Ray actors and a learner, driven from here."""

  def __init__(self, game, config=None, seed=0, distributed=None):
    ray = import_ray()
    distributed = distributed or DistributedConfig()
    self.game = game
    self.distributed = distributed
    self._seed = seed
    # Copies for evaluation; the learner's agents start from the same seeds.
    self.agents = agent_lib.agents_for(game, config, seed)
    config = self.agents[0].config
    if not ray.is_initialized():
      ray.init(address=distributed.address, include_dashboard=False,
               num_cpus=(None if distributed.address else
                         distributed.num_actors + 1),
               log_to_driver=False)
    name = str(game)
    self.learner = ray.remote(num_cpus=1, num_gpus=distributed.learner_gpus)(
        Learner).remote(name, config, seed)
    actor_class = ray.remote(num_cpus=1, max_restarts=distributed.max_restarts)(
        SelfPlayActor)
    self.actors = [actor_class.remote(name, config, seed, i, distributed)
                   for i in range(distributed.num_actors)]
    self._starts = [0] * distributed.num_actors
    self._failing_since = [None] * distributed.num_actors
    self._in_flight = {}  # summary reference -> (actor, chunk reference)
    # The learner's calls not known to be done, and its last publications
    # (the actors take the newest that is ready).
    self._receiving = collections.deque()
    self._publications = collections.deque(maxlen=distributed.num_actors + 1)
    self._publications.append(self.learner.publication.remote())
    self.episodes = 0
    self.chunks = [0] * distributed.num_actors  # received, per actor
    self.restarts = 0  # actor starts after the first (Ray's restarts)
    # Summed over received chunks: actors' seconds in `play`, bytes sent.
    self.actor_seconds = 0.0
    self.bytes = 0
    self.learner_seconds = 0.0  # the learner's in `receive`, at `_sync`
    self.lost_chunks = 0  # chunks of actors that died while playing them
    # Per chunk: game steps the learner had received when the chunk arrived
    # minus those it had when it published the weights the chunk played.
    self.staleness = []
    self.steps = 0  # game steps (all players') sent to the learner

  def _submit(self, index):
    summary, chunk = self.actors[index].play.options(num_returns=2).remote(
        list(self._publications))
    self._in_flight[summary] = (index, chunk)

  def play(self, num_episodes):
    """Plays until `num_episodes` more episodes have reached the learner
    (chunks in flight then go on); returns the total so far."""
    ray = import_ray()
    target = self.episodes + num_episodes
    busy = {index for index, _ in self._in_flight.values()}
    for index in range(len(self.actors)):
      if index not in busy:
        self._submit(index)
    while self.episodes < target:
      [ready], _ = ray.wait(list(self._in_flight), num_returns=1)
      index, chunk = self._in_flight.pop(ready)
      try:
        summary = ray.get(ready)
      except ray.exceptions.RayActorError as error:
        self._actor_failed(index, error)
      else:
        self._failing_since[index] = None
        self.chunks[index] += 1
        if summary["start"] != self._starts[index]:
          self._starts[index] = summary["start"]
          self.restarts += 1
        self._receiving.append(self.learner.receive.remote(chunk))
        self._publications.append(self._receiving[-1])
        # Back-pressure: actors wait while the learner is behind by more
        # than a chunk per actor (memory and staleness stay bounded).
        while len(self._receiving) > len(self.actors):
          ray.get(self._receiving.popleft())
        self.episodes += summary["episodes"]
        self.staleness.append(self.steps - summary["version"])
        self.actor_seconds += summary["seconds"]
        self.bytes += summary["bytes"]
        self.steps += summary["steps"]
      self._submit(index)
    self._sync()
    return self.episodes

  def _actor_failed(self, index, error):
    """Counts the lost chunk; the actor (restarted by Ray) starts anew."""
    now = time.monotonic()
    since = self._failing_since[index] or now
    if now - since > self.distributed.actor_timeout:
      raise RuntimeError(f"actor {index} has failed for {now - since:.0f} s "
                         f"(actor_timeout={self.distributed.actor_timeout})"
                         ) from error
    if self._failing_since[index] is None:  # not a retry during its restart
      self.lost_chunks += 1
    self._failing_since[index] = since
    time.sleep(0.5)  # while Ray restarts it

  def _sync(self):
    """The driver's copies take the learner's weights and counters."""
    ray = import_ray()
    snapshot = ray.get(self.learner.snapshot.remote())
    for agent, weights, (steps, episodes), losses in zip(
        self.agents, snapshot["weights"], snapshot["counters"],
        snapshot["losses"]):
      agent.load_acting_weights(weights)
      agent.load_counters(steps, episodes, losses)
    self.learner_seconds = snapshot["busy_seconds"]
    if snapshot["episodes"] != self.episodes:
      raise AssertionError(f"the learner has {snapshot['episodes']} episodes, "
                           f"the driver counted {self.episodes}")

  def diagnostics(self):
    """`agent_policies.diagnostics` of the learner's agents (M_SL is the
    learner's)."""
    return import_ray().get(self.learner.diagnostics.remote())

  # ---- checkpoints: the learner's agents; actors start new games ----

  def driver_settings(self):
    return {"driver": "distributed", "seed": self._seed}

  def save(self, path, progress=None):
    """Writes the learner's agents (networks, memories, counters) from the
    driver, atomically, with a run's `progress`; returns the path."""
    ray = import_ray()
    episodes, parts = ray.get(self.learner.checkpoint_arrays.remote())
    return agent_checkpoints.save_agents(
        path, self.game, self.agents, progress, self.driver_settings(),
        arrays_by_agent=parts, episodes=np.array(episodes))

  @classmethod
  def restore(cls, game, path, config=None, seed=0, distributed=None):
    """The driver `cls(game, config, seed, distributed)` with `save`'s file
    given to its learner (another game, configuration or driver raises
    `checkpoints.CheckpointError`; the driver's actors are then stopped)."""
    driver = cls(game, config, seed, distributed)
    try:
      driver._load(path)  # pylint: disable=protected-access
    except Exception:
      driver.close()
      raise
    return driver

  def _load(self, path):
    ray = import_ray()
    parts, extra = agent_checkpoints.read_agents(
        path, self.game, self.agents, self.driver_settings())
    episodes = int(extra["episodes"])
    ray.get(self.learner.load_checkpoint.remote(parts, episodes, str(path)))
    self.episodes = episodes
    self._publications.clear()
    self._publications.append(self.learner.publication.remote())
    self._sync()
    self.steps = sum(agent.steps for agent in self.agents)

  def close(self):
    """Stops the actors and the learner (Ray itself keeps running)."""
    ray = import_ray()
    for handle in [*self.actors, self.learner]:
      ray.kill(handle, no_restart=True)
    self._in_flight.clear()
