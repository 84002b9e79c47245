"""Heads-up Limit Texas Hold'em with the NFSP paper's 288-dim encoding.

Heinrich & Silver 2016, sec. 4.2; Heinrich's thesis sec. 6.5. The dynamics and
payoffs are OpenSpiel's C++ `universal_poker` configured as the ACPC heads-up
limit game (`UNIVERSAL_POKER_LHE` below: blinds 10/5 with player 0 the big
blind, bets of 10 preflop and on the flop and 20 on the turn and river, at most
3 raises preflop and 4 after, the small blind first preflop and the big blind
first afterwards; payoffs in chips, so a big blind is 10). Each state wraps a
`universal_poker` state: legal actions, chance outcomes (card ids
`rank * 4 + suit`), returns and information-state strings are exactly its own,
and only the tensor is computed here, incrementally as actions are applied.

Information-state tensor (length 288), for the observing player:

  [0, 52)       round 1 cards: the player's two hole cards (2-of-52)
  [52, 104)     round 2 cards: the flop (3-of-52)
  [104, 156)    round 3 cards: the turn (1-of-52)
  [156, 208)    round 4 cards: the river (1-of-52)
  [208, 288)    betting one-hot [player 0..1][round 0..3][raises so far in the
                round 0..4][call, raise]: 2 * 4 * 5 * 2 = 80

Card index c within a block is the card id (ranks "23456789TJQKA" times suits
"cdhs"). A fold ends the game and has no slot. Blinds are not raises.
"""

import json

import numpy as np
import pyspiel

from nfsp_spiel.games import poker

# The betting rules, in chips, stated once: the game below is configured from
# them and `nfsp_spiel.trees.betting_tree.BettingTree` compiles them.
NUM_ROUNDS = 4
BLINDS = (10, 5)  # posted by player 0 (the big blind) and player 1
BIG_BLIND = max(BLINDS)
RAISE_SIZES = (10, 10, 20, 20)  # the bet (and raise) size per round
MAX_RAISES = (3, 4, 4, 4)  # raises per round at most
FIRST_PLAYER = (1, 0, 0, 0)  # who acts first per round

_NUM_ROUNDS, _CARDS = NUM_ROUNDS, 52
_MAX_RAISES = max(MAX_RAISES)  # the tensor's raise slots per round
BETTING_OFFSET = _NUM_ROUNDS * _CARDS                       # 208


class Rules:
  """What the two- and three-player games differ in: the players, their
  blinds and order (the ACPC game definitions), and the betting part of the
  tensor. Heads-up, a fold ends the game and needs no slot; with three
  players the game goes on, so each (player, round, raises) has a fold slot
  too."""

  def __init__(self, num_players, blinds, first_player, fold_slots):
    self.num_players, self.blinds = num_players, blinds
    self.first_player, self.fold_slots = first_player, fold_slots
    self.slots = 3 if fold_slots else 2  # [fold,] call, raise
    self.tensor_size = BETTING_OFFSET + (num_players * _NUM_ROUNDS *
                                         (_MAX_RAISES + 1) * self.slots)
    # Chance cards dealt when each round's betting starts: the hole cards,
    # then 3, 1, 1 board cards.
    holes = 2 * num_players
    self.round_of_dealt = {holes: 0, holes + 3: 1, holes + 4: 2,
                           holes + 5: 3}
    self.universal_poker = (
        f"universal_poker(betting=limit,numPlayers={num_players},"
        f"numRounds={NUM_ROUNDS},blind={' '.join(map(str, blinds))},"
        f"firstPlayer={' '.join(str(p + 1) for p in first_player)},"
        "numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,"
        f"raiseSize={' '.join(map(str, RAISE_SIZES))},"
        f"maxRaises={' '.join(map(str, MAX_RAISES))},bettingAbstraction=fcpa)")

  def betting_slot(self, player, round_, raises, action):
    """The tensor index of `action`, or None (a heads-up fold)."""
    if not self.fold_slots:
      if action == poker.FOLD:
        return None
      return BETTING_OFFSET + poker.betting_index(
          player, round_, raises, action, _NUM_ROUNDS, _MAX_RAISES)
    return BETTING_OFFSET + ((player * _NUM_ROUNDS + round_) *
                             (_MAX_RAISES + 1) + raises) * 3 + action


HEADS_UP = Rules(2, BLINDS, FIRST_PLAYER, fold_slots=False)
UNIVERSAL_POKER_LHE = HEADS_UP.universal_poker
TENSOR_SIZE = HEADS_UP.tensor_size  # 288

BOARD_CARDS = (0, 3, 4, 5)  # board cards seen in each betting round


def card_tensors(holes, boards, rounds):
  """(n, 208) float32: the card part of the information-state tensor of n
  decision states from their cards alone, for code that plays many deals
  without OpenSpiel states (`evaluation.batched_matches`): the observing
  player's hole cards (n, 2), the deal's whole board (n, 5), of which the
  betting round (n,) shows the first `BOARD_CARDS[round]`."""
  holes, boards = np.asarray(holes), np.asarray(boards)
  rounds = np.asarray(rounds)
  tensors = np.zeros((len(holes), BETTING_OFFSET), np.float32)
  rows = np.arange(len(holes))
  tensors[rows[:, None], holes] = 1.0
  # The flop's three cards in block 1, the turn in block 2, the river in 3.
  for card, block in enumerate((1, 1, 1, 2, 3)):
    shown = rows[rounds >= block]
    tensors[shown, _CARDS * block + boards[shown, card]] = 1.0
  return tensors


def cards_of_tensors(tensors):
  """The inverse of `card_tensors` on n information-state tensors: (holes
  (n, 2) card ids in increasing order, boards (n, 5) of which the first
  `num_board` are shown, num_board (n,)). A row of zeros (a terminal
  transition's next state) reads as holes of -1 and no board."""
  tensors = np.asarray(tensors)
  if tensors.ndim != 2 or tensors.shape[1] < BETTING_OFFSET:
    raise ValueError(f"tensors of shape {tensors.shape}: want (n, at least "
                     f"{BETTING_OFFSET}) information-state tensors")
  cards = tensors[:, :BETTING_OFFSET].reshape(
      len(tensors), _NUM_ROUNDS, _CARDS) > 0
  hole_count = cards[:, 0].sum(axis=1)
  board_bits = cards[:, 1:].reshape(len(tensors), -1)
  num_board = board_bits.sum(axis=1)
  # The board blocks in order (flop, turn, river) hold 0, 3, 4 or 5 cards,
  # and a row of zeros none at all.
  valid = np.isin(num_board, BOARD_CARDS) & (
      (hole_count == 2) | ((hole_count == 0) & (num_board == 0)))
  if not valid.all():
    row = int(np.flatnonzero(~valid)[0])
    raise ValueError(f"row {row} of tensors holds {hole_count[row]} hole and "
                     f"{num_board[row]} board cards: want 2 and 0, 3, 4 or 5 "
                     "(or none at all)")
  # A stable sort puts each row's set bits first, in the order of the blocks.
  holes = np.argsort(~cards[:, 0], axis=1, kind="stable")[:, :2]
  boards = np.argsort(~board_bits, axis=1, kind="stable")[:, :5] % _CARDS
  holes[hole_count == 0] = -1
  return holes, boards, num_board


_GAME_TYPE = poker.game_type(
    "nfsp_lhe", "Heads-up Limit Texas Hold'em (NFSP encoding)", {})


class NfspLheGame(pyspiel.Game):
  """Heads-up Limit Hold'em; see the module docstring."""
  RULES, GAME_TYPE = HEADS_UP, _GAME_TYPE

  def __init__(self, params=None):
    name = self.GAME_TYPE.short_name
    if params:
      raise ValueError(f"{name}: unknown parameter(s) {sorted(params)}; "
                       "this game takes none (it is ACPC limit hold'em)")
    self.universal_poker = pyspiel.load_game(self.RULES.universal_poker)
    up = self.universal_poker
    super().__init__(
        self.GAME_TYPE,
        pyspiel.GameInfo(
            num_distinct_actions=up.num_distinct_actions(),
            max_chance_outcomes=up.max_chance_outcomes(),
            num_players=self.RULES.num_players,
            min_utility=up.min_utility(),
            max_utility=up.max_utility(),
            utility_sum=0.0,
            max_game_length=up.max_game_length()),
        params or {})

  def new_initial_state(self):
    return NfspLheState(self)

  def make_py_observer(self, iig_obs_type=None, params=None):
    return poker.make_info_state_observer(self.GAME_TYPE.short_name,
                                          self.RULES.tensor_size,
                                          iig_obs_type, params)


class _Progress:
  """The wrapped C++ state and the tensor's ones so far, in one attribute.

  OpenSpiel clones a Python state by deep-copying each attribute; this one
  copies in one call: it clones the C++ state (1 us, where deep-copying it
  pickles it, 30 us) and shares the immutable tuples.
  """
  __slots__ = ("state", "hole", "public", "betting", "dealt", "round", "raises")

  def __init__(self, state, hole=((), ()), public=(), betting=(), dealt=0,
               round_=0, raises=0):
    self.state = state
    self.hole = hole          # per player: tensor indices of the hole cards
    self.public = public      # tensor indices of the board cards
    self.betting = betting    # tensor indices of the betting one-hot
    self.dealt = dealt        # chance cards dealt so far
    self.round = round_
    self.raises = raises      # raises so far in this round

  def __deepcopy__(self, memo):
    return _Progress(self.state.clone(), self.hole, self.public, self.betting,
                     self.dealt, self.round, self.raises)

  def __reduce__(self):  # pickled by OpenSpiel's State.serialize()
    return (_Progress, (self.state, self.hole, self.public, self.betting,
                        self.dealt, self.round, self.raises))


class NfspLheState(pyspiel.State):
  """A `universal_poker` state plus the incremental 288-dim encoding."""

  def __init__(self, game):
    super().__init__(game)
    self._rules = game.RULES
    self._s = _Progress(game.universal_poker.new_initial_state(),
                        hole=((),) * game.RULES.num_players)

  def current_player(self):
    return self._s.state.current_player()

  def _legal_actions(self, player):
    return self._s.state.legal_actions(player)

  def chance_outcomes(self):
    return self._s.state.chance_outcomes()

  def _apply_action(self, action):
    poker.check_action(self, action)
    s = self._s
    rules = self._rules
    if s.state.is_chance_node():
      holes = 2 * rules.num_players
      if s.dealt < holes:
        player = s.dealt // 2
        hole = list(s.hole)
        hole[player] += (action,)
        s.hole = tuple(hole)
      else:  # flop, turn, river
        board_round = 1 if s.dealt < holes + 3 else s.dealt - holes - 1
        s.public += (_CARDS * board_round + action,)
      s.dealt += 1
      if s.dealt in rules.round_of_dealt:
        s.round, s.raises = rules.round_of_dealt[s.dealt], 0
    else:
      slot = rules.betting_slot(s.state.current_player(), s.round, s.raises,
                                action)
      if slot is not None:
        s.betting += (slot,)
      s.raises += action == poker.RAISE
    s.state.apply_action(action)

  def _action_to_string(self, player, action):
    return self._s.state.action_to_string(player, action)

  def is_terminal(self):
    return self._s.state.is_terminal()

  def returns(self):
    return self._s.state.returns()

  # ---- hold'em views (poker.holding_tensors, evaluation's LBR) ----

  def hole_cards(self, player):
    """`player`'s hole cards (card ids) dealt so far."""
    return list(self._s.hole[player])

  def board_cards(self):
    return [index % _CARDS for index in self._s.public]

  def betting_round(self):
    """0 preflop, 1 flop, 2 turn, 3 river."""
    return self._s.round

  def contributions(self):
    """Chips each player has put in the pot (blinds included)."""
    return [float(c) for c in json.loads(
        self._s.state.to_json())["player_contributions"]]

  def holding_tensors(self, player, holdings):
    return poker.holding_tensors(self, player, holdings)

  def holding_tensor_parts(self, player, holdings):
    return poker.holding_tensor_parts(self, player, holdings)

  def with_holding(self, player, holding):
    return poker.with_holding(self, player, holding)

  def info_state_ones(self, player):
    return list(self._s.hole[player] + self._s.public + self._s.betting)

  def information_state_string_of(self, player):
    return self._s.state.information_state_string(player)

  def __str__(self):
    return str(self._s.state)


pyspiel.register_game(_GAME_TYPE, NfspLheGame)
