"""nfsp_lhe against universal_poker built from the ACPC gamedef, and its tensor."""

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from .test_games import chance_outcome
from nfsp_spiel.games import cards
from nfsp_spiel.games import poker

# The ACPC competition's heads-up limit hold'em definition, as its server reads it.
ACPC_HULHE = """\
GAMEDEF
limit
numPlayers = 2
numRounds = 4
blind = 10 5
raiseSize = 10 10 20 20
firstPlayer = 2 1 1 1
maxRaises = 3 4 4 4
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""


def replay_against_acpc(name, gamedef, num_games, fold_rate):
  """Plays `num_games` random games of our `name` and of universal_poker
  loaded from the ACPC `gamedef` side by side: the same players, chance
  outcomes, legal actions, information-state strings and returns. Folds
  are drawn at `fold_rate` so that games go on; returns the games that
  reached the river's showdown."""
  ours = pyspiel.load_game(name)
  acpc = pyspiel.universal_poker.load_universal_poker_from_acpc_gamedef(
      gamedef)
  rng = np.random.default_rng(0)
  showdowns = 0
  for _ in range(num_games):
    a, b = ours.new_initial_state(), acpc.new_initial_state()
    while not a.is_terminal():
      assert a.current_player() == b.current_player()
      if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
      else:
        assert a.legal_actions() == b.legal_actions()
        for p in range(ours.num_players()):
          assert (a.information_state_string(p) ==
                  b.information_state_string(p))
      legal = a.legal_actions()
      calm = [x for x in legal if x != poker.FOLD] or legal
      action = int(rng.choice(legal if rng.random() < fold_rate else calm))
      a.apply_action(action)
      b.apply_action(action)
    assert b.is_terminal()
    assert a.returns() == b.returns() and sum(a.returns()) == 0
    showdowns += len(a.board_cards()) == 5 and a.history()[-1] != poker.FOLD
  return showdowns


def test_replays_equal_acpc_universal_poker():
  assert replay_against_acpc("nfsp_lhe", ACPC_HULHE, 500, 1.0) > 10


def test_blinds_order_and_caps():
  state = pyspiel.load_game("nfsp_lhe").new_initial_state()
  for card in ("Ah", "Ad", "2c", "7d"):
    state.apply_action(cards.card_id(card))
  # Preflop: the small blind (player 1) acts first, facing the big blind.
  assert state.current_player() == 1
  assert state.legal_actions() == [0, 1, 2]
  for _ in range(3):  # three raises: 20, 30, 40
    state.apply_action(2)
  assert state.current_player() == 0
  assert state.legal_actions() == [0, 1]  # capped at 4 bets preflop
  state.apply_action(1)
  assert state.is_chance_node()
  for card in ("Ks", "Qs", "Js"):
    state.apply_action(cards.card_id(card))
  assert state.current_player() == 0  # the big blind acts first after preflop
  assert state.legal_actions() == [1, 2]  # no fold when not facing a bet
  for _ in range(4):  # bet 10, raises to 20, 30, 40: p0 put in 10 + 20
    state.apply_action(2)
  assert state.current_player() == 0
  assert state.legal_actions() == [0, 1]  # capped at 4 raises postflop
  state.apply_action(0)  # player 0 folds: loses 40 preflop + 30 on the flop
  assert state.returns() == [-70.0, 70.0]


def test_tensor_layout():
  state = pyspiel.load_game("nfsp_lhe").new_initial_state()
  hole0, hole1 = ("Ah", "Ad"), ("2c", "7d")
  for card in hole0 + hole1:
    state.apply_action(cards.card_id(card))
  state.apply_action(2)  # p1 raises: [p1][round 0][0 raises][raise]
  state.apply_action(1)  # p0 calls:  [p0][round 0][1 raise][call]
  for card in ("Ks", "Qs", "Js"):
    state.apply_action(cards.card_id(card))
  state.apply_action(1)  # p0 checks: [p0][round 1][0 raises][call]

  def betting(player, round_, raises, raise_):
    return 208 + ((player * 4 + round_) * 5 + raises) * 2 + raise_

  expected0 = sorted(
      [cards.card_id(c) for c in hole0] +
      [52 + cards.card_id(c) for c in ("Ks", "Qs", "Js")] +
      [betting(1, 0, 0, 1), betting(0, 0, 1, 0), betting(0, 1, 0, 0)])
  tensor0 = state.information_state_tensor(0)
  assert len(tensor0) == 288
  assert np.flatnonzero(tensor0).tolist() == expected0
  # Player 1 sees the same board and betting but its own hole cards.
  ones1 = set(np.flatnonzero(state.information_state_tensor(1)))
  assert ones1 == (set(expected0) - {cards.card_id(c) for c in hole0}) | {
      cards.card_id(c) for c in hole1}


def test_turn_and_river_blocks():
  state = pyspiel.load_game("nfsp_lhe").new_initial_state()
  for card in ("Ah", "Ad", "2c", "7d"):
    state.apply_action(cards.card_id(card))
  state.apply_action(1)
  state.apply_action(1)
  for board_card in ("Ks", "Qs", "Js", None, "Ts", None, "9s"):
    if board_card is None:
      state.apply_action(1)
      state.apply_action(1)
    else:
      state.apply_action(cards.card_id(board_card))
  ones = np.flatnonzero(state.information_state_tensor(0))
  assert 104 + cards.card_id("Ts") in ones
  assert 156 + cards.card_id("9s") in ones
  assert np.sum(state.information_state_tensor(0)[:208]) == 7


def _dealt_preflop(hole0=("Ah", "Ad"), hole1=("2c", "7d")):
  state = pyspiel.load_game("nfsp_lhe").new_initial_state()
  for card in hole0 + hole1:
    state.apply_action(cards.card_id(card))
  return state


def _refused(state, action, match):
  before = state.serialize()
  with pytest.raises(ValueError, match=match):
    state.apply_action(action)
  assert state.serialize() == before


def test_illegal_actions_are_refused_like_the_other_games():
  """poker.check_action, as in river_poker and nfsp_leduc: a ValueError
  naming the action and what is allowed, the state unchanged. Stricter than
  universal_poker, which deals a card twice without complaint."""
  state = pyspiel.load_game("nfsp_lhe").new_initial_state()
  state.apply_action(cards.card_id("Ah"))
  _refused(state, cards.card_id("Ah"), r"action 50 is not a chance outcome")
  state = _dealt_preflop()
  _refused(state, 5, r"action 5 is not a legal action of player 1 here; "
           r"allowed: \[0, 1, 2\]")
  _refused(state, 3, r"action 3 is not a legal action")  # fcpa's all-in
  for _ in range(3):
    state.apply_action(2)
  _refused(state, 2, r"action 2 is not a legal action of player 0 here; "
           r"allowed: \[0, 1\]")  # a fifth bet preflop
  state.apply_action(1)
  _refused(state, cards.card_id("7d"), r"action 21 is not a chance outcome")
  for card in ("Ks", "Qs", "Js"):
    state.apply_action(cards.card_id(card))
  state.apply_action(1)
  state.apply_action(1)
  _refused(state, cards.card_id("Ks"), r"action 47 is not a chance outcome")
  state.apply_action(cards.card_id("Ts"))
  state.apply_action(2)
  state.apply_action(0)
  assert state.is_terminal()
  for action in (0, 1, 2, cards.card_id("9s")):
    _refused(state, action, rf"action {action} applied to a terminal state")


def test_histories_fit_openspiels_bounds():
  """History().size() <= MaxHistoryLength(), chance nodes <=
  MaxChanceNodesInHistory() and player moves <= MaxGameLength(), over
  sampled games that never fold (all 9 cards dealt), raising often."""
  game = pyspiel.load_game("nfsp_lhe")
  rng = np.random.default_rng(0)
  most_moves = 0
  for _ in range(300):
    state = game.new_initial_state()
    while not state.is_terminal():
      if state.is_chance_node():
        state.apply_action(chance_outcome(state, rng))
      else:
        raise_ = 2 in state.legal_actions() and rng.random() < 0.7
        state.apply_action(2 if raise_ else 1)
    history = state.full_history()
    chance = sum(item.player == pyspiel.PlayerId.CHANCE for item in history)
    assert chance == 9 <= game.max_chance_nodes_in_history()
    assert len(history) <= game.max_history_length()
    assert len(history) - chance <= game.max_game_length()
    most_moves = max(most_moves, len(history) - chance)
  assert most_moves >= 20  # near the longest betting: 5 + 3 * 6 moves


def test_cards_are_read_back_from_tensors():
  """`cards_of_tensors` inverts the tensor's card part: on states reached
  by random play, in every betting round and for both players, it gives
  the state's own hole and board cards."""
  from nfsp_spiel.games import nfsp_lhe  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  rng = np.random.default_rng(3)
  tensors, expected = [], []
  for _ in range(40):
    state = game.new_initial_state()
    while not state.is_terminal():
      if state.is_chance_node():
        state.apply_action(chance_outcome(state, rng))
        continue
      player = state.current_player()
      tensors.append(state.information_state_tensor(player))
      expected.append((sorted(state.hole_cards(player)),
                       list(state.board_cards())))
      legal = [a for a in state.legal_actions() if a != poker.FOLD]
      state.apply_action(int(rng.choice(legal)))
  holes, boards, num_board = nfsp_lhe.cards_of_tensors(
      np.array(tensors + [np.zeros(len(tensors[0]))]))
  assert set(num_board[:-1]) == {0, 3, 4, 5}
  for row, (hole, board) in enumerate(expected):
    assert holes[row].tolist() == hole
    # The flop's cards in card order, then the turn and the river.
    shown = boards[row, :num_board[row]].tolist()
    assert sorted(shown[:3]) == sorted(board[:3]) and shown[3:] == board[3:]
  assert holes[-1].tolist() == [-1, -1] and num_board[-1] == 0
  bad = np.zeros((1, nfsp_lhe.TENSOR_SIZE))
  bad[0, [0, 1, 52]] = 1.0  # a board of one card
  with pytest.raises(ValueError, match="row 0 of tensors holds 2 hole and 1"):
    nfsp_lhe.cards_of_tensors(bad)
