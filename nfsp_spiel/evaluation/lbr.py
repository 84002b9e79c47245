"""Local best response (LBR) for heads-up hold'em: a lower bound on a
strategy's exploitability where a full best response is out of reach.

Lisy & Bowling, "Equilibrium Approximation Quality of Current No-Limit Poker
Bots" (2017), Alg. 1, in its limit form (as PokerRL plays limit games). LBR
plays one seat against `policy`; it tracks the opponent's range, the
probability of each holding the opponent may have, from the chance law of the
deal (uniform over the holdings that do not share LBR's cards in `nfsp_lhe`;
the game's beliefs in `river_poker`) and, by Bayes' rule, the policy's
probability of every action it took, asked for all holdings in one batched
call (`range_probabilities`). At each of its decisions LBR assumes both
players check or call to the showdown from then on, and picks the largest of

  u(fold)  = 0 (only when facing a bet)
  u(call)  = wp * pot - (1 - wp) * asked
  u(raise) = fp * pot + (1 - fp) * (wp' * (pot + added + bet) - added)

where pot is the chips in the pot, asked the chips to call, wp the check-down
equity against the range, fp the range's probability of folding to LBR's
raise (a second batched call on the state after the raise), wp' the equity
against the range that does not fold, added = asked + bet what LBR puts in
to raise and bet the raise size. Alg. 1 reuses wp after a raise; we take it
against the range that calls, as PokerRL does, and count the chips exactly
(PokerRL's raise term counts `asked` twice when facing a bet).

Equity is exact by enumeration of the missing board cards on the flop, turn
and river (`hand_ranks.checkdown_scores`, once per round: equity is linear in
the range); preflop, where that is C(48, 5) boards, LBR checks or calls until
`check_to_round` (default 1, the flop: PokerRL's `lbr_check_to_round`,
recommended there for four-round games), or with `check_to_round=0` uses
`preflop_runouts` sampled boards.
"""

import collections
import concurrent.futures
import os
import threading
import time

import numpy as np
from open_spiel.python import policy as policy_lib
import threadpoolctl
from tqdm import tqdm

from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import matches
from nfsp_spiel.evaluation import policies
from nfsp_spiel.games import cards
from nfsp_spiel.poker import hand_ranks
from nfsp_spiel.games import poker

LbrResult = collections.namedtuple(
    "LbrResult",
    "mbb_per_hand mbb_stderr mean stderr per_seat num_hands hands_per_second")
LbrResult.__doc__ = """LBR's mean winnings per hand against the policy.

mbb_per_hand / mbb_stderr: in milli-big-blinds, standard error over deals
(each deal is played with LBR in both seats); mean / stderr: the same in
chips; per_seat: LBR's mean in chips as player 0 and as player 1.
"""


def range_probabilities(policy, state, player, holdings):
  """(H, num actions): `policy`'s action probabilities at `state` for
  `player` holding each row of `holdings`, everything else equal.

  One batched call where the policy offers `holding_probabilities` (NFSP's
  networks), one call for all where it ignores the private cards (the fixed
  baselines), else one `action_probabilities` per holding on a replayed copy
  of the state (`with_holding`): exact for any OpenSpiel policy, but slow.
  """
  if hasattr(policy, "holding_probabilities"):
    return np.asarray(policy.holding_probabilities(state, player, holdings))
  num_actions = state.num_distinct_actions()
  legal = state.legal_actions(player)

  def dense(probs, describe):
    return policies.checked_probabilities(probs, legal, num_actions, describe)

  if getattr(policy, "ignores_private_cards", False) or isinstance(
      policy, policy_lib.UniformRandomPolicy):
    row = dense(policy.action_probabilities(state, player),
                lambda: state.information_state_string(player))
    return np.tile(row, (len(holdings), 1))
  rows = np.empty((len(holdings), num_actions))
  for i, holding in enumerate(holdings):
    other = state.with_holding(player, holding)
    rows[i] = dense(policy.action_probabilities(other, player),
                    lambda s=other: s.information_state_string(player))
  return rows


def _prior(game, state, lbr, holdings):
  """The deal's law of the opponent's holding given LBR's."""
  own = state.hole_cards(lbr)
  free = ~np.isin(holdings, own).any(axis=1)
  if game.get_type().short_name == "river_poker":
    index = game.hand_index[min(own), max(own)]
    return game.beliefs[1 - lbr] * game.compatible[index] * free
  return free.astype(float)


def lbr_utilities(state, lbr, weights, scores, opponent):
  """LBR's utilities {action: u} at `state` (LBR `lbr` to act), given the
  opponent's range `weights` over `opponent.holdings` and LBR's check-down
  result against each holding (`scores`, NaN where a holding clashes);
  `opponent` answers range queries (`_Opponent`)."""
  weights = np.where(np.isnan(scores), 0.0, weights)
  scores = np.nan_to_num(scores)
  wp = weights @ scores / weights.sum()
  spent = state.contributions()
  pot, asked = sum(spent), spent[1 - lbr] - spent[lbr]
  legal = state.legal_actions()
  utilities = {poker.CALL: wp * pot - (1 - wp) * asked}
  if poker.FOLD in legal:
    utilities[poker.FOLD] = 0.0
  if poker.RAISE in legal:
    after = state.child(poker.RAISE)
    added = after.contributions()[lbr] - spent[lbr]
    bet = added - asked
    live = weights > 0
    fold = np.zeros(len(weights))
    fold[live] = opponent.probabilities(after, 1 - lbr, live)[:, poker.FOLD]
    fp = weights @ fold / weights.sum()
    calling = weights * (1 - fold)
    wp_called = calling @ scores / calling.sum() if calling.sum() > 0 else 0.0
    utilities[poker.RAISE] = fp * pot + (1 - fp) * (
        wp_called * (pot + added + bet) - added)
  return utilities


def _best(utilities):
  """The largest utility; ties prefer call, then raise, then fold."""
  return max((poker.CALL, poker.RAISE, poker.FOLD),
             key=lambda a: (utilities.get(a, -np.inf), a == poker.CALL,
                            a == poker.RAISE))


class _Opponent:
  """The policy's range answers (`range_probabilities`), remembered where
  the public state recurs across deals: preflop in Limit Hold'em, and every
  state of River poker, whose board is fixed. Only for the batched and
  card-blind policies, which can answer for every holding at once."""

  def __init__(self, game, policy, holdings):
    self.policy, self.holdings = policy, holdings
    self._fixed_board = game.get_type().short_name == "river_poker"
    self._cacheable = hasattr(policy, "holding_probabilities") or getattr(
        policy, "ignores_private_cards", False)
    self._cache = {}
    self._last = None

  def probabilities(self, state, player, live):
    """(live rows, actions) for the holdings where `live` is True."""
    if self._cacheable and (self._fixed_board or not state.board_cards()):
      start = poker.HOLE_DEAL[1][1]  # the betting after the hole cards
      key = (player, tuple(state.history()[start:]))
      if key not in self._cache:
        self._cache[key] = range_probabilities(self.policy, state, player,
                                               self.holdings)
      return self._cache[key][live]
    # When LBR raises, the opponent's next question is the one LBR asked to
    # value the raise (same state, same range): asked once.
    key = (player, tuple(state.history()), live.tobytes())
    if self._last is None or self._last[0] != key:
      self._last = key, range_probabilities(self.policy, state, player,
                                            self.holdings[live])
    return self._last[1]


def _play_hand(game, opponent, lbr, deal_seed, options):
  """One hand with LBR in seat `lbr`; returns LBR's winnings in chips."""
  check_to_round, preflop_runouts = options
  holdings = opponent.holdings
  chance_rng = np.random.default_rng([*deal_seed, 1])
  # Not [*deal_seed, 0] for seat 0: numpy pads seed sequences with zeros, so
  # that would replay the cards' stream as the opponent's action draws.
  action_rng = np.random.default_rng([*deal_seed, 2, lbr])
  state = game.new_initial_state()
  weights = scores = None
  scored_round = None
  while not state.is_terminal():
    if state.is_chance_node():
      state.apply_action(matches.chance_action(state, chance_rng.random()))
      if weights is None and len(state.hole_cards(lbr)) == 2:
        weights = _prior(game, state, lbr, holdings)
      if weights is not None:  # board cards the opponent cannot hold
        weights = weights * ~np.isin(holdings, state.board_cards()).any(axis=1)
      continue
    player = state.current_player()
    if player != lbr:
      live = weights > 0
      probs = opponent.probabilities(state, player, live)
      own = np.flatnonzero(
          (holdings[live] == sorted(state.hole_cards(player))).all(axis=1))
      row = probs[own[0]]
      action = int(action_rng.choice(len(row), p=row / row.sum()))
      weights = weights.copy()
      weights[live] *= probs[:, action]
      state.apply_action(action)
      continue
    if state.betting_round() < check_to_round:
      state.apply_action(poker.CALL)
      continue
    if scored_round != state.betting_round():
      board = state.board_cards()
      scores = hand_ranks.checkdown_scores(
          state.hole_cards(lbr), board, holdings,
          samples=preflop_runouts if not board else 0,
          seed=deal_seed[-1] % 2**31)
      scored_round = state.betting_round()
    state.apply_action(_best(lbr_utilities(state, lbr, weights, scores,
                                           opponent)))
  return state.returns()[lbr]


def local_best_response(game, policy, num_hands=10000, seed=0,
                        check_to_round=1, preflop_runouts=1000, workers=None,
                        progress=None):
  """LBR's winnings against `policy` (anything `as_policy` takes, or an
  object with `holding_probabilities`) over `num_hands` hands, half in each
  seat on the same deals, played by `workers` threads (default: one per
  core); an `LbrResult`, the same for any number of workers (each deal has
  its own seeded generators). See the module docstring."""
  baselines.check_holdem(game, "local_best_response")
  if isinstance(num_hands, bool) or not isinstance(
      num_hands, (int, np.integer)) or num_hands < 2 or num_hands % 2:
    raise ValueError(f"num_hands={num_hands!r}: an even number of hands, at "
                     "least 2 (each deal is played in both seats)")
  if check_to_round not in (0, 1, 2, 3):
    raise ValueError(f"check_to_round={check_to_round!r}: a betting round "
                     "0 (preflop) to 3 (river)")
  if check_to_round == 0 and preflop_runouts < 1:
    raise ValueError(f"preflop_runouts={preflop_runouts}: LBR plays preflop "
                     "(check_to_round=0), so it needs sampled boards (>= 1)")
  workers = os.cpu_count() if workers is None else workers
  if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
    raise ValueError(f"workers={workers!r}: a positive number of threads")
  if not hasattr(policy, "holding_probabilities"):
    policy = policies.as_policy(game, policy)
  holdings = (game.hands if game.get_type().short_name == "river_poker" else
              cards.holdings(range(cards.NUM_CARDS)))
  deals = num_hands // 2
  local = threading.local()  # each thread's range-query cache

  def play(deal):
    if not hasattr(local, "opponent"):
      local.opponent = _Opponent(game, policy, holdings)
    return [_play_hand(game, local.opponent, lbr, [seed, 1, deal],
                       (check_to_round, preflop_runouts)) for lbr in (0, 1)]

  show = num_hands >= 1000 if progress is None else progress
  started = time.perf_counter()
  # Threads share the cores through numpy's matrix products and the numba
  # equity kernels, which release the GIL; one BLAS thread each then keeps
  # the cores busy without oversubscribing them.
  pool = concurrent.futures.ThreadPoolExecutor(workers)
  with threadpoolctl.threadpool_limits(1 if workers > 1 else None,
                                       user_api="blas"):
    try:
      winnings = np.array(list(tqdm(pool.map(play, range(deals)),
                                    total=deals, disable=not show,
                                    unit="deal")))
    finally:
      # An exception (a Ctrl-C that abandons the evaluation) must not wait
      # for the deals not yet begun.
      pool.shutdown(cancel_futures=True)
  seconds = time.perf_counter() - started
  per_deal = winnings.mean(axis=1)
  mean = float(per_deal.mean())
  stderr = (float(per_deal.std(ddof=1) / np.sqrt(deals)) if deals > 1 else
            float("nan"))
  unit = matches.big_blind(game)
  return LbrResult(
      mbb_per_hand=1000 * mean / unit, mbb_stderr=1000 * stderr / unit,
      mean=mean, stderr=stderr, per_seat=tuple(winnings.mean(axis=0)),
      num_hands=num_hands, hands_per_second=num_hands / seconds)
