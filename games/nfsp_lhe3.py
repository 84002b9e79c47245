"""Three-player Limit Texas Hold'em, encoded like `nfsp_lhe`.

Heinrich's thesis sec. 3.5.3 (table 3.3) ran Smooth UCT in the 2014 ACPC's
three-player limit game. Its rules (the ACPC game definition, which
OpenSpiel's C++ `universal_poker` plays here, as `nfsp_lhe` does heads-up):
blinds 5 and 10 posted by players 0 (small blind) and 1 (big blind), player
2 first to act preflop and player 0 after, bets of 10 preflop and on the flop
and 20 on the turn and river, at most 3 raises preflop and 4 after; payoffs in
chips (a big blind is 10). A fold leaves the folding player out; the game
ends when one player is left or at the river's showdown, the pot split among
the best hands.

Information-state tensor (length 388), for the observing player, in the NFSP
paper's style (`nfsp_lhe`'s card blocks; the betting with a fold slot, since a
fold no longer ends the game):

  [0, 208)      the player's hole cards, the flop, turn and river (4 x 52)
  [208, 388)    betting one-hot [player 0..2][round 0..3][raises so far in
                the round 0..4][fold, call, raise]: 3 * 4 * 5 * 3 = 180
"""

import pyspiel

from nfsp_spiel.games import nfsp_lhe
from nfsp_spiel.games import poker

BLINDS = (5, 10, 0)  # small blind, big blind, button
FIRST_PLAYER = (2, 0, 0, 0)  # who acts first per round (first still in)
RULES = nfsp_lhe.Rules(3, BLINDS, FIRST_PLAYER, fold_slots=True)
TENSOR_SIZE = RULES.tensor_size  # 388

_GAME_TYPE = poker.game_type(
    "nfsp_lhe3", "Three-player Limit Texas Hold'em (NFSP-style encoding)", {},
    num_players=3)


class NfspLhe3Game(nfsp_lhe.NfspLheGame):
  """Three-player Limit Hold'em; see the module docstring."""
  RULES, GAME_TYPE = RULES, _GAME_TYPE


pyspiel.register_game(_GAME_TYPE, NfspLhe3Game)
