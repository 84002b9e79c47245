"""River poker: the last betting round of heads-up Limit Hold'em.

Heinrich, Lanctot & Silver, "Fictitious Self-Play in Extensive-Form Games",
ICML 2015, sec. 5; Heinrich's thesis (2017), sec. 5.6.2.

A fixed five-card `board`; each player holds two of the remaining cards. The
holdings are dealt jointly with probability proportional to b0(h0) * b1(h1) over
non-overlapping pairs, where b_i are the players' beliefs: "uniform", or the
thesis' "defined" ranges (b = 0.99 * uniform over the range + 0.01 * uniform
over all holdings), or any PokerStove range given as `range0` / `range1` with
`range_weight` (tokens separated by commas, semicolons or spaces).

Ranges in game strings: OpenSpiel's parser types each value by its characters
before the game sees it, and commas separate parameters. So inside a game
string separate tokens by spaces, and quote a range made only of digits, + and
-: unquoted, '99' becomes the integer 99 (refused: range0 is a string) and
'22+' or '88-77' fail to parse as integers. `river_poker(range0="22+")` loads;
a dict needs no quotes (`{"range0": "22+"}`). Every range is stored in a normal
form, tokens separated by single spaces, quoted only when made of digits, +
and - (`get_parameters()` shows those quotes), so that `str(game)` loads back
as the same game. Integer parameters are C++ ints (below 2^31): OpenSpiel
refuses larger ones itself (its parser, or pybind for a dict) before the game
sees them.

The deal is four chance nodes, one card each (card ids as chance outcomes):
player 0's lower card from the marginal of its holding, then its higher card
given the lower; then player 1's two cards likewise from the conditional law
of its holding given player 0's. That is exactly the joint law, with at most
47 outcomes per chance node instead of ~1.1M joint deals (or 1081 holdings,
whose outcome lists cost more to pass through pybind than a whole game).

Each player has put pot/2 in. Player 0 (the papers' "player 1") acts first;
actions are OpenSpiel's poker ids 0 fold (only when facing a bet), 1 check/call,
2 bet/raise (`bet` chips, at most `max_bets` bets or raises in the whole game).
A showdown ranks the 7-card hands; the winner takes the loser's contribution.

`min_rank` (2..14, with T=10 ... A=14) keeps only cards of that rank and above
(board included), so that OpenSpiel's generic tools, which walk every state,
can check small instances.

Information-state tensor: a 52-bit k-of-n of the player's two hole cards
(ids `rank * 4 + suit`, see cards.py), then the betting one-hot over
{player 0..1} x {raises so far 0..max_bets} x {call, raise}.
Information-state string: `[Observer: p][Private: AsKd][Board: ...][Pot: 6][Betting: cr]`.
"""

import collections
import functools

import numpy as np
import pyspiel

from nfsp_spiel.games import cards
from nfsp_spiel.games import poker

# The thesis' "defined" beliefs (sec. 5.6.2, footnotes 2 and 3).
DEFINED_RANGES = (
    "K4s-K2s,KTo-K3o,QTo-Q9o,J9o+,T9o,T7o,98o,96o",
    "QQ-JJ,99-88,66,AQs-A5s,K6s,K4s-K2s,QTs,Q7s,JTs,J7s,T8s+,T6s-T2s,97s,87s,"
    "72s+,AQo-A5o,K6o,K4o-K2o,QTo,Q7o,JTo,J7o,T8o+,T6o-T4o,97o,87o,75o+",
)
_DEFINED_WEIGHT = 0.99

_DEFAULT_PARAMS = {
    "board": "KhTc7d5sJh",
    "pot": 6,
    "bet": 1,
    "max_bets": 1,
    "beliefs": "uniform",
    "range0": "",
    "range1": "",
    "range_weight": _DEFINED_WEIGHT,
    "min_rank": 2,
}

_GAME_TYPE = poker.game_type(
    "river_poker", "River poker (Heinrich et al. 2015)", _DEFAULT_PARAMS)

FOLD, CALL, RAISE = poker.FOLD, poker.CALL, poker.RAISE
ACTION_CHARS = "fcr"  # betting-string letters of fold, call, raise
_DEAL_NODES = 4  # chance nodes: one per hole card
# The largest max_bets whose tensor size, NUM_CARDS + betting_size(1,
# max_bets), is a C++ int: the betting block grows by betting_size(1, 0) per
# bet. The history bound, max_bets + 2 + _DEAL_NODES, is smaller.
_MAX_BETS = (poker.MAX_INT - cards.NUM_CARDS) // poker.betting_size(1, 0) - 1


def _beliefs(hands, params, player):
  """Belief weights b_player over `hands` (unnormalised), from the parameters."""
  name = f"range{player}"
  text = params[name] or (DEFINED_RANGES[player]
                          if params["beliefs"] == "defined" else "")
  if not text:
    return np.ones(len(hands))
  weight = params["range_weight"] if params[name] else _DEFINED_WEIGHT
  combos = cards.parse_range(text, name)
  in_range = np.array([(a, b) in combos for a, b in hands])
  if not in_range.any():
    raise ValueError(
        f"{name}={text!r}: no holding of this range is possible with "
        f"board={params['board']!r} and min_rank={params['min_rank']!r}")
  return (weight * in_range / in_range.sum() +
          (1.0 - weight) * np.ones(len(hands)) / len(hands))


def _check_params(params):
  unknown = set(params) - set(_DEFAULT_PARAMS)
  if unknown:
    raise ValueError(f"river_poker: unknown parameter(s) {sorted(unknown)}; "
                     f"allowed: {sorted(_DEFAULT_PARAMS)}")
  poker.check_int("min_rank", params["min_rank"], 2, 14,
                  " (10 T, 11 J, 12 Q, 13 K, 14 A)")
  poker.check_int("pot", params["pot"], 1)
  poker.check_int("bet", params["bet"], 1)
  poker.check_int("max_bets", params["max_bets"], 0, _MAX_BETS,
                  " (beyond it the information-state tensor's size overflows "
                  "a C++ int)")
  if params["beliefs"] not in ("uniform", "defined"):
    raise ValueError(f"beliefs={params['beliefs']!r}: expected 'uniform' or "
                     "'defined'")
  if not 0.0 <= params["range_weight"] <= 1.0:
    raise ValueError(f"range_weight={params['range_weight']}: must be in [0, 1]")
  # Settings that would be ignored are refused: the game would not be the
  # one asked for.
  given = [name for name in ("range0", "range1") if params[name]]
  if not given and params["range_weight"] != _DEFINED_WEIGHT:
    raise ValueError(
        f"range_weight={params['range_weight']}: weighs range0/range1, and "
        "neither is given (beliefs='defined' uses its ranges at weight "
        f"{_DEFINED_WEIGHT})")
  if len(given) == 2 and params["beliefs"] != "uniform":
    raise ValueError(
        f"beliefs={params['beliefs']!r}: range0 and range1 are both given, so "
        "the defined beliefs would not be used; leave beliefs out")


DealTables = collections.namedtuple(
    "DealTables", "board hands strength beliefs compatible marginal0 hand_index")


@functools.lru_cache(maxsize=16)
def deal_tables(board, min_rank, beliefs, range0, range1, range_weight):
  """Holdings, showdown strengths, beliefs and player 0's deal, for the cards.

  Cached: OpenSpiel re-creates games from their parameters (deserialization,
  game strings), and the tables only depend on these arguments.
  """
  params = dict(board=board, min_rank=min_rank, beliefs=beliefs, range0=range0,
                range1=range1, range_weight=range_weight)
  deck = [c for c in range(cards.NUM_CARDS) if c // 4 + 2 >= min_rank]
  board_cards = cards.parse_cards(board, "board")
  if len(board_cards) != 5:
    raise ValueError(f"board={board!r}: expected 5 cards, got "
                     f"{len(board_cards)}")
  outside = [cards.card_str(c) for c in board_cards if c not in deck]
  if outside:
    raise ValueError(f"board={board!r}: {outside} not in the deck of "
                     f"min_rank={min_rank!r}")
  remaining = [c for c in deck if c not in board_cards]
  if len(remaining) < 4:
    raise ValueError(f"min_rank={min_rank!r} with board={board!r} leaves "
                     f"{len(remaining)} cards beside the board: two holdings "
                     "need 4")
  hands = cards.holdings(remaining)
  weights = (_beliefs(hands, params, 0), _beliefs(hands, params, 1))
  # compatible[i, j]: holdings i and j share no card.
  compatible = np.ones((len(hands), len(hands)), bool)
  for a in (0, 1):
    for b in (0, 1):
      compatible &= hands[:, a, None] != hands[None, :, b]
  marginal0 = weights[0] * (compatible @ weights[1])
  if marginal0.sum() <= 0:
    raise ValueError(
        f"range0={range0!r}, range1={range1!r} with range_weight="
        f"{range_weight}: no pair of non-overlapping holdings has positive "
        "probability")
  hand_index = np.full((cards.NUM_CARDS, cards.NUM_CARDS), -1)
  hand_index[hands[:, 0], hands[:, 1]] = np.arange(len(hands))
  tables = DealTables(board_cards, hands,
                      cards.showdown_ranks(hands, board_cards), weights,
                      compatible, marginal0 / marginal0.sum(), hand_index)
  for array in tables[1:]:
    for a in (array if isinstance(array, tuple) else (array,)):
      a.flags.writeable = False  # shared between games
  return tables


def _outcomes(actions, weights):
  """[(action, probability)] over the positive `weights`."""
  support = weights > 0
  probs = weights[support] / weights[support].sum()
  return list(zip(actions[support].tolist(), probs.tolist()))


class RiverPokerGame(pyspiel.Game):
  """River poker; see the module docstring."""

  def __init__(self, params=None):
    params = {**_DEFAULT_PARAMS, **(params or {})}
    _check_params(params)
    for name in ("range0", "range1"):  # so that str(game) loads back
      params[name] = cards.game_string_value(
          cards.normalize_range(params[name], name))
    (self.board, self.hands, self.strength, self.beliefs, self.compatible,
     self.marginal0, self.hand_index) = deal_tables(*(params[k] for k in (
         "board", "min_rank", "beliefs", "range0", "range1", "range_weight")))
    self.pot, self.bet, self.max_bets = (float(params["pot"]),
                                         float(params["bet"]),
                                         params["max_bets"])
    self.board_str = cards.cards_str(self.board)
    self.hand_strs = [cards.cards_str(h) for h in self.hands]
    self.tensor_size = cards.NUM_CARDS + poker.betting_size(1, self.max_bets)
    # A deal's next-card law is asked for twice per card (the dealer samples
    # it, `apply_action` checks the card against it) and recurs across deals.
    self._card_outcomes = functools.lru_cache(maxsize=4096)(
        self._next_card_outcomes)
    stake = self.pot / 2 + self.max_bets * self.bet
    super().__init__(
        _GAME_TYPE,
        pyspiel.GameInfo(
            num_distinct_actions=3,
            max_chance_outcomes=cards.NUM_CARDS,
            num_players=2,
            min_utility=-stake,
            max_utility=stake,
            utility_sum=0.0,
            max_game_length=self.max_bets + 2),  # player moves only
        params)

  def max_chance_nodes_in_history(self):
    # OpenSpiel's default is max_game_length, which counts player moves: 3
    # for max_bets=1, below the deal's 4 nodes. MaxHistoryLength() is the sum.
    return _DEAL_NODES

  def holding_probabilities(self, hand0=None):
    """Player 0's holding law, or player 1's given player 0's `hand0`.

    A vector over `self.hands` (the rows of `hands` are (low, high) card ids).
    """
    if hand0 is None:
      return self.marginal0
    weights = self.beliefs[1] * self.compatible[hand0]
    return weights / weights.sum()

  def card_outcomes(self, hand0, low_card):
    """Chance outcomes of the next card dealt.

    `hand0` is player 0's holding index (-1 while player 0 is being dealt) and
    `low_card` the lower card already dealt of the holding being dealt (-1 if
    none): the lower card follows the holding law's marginal, the higher one
    its law given the lower.
    """
    return list(self._card_outcomes(int(hand0), int(low_card)))

  def _next_card_outcomes(self, hand0, low_card):
    weights = self.holding_probabilities(None if hand0 < 0 else hand0)
    if low_card < 0:
      return _outcomes(np.arange(cards.NUM_CARDS), np.bincount(
          self.hands[:, 0], weights, minlength=cards.NUM_CARDS))
    rows = self.hands[:, 0] == low_card
    return _outcomes(self.hands[rows, 1], weights[rows])

  def new_initial_state(self):
    return RiverPokerState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return poker.make_info_state_observer("river_poker",
                                                self.tensor_size,
                                                iig_obs_type, params)


class RiverPokerState(pyspiel.State):
  """A River poker state: two dealt holdings and the betting string.

  Everything else is derived from those atomic attributes (plus the player to
  act, which OpenSpiel asks for most often), because OpenSpiel clones Python
  states by deep-copying each attribute.
  """

  def __init__(self, game):
    super().__init__(game)
    self._hand0 = -1     # holding indices, -1 until dealt
    self._hand1 = -1
    self._low_card = -1  # first card of the holding being dealt
    self._betting = ""   # 'c'heck/call, 'r'aise, 'f'old
    self._player = pyspiel.PlayerId.CHANCE

  def _is_over(self):
    last = self._betting[-1:]
    # A fold, a call of a bet, or the second check ends the game.
    return last == "f" or (last == "c" and len(self._betting) >= 2)

  def contributions(self):
    """Chips each player has put in the pot."""
    game = self.get_game()
    contrib = [game.pot / 2, game.pot / 2]
    for i, action in enumerate(self._betting):
      if action != "f":
        contrib[i % 2] = contrib[1 - i % 2] + game.bet * (action == "r")
    return contrib

  # --- dynamics -------------------------------------------------------------

  def current_player(self):
    return self._player

  def _legal_actions(self, player):
    facing_bet = self._betting[-1:] == "r"
    can_raise = self._betting.count("r") < self.get_game().max_bets
    return [FOLD] * facing_bet + [CALL] + [RAISE] * can_raise

  def chance_outcomes(self):
    return self.get_game().card_outcomes(self._hand0, self._low_card)

  def _apply_action(self, action):
    poker.check_action(self, action)
    if self._player == pyspiel.PlayerId.CHANCE:
      if self._low_card < 0:
        self._low_card = action
        return
      hand = int(self.get_game().hand_index[self._low_card, action])
      self._low_card = -1
      if self._hand0 < 0:
        self._hand0 = hand
        return
      self._hand1 = hand
    else:
      self._betting += ACTION_CHARS[action]
    self._player = (pyspiel.PlayerId.TERMINAL if self._is_over() else
                    len(self._betting) % 2)

  def _action_to_string(self, player, action):
    if player == pyspiel.PlayerId.CHANCE:
      return f"Deal {cards.card_str(action)}"
    return ("Fold", "Call", "Raise")[action]

  def is_terminal(self):
    return self._player == pyspiel.PlayerId.TERMINAL

  def returns(self):
    if not self.is_terminal():
      return [0.0, 0.0]
    if self._betting[-1] == "f":
      loser = (len(self._betting) - 1) % 2
    else:
      strength = self.get_game().strength
      diff = strength[self._hand0] - strength[self._hand1]
      if diff == 0:
        return [0.0, 0.0]
      loser = 1 if diff > 0 else 0
    won = self.contributions()[loser]
    return [won, -won] if loser == 1 else [-won, won]

  # --- information states ---------------------------------------------------

  def _private_cards(self, player):
    hand = (self._hand0, self._hand1)[player]
    if hand >= 0:
      return self.get_game().hands[hand].tolist()
    being_dealt = 0 if self._hand0 < 0 else 1
    return [self._low_card] if (player == being_dealt and
                                self._low_card >= 0) else []

  # ---- hold'em views (poker.holding_tensors, evaluation's LBR) ----

  def hole_cards(self, player):
    """`player`'s hole cards (card ids) dealt so far."""
    return self._private_cards(player)

  def board_cards(self):
    return list(self.get_game().board)

  def betting_round(self):
    """3: River poker is Limit Hold'em's river (its board is complete)."""
    return 3

  def holding_tensors(self, player, holdings):
    return poker.holding_tensors(self, player, holdings)

  def holding_tensor_parts(self, player, holdings):
    return poker.holding_tensor_parts(self, player, holdings)

  def with_holding(self, player, holding):
    return poker.with_holding(self, player, holding)

  def info_state_ones(self, player):
    game = self.get_game()
    ones = self._private_cards(player)
    raises = 0
    for i, action in enumerate(self._betting):
      if action != "f":
        ones.append(cards.NUM_CARDS + poker.betting_index(
            i % 2, 0, raises, ACTION_CHARS.index(action), 1, game.max_bets))
        raises += action == "r"
    return ones

  def information_state_string_of(self, player):
    game = self.get_game()
    private = cards.cards_str(self._private_cards(player))
    return (f"[Observer: {player}][Private: {private}][Board: "
            f"{game.board_str}][Pot: {sum(self.contributions()):g}]"
            f"[Betting: {self._betting}]")

  def __str__(self):
    game = self.get_game()
    hands = " ".join(game.hand_strs[h] for h in (self._hand0, self._hand1)
                     if h >= 0)
    if self._low_card >= 0:  # mid-deal: states differ, so must strings
      hands = f"{hands} {cards.card_str(self._low_card)}?".lstrip()
    return f"[Hands: {hands}][Board: {game.board_str}][Betting: {self._betting}]"


pyspiel.register_game(_GAME_TYPE, RiverPokerGame)
