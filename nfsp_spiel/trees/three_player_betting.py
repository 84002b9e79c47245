"""Three-player Limit Hold'em's betting (`nfsp_lhe3`) as compiled functions.

`games.nfsp_lhe3` plays the ACPC three-player limit rules through OpenSpiel's
`universal_poker`, a state object per game. Loops that play millions of games
(the Smooth UCT search, `smooth_uct.lhe3`; the batched three-player matches,
`evaluation.batched_matches`) play the same rules on a few small arrays
instead: chips put in and who is still in, per player, and the counters of
the betting (`PLAYER` ... `OVER`, one int64 array). `replay` plays an action
sequence through them, and a test checks it against the game on random
games: the player to act, the legal actions and the chips won, split pots
included.

A betting sequence is named by its 64-bit FNV-1a hash, extended action by
action (`mix`), and an information state by that hash extended by the
acting player's card bucket (`state_key`): the search's tables and the
greedy profiles are keyed by it.
"""

import numba
import numpy as np

from nfsp_spiel.games import nfsp_lhe
from nfsp_spiel.games import nfsp_lhe3
from nfsp_spiel.games import poker
from nfsp_spiel.poker import hand_ranks

NUM_PLAYERS = 3
CARDS_PER_DEAL = 2 * NUM_PLAYERS + 5  # hole cards by player, then the board
RAISE_SIZES = np.array(nfsp_lhe.RAISE_SIZES, np.float64)
MAX_RAISES = np.array(nfsp_lhe.MAX_RAISES, np.int64)
BLINDS = np.array(nfsp_lhe3.BLINDS, np.float64)
FIRST_PLAYER = np.array(nfsp_lhe3.FIRST_PLAYER, np.int64)
MAX_DECISIONS = 64  # a game's decisions at most (the betting's depth is 42)
_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)
EMPTY_BETTING = _FNV_OFFSET  # the hash of no betting at all

# The counters of a game in play, indices into its int64 `bet` array.
PLAYER, ROUND, RAISES, STILL_IN, TO_ACT, OVER = range(6)
COUNTERS = 6


@numba.njit(cache=True)
def mix(h, value):
  """FNV-1a step: the hash of a sequence extended by `value`."""
  return (h ^ np.uint64(value)) * _FNV_PRIME


@numba.njit(cache=True)
def betting_hash(actions):
  """The hash of a betting sequence, as the loops build it action by
  action."""
  h = _FNV_OFFSET
  for action in actions:
    h = mix(h, action)
  return h


@numba.njit(cache=True)
def state_key(betting_hash_, bucket):
  """The key of the information state (betting so far, bucket), never 0
  (0 marks an empty row of a hash table)."""
  return mix(betting_hash_, 16 + bucket) | np.uint64(1)


@numba.njit(cache=True)
def begin(chips, active, bet):
  """The blinds posted, everyone in, the first player to act preflop."""
  chips[:] = BLINDS
  active[:] = True
  bet[PLAYER], bet[ROUND], bet[RAISES] = FIRST_PLAYER[0], 0, 0
  bet[STILL_IN], bet[TO_ACT], bet[OVER] = NUM_PLAYERS, NUM_PLAYERS, 0


@numba.njit(cache=True)
def legal_actions(chips, bet, legal):
  """Fills `legal` with the acting player's actions in order; their count.
  Folding is legal only facing a bet, raising until the round's cap."""
  n = 0
  if chips[bet[PLAYER]] < chips.max():
    legal[n] = poker.FOLD
    n += 1
  legal[n] = poker.CALL
  n += 1
  if bet[RAISES] < MAX_RAISES[bet[ROUND]]:
    legal[n] = poker.RAISE
    n += 1
  return n


@numba.njit(cache=True)
def _next_in(active, p):
  """The first player still in from p on, in seat order."""
  while not active[p]:
    p = (p + 1) % NUM_PLAYERS
  return p


@numba.njit(cache=True)
def apply(action, chips, active, bet):
  """Plays the acting player's `action`; True if a betting round begins."""
  p, top = bet[PLAYER], chips.max()
  if action == poker.FOLD:
    active[p] = False
    bet[STILL_IN] -= 1
  elif action == poker.RAISE:
    chips[p] = top + RAISE_SIZES[bet[ROUND]]
    bet[RAISES] += 1
    bet[TO_ACT] = bet[STILL_IN]  # everyone else answers the raise
  else:
    chips[p] = top
  bet[TO_ACT] -= 1
  if bet[STILL_IN] == 1 or (bet[TO_ACT] == 0 and bet[ROUND] == 3):
    bet[OVER] = 1
    return False
  if bet[TO_ACT] > 0:
    bet[PLAYER] = _next_in(active, (p + 1) % NUM_PLAYERS)
    return False
  bet[ROUND] += 1
  bet[RAISES], bet[TO_ACT] = 0, bet[STILL_IN]
  bet[PLAYER] = _next_in(active, FIRST_PLAYER[bet[ROUND]])
  return True


@numba.njit(cache=True)
def returns(deal, chips, active, bet, ranks, out):
  """Each player's chips won at the end of a game (`out`): the pot to the
  last one in, or split among the best hands at the showdown. `deal`: the
  hole cards by player, then the board (`CARDS_PER_DEAL`)."""
  pot = chips.sum()
  if bet[STILL_IN] == 1:
    for p in range(NUM_PLAYERS):
      out[p] = (pot if active[p] else 0.0) - chips[p]
    return
  hand_ranks.showdown_ranks(deal, NUM_PLAYERS, ranks)
  best, winners = -1, 0
  for p in range(NUM_PLAYERS):
    if active[p] and ranks[p] > best:
      best, winners = ranks[p], 0
    if active[p] and ranks[p] == best:
      winners += 1
  for p in range(NUM_PLAYERS):
    won = pot / winners if active[p] and ranks[p] == best else 0.0
    out[p] = won - chips[p]


@numba.njit(cache=True)
def replay(deal, actions, players, legal_masks, out):
  """Plays `actions` on `deal` by these rules, writing who acted and the
  legal actions (a mask) at each, and the chips won (`out`); the number of
  actions the game took (the rules in one place, for the tests)."""
  chips = np.empty(NUM_PLAYERS)
  active = np.empty(NUM_PLAYERS, np.bool_)
  bet = np.empty(COUNTERS, np.int64)
  legal = np.empty(3, np.int64)
  begin(chips, active, bet)
  i = 0
  while not bet[OVER]:
    players[i] = bet[PLAYER]
    n = legal_actions(chips, bet, legal)
    legal_masks[i, :] = False
    for j in range(n):
      legal_masks[i, legal[j]] = True
    apply(actions[i], chips, active, bet)
    i += 1
  returns(deal, chips, active, bet, np.empty(NUM_PLAYERS, np.int64), out)
  return i
