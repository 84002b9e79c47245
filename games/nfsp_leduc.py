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

from nfsp_spiel.games import observation

_DEFAULT_PARAMS = {"ranks": 3, "suits": 2}
_MAX_RANKS, _MAX_SUITS = 100, 4
_ANTE, _STARTING_MONEY = 1, 100
_RAISE_AMOUNTS = (2, 4)  # per round
_MAX_RAISES = 2          # per round
_NUM_ROUNDS = 2
_BETTING_SIZE = observation.betting_size(_NUM_ROUNDS, _MAX_RAISES)  # 24
_NOT_DEALT = -10000  # OpenSpiel's kInvalidCard, as its strings print it

_GAME_TYPE = pyspiel.GameType(
    short_name="nfsp_leduc",
    long_name="Leduc Hold'em (NFSP encoding)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification=_DEFAULT_PARAMS,
)

FOLD, CALL, RAISE = 0, observation.CALL, observation.RAISE


class NfspLeducGame(pyspiel.Game):
  """Leduc Hold'em with `ranks` x `suits` cards; see the module docstring."""

  def __init__(self, params=None):
    params = {**_DEFAULT_PARAMS, **(params or {})}
    unknown = set(params) - set(_DEFAULT_PARAMS)
    if unknown:
      raise ValueError(f"nfsp_leduc: unknown parameter(s) {sorted(unknown)}; "
                       f"allowed: {sorted(_DEFAULT_PARAMS)}")
    self.ranks, self.suits = params["ranks"], params["suits"]
    if not 2 <= self.ranks <= _MAX_RANKS:
      raise ValueError(f"ranks={self.ranks}: must be in [2, {_MAX_RANKS}]")
    if not 1 <= self.suits <= _MAX_SUITS:
      raise ValueError(f"suits={self.suits}: must be in [1, {_MAX_SUITS}]")
    self.num_cards = self.ranks * self.suits
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

  def new_initial_state(self):
    return NfspLeducState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return observation.make_info_state_observer("nfsp_leduc", self.tensor_size,
                                                iig_obs_type, params)


def _hand_value(private, public, suits, ranks):
  """Showdown value: pairs beat everything, then high card, then low card."""
  mine, board = private // suits, public // suits
  if mine == board:
    return ranks * ranks + mine
  return max(mine, board) * ranks + min(mine, board)


class NfspLeducState(pyspiel.State):
  """Mirrors OpenSpiel's LeducState for two players (field for field)."""

  def __init__(self, game):
    super().__init__(game)
    self._cards = []              # dealt card ids: player 0, player 1, public
    self._player = pyspiel.PlayerId.CHANCE  # LeducState::cur_player_
    self._round = 1
    self._stakes = _ANTE
    self._ante = [_ANTE, _ANTE]
    self._money = [_STARTING_MONEY - _ANTE] * 2
    self._pot = 2 * _ANTE
    self._num_raises = 0
    self._num_calls = 0
    self._sequences = ([], [])    # betting actions of rounds 1 and 2
    self._ones = []               # tensor indices of the betting one-hot
    self._terminal = False

  # --- dynamics -------------------------------------------------------------

  def current_player(self):
    return pyspiel.PlayerId.TERMINAL if self._terminal else self._player

  def _legal_actions(self, player):
    actions = [FOLD, CALL] if self._stakes > self._ante[player] else [CALL]
    if self._num_raises < _MAX_RAISES:
      actions.append(RAISE)
    return actions

  def chance_outcomes(self):
    game = self.get_game()
    remaining = [c for c in range(game.num_cards) if c not in self._cards]
    p = 1.0 / len(remaining)
    return [(c, p) for c in remaining]

  def _put(self, player, amount):
    self._ante[player] += amount
    self._money[player] -= amount
    self._pot += amount

  def _apply_action(self, action):
    if self._player == pyspiel.PlayerId.CHANCE:
      self._cards.append(action)
      if len(self._cards) != 1:  # both private cards, or the public card
        self._player = 0
      return
    player = self._player
    self._sequences[self._round - 1].append(action)
    if action == FOLD:
      self._terminal = True
      self._money[1 - player] += self._pot
      self._pot = 0
      return
    game = self.get_game()
    self._ones.append(2 * game.ranks + observation.betting_index(
        player, self._round - 1, self._num_raises, action, _NUM_ROUNDS,
        _MAX_RAISES))
    self._put(player, self._stakes - self._ante[player])
    if action == RAISE:
      self._stakes += _RAISE_AMOUNTS[self._round - 1]
      self._put(player, _RAISE_AMOUNTS[self._round - 1])
      self._num_raises += 1
      self._num_calls = 0
      self._player = 1 - player
      return
    self._num_calls += 1
    if self._num_calls < (2 if self._num_raises == 0 else 1):
      self._player = 1 - player
    elif self._round == 1:
      self._round, self._num_raises, self._num_calls = 2, 0, 0
      self._player = pyspiel.PlayerId.CHANCE
    else:
      self._terminal = True
      self._showdown(game)

  def _showdown(self, game):
    values = [_hand_value(self._cards[p], self._cards[2], game.suits,
                          game.ranks) for p in (0, 1)]
    best = max(values)
    winners = [p for p in (0, 1) if values[p] == best]
    for p in winners:
      self._money[p] += self._pot / len(winners)
    self._pot = 0

  def _action_to_string(self, player, action):
    if player == pyspiel.PlayerId.CHANCE:
      return f"Chance outcome:{action}"
    return ("Fold", "Call", "Raise")[action]

  def is_terminal(self):
    return self._terminal

  def returns(self):
    if not self._terminal:
      return [0.0, 0.0]
    return [float(m - _STARTING_MONEY) for m in self._money]

  # --- information states ---------------------------------------------------

  def info_state_ones(self, player):
    suits, ranks = self.get_game().suits, self.get_game().ranks
    ones = list(self._ones)
    if len(self._cards) > player:
      ones.append(self._cards[player] // suits)
    if len(self._cards) == 3:
      ones.append(ranks + self._cards[2] // suits)
    return ones

  def information_state_string_of(self, player):
    private = self._cards[player] if len(self._cards) > player else _NOT_DEALT
    public = f"[Public: {self._cards[2]}]" if len(self._cards) == 3 else ""
    round1, round2 = (" ".join(map(str, s)) for s in self._sequences)
    return (f"[Observer: {player}][Private: {private}][Round {self._round}]"
            f"[Player: {self._player}][Pot: {self._pot}]"
            f"[Money: {self._money[0]:g} {self._money[1]:g}]{public}"
            f"[Round1: {round1}][Round2: {round2}]")

  def __str__(self):
    return (f"[Cards: {self._cards}][Round {self._round}][Pot: {self._pot}]"
            f"[Money: {self._money[0]:g} {self._money[1]:g}]"
            f"[Round1: {self._sequences[0]}][Round2: {self._sequences[1]}]")


pyspiel.register_game(_GAME_TYPE, NfspLeducGame)
