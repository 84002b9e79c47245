"""What NFSP's networks read from a game: information-state tensors, or a
perfect-information game's observation tensors. No TensorFlow, so that
compiling a game (`nfsp_spiel.trees.batched_games`) does not load it."""

import pyspiel


def reads_observations(game):
  """Whether the agents read `game`'s observation tensor: in a perfect-
  information game without information-state tensors (Tic-Tac-Toe) the
  observation is the state (OpenSpiel's `rl_environment` reads it there
  too); any other game must provide information-state tensors."""
  game_type = game.get_type()
  if game_type.provides_information_state_tensor:
    return False
  if (game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
      and game_type.provides_observation_tensor):
    return True
  raise ValueError(
      f"{game} provides no information-state tensors"
      + ("" if game_type.information ==
         pyspiel.GameType.Information.PERFECT_INFORMATION else
         " and, having imperfect information, its observations are not "
         "states") + ": NFSP's networks read information-state tensors (or "
      "a perfect-information game's observation tensors)")


def information_state_size(game):
  """The size of the tensors the agents read (`reads_observations`), or a
  clear error."""
  if reads_observations(game):
    return game.observation_tensor_size()
  return game.information_state_tensor_size()


def state_tensor(state, player, observation):
  """`player`'s information-state tensor at `state`, or its observation
  tensor where `observation` (`reads_observations(game)`)."""
  if observation:
    return state.observation_tensor(player)
  return state.information_state_tensor(player)
