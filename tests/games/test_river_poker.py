"""river_poker: sizes, deal distributions, showdowns, payoffs and OpenSpiel tools."""

import itertools

import eval7
import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability as py_exploitability

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.games import cards
from nfsp_spiel.games import river_poker

SMALL = "river_poker(min_rank=11,board=JcQdKhAsJd)"  # 11 cards left, 55 holdings


def _play(game, hand0, hand1, betting):
  """Deals the two holdings (lower card first) and plays `betting`."""
  state = game.new_initial_state()
  for hand in (hand0, hand1):
    for card in sorted(cards.parse_cards(hand)):
      assert card in dict(state.chance_outcomes())
      state.apply_action(card)
  for action in betting:
    state.apply_action(action)
  return state


def _decision_points(game):
  """Betting sequences at which each player acts, from one deal."""
  points = {0: set(), 1: set()}
  state = game.new_initial_state()
  while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
  stack = [state]
  while stack:
    state = stack.pop()
    if not state.is_terminal():
      points[state.current_player()].add(tuple(state.history()[4:]))
      stack.extend(state.child(a) for a in state.legal_actions())
  return points


def test_full_game_sizes():
  game = pyspiel.load_game("river_poker")
  assert len(game.hands) == 1081
  assert np.count_nonzero(game.holding_probabilities()) == 1081
  # Player 1 can hold any of the 990 holdings disjoint from player 0's.
  assert np.count_nonzero(game.holding_probabilities(hand0=0)) == 990
  # Chance nodes deal single cards: at most 47 outcomes.
  state = game.new_initial_state()
  sizes = []
  while state.is_chance_node():
    sizes.append(len(state.chance_outcomes()))
    state.apply_action(state.chance_outcomes()[-1][0])
  assert sizes == [46, 1, 44, 1]  # 47 cards; the top card ends every holding
  assert game.max_chance_outcomes() == 52
  # 2 decision points per player, each met with any of the 1081 holdings.
  points = _decision_points(game)
  assert {p: len(s) for p, s in points.items()} == {0: 2, 1: 2}


def test_info_state_count_matches_openspiel_enumeration():
  game = pyspiel.load_game(SMALL)
  tabular = policy_lib.TabularPolicy(game)  # OpenSpiel walks every state
  assert len(game.hands) == 55
  assert len(tabular.state_lookup) == 2 * 2 * 55


def _brute_force_beliefs(hands, range_text, weight):
  combos = cards.parse_range(range_text)
  in_range = np.array([(a, b) in combos for a, b in hands], float)
  return weight * in_range / in_range.sum() + (1 - weight) / len(hands)


@pytest.mark.parametrize("beliefs", ["uniform", "defined"])
def test_deal_distribution_matches_brute_force(beliefs):
  game = pyspiel.load_game(f"river_poker(beliefs={beliefs})")
  deck = [c for c in range(52) if c not in cards.parse_cards("KhTc7d5sJh")]
  hands = list(itertools.combinations(deck, 2))
  if beliefs == "uniform":
    b0 = b1 = np.ones(len(hands))
  else:
    b0 = _brute_force_beliefs(hands, river_poker.DEFINED_RANGES[0], 0.99)
    b1 = _brute_force_beliefs(hands, river_poker.DEFINED_RANGES[1], 0.99)
  joint = np.array([[b0[i] * b1[j] * (not set(h) & set(g))
                     for j, g in enumerate(hands)] for i, h in enumerate(hands)])
  joint /= joint.sum()
  assert [tuple(h) for h in game.hands] == hands
  deal0 = game.holding_probabilities()
  np.testing.assert_allclose(deal0, joint.sum(1), rtol=1e-12, atol=1e-15)
  for hand0 in (0, 500, 1080):
    np.testing.assert_allclose(game.holding_probabilities(hand0),
                               joint[hand0] / joint[hand0].sum(),
                               rtol=1e-12, atol=1e-15)
  # The card-by-card chance nodes multiply out to the joint law.
  rng = np.random.default_rng(0)
  for _ in range(20):
    state, prob = game.new_initial_state(), 1.0
    while state.is_chance_node():
      outcomes = dict(state.chance_outcomes())
      card = int(rng.choice(list(outcomes)))
      prob *= outcomes[card]
      state.apply_action(card)
    cards0 = tuple(state.history()[:2])
    cards1 = tuple(state.history()[2:4])
    assert prob == pytest.approx(
        joint[hands.index(cards0), hands.index(cards1)], rel=1e-9)
  if beliefs == "uniform":
    np.testing.assert_allclose(deal0, 1 / 1081, rtol=1e-12)
  else:
    # The thesis' ranges: 14% and 32% of holdings, held with probability ~0.99.
    in0 = _brute_force_beliefs(hands, river_poker.DEFINED_RANGES[0], 1.0) > 0
    in1 = _brute_force_beliefs(hands, river_poker.DEFINED_RANGES[1], 1.0) > 0
    assert (in0.sum(), in1.sum()) == (152, 346)
    assert deal0[in0].sum() == pytest.approx(0.99131, abs=1e-5)
    assert joint.sum(0)[in1].sum() == pytest.approx(0.99310, abs=1e-5)


@pytest.mark.parametrize("board", ["KhTc7d5sJh", "2c3c4c5c6c", "AsAdAhKcKd",
                                   "9h9d4s4c2h", "QhJhTh2s3d"])
def test_showdown_order_matches_eval7(board):
  board_cards = cards.parse_cards(board)
  deck = [c for c in range(52) if c not in board_cards]
  hands = cards.holdings(deck)
  ours = cards.showdown_ranks(hands, board_cards)
  board7 = [eval7.Card(cards.card_str(c)) for c in board_cards]
  theirs = np.array([eval7.evaluate([eval7.Card(cards.card_str(a)),
                                     eval7.Card(cards.card_str(b))] + board7)
                     for a, b in hands])
  np.testing.assert_array_equal(np.sign(ours[:, None] - ours[None, :]),
                                np.sign(theirs[:, None] - theirs[None, :]))


@pytest.mark.parametrize("hand0,hand1,betting,returns", [
    ("AcQd", "KcKd", [1, 1], [3, -3]),      # broadway straight beats a set
    ("AcQd", "KcKd", [2, 1], [4, -4]),      # bet, call
    ("AcQd", "KcKd", [2, 0], [3, -3]),      # bet, fold
    ("KcKd", "AcQd", [1, 2, 0], [-3, 3]),   # check, bet, fold
    ("KcKd", "AcQd", [1, 2, 1], [-4, 4]),   # check, bet, call
    ("9c8c", "AcQd", [1, 1], [-3, 3]),      # jack-high straight loses
    ("2c3d", "2d3c", [2, 1], [0, 0]),       # both play the board: split
    ("Ks7s", "Kd2c", [1, 1], [3, -3]),      # two pair beats a pair of kings
])
def test_payoffs(hand0, hand1, betting, returns):
  state = _play(pyspiel.load_game("river_poker"), hand0, hand1, betting)
  assert state.is_terminal()
  assert state.returns() == returns


def test_raises_pot_and_bet_parameters():
  game = pyspiel.load_game("river_poker(max_bets=3,pot=10,bet=2)")
  state = _play(game, "AcQd", "KcKd", [2, 2, 2])
  assert state.legal_actions() == [0, 1]  # third raise was the last
  state.apply_action(1)
  assert state.returns() == [11.0, -11.0]  # pot/2 + 3 bets of 2
  assert (game.min_utility(), game.max_utility()) == (-11.0, 11.0)


def test_tensor_and_string():
  game = pyspiel.load_game("river_poker")
  state = _play(game, "AcQd", "KcKd", [1, 2])  # check, bet: p0 to act
  ones = np.flatnonzero(state.information_state_tensor(0)).tolist()
  # Hole cards Qd = 10*4+1 = 41, Ac = 48; then [p0][0 raises][call] = 52 + 0
  # and [p1][0 raises][raise] = 52 + ((1*2)+0)*2 + 1 = 57.
  assert ones == [41, 48, 52, 57]
  assert len(state.information_state_tensor(0)) == 60
  assert (state.information_state_string(0) ==
          "[Observer: 0][Private: QdAc][Board: KhTc7d5sJh][Pot: 7][Betting: cr]")


# Slow: tests/games/test_games.py's OpenSpiel checks stay.
@pytest.mark.slow
def test_openspiel_cpp_and_python_tools_agree():
  """C++ CFR and exploitability run on the Python game and match the Python tools."""
  game = pyspiel.load_game(SMALL)
  solver = pyspiel.CFRSolver(game)
  for _ in range(10):
    solver.evaluate_and_update_policy()
  cpp_policy = solver.average_policy()
  tabular = policy_lib.tabular_policy_from_callable(
      game, lambda s: dict(cpp_policy.get_state_policy(s)))
  cpp_value = pyspiel.exploitability(game, cpp_policy)
  py_value = py_exploitability.exploitability(game, tabular)
  assert cpp_value == pytest.approx(py_value, abs=1e-9)
  uniform = policy_lib.UniformRandomPolicy(game)
  assert py_value < py_exploitability.exploitability(game, uniform) / 4


# (as typed in a game string, as given in a dict)
RANGES = [
    ('"22+"', "22+"), ('"88-77"', "88-77"), ('"99"', "99"), ("'22'", "22"),
    ('"22-44"', "22-44"), ('"KK-22"', "KK-22"), ("AKs", "AKs"),
    ("T9o+", "T9o+"), ("A2s+", "A2s+"), ("AhKd", "AhKd"),
    ("22+ AKs T9o+", "22+,AKs;T9o+"), ("88-77 99", "88-77, 99"),
    ("QQ-JJ AQs-A5s J9o+", "QQ-JJ,AQs-A5s,J9o+"),
    (" 22+", "22+"),  # a space makes it a string to OpenSpiel's parser
    (river_poker.DEFINED_RANGES[1].replace(",", " "),
     river_poker.DEFINED_RANGES[1]),
]


@pytest.mark.parametrize("typed,given", RANGES)
def test_every_range_loads_from_a_game_string_and_round_trips(typed, given):
  """OpenSpiel's parser reads '99' as an int and fails on '22+' and '88-77':
  such ranges are quoted, by the user in a game string and by str(game). The
  same range typed, given in a dict and reloaded from str(game) (and through
  OpenSpiel's serialization) is one game with one deal law."""
  from_string = pyspiel.load_game(f"river_poker(range0={typed},range1={typed})")
  from_dict = pyspiel.load_game("river_poker", {"range0": given,
                                                 "range1": given})
  again = pyspiel.load_game(str(from_dict))
  state = from_dict.new_initial_state()
  state.apply_action(state.chance_outcomes()[0][0])
  serialized, _ = pyspiel.deserialize_game_and_state(
      pyspiel.serialize_game_and_state(from_dict, state))
  for game in (from_string, again, serialized):
    assert str(game) == str(from_dict)
    for p in (0, 1):
      np.testing.assert_array_equal(game.beliefs[p], from_dict.beliefs[p])
  combos = cards.parse_range(given)
  inside = [i for i, h in enumerate(from_dict.hands)
            if (min(h), max(h)) in combos]
  for weights in from_dict.beliefs:  # the range was read: range_weight 0.99
    assert weights[inside].sum() > weights.sum() * 0.99


@pytest.mark.parametrize("game_string,match", [
    ("river_poker(range0=22+)", "game_parameters.cc"),
    ("river_poker(range0=88-77)", "game_parameters.cc"),
    ("river_poker(range0=99)", "Wrong type for parameter range0"),
])
def test_unquoted_numeric_ranges_fail_in_openspiels_parser(game_string, match):
  """Why the quotes are needed: OpenSpiel refuses these before the game sees
  them (if it ever stops, the module docstring's advice can go)."""
  with pytest.raises(pyspiel.SpielError, match=match):
    pyspiel.load_game(game_string)


def test_exploitability_of_a_game_given_by_dict():
  """The evaluation reloads games by their string: a quoted range must."""
  game = pyspiel.load_game("river_poker", {"range0": "22+", "range1": "99",
                                           "min_rank": 9,
                                           "board": "9cTdJhQsKd"})
  assert evaluation.exploitability(
      game, policy_lib.UniformRandomPolicy(game)) > 0


@pytest.mark.parametrize("name", [SMALL, "river_poker(max_bets=3,min_rank=11,"
                                  "board=JcQdKhAsJd)", "nfsp_leduc"])
def test_histories_fit_openspiels_bounds(name):
  """Over every terminal history: History().size() <= MaxHistoryLength(), the
  chance nodes <= MaxChanceNodesInHistory() and the player moves <=
  MaxGameLength(). The bounds are exact: each is reached."""
  game = pyspiel.load_game(name)
  longest = most_chance = most_moves = 0
  stack = [game.new_initial_state()]
  while stack:
    state = stack.pop()
    if state.is_terminal():
      history = state.full_history()
      chance = sum(item.player == pyspiel.PlayerId.CHANCE for item in history)
      longest = max(longest, len(history))
      most_chance = max(most_chance, chance)
      most_moves = max(most_moves, len(history) - chance)
      continue
    actions = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
               else state.legal_actions())
    stack.extend(state.child(a) for a in actions)
  assert longest == game.max_history_length()
  assert most_chance == game.max_chance_nodes_in_history()
  assert most_moves == game.max_game_length()


def test_max_bets_up_to_what_a_cpp_int_holds():
  """OpenSpiel keeps sizes in C++ ints: the tensor, 52 + 4 * (max_bets + 1)
  entries, fits up to max_bets=536870897 (2147483644 entries), and the
  history bound does not overflow there; one more is refused."""
  game = pyspiel.load_game("river_poker(max_bets=536870897)")
  assert game.max_history_length() == 536870897 + 2 + 4
  with pytest.raises(ValueError, match=(
      r"max_bets=536870898: expected an integer from 0 to 536870897 "
      r"\(beyond it the information-state tensor's size overflows")):
    pyspiel.load_game("river_poker", {"max_bets": 536870898})
