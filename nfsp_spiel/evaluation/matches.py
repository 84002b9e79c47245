"""Head-to-head matches between policies, agents or bots, with duplicate deals.

Each deal is played twice with the seats swapped and the same chance outcomes
replayed (duplicate poker), so the luck of the cards cancels: the score of a
deal is `first`'s mean return over its two games, and the standard error is
taken over deals. Chance outcomes are replayed from one uniform number per
chance node (inverse CDF), which deals the same cards in both games of a deal
however the betting goes; each game's policy decisions draw their uniforms
from a stream of their own (deal, seating), so that a game plays the same
however many games are played beside it. Results are in game units and, for
the poker games, in milli-big-blinds per hand (mbb/h).

On `nfsp_lhe`, when both sides are policies that answer many decisions at
once (`batched_matches.BatchedPolicy`: the SmooCT-like greedy profiles, the
fixed baselines, NFSP's policies), the same match is played with all deals
at once (`batched_matches`), tens of times faster; so are three-player
matches on `nfsp_lhe3` (`batched_three_player`).
"""

import collections

import numpy as np
import pyspiel
from tqdm import tqdm

from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.evaluation import batched_three_player
from nfsp_spiel.evaluation import policies
from nfsp_spiel.poker.stakes import big_blind

MatchResult = collections.namedtuple(
    "MatchResult", "mean stderr mbb_per_hand mbb_stderr num_deals")
MatchResult.__doc__ = """`first`'s mean return per game and its standard error.

mbb_per_hand / mbb_stderr: the same in milli-big-blinds (None if the game has
no big blind); num_deals: deals played (twice each when duplicate).
"""

class _Player:
  """One side of a match: OpenSpiel bots (one per seat) or a policy.

  `act(state, seat, rng)` returns the action for the seat being played.
  """

  def __init__(self, game, source):
    per_seat = (dict(enumerate(source)) if isinstance(source, (list, tuple))
                else source if isinstance(source, dict) else None)
    if isinstance(source, pyspiel.Bot) or (per_seat and any(
        isinstance(b, pyspiel.Bot) for b in per_seat.values())):
      if not per_seat or sorted(per_seat) != [0, 1] or not all(
          isinstance(b, pyspiel.Bot) for b in per_seat.values()):
        raise ValueError("OpenSpiel bots are made for one seat: pass "
                         "{0: bot_for_seat_0, 1: bot_for_seat_1}")
      self.bots, self.policy = per_seat, None
    else:
      self.bots, self.policy = None, policies.as_policy(game, source)

  def restart(self):
    for bot in (self.bots or {}).values():
      bot.restart()

  def act(self, state, seat, rng):
    if self.bots:
      return self.bots[seat].step(state)
    probs = self.policy.action_probabilities(state, seat)
    # Checked as `exploitability` checks: an illegal action or probabilities
    # that do not sum to 1 are the policy's bug, not something to repair.
    policies.checked_probabilities(
        probs, state.legal_actions(seat), state.num_distinct_actions(),
        lambda: f"seat {seat}'s state {state.information_state_string(seat)!r}")
    actions = sorted(probs)  # action order: `batched_matches.sample`'s rule
    weights = np.array([[probs[a] for a in actions]], np.float64)
    return actions[int(batched_matches.sample(weights,
                                              np.array([rng.random()]))[0])]

  def inform(self, state, seat, player, action):
    if self.bots:
      self.bots[seat].inform_action(state, player, action)


def chance_action(state, uniform):
  """The chance outcome at `state` whose CDF interval holds `uniform` in
  [0, 1): one number deals the same card however the betting went."""
  outcomes = state.chance_outcomes()
  cumulative = np.cumsum([p for _, p in outcomes])
  index = min(int(np.searchsorted(cumulative, uniform * cumulative[-1],
                                  side="right")), len(outcomes) - 1)
  return outcomes[index][0]


def play_game(game, seats, chance_rng, rng):
  """Plays one game; `seats[p]` plays player p. Returns the returns.

  Chance draws one uniform number from `chance_rng` per chance node, so a
  generator with the same seed replays the same deal.
  """
  for player in seats:
    player.restart()
  state = game.new_initial_state()
  while not state.is_terminal():
    if state.is_chance_node():
      action = chance_action(state, chance_rng.random())
    else:
      action = seats[state.current_player()].act(
          state, state.current_player(), rng)
    for seat, player in enumerate(seats):
      if seat != state.current_player():
        player.inform(state, seat, state.current_player(), action)
    state.apply_action(action)
  return state.returns()


def head_to_head(game, first, second, num_deals=1000, seed=0, duplicate=True,
                 progress=None, batched=None):
  """Plays `first` against `second` on `num_deals` deals of a 2-player game.

  `first` and `second` are policies, {player: agent} dicts, callables, or
  {seat: pyspiel.Bot} dicts (bots are made for one seat). With `duplicate`,
  each deal is played with both seatings. `progress` shows a progress bar
  (default: for 10k deals or more; not for batched matches). `batched`:
  play all deals at once (`batched_matches`, the same games); by default
  wherever it can (`nfsp_lhe`, duplicate, both sides `BatchedPolicy`s).
  """
  if game.num_players() != 2:
    raise ValueError(f"head_to_head needs a two-player game, got {game}")
  if num_deals < 1:
    raise ValueError(f"num_deals={num_deals}: a match needs at least one deal")
  if _plays_batched(batched, duplicate, game, "nfsp_lhe", first, second,
                    "batched matches play duplicate nfsp_lhe deals"):
    scores = batched_matches.play(first, second, num_deals, seed)
  else:
    scores = _play_one_by_one(game, first, second, num_deals, seed,
                              duplicate, progress)
  return _result(game, scores)


def _plays_batched(batched, duplicate, game, batched_game, first, second,
                   what):
  """Whether a match is played batched: where it can be, unless `batched`
  is False; `batched=True` where it cannot be is an error."""
  can_batch = (duplicate and game.get_type().short_name == batched_game and
               batched_matches.plays_batched(first) and
               batched_matches.plays_batched(second))
  if batched and not can_batch:
    raise ValueError(f"batched=True: {what} between policies with "
                     f"batch_action_probabilities (got {game}, duplicate="
                     f"{duplicate}, {type(first).__name__} and "
                     f"{type(second).__name__})")
  return can_batch and batched is not False


def three_player_match(game, player, opponent, num_deals=1000, seed=0,
                       progress=None, batched=None):
  """Plays `player` against two copies of `opponent` (policies) in a
  three-player game: each deal three times, `player` in each seat, the
  same cards every time (thesis table 3.3's "2x" match-ups). `player`'s
  mean return per deal, in game units and mbb/h, with its standard error
  over deals. `batched`: play all deals at once (`batched_three_player`,
  the same games); by default wherever it can (`nfsp_lhe3`, both sides
  answering `batch_action_probabilities`)."""
  if game.num_players() != 3:
    raise ValueError(f"three_player_match needs a three-player game, got "
                     f"{game}")
  if num_deals < 1:
    raise ValueError(f"num_deals={num_deals}: a match needs at least one deal")
  me, them = _Player(game, player), _Player(game, opponent)
  if me.bots or them.bots:
    raise ValueError("three_player_match plays policies, not OpenSpiel bots")
  if _plays_batched(batched, True, game, "nfsp_lhe3", player, opponent,
                    "batched three-player matches play nfsp_lhe3 deals"):
    return _result(game, batched_three_player.play(player, opponent,
                                                   num_deals, seed))
  scores = np.zeros(num_deals)
  show = num_deals >= 10000 if progress is None else progress
  for deal in tqdm(range(num_deals), disable=not show, unit="deal"):
    for seat in range(3):
      seats = [me if p == seat else them for p in range(3)]
      scores[deal] += play_game(
          game, seats, np.random.default_rng([seed, 1, deal]),
          np.random.default_rng([seed, 2, deal, seat]))[seat] / 3
  return _result(game, scores)


def _result(game, scores):
  """The `MatchResult` of per-deal scores."""
  num_deals = len(scores)
  mean = float(scores.mean())
  stderr = float(scores.std(ddof=1) / np.sqrt(num_deals)) if num_deals > 1 else (
      float("nan"))
  unit = big_blind(game)
  return MatchResult(
      mean=mean, stderr=stderr,
      mbb_per_hand=None if unit is None else 1000 * mean / unit,
      mbb_stderr=None if unit is None else 1000 * stderr / unit,
      num_deals=num_deals)


def _play_one_by_one(game, first, second, num_deals, seed, duplicate,
                     progress):
  """`first`'s score per deal, one OpenSpiel game after the other."""
  players = (_Player(game, first), _Player(game, second))
  scores = np.zeros(num_deals)
  show = num_deals >= 10000 if progress is None else progress
  for deal in tqdm(range(num_deals), disable=not show, unit="deal"):
    deal_seed = [seed, 1, deal]
    score = play_game(game, players, np.random.default_rng(deal_seed),
                      np.random.default_rng([seed, 2, deal, 0]))[0]
    if duplicate:
      swapped = play_game(game, players[::-1],
                          np.random.default_rng(deal_seed),
                          np.random.default_rng([seed, 2, deal, 1]))[1]
      score = (score + swapped) / 2
    scores[deal] = score
  return scores
