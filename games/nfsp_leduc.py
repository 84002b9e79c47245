"""Leduc Hold'em with the NFSP paper's information-state encoding.

Rules: Southey et al. 2005, as in Heinrich's thesis sec. 2.3.1 and OpenSpiel's
`leduc_poker`: `ranks` x `suits` cards (3 x 2 by default; 60-card Leduc is
`nfsp_leduc(ranks=30)`), antes of 1, one private card each, a public card after
the first betting round, raises of 2 then 4, at most 2 raises per round; a pair
with the public card wins, otherwise the higher card, then the lower.

Dynamics, chance outcomes (card ids `rank * suits + suit`), returns and
information-state strings are those of OpenSpiel's 2-player `leduc_poker`
(tests replay the same sequences in both). The information-state tensor is the
encoding of Heinrich & Silver 2016 (thesis sec. 6.5), length 2 * ranks + 24:

  [0, ranks)             the private card's rank (round 1 cards, k-of-n)
  [ranks, 2 * ranks)     the public card's rank (round 2 cards)
  [2 * ranks, +24)       betting one-hot [player 0..1][round 0..1]
                         [raises so far 0..2][call, raise]

The tensor sees ranks, not suits (suits never matter in Leduc), while the
strings keep OpenSpiel's card ids: equal strings give equal tensors, and equal
tensors give strings equal up to the suits of the cards.
"""

import pyspiel

from nfsp_spiel.games import poker

_DEFAULT_PARAMS = {"ranks": 3, "suits": 2}
_MAX_RANKS, _MAX_SUITS = 100, 4
_ANTE, _STARTING_MONEY = 1, 100
_RAISE_AMOUNTS = (2, 4)  # per round
_MAX_RAISES = 2          # per round
_NUM_ROUNDS = 2
_BETTING_SIZE = poker.betting_size(_NUM_ROUNDS, _MAX_RAISES)  # 24
_NOT_DEALT = -10000  # OpenSpiel's kInvalidCard, as its strings print it

_GAME_TYPE = poker.game_type(
    "nfsp_leduc", "Leduc Hold'em (NFSP encoding)", _DEFAULT_PARAMS)

FOLD, CALL, RAISE = poker.FOLD, poker.CALL, poker.RAISE


class NfspLeducGame(pyspiel.Game):
  """Leduc Hold'em with `ranks` x `suits` cards; see the module docstring."""

  def __init__(self, params=None):
    params = {**_DEFAULT_PARAMS, **(params or {})}
    unknown = set(params) - set(_DEFAULT_PARAMS)
    if unknown:
      raise ValueError(f"nfsp_leduc: unknown parameter(s) {sorted(unknown)}; "
                       f"allowed: {sorted(_DEFAULT_PARAMS)}")
    self.ranks, self.suits = params["ranks"], params["suits"]
    poker.check_int("ranks", self.ranks, 2, _MAX_RANKS)
    poker.check_int("suits", self.suits, 1, _MAX_SUITS)
    self.num_cards = self.ranks * self.suits
    if self.num_cards < 3:
      raise ValueError(f"ranks={self.ranks}, suits={self.suits}: a deck of "
                       f"{self.num_cards} cards cannot deal two private cards "
                       "and the public one; ranks x suits must be at least 3")
    self.tensor_size = 2 * self.ranks + _BETTING_SIZE
    max_stake = _ANTE + _MAX_RAISES * sum(_RAISE_AMOUNTS)
    super().__init__(
        _GAME_TYPE,
        pyspiel.GameInfo(
            num_distinct_actions=3,
            max_chance_outcomes=self.num_cards,
            num_players=2,
            min_utility=-float(max_stake),
            max_utility=float(max_stake),
            utility_sum=0.0,
            max_game_length=_NUM_ROUNDS * (3 * 2 - 2)),  # as leduc_poker
        params)

  def max_chance_nodes_in_history(self):
    # Two private cards and the public one, as leduc_poker says (OpenSpiel's
    # default would be max_game_length, 8).
    return 3

  def new_initial_state(self):
    return NfspLeducState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return poker.make_info_state_observer("nfsp_leduc", self.tensor_size,
                                                iig_obs_type, params)


def hand_value(private, public, suits, ranks):
  """Showdown value: pairs beat everything, then high card, then low card."""
  mine, board = private // suits, public // suits
  if mine == board:
    return ranks * ranks + mine
  return max(mine, board) * ranks + min(mine, board)


class NfspLeducState(pyspiel.State):
  """Mirrors OpenSpiel's LeducState for two players.

  Attributes are atomic (ints, strings): OpenSpiel clones Python states by
  deep-copying each attribute, and atomic values make that nearly free.
  """

  def __init__(self, game):
    super().__init__(game)
    self._private0 = _NOT_DEALT
    self._private1 = _NOT_DEALT
    self._public = _NOT_DEALT
    self._round1 = ""     # betting action ids of round 1, as digits
    self._round2 = ""
    self._player = pyspiel.PlayerId.CHANCE  # LeducState::cur_player_
    self._stakes = _ANTE
    self._ante0 = _ANTE   # each player's contribution to the pot
    self._ante1 = _ANTE
    self._num_raises = 0
    self._num_calls = 0
    self._terminal = False

  def _round(self):
    # Round 2 begins when round 1's betting ends, before the public card is
    # dealt (as LeducState counts it; its information strings show it).
    between_rounds = (self._player == pyspiel.PlayerId.CHANCE and
                      self._private1 != _NOT_DEALT)
    return 2 if self._public != _NOT_DEALT or between_rounds else 1

  def _ante(self, player):
    return self._ante1 if player else self._ante0

  def _put(self, player, amount):
    if player:
      self._ante1 += amount
    else:
      self._ante0 += amount

  def contributions(self):
    """Chips each player has put in the pot."""
    return [self._ante0, self._ante1]

  def _card(self, player):
    return self._private1 if player else self._private0

  # --- dynamics -------------------------------------------------------------

  def current_player(self):
    return pyspiel.PlayerId.TERMINAL if self._terminal else self._player

  def _legal_actions(self, player):
    actions = [FOLD, CALL] if self._stakes > self._ante(player) else [CALL]
    if self._num_raises < _MAX_RAISES:
      actions.append(RAISE)
    return actions

  def chance_outcomes(self):
    dealt = (self._private0, self._private1, self._public)
    remaining = [c for c in range(self.get_game().num_cards) if c not in dealt]
    p = 1.0 / len(remaining)
    return [(c, p) for c in remaining]

  def _apply_action(self, action):
    poker.check_action(self, action)
    if self._player == pyspiel.PlayerId.CHANCE:
      if self._private0 == _NOT_DEALT:
        self._private0 = action
        return
      if self._private1 == _NOT_DEALT:
        self._private1 = action
      else:
        self._public = action
      self._player = 0
      return
    player, round_ = self._player, self._round()
    if round_ == 1:
      self._round1 += str(action)
    else:
      self._round2 += str(action)
    if action == FOLD:
      self._terminal = True
      return
    self._put(player, self._stakes - self._ante(player))
    if action == RAISE:
      self._stakes += _RAISE_AMOUNTS[round_ - 1]
      self._put(player, _RAISE_AMOUNTS[round_ - 1])
      self._num_raises += 1
      self._num_calls = 0
      self._player = 1 - player
      return
    self._num_calls += 1
    if self._num_calls < (2 if self._num_raises == 0 else 1):
      self._player = 1 - player
    elif round_ == 1:
      self._num_raises = self._num_calls = 0
      self._player = pyspiel.PlayerId.CHANCE
    else:
      self._terminal = True

  def _winnings(self):
    """Chips each player takes from the pot at the end (0 before)."""
    if not self._terminal:
      return (0, 0)
    pot = self._ante0 + self._ante1
    last = (self._round2 or self._round1)[-1]
    if last == str(FOLD):
      return (0, pot) if self._player == 0 else (pot, 0)
    game = self.get_game()
    values = [hand_value(self._card(p), self._public, game.suits, game.ranks)
              for p in (0, 1)]
    if values[0] == values[1]:
      return (pot / 2, pot / 2)
    return (pot, 0) if values[0] > values[1] else (0, pot)

  def _action_to_string(self, player, action):
    if player == pyspiel.PlayerId.CHANCE:
      return f"Chance outcome:{action}"
    return ("Fold", "Call", "Raise")[action]

  def is_terminal(self):
    return self._terminal

  def returns(self):
    if not self._terminal:
      return [0.0, 0.0]
    won = self._winnings()
    return [float(won[0] - self._ante0), float(won[1] - self._ante1)]

  # --- information states ---------------------------------------------------

  def info_state_ones(self, player):
    game = self.get_game()
    ones = []
    if self._card(player) != _NOT_DEALT:
      ones.append(self._card(player) // game.suits)
    if self._public != _NOT_DEALT:
      ones.append(game.ranks + self._public // game.suits)
    for round_, sequence in enumerate((self._round1, self._round2)):
      actor, raises = 0, 0  # player 0 opens both rounds
      for action in map(int, sequence):
        if action != FOLD:
          ones.append(2 * game.ranks + poker.betting_index(
              actor, round_, raises, action, _NUM_ROUNDS, _MAX_RAISES))
        raises += action == RAISE
        actor = 1 - actor
    return ones

  def information_state_string_of(self, player):
    won = self._winnings()
    money0 = _STARTING_MONEY - self._ante0 + won[0]
    money1 = _STARTING_MONEY - self._ante1 + won[1]
    pot = 0 if self._terminal else self._ante0 + self._ante1
    public = f"[Public: {self._public}]" if self._public != _NOT_DEALT else ""
    return (f"[Observer: {player}][Private: {self._card(player)}]"
            f"[Round {self._round()}][Player: {self._player}][Pot: {pot}]"
            f"[Money: {money0:g} {money1:g}]{public}"
            f"[Round1: {' '.join(self._round1)}]"
            f"[Round2: {' '.join(self._round2)}]")

  def __str__(self):
    return (f"[Cards: {self._private0} {self._private1} {self._public}]"
            f"[Pot: {self._ante0 + self._ante1}]"
            f"[Round1: {self._round1}][Round2: {self._round2}]")


pyspiel.register_game(_GAME_TYPE, NfspLeducGame)
