"""Batched self-play: NFSP agents play many games at once.

Heinrich's thesis Alg. 9 runs one Online FSP agent (Alg. 8) per player; this
driver runs them on `num_games` games in lockstep, so that each agent acts for
all games where it is to move with one batched forward pass, and stores and
learns through the same batched methods its single-game `step` uses: the
learning schedule (every `learn_every` of the agent's own steps), the
per-episode choice of policy and the memories are the same, only the acting
weights may lag by one lockstep (at most `num_games` steps): the learning
calls that fall due in a lockstep are made at its end, all agents' in one
compiled call (`nfsp_spiel.nfsp.fused_learning`). Moves become transitions
through `nfsp_spiel.nfsp.transitions.PendingMoves`, one per player.

With `learn_locksteps=G` > 1 the calls that fall due are made every G
locksteps instead, in `fused_learning.call_groups` (up to 8 calls of each
agent per compiled call): the acting weights then lag by up to G locksteps,
the arrangement of the distributed learner (`nfsp_spiel.nfsp.distributed`:
chunks of 8 locksteps, calls in the same groups), in one process. The
calls are those of learning every lockstep, each agent's in order; their
batches are drawn later from the agent's random stream (which acting
shares), so a seeded run differs from the ungrouped one, as the distributed
learner's does. On Limit Hold'em's large networks XLA makes the calls 1.3x
faster in groups (BUILD_NOTES, "Limit Hold'em's learning calls in groups"),
so `examples/nfsp.py` uses G = 8 there.

With `background_learning=True` each chunk's calls run in a thread while
the next chunk is played (`fused_learning.BackgroundLearning`): acting
weights lag by up to 2G locksteps, and `play` waits for the last chunk's
calls before it returns, so what a caller saves or evaluates has learned
everything played. `examples/nfsp.py` does so on `nfsp_lhe`, where the
calls are most of the work and TensorFlow runs them outside the GIL
(BUILD_NOTES, "Limit Hold'em's learning on a CPU's matrix units").

The games are held by `nfsp_spiel.trees.batched_games`: a compiled tree for a
game small enough to enumerate, pyspiel states otherwise.

Rewards are the game's returns at the end of an episode (OpenSpiel's poker
games have no intermediate rewards).
"""

import json

import numpy as np

from nfsp_spiel.core import checks
from nfsp_spiel.core import hardware
from nfsp_spiel.nfsp import agent_checkpoints
from nfsp_spiel.nfsp import fused_learning
from nfsp_spiel.nfsp import transitions
from nfsp_spiel.trees.game_tensors import information_state_size
# The games' part of the driver's interface (`selfplay.TreeGames`, ...).
from nfsp_spiel.trees.batched_games import BACKENDS  # noqa: F401
from nfsp_spiel.trees.batched_games import StateGames  # noqa: F401
from nfsp_spiel.trees.batched_games import TERMINAL
from nfsp_spiel.trees.batched_games import TooLarge  # noqa: F401
from nfsp_spiel.trees.batched_games import TreeGames  # noqa: F401
from nfsp_spiel.trees.batched_games import make_games

class SelfPlay:
  """Trains one NFSP agent per player on `num_games` simultaneous games."""

  def __init__(self, game, agents, num_games=128, seed=0, backend="auto",
               learn=True, learn_locksteps=1, background_learning=False):
    """`learn=False`: the agents only act and record, their learning calls
    are made elsewhere (an actor of `nfsp_spiel.nfsp.distributed`);
    `learn_locksteps`: locksteps between learning; `background_learning`:
    each chunk's calls made while the next is played (see the module
    docstring)."""
    if len(agents) != game.num_players():
      raise ValueError(f"{len(agents)} agents for a {game.num_players()}-"
                       "player game")
    size = information_state_size(game)
    for agent in agents:
      if agent.state_size != size:
        raise ValueError(f"agent {agent.player_id} has state_size="
                         f"{agent.state_size}, {game} has {size}-dim "
                         "information-state tensors")
    if num_games < 1:
      raise ValueError(f"num_games={num_games}: must be at least 1")
    learn_locksteps = checks.whole_number("learn_locksteps", learn_locksteps,
                                          1)
    self.game = game
    self.agents = agents
    self._learn = learn
    self._seed = seed
    self._rng = np.random.default_rng(seed)
    self.games = make_games(game, num_games, self._rng, backend)
    self.num_games = num_games
    self._moves = [transitions.PendingMoves(
        num_games, size, game.num_distinct_actions(),
        agent.observe_transitions) for agent in agents]
    self._learning = fused_learning.FusedLearning()
    self.background_learning = bool(background_learning)
    self._background = (fused_learning.BackgroundLearning(self._learning)
                        if background_learning else None)
    self.learn_locksteps = learn_locksteps
    self._locksteps = 0
    self._calls_due = np.zeros(len(agents), np.int64)  # made every G locksteps
    self._best_response = np.stack(
        [agent.begin_episodes(num_games) for agent in agents], axis=1)
    self.episodes = 0

  def play(self, num_episodes):
    """Plays until `num_episodes` more episodes have ended (the last
    lockstep may end a few more); returns the total so far."""
    target = self.episodes + num_episodes
    with hardware.acting_threads():
      try:
        while self.episodes < target:
          self.step()
      finally:  # what `play` leaves has learned all it played
        if self._background:
          self._background.wait()
    return self.episodes

  def step(self):
    """One lockstep: every game makes one move, then finished games end
    (their agents learn the outcome) and restart."""
    due = self.move()
    # Before the episodes' ends reach the agents: with one game, a lockstep
    # is one agent's step, and this is where its own `step` learns.
    if self._learn:
      self._make_learning_calls(due)
    self.end_episodes()

  def _make_learning_calls(self, due):
    if self.learn_locksteps == 1 and not self._background:
      self._learning.learn(self.agents, due)
      return
    self._calls_due += due
    self._locksteps += 1
    if self._locksteps % self.learn_locksteps == 0:
      if self._background:
        self._background.submit(self.agents, self._calls_due.tolist())
      else:
        self._learning.learn_in_groups(self.agents, self._calls_due.tolist())
      self._calls_due[:] = 0

  def move(self):
    """The first part of a lockstep: every game makes one move; returns the
    learning calls that fell due per agent (`step` makes them, a
    population makes its members' together)."""
    player = self.games.current_player()
    due = [0] * len(self.agents)  # learning calls, made together at the end
    for p, agent in enumerate(self.agents):
      games = np.flatnonzero(player == p)
      if not games.size:
        continue
      states, legal = self.games.tensors_and_legal(games, p)
      best_response = self._best_response[games, p]
      actions, _ = agent.act(states, legal, best_response)
      self._moves[p].moved(games, states, legal, actions)
      due[p] = agent.record_steps(states, actions, best_response, learn=False)
      self.games.apply(games, actions)
    return due

  def end_episodes(self):
    """The last part of a lockstep: finished games end and restart."""
    finished = np.flatnonzero(self.games.current_player() == TERMINAL)
    if finished.size:
      self._finish(finished)

  def _finish(self, games):
    returns = self.games.final_returns(games)
    for p, agent in enumerate(self.agents):
      self._moves[p].ended(games, returns[:, p])
      self._best_response[games, p] = agent.begin_episodes(len(games))
      agent.count_episodes(len(games))
    self.episodes += len(games)
    self.games.restart(games)

  # ---- checkpoints: the agents and the games in flight, in one file ----

  def driver_settings(self):
    """The driver's part of the checkpoint header."""
    # The games in flight are saved in their backend's own form.
    settings = {"driver": f"selfplay/{type(self.games).__name__}",
                "num_games": self.num_games, "seed": self._seed}
    # Fields that joined later are written where set, so old files load.
    if self.learn_locksteps != 1:
      settings["learn_locksteps"] = self.learn_locksteps
    if self.background_learning:
      settings["background_learning"] = True
    return settings

  def save(self, path, progress=None):
    """The agents and the games in flight in one file (atomic), with a
    training run's `progress` (`run_directory`)."""
    return agent_checkpoints.save_agents(
        path, self.game, self.agents, progress, self.driver_settings(),
        **self.driver_arrays())

  def driver_arrays(self):
    """The driver's part of a checkpoint: the games in flight, the moves
    waiting for their transitions, the episodes' modes, the clock."""
    arrays = {"episodes": np.array(self.episodes),
              "rng": json.dumps(self._rng.bit_generator.state),
              "pending_state": np.stack([m.state for m in self._moves], 1),
              "pending_action": np.stack([m.action for m in self._moves], 1),
              "has_pending": np.stack([m.waiting for m in self._moves], 1),
              "best_response": self._best_response,
              "locksteps": np.array(self._locksteps),
              "calls_due": self._calls_due}
    for key, value in self.games.state().items():
      arrays[f"games/{key}"] = value
    return arrays

  @classmethod
  def restore(cls, game, path, agents, ignore=(), **settings):
    """The driver `cls(game, agents, **settings)` continued exactly where
    `save` stopped: a resumed run takes the same steps as one that was never
    interrupted. A checkpoint of another game, configuration (but for the
    config fields in `ignore`) or driver raises `checkpoints.CheckpointError`
    (and `agents` stay as they were)."""
    driver = cls(game, agents, **settings)
    driver._load(path, ignore)  # pylint: disable=protected-access
    return driver

  def waiting_moves(self):
    """Per player, the games where a move waits for its transition."""
    return [int(moves.waiting.sum()) for moves in self._moves]

  def _load(self, path, ignore=()):
    self.load_driver_arrays(agent_checkpoints.restore_agents(
        path, self.game, self.agents, self.driver_settings(), ignore))

  def load_driver_arrays(self, data):
    """Restores `driver_arrays()`' output (after the agents)."""
    self.games.load_state({k[len("games/"):]: v for k, v in data.items()
                           if k.startswith("games/")})
    self.episodes = int(data["episodes"])
    self._rng.bit_generator.state = json.loads(str(data["rng"]))
    for p, moves in enumerate(self._moves):
      moves.state[:] = data["pending_state"][:, p]
      moves.action[:] = data["pending_action"][:, p]
      moves.waiting[:] = data["has_pending"][:, p]
    self._best_response[:] = data["best_response"]
    if "calls_due" in data:  # older checkpoints had none waiting
      self._locksteps = int(data["locksteps"])
      self._calls_due[:] = data["calls_due"]
