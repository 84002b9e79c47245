"""Moves into transitions: the one place that knows M_RL's record layout.

A transition (s, a, r, s', legal(s'), done) of one player completes when that
player moves again in the same game (r = 0: OpenSpiel's poker games pay only
at the end) or when the game ends (r = the player's return, s' and its mask
zeros, done = 1). `PendingMoves` keeps one player's last (s, a) per game and
hands completed transitions to the agent (an "adder" in Acme's sense: it sits
between the game loop and the agent's memory, so no driver learns the
layout). The single-game `NFSP.step`, the batched driver
(`nfsp_spiel.nfsp.selfplay`) and, through it, the distributed actors all use
it.

ARM's n-step returns are not made here: the NFSP-ARM authors compute them
over each iteration's batch, truncated at its end (`nfsp_spiel.nfsp.arm`),
which an adder that sees one transition at a time would not reproduce.
"""

import numpy as np

# Every field a record may hold, in record order; a learner names the ones
# it needs (`record_fields`): DQN the first six, ARM all seven ("game": the
# number of the game a transition came from, for n-step returns).
FIELDS = ("state", "action", "reward", "next_state", "next_legal", "done",
          "game")
DQN_FIELDS = FIELDS[:6]


def record_columns(state_size, num_actions, fields=DQN_FIELDS):
  """Column ranges of a record of `fields`: one float32 row per transition,
  so that adding and sampling a batch is a single indexing operation."""
  widths = {"state": state_size, "next_state": state_size,
            "next_legal": num_actions}
  columns, start = {}, 0
  for name in fields:
    width = widths.get(name, 1)
    columns[name] = (start, start + width)
    start += width
  return columns


def records(fields, **columns):
  """Rows of `fields` from per-field columns (one entry or row per
  transition), float32."""
  count = len(columns["state"])
  return np.concatenate([np.asarray(columns[name], np.float32).reshape(
      count, -1) for name in fields], axis=1)


class PendingMoves:
  """One player's last (state, action) in each of `num_games` games, made
  into transitions for `observe` (an agent's `observe_transitions`) when
  the player moves there again or the game ends."""

  def __init__(self, num_games, state_size, num_actions, observe):
    self.state = np.zeros((num_games, state_size), np.float32)
    self.action = np.zeros(num_games, np.int64)
    self.waiting = np.zeros(num_games, bool)
    self._num_actions = num_actions
    self._observe = observe

  def moved(self, games, states, legal, actions, rewards=None):
    """The player moved in `games` (indices) at `states` (0/1 `legal`
    masks) with `actions`: the transitions waiting there complete with
    `rewards` (the rewards since the player's last move; None: 0), these
    moves wait."""
    waiting = self.waiting[games]
    if waiting.any():
      previous = games[waiting]
      count = len(previous)
      rewards = (np.zeros(count) if rewards is None
                 else np.asarray(rewards)[waiting])
      self._observe(self.state[previous], self.action[previous], rewards,
                    states[waiting], legal[waiting], np.zeros(count),
                    games=previous)
    self.state[games] = states
    self.action[games] = actions
    self.waiting[games] = True

  def ended(self, games, returns):
    """`games` ended paying the player `returns`: their waiting moves
    complete as terminal transitions."""
    waiting = self.waiting[games]
    previous = games[waiting]
    count = len(previous)
    self._observe(self.state[previous], self.action[previous],
                  np.asarray(returns)[waiting],
                  np.zeros((count, self.state.shape[1])),
                  np.zeros((count, self._num_actions)), np.ones(count),
                  games=previous)
    self.waiting[games] = False


class WaitingRecords:
  """Records on their way to an agent's memories: M_RL transitions for
  `learner`, M_SL rows for `average_policy`.

  They wait in lists until the memories are read (a learning call, a
  checkpoint: `store`): the memories' contents at every read are those of
  adding each record at once, and a single game's step costs one list
  append instead of a memory update. A copy of the agent in another process
  hands its waiting records over (`take`, `put`).
  """

  def __init__(self, learner, average_policy):
    self._learner = learner
    self._average_policy = average_policy
    self._transitions, self._steps = [], []

  def add_transitions(self, rows):
    self._transitions.append(rows)

  def add_steps(self, rows):
    self._steps.append(rows)

  def store(self):
    """Adds every waiting record to its memory."""
    if self._transitions:
      self._learner.add(np.concatenate(self._transitions))
      self._transitions.clear()
    if self._steps:
      self._average_policy.add(np.concatenate(self._steps))
      self._steps.clear()

  def arrays(self):
    """The waiting records, as one M_RL and one M_SL array."""
    widths = ((self._learner.record_size, np.float32),
              self._average_policy.row_format)
    return tuple(np.concatenate(waiting) if waiting else
                 np.zeros((0, width), dtype)
                 for waiting, (width, dtype) in zip(
                     (self._transitions, self._steps), widths))

  def take(self):
    """Removes the waiting records and returns them (`arrays()`)."""
    arrays = self.arrays()
    self._transitions.clear()
    self._steps.clear()
    return arrays

  def put(self, transitions, steps):
    """Adds another copy's `take()` to the waiting records."""
    self._transitions.append(transitions)
    self._steps.append(steps)

  def load(self, transitions, steps):
    """Replaces the waiting records (a checkpoint's)."""
    self._transitions[:] = [transitions]
    self._steps[:] = [steps]
