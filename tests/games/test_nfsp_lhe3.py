"""nfsp_lhe3 against universal_poker built from the ACPC three-player
gamedef, and its tensor."""

import pyspiel

import nfsp_spiel  # noqa: F401
from .test_nfsp_lhe import replay_against_acpc
from nfsp_spiel.games import cards
from nfsp_spiel.games import nfsp_lhe3
from nfsp_spiel.games import poker

# The ACPC competition's three-player limit hold'em definition.
ACPC_3P_LIMIT = """\
GAMEDEF
limit
numPlayers = 3
numRounds = 4
blind = 5 10 0
raiseSize = 10 10 20 20
firstPlayer = 3 1 1 1
maxRaises = 3 4 4 4
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""


def test_replays_equal_acpc_universal_poker():
  assert replay_against_acpc("nfsp_lhe3", ACPC_3P_LIMIT, 300, 0.1) > 50


def test_order_blinds_and_the_fold_slot():
  """The button (player 2) acts first preflop, then the small blind; a fold
  is a one in the folder's fold slot, and the game goes on."""
  state = pyspiel.load_game("nfsp_lhe3").new_initial_state()
  for card in ("Ah", "Ad", "2c", "7d", "Kc", "Qs"):
    state.apply_action(cards.card_id(card))
  assert state.contributions() == [5.0, 10.0, 0.0]
  assert state.current_player() == 2
  state.apply_action(poker.FOLD)
  assert not state.is_terminal() and state.current_player() == 0
  ones = state.information_state_tensor(0)
  # Button's fold: [player 2][round 0][raises 0][fold].
  fold_slot = 208 + ((2 * 4 + 0) * 5 + 0) * 3 + 0
  assert ones[fold_slot] == 1 and sum(ones) == 3  # and the two hole cards
  state.apply_action(poker.CALL)  # the small blind completes
  state.apply_action(poker.CALL)  # the big blind checks: the flop
  for card in ("3h", "8s", "9d"):
    state.apply_action(cards.card_id(card))
  assert state.betting_round() == 1
  assert state.current_player() == 0  # the small blind first after the flop
  assert len(ones) == nfsp_lhe3.TENSOR_SIZE == 388
