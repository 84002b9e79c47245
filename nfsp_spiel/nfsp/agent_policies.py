"""NFSP agents' policies for OpenSpiel's evaluation tools, and what limits a
run on a small game.

* `NFSPPolicy`: the agents' average policy Pi (or their best response, or
  argmax Pi) as an OpenSpiel `policy.Policy`, batched where a tool asks for
  many states at once (`to_tabular`, LBR's range queries);
* `sl_memory_policy`: the action frequencies M_SL holds, what a perfect fit
  of Pi would play;
* `diagnostics`: each player's best-response gap and M_SL's exploitability.
"""

import numpy as np
from open_spiel.python import policy as policy_lib

from nfsp_spiel import evaluation
from nfsp_spiel.nfsp import networks
from nfsp_spiel.nfsp.config import POLICIES
from nfsp_spiel.trees.game_tensors import reads_observations
from nfsp_spiel.trees.game_tensors import state_tensor


class NFSPPolicy(policy_lib.Policy):
  """The agents' average policy Pi (or their "best_response" /
  "greedy_average") as an OpenSpiel policy, for any evaluation tool."""

  def __init__(self, game, agents, kind="average"):
    super().__init__(game, list(range(game.num_players())))
    if kind not in POLICIES:
      raise ValueError(f"kind={kind!r}: must be one of {POLICIES}")
    self._agents = agents
    self._kind = kind
    self._observation = reads_observations(game)

  def action_probabilities(self, state, player_id=None):
    player = state.current_player() if player_id is None else player_id
    legal = np.zeros((1, self.game.num_distinct_actions()), np.float32)
    legal_actions = state.legal_actions(player)
    legal[0, legal_actions] = 1.0
    probs = self._agents[player].probabilities(
        np.asarray(state_tensor(state, player, self._observation),
                   np.float32)[None],
        legal, self._kind)[0]
    return {a: float(probs[a]) for a in legal_actions}

  def holding_probabilities(self, state, player, holdings):
    """(H, actions): the policy at `state` for `player` holding each row of
    `holdings` (card ids) in the hold'em games, in one batched forward pass:
    the range queries of `evaluation.local_best_response`."""
    legal = np.zeros((1, self.game.num_distinct_actions()), np.float32)
    legal[0, state.legal_actions(player)] = 1.0
    # The holdings share all but their cards' columns: the first layer is
    # one shared product plus two gathered rows each (networks.OneHotRows).
    rows = networks.OneHotRows(*state.holding_tensor_parts(player, holdings))
    return self._agents[player].probabilities(
        rows, np.repeat(legal, len(rows), axis=0), self._kind)

  def batch_action_probabilities(self, decisions):
    """(n, 3) at many `nfsp_lhe` or `nfsp_lhe3` decisions at once
    (`evaluation.batched_matches`, `batched_three_player`): one forward pass
    per player over the rows where it acts."""
    probs = np.zeros(decisions.legal.shape)
    for player in range(self.game.num_players()):
      rows = decisions.player == player
      if rows.any():
        mine = decisions.rows(rows)
        probs[rows] = self._agents[player].probabilities(
            mine.information_state_tensors(), mine.legal, self._kind)
    return probs

  def to_tabular(self):
    """A `TabularPolicy` over every information state, filled by one batched
    forward pass per player (for exact exploitability on small games)."""
    tabular = _empty_tabular(self.game)
    tensors, legal = _tabular_inputs(tabular)
    for player, rows in enumerate(_rows_by_player(tabular)):
      tabular.action_probability_array[rows] = self._agents[
          player].probabilities(tensors[rows], legal[rows], self._kind)
    return tabular


def sl_memory_policy(game, agents):
  """The action frequencies in each agent's M_SL as a `TabularPolicy`.

  What a perfect supervised fit of Pi to M_SL would play: each information
  state (matched by its information-state tensor) gets the frequencies of
  the actions M_SL holds for that tensor, uniform where it holds none. Its
  exploitability beside Pi's tells whether a run is limited by the
  supervised fit or by the best-response data it fits (small games only).
  """
  tabular = _empty_tabular(game)
  tensors, legal = _tabular_inputs(tabular)
  for player, rows in enumerate(_rows_by_player(tabular)):
    agent = agents[player]
    records = agent.sl_memory_records()
    states = records[:, :-1].astype(np.float32)
    keys, inverse = np.unique(_row_keys(np.concatenate([tensors[rows],
                                                        states])),
                              return_inverse=True)
    counts = np.zeros((len(keys), agent.num_actions))
    np.add.at(counts, (inverse[len(rows):], records[:, -1].astype(np.int64)),
              1.0)
    counts = counts[inverse[:len(rows)]] * legal[rows]
    seen = counts.sum(axis=1, keepdims=True)
    uniform = legal[rows] / legal[rows].sum(axis=1, keepdims=True)
    tabular.action_probability_array[rows] = np.where(
        seen > 0, counts / np.maximum(seen, 1.0), uniform)
  return tabular


def diagnostics(game, agents, average=None, greedy=None):
  """What limits a run on a game small enough for exact best responses:
  each player's best-response gap (`br_gap_<p>`: exact best-response value
  minus the greedy Q policy's, against the other's average; the RL side) and
  the exploitability of M_SL's raw action counts (`exploitability_sl_memory`,
  the data Pi is fitted to; compare it with Pi's own exploitability).
  `average` / `greedy`: the agents' tabulated policies where the caller has
  them already."""
  if average is None:
    average = NFSPPolicy(game, agents).to_tabular()
  if greedy is None:
    greedy = NFSPPolicy(game, agents, "best_response").to_tabular()
  gaps = evaluation.best_response_gaps(game, average,
                                       [greedy] * game.num_players())
  return {**{f"br_gap_{p}": gap for p, gap in enumerate(gaps)},
          "exploitability_sl_memory": evaluation.exploitability(
              game, sl_memory_policy(game, agents))}


def _row_keys(rows):
  """One hashable, sortable key per row of a 2-D array (exact equality):
  packed bits where every entry is 0 or 1 (the papers' encodings)."""
  if np.isin(rows, (0.0, 1.0)).all():
    rows = np.packbits(rows.astype(bool), axis=1)
  rows = np.ascontiguousarray(rows)
  return rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1])))[
      :, 0]


_TABULAR_INPUTS = {}
_TABULAR_SKELETONS = {}


def _empty_tabular(game):
  """A fresh `TabularPolicy` of `game` (uniform), copied from one made once
  per game: enumerating three-player Leduc's states takes ~15 s, a copy
  shares them and copies the probabilities only."""
  key = str(game)
  if key not in _TABULAR_SKELETONS:
    _TABULAR_SKELETONS[key] = policy_lib.TabularPolicy(game)
  return _TABULAR_SKELETONS[key].__copy__(copy_action_probability_array=True)


def _tabular_inputs(tabular):
  """Information-state tensors and legal masks of a TabularPolicy's rows,
  cached per game (computing them once costs ~0.3 s on Leduc)."""
  key = str(tabular.game)
  if key not in _TABULAR_INPUTS:
    observation = reads_observations(tabular.game)
    tensors = np.array([state_tensor(s, s.current_player(), observation)
                        for s in tabular.states], np.float32)
    _TABULAR_INPUTS[key] = (tensors, tabular.legal_actions_mask.astype(
        np.float32))
  return _TABULAR_INPUTS[key]


def _rows_by_player(tabular):
  return [np.array([tabular.state_lookup[key] for key in keys], np.int64)
          for keys in tabular.states_per_player]
