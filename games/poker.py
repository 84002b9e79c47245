"""What the three poker games share: action ids, game type, encoding, observer.

Every game of this package encodes an information state as a binary vector
(thesis 6.5): per-round k-of-n card blocks followed by the betting history as a
flattened {player, round, raises so far in the round, call/raise} one-hot (a
fold ends a heads-up game, so it needs no slot). States expose the indices of
the ones (`info_state_ones(player)`) and the string; this one observer turns
them into what OpenSpiel asks for, so the three games share the path C++ calls.
"""

import numpy as np
import pyspiel

FOLD, CALL, RAISE = 0, 1, 2  # OpenSpiel's poker action ids

# OpenSpiel holds int game parameters, GameInfo's counts and tensor sizes in
# C++ ints.
MAX_INT = 2**31 - 1


def check_int(name, value, low, high=MAX_INT, note=""):
  """Raises ValueError unless the parameter `name` is an int in [low, high].

  `high` defaults to the C++ int limit. Through `pyspiel.load_game` a value
  beyond it never reaches a game (OpenSpiel's game-string parser fails on it,
  pybind cannot cast it from a dict); a game built from a dict directly, or
  whose sizes derive from the value, needs this check. `note` says where a
  bound comes from.
  """
  if (isinstance(value, bool) or not isinstance(value, int) or
      not low <= value <= high):
    limit = "2^31 - 1 (a C++ int)" if high == MAX_INT else high
    raise ValueError(f"{name}={value!r}: expected an integer from {low} to "
                     f"{limit}{note}")


def check_action(state, action):
  """Raises ValueError unless `action` may be applied at `state`: one of the
  mover's legal actions, or at a chance node one of its outcomes. OpenSpiel
  applies a Python game's actions unchecked; its C++ poker games refuse
  illegal ones, and so must ours (a third raise, a card dealt twice). Called
  on every step, so it asks the state's Python methods, not pyspiel's."""
  player = state.current_player()
  if player == pyspiel.PlayerId.TERMINAL:
    raise ValueError(f"{state.get_game()}: action {action} applied to a "
                     "terminal state")
  if player == pyspiel.PlayerId.CHANCE:
    allowed = [outcome for outcome, _ in state.chance_outcomes()]
    kind = "chance outcome"
  else:
    allowed = state._legal_actions(player)  # pylint: disable=protected-access
    kind = f"legal action of player {player}"
  if action not in allowed:
    raise ValueError(f"{state.get_game()}: action {action} is not a {kind} "
                     f"here; allowed: {allowed}")


def game_type(short_name, long_name, parameter_specification, num_players=2):
  """A zero-sum poker game providing information states only."""
  return pyspiel.GameType(
      short_name=short_name,
      long_name=long_name,
      dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
      chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
      information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
      utility=pyspiel.GameType.Utility.ZERO_SUM,
      reward_model=pyspiel.GameType.RewardModel.TERMINAL,
      max_num_players=num_players,
      min_num_players=num_players,
      provides_information_state_string=True,
      provides_information_state_tensor=True,
      provides_observation_string=False,
      provides_observation_tensor=False,
      parameter_specification=parameter_specification,
  )


def betting_index(player, round_, raises, action, num_rounds, max_raises):
  """Position of a betting action in the flattened one-hot.

  Layout: [player][round][raises so far, 0..max_raises][call, raise].
  """
  return (((player * num_rounds + round_) * (max_raises + 1) + raises) * 2 +
          (action == RAISE))


def betting_size(num_rounds, max_raises):
  return 2 * num_rounds * (max_raises + 1) * 2


class InfoStateObserver:
  """Perfect-recall information-state observer (the only one these games offer)."""

  def __init__(self, size):
    self.tensor = np.zeros(size, np.float32)
    self.dict = {"info_state": self.tensor}

  def set_from(self, state, player):
    self.tensor.fill(0.0)
    self.tensor[state.info_state_ones(player)] = 1.0

  def string_from(self, state, player):
    return state.information_state_string_of(player)


def make_info_state_observer(game_name, size, iig_obs_type, params):
  """Shared `make_py_observer`: refuses observation types we do not provide."""
  if params:
    raise ValueError(f"{game_name}: observer params are not supported: {params}")
  if iig_obs_type is not None and not (
      iig_obs_type.perfect_recall and iig_obs_type.public_info and
      iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER):
    raise ValueError(
        f"{game_name} provides only the perfect-recall information state "
        "(information_state_string/tensor), not observations; use "
        "information_state_tensor, or rl_environment's default info_state")
  return InfoStateObserver(size)


# --- Hold'em views for evaluation tools (LBR, equity players) ----------------
# River poker and nfsp_lhe deal player 0's two hole cards, then player 1's, as
# the first four chance actions, and put the observer's hole cards at tensor
# indices [0, 52) (card ids): hypothetical holdings are built from that.

HOLE_DEAL = ((0, 2), (2, 4))  # history slice of each player's hole cards


def holding_tensors(state, player, holdings):
  """(H, tensor size) information-state tensors of `player` at `state` as if
  it held each row of `holdings` ((H, 2) card ids), everything else equal."""
  shared, hot = holding_tensor_parts(state, player, holdings)
  tensors = np.repeat(shared[None], len(hot), axis=0)
  tensors[np.arange(len(hot))[:, None], hot] = 1.0
  return tensors


def holding_tensor_parts(state, player, holdings):
  """`holding_tensors` in parts: (the tensor every holding shares, the public
  cards and the betting; each row's columns set to 1, its two card ids).
  A network's first layer then costs one row plus two gathered rows per
  holding instead of a product over the whole tensor (`nfsp.networks.
  OneHotRows`)."""
  hot = np.asarray(holdings, np.int64).reshape(-1, 2)
  shared = np.zeros(state.get_game().information_state_tensor_size(),
                    np.float32)
  shared[[i for i in state.info_state_ones(player) if i >= 52]] = 1.0
  return shared, hot


def with_holding(state, player, holding):
  """A copy of `state` in which `player` holds `holding` (two card ids),
  replayed from the start; ValueError if the deal cannot happen."""
  history = state.history()
  start, stop = HOLE_DEAL[player]
  history[start:stop] = sorted(int(c) for c in holding)
  replayed = state.get_game().new_initial_state()
  for action in history:
    replayed.apply_action(action)
  return replayed
