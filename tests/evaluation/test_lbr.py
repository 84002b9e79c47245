"""Local best response and the hold'em baselines: checks that can fail.

River poker has one betting round on a complete board, so LBR's check-down
equity is exact there and LBR can be compared with the exact best response;
in Limit Hold'em its decisions are compared with a slow reference that
rebuilds the range from scratch by replaying every holding and ranks with
eval7.
"""

import eval7
import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib

import nfsp_spiel  # noqa: F401  (registers the games)
from nfsp_spiel import evaluation
from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import lbr
from nfsp_spiel.games import cards
from nfsp_spiel.poker import hand_ranks
from nfsp_spiel.games import poker

SMALL_RIVER = {"board": "AhKdQc9s9h", "min_rank": 9}  # 171 holdings


class StrengthPolicy(policy_lib.Policy):
  """A card-dependent river policy: bets its strong hands, folds weak ones
  to a bet, mixes in between (no batched path: LBR replays each holding)."""

  def __init__(self, game):
    super().__init__(game, [0, 1])
    order = np.argsort(np.argsort(game.strength))
    self._percentile = order / (len(order) - 1)

  def action_probabilities(self, state, player_id=None):
    player = state.current_player() if player_id is None else player_id
    game = self.game
    hole = state.hole_cards(player)
    strength = self._percentile[game.hand_index[min(hole), max(hole)]]
    legal = state.legal_actions(player)
    if poker.FOLD in legal:  # facing a bet
      if strength < 0.4:
        return {poker.FOLD: 0.8, poker.CALL: 0.2}
      return {poker.CALL: 1.0}
    if poker.RAISE in legal and strength > 0.6:
      return {poker.RAISE: 0.7, poker.CALL: 0.3}
    return {poker.CALL: 1.0}


@pytest.mark.parametrize("params,make,exact", [
    ({}, baselines.AlwaysCall, True),
    ({}, baselines.AlwaysRaise, True),
    ({}, policy_lib.UniformRandomPolicy, True),
    # Slow: the batched cases stay.
    pytest.param(SMALL_RIVER, StrengthPolicy, False, marks=pytest.mark.slow),
])
def test_river_lbr_against_the_exact_best_response(params, make, exact):
  game = pyspiel.load_game("river_poker", params)
  policy = make(game)
  # The strength policy has no batched path (1000 hands: ~10 s).
  result = lbr.local_best_response(game, policy, seed=1,
                                   num_hands=4000 if exact else 1000)
  best = evaluation.best_response_values(game, policy).best_response.mean()
  # LBR is one strategy, the best response the best one: never above it.
  assert result.mean <= best + 4 * result.stderr
  if exact:  # LBR's one-step model is exact against these: it is the BR.
    assert abs(result.mean - best) <= 4 * result.stderr
  else:
    assert result.mean > 0.5 * best


def test_lbr_beats_always_call_and_always_raise_in_lhe():
  game = pyspiel.load_game("nfsp_lhe")
  for make in (baselines.AlwaysCall, baselines.AlwaysRaise):
    result = lbr.local_best_response(game, make(game), num_hands=100)
    assert result.mbb_per_hand - 3 * result.mbb_stderr > 500, make.__name__


def test_lbr_plays_preflop_on_sampled_boards():
  """check_to_round=0: preflop utilities from sampled boards. With aces
  against a player who always calls, raising is worth more than calling
  (85% equity: every chip added is +EV), and the run goes through."""
  game = pyspiel.load_game("nfsp_lhe")
  policy = baselines.AlwaysCall(game)
  state = game.new_initial_state()
  for card in cards.parse_cards("2c7dAhAd"):  # LBR is player 1 (small blind)
    state.apply_action(card)
  holdings = cards.holdings(range(52))
  weights = (~np.isin(holdings, cards.parse_cards("AhAd")).any(1)).astype(
      float)
  scores = hand_ranks.checkdown_scores(cards.parse_cards("AhAd"), [],
                                       holdings, samples=2000, seed=0)
  utilities = lbr.lbr_utilities(state, 1, weights, scores,
                                lbr._Opponent(game, policy, holdings))  # pylint: disable=protected-access
  wp = np.nanmean(scores)
  assert utilities[poker.CALL] == pytest.approx(wp * 15 - (1 - wp) * 5)
  assert utilities[poker.RAISE] > utilities[poker.CALL] > utilities[
      poker.FOLD] == 0.0
  result = lbr.local_best_response(game, policy, num_hands=20,
                                   check_to_round=0, preflop_runouts=200)
  assert result.mbb_per_hand > 0


def test_always_fold_loses_its_blinds():
  game = pyspiel.load_game("nfsp_lhe")
  match = evaluation.head_to_head(game, baselines.AlwaysFold(game),
                                  baselines.AlwaysRaise(game), num_deals=50)
  assert match.mbb_per_hand == -750.0 and match.mbb_stderr == 0.0
  assert lbr.local_best_response(
      game, baselines.AlwaysFold(game), num_hands=20).mbb_per_hand == 750.0


# Slow: the baselines' matches: tests/evaluation/test_matches.py.
@pytest.mark.slow
def test_equity_threshold_player():
  game = pyspiel.load_game("nfsp_lhe")
  player = baselines.EquityThreshold(game)
  state = game.new_initial_state()
  for card in cards.parse_cards("2c7dAhAd"):  # player 1 (small blind): aces
    state.apply_action(card)
  assert player.action_probabilities(state) == {poker.RAISE: 1.0}
  assert abs(baselines.equity_against_uniform(
      cards.parse_cards("AhAd"), []) - 0.852) < 0.02
  state.apply_action(poker.RAISE)
  # Seven-deuce (35% against a random holding) has the pot odds to call
  # 10 chips into 30 (25%), but not a river bet on a board it missed.
  assert player.action_probabilities(state) == {poker.CALL: 1.0}
  for action in [poker.CALL, *cards.parse_cards("KsQd9c"), poker.CALL,
                 poker.RAISE, poker.CALL, cards.card_id("Jh"), poker.CALL,
                 poker.RAISE, poker.CALL, cards.card_id("5s"), poker.CALL,
                 poker.RAISE]:
    state.apply_action(action)
  assert state.current_player() == 0
  assert player.action_probabilities(state) == {poker.FOLD: 1.0}
  match = evaluation.head_to_head(game, player, baselines.AlwaysCall(game),
                                  num_deals=100, seed=3)
  assert match.mbb_per_hand - 3 * match.mbb_stderr > 0


# --- LBR's decisions against a slow reference (Limit Hold'em) ---------------

def _card_policy(state):
  """Stochastic and card-dependent, cheap to ask for every holding."""
  hole = state.hole_cards(state.current_player())
  high, low = sorted((c // 4 for c in hole), reverse=True)
  legal = state.legal_actions()
  if high == low or high >= 10:
    strong = {poker.RAISE: 0.8, poker.CALL: 0.2}
    return strong if poker.RAISE in legal else {poker.CALL: 1.0}
  if poker.FOLD in legal and high < 6:
    return {poker.FOLD: 0.7, poker.CALL: 0.3}
  if poker.RAISE in legal:
    return {poker.CALL: 0.6, poker.RAISE: 0.4}
  return {poker.CALL: 1.0}


def _replay(game, history, player, holding):
  history = list(history)
  start, stop = poker.HOLE_DEAL[player]
  history[start:stop] = holding
  state = game.new_initial_state()
  weight = 1.0
  for action in history:
    if state.current_player() == player:
      weight *= _card_policy(state).get(action, 0.0)
    state.apply_action(action)
  return state, weight


def _eval7_share(hole, holding, board):
  deck = [c for c in range(52) if c not in hole + holding + board]
  shares = []
  for runout in ([[]] if len(board) == 5 else [[c] for c in deck]):
    mine = eval7.evaluate([eval7.Card(cards.card_str(c))
                           for c in hole + board + runout])
    theirs = eval7.evaluate([eval7.Card(cards.card_str(c))
                             for c in holding + board + runout])
    shares.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
  return np.mean(shares)


def _reference_utilities(game, state, me):
  """LBR's utilities from scratch: range by replaying every holding, equity
  by eval7, chips from the states."""
  other = 1 - me
  hole, board = state.hole_cards(me), state.board_cards()
  weights, shares, folds = [], [], []
  for holding in cards.holdings(range(52)).tolist():
    if set(holding) & set(hole + board):
      continue
    replayed, weight = _replay(game, state.history(), other, holding)
    if weight == 0:
      continue
    weights.append(weight)
    shares.append(_eval7_share(hole, holding, board))
    if poker.RAISE in state.legal_actions():
      folds.append(_card_policy(replayed.child(poker.RAISE)).get(poker.FOLD,
                                                                  0.0))
  weights, shares = np.array(weights), np.array(shares)
  wp = weights @ shares / weights.sum()
  spent = state.contributions()
  pot, asked = sum(spent), spent[other] - spent[me]
  expected = {poker.CALL: wp * pot - (1 - wp) * asked}
  if poker.FOLD in state.legal_actions():
    expected[poker.FOLD] = 0.0
  if folds:
    folds = np.array(folds)
    fp = weights @ folds / weights.sum()
    calling = weights * (1 - folds)
    wp_called = calling @ shares / calling.sum()
    added = state.child(poker.RAISE).contributions()[me] - spent[me]
    bet = added - asked
    expected[poker.RAISE] = fp * pot + (1 - fp) * (
        wp_called * (pot + added + bet) - added)
  return expected


def test_lbr_decisions_match_a_slow_reference(monkeypatch):
  game = pyspiel.load_game("nfsp_lhe")
  recorded = []
  utilities = lbr.lbr_utilities

  def record(state, me, *args):
    values = utilities(state, me, *args)
    recorded.append((state.clone(), me, values))
    return values

  monkeypatch.setattr(lbr, "lbr_utilities", record)
  lbr.local_best_response(game, _card_policy, num_hands=6, seed=5,
                          check_to_round=2)
  assert len(recorded) >= 4
  for state, me, values in recorded[:6]:
    expected = _reference_utilities(game, state, me)
    assert values.keys() == expected.keys()
    for action, value in expected.items():
      assert values[action] == pytest.approx(value, abs=1e-9), (
          str(state), action)


@pytest.mark.parametrize("kwargs,match", [
    ({"num_hands": 7}, "num_hands=7: an even number"),
    ({"num_hands": 0}, "num_hands=0"),
    ({"check_to_round": 4}, "check_to_round=4: a betting round"),
    ({"check_to_round": 0, "preflop_runouts": 0}, "preflop_runouts=0"),
])
def test_lbr_bad_input(kwargs, match):
  game = pyspiel.load_game("nfsp_lhe")
  with pytest.raises(ValueError, match=match):
    lbr.local_best_response(game, baselines.AlwaysCall(game), **kwargs)


def test_lbr_refuses_other_games_and_policies():
  with pytest.raises(ValueError, match="hold'em games.*not leduc_poker"):
    lbr.local_best_response(pyspiel.load_game("leduc_poker"),
                            lambda state: {1: 1.0}, num_hands=2)
  river = pyspiel.load_game("river_poker")
  with pytest.raises(ValueError, match="policy is for river_poker"):
    lbr.local_best_response(pyspiel.load_game("nfsp_lhe"),
                            baselines.AlwaysCall(river), num_hands=2)
  with pytest.raises(ValueError, match="raise_at=1.5"):
    baselines.EquityThreshold(river, raise_at=1.5)


def test_network_range_queries_match_one_state_per_holding():
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  config = nfsp.NFSPConfig.lhe(hidden_layers=(32,), replay_buffer_capacity=100,
                               reservoir_buffer_capacity=100)
  network = nfsp.NFSPPolicy(game, nfsp.agents_for(game, config))
  state = game.new_initial_state()
  for action in [*cards.parse_cards("2c7dAhAd"), poker.RAISE, poker.CALL,
                 *cards.parse_cards("KsQd9c"), poker.RAISE]:
    state.apply_action(action)
  player = state.current_player()
  everyone = cards.holdings(range(52))
  free = everyone[~np.isin(everyone, cards.parse_cards("2c7dKsQd9c")).any(1)]
  holdings = free[np.random.default_rng(0).choice(len(free), 25)]
  batched = network.holding_probabilities(state, player, holdings)
  for holding, row in zip(holdings, batched):
    probs = network.action_probabilities(state.with_holding(player, holding),
                                         player)
    np.testing.assert_allclose(row[list(probs)], list(probs.values()),
                               rtol=1e-5, atol=1e-7)
  # The same hands whatever the threads (each deal has its own generators).
  one, two = (lbr.local_best_response(game, network, num_hands=4, workers=w)
              for w in (1, 2))
  assert one._replace(hands_per_second=0) == two._replace(hands_per_second=0)


@pytest.mark.parametrize("hidden", [(), (7,), (9, 5)])
def test_one_hot_rows_forward_equals_the_dense_rows(hidden):
  """networks.OneHotRows (LBR's range queries: one shared tensor plus each
  holding's two card columns) gives the dense rows' outputs and last hidden
  layer, up to float rounding, for any depth."""
  from nfsp_spiel.nfsp import networks  # pylint: disable=g-import-not-at-top
  rng = np.random.default_rng(3)
  sizes = (20, *hidden, 3)
  weights = []
  for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
    weights += [rng.standard_normal((fan_in, fan_out)).astype(np.float32),
                rng.standard_normal(fan_out).astype(np.float32)]
  shared = np.zeros(20, np.float32)
  shared[[12, 15, 19]] = 1.0
  hot = np.array([[0, 1], [2, 7], [5, 11], [3, 4]])
  rows = networks.OneHotRows(shared, hot)
  dense = rows.dense()
  assert dense.shape == (4, 20) and (dense.sum(axis=1) == 5).all()
  assert (dense[np.arange(4)[:, None], hot] == 1).all()
  np.testing.assert_allclose(networks.forward(weights, rows),
                             networks.forward(weights, dense), rtol=1e-5,
                             atol=1e-5)
  np.testing.assert_allclose(networks.last_hidden(weights, rows),
                             networks.last_hidden(weights, dense), rtol=1e-5,
                             atol=1e-5)


@pytest.mark.parametrize("kind", ["best_response", "greedy_average"])
def test_range_queries_of_every_policy_kind(kind):
  """The factored range queries answer for the best response (DQN's greedy
  Q) and argmax Pi as one state per holding does."""
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  config = nfsp.NFSPConfig.lhe(hidden_layers=(16,), replay_buffer_capacity=100,
                               reservoir_buffer_capacity=100)
  network = nfsp.NFSPPolicy(game, nfsp.agents_for(game, config), kind)
  state = game.new_initial_state()
  for action in [*cards.parse_cards("2c7dAhAd"), poker.RAISE, poker.CALL,
                 *cards.parse_cards("KsQd9c")]:
    state.apply_action(action)
  player = state.current_player()
  holdings = cards.holdings(range(52))[:40]
  holdings = holdings[~np.isin(holdings, cards.parse_cards(
      "2c7dKsQd9c")).any(1)]
  batched = network.holding_probabilities(state, player, holdings)
  for holding, row in zip(holdings, batched):
    probs = network.action_probabilities(state.with_holding(player, holding),
                                         player)
    np.testing.assert_allclose(row[list(probs)], list(probs.values()),
                               atol=1e-7)
