"""OpenSpiel policies from anything: agents, per-player policies, callables.

`as_policy` is the one door into the evaluation module: it accepts

* an OpenSpiel `policy.Policy` (returned as is),
* an `rl_agent.AbstractAgent` (queried in evaluation mode for its player),
* a callable `state -> {action: probability}` (or a list of pairs),
* a list / tuple / dict of the above, one per player,

and returns one `policy.Policy` for all players. `as_tabular` turns that into
an OpenSpiel `TabularPolicy` where the game's information states can be listed,
checking every distribution on the way.
"""

import numpy as np
from open_spiel.python import policy as policy_lib
from open_spiel.python import rl_agent
from open_spiel.python import rl_agent_policy


class CallablePolicy(policy_lib.Policy):
  """A policy from a function `state -> {action: probability}` or pairs."""

  def __init__(self, game, function, players=None):
    super().__init__(game, players or list(range(game.num_players())))
    self._function = function

  def action_probabilities(self, state, player_id=None):
    return dict(self._function(state))


class PerPlayerPolicy(policy_lib.Policy):
  """One policy per player, dispatched on the player to act."""

  def __init__(self, game, policies):
    super().__init__(game, sorted(policies))
    self._policies = policies

  def action_probabilities(self, state, player_id=None):
    player = state.current_player() if player_id is None else player_id
    return self._policies[player].action_probabilities(state, player)

  def policy_of(self, player):
    """The policy that plays `player`."""
    return self._policies[player]


def _agent_player(agent):
  player = getattr(agent, "player_id", getattr(agent, "_player_id", None))
  if player is None:
    raise ValueError(f"agent {agent!r} has no player_id; pass agents as a "
                     "{player: agent} dict")
  return int(player)


def _single(game, source, player=None):
  """A policy for one source; `player` is the seat when known."""
  if isinstance(source, policy_lib.Policy):
    # Subclasses that skip Policy.__init__ (BestResponsePolicy) keep `_game`.
    own = getattr(source, "game", getattr(source, "_game", None))
    if own is not None and str(own) != str(game):
      raise ValueError(f"policy is for {own}, not {game}")
    return source
  if isinstance(source, rl_agent.AbstractAgent):
    seat = _agent_player(source) if player is None else player
    return rl_agent_policy.RLAgentPolicy(game, source, seat,
                                         use_observation=False)
  if callable(source):
    return CallablePolicy(game, source)
  raise TypeError(f"cannot make an OpenSpiel policy from {type(source)}; "
                  "expected a policy.Policy, an rl_agent.AbstractAgent, a "
                  "callable or a per-player list/dict of them")


def as_policy(game, source):
  """One OpenSpiel `policy.Policy` for all players; see the module docstring."""
  if isinstance(source, dict):
    per_player = dict(source)
  elif isinstance(source, (list, tuple)):
    per_player = dict(enumerate(source))
  else:
    return _single(game, source)
  if sorted(per_player) != list(range(game.num_players())):
    raise ValueError(f"need one policy per player 0..{game.num_players() - 1}, "
                     f"got players {sorted(per_player)}")
  return PerPlayerPolicy(
      game, {p: _single(game, s, p) for p, s in per_player.items()})


def checked_probabilities(action_probs, legal, num_actions, describe):
  """A dense probability vector; ValueError naming the state if malformed."""
  probs = np.zeros(num_actions)
  for action, p in dict(action_probs).items():
    if p < 0 or (p > 0 and action not in legal):
      raise ValueError(
          f"policy gives probability {p} to action {action} at {describe()}; "
          f"legal actions: {legal}")
    if p > 0:
      probs[action] = p
  if abs(probs.sum() - 1.0) > 1e-6:
    raise ValueError(f"policy probabilities sum to {probs.sum()} at "
                     f"{describe()}; expected 1")
  return probs


def as_tabular(game, source, states=None):
  """An OpenSpiel `TabularPolicy` of `source`, every distribution checked.

  `states` (info-state string -> representative state) defaults to
  OpenSpiel's enumeration of all states, which only small games allow.
  """
  source = as_policy(game, source)
  tabular = policy_lib.TabularPolicy(game, states=states)
  for index, state in enumerate(tabular.states):
    player = state.current_player()
    tabular.action_probability_array[index] = checked_probabilities(
        source.action_probabilities(state, player), state.legal_actions(),
        game.num_distinct_actions(),
        lambda s=state, p=player: s.information_state_string(p))
  return tabular
