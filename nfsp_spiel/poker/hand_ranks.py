"""Seven-card hand ranks and check-down equities, compiled with numba.

Poker's evaluation tools (a local best response, equity players, card
abstractions) rank millions of hands per decision: a flop check-down against
a full range is C(47, 2) = 1081 run-outs times ~1081 opposing holdings. The
package's showdowns use the PH evaluator (`cards.showdown_ranks`), a C
extension called once per hand from Python (~1 us with the call); this module
ranks inside compiled loops (~30 ns a hand) with the textbook bit-mask method,
and the tests check its order against eval7 and the PH evaluator on random
hands and on every five-card hand (7462 distinct values).

A rank is an int: category (0 high card ... 8 straight flush) in bits 20-23,
then up to five ranks (2 = 0 ... A = 12) of 4 bits each, most significant
first, so that a larger int is a better hand and equal hands tie.
Cards are ids `rank * 4 + suit` (cards.py).
"""

import numba
import numpy as np

_CATEGORY = 20


@numba.njit(cache=True)
def _straight_high(mask):
  """Highest rank of a straight in a 13-bit rank mask, or -1 (A-5 counts)."""
  for high in range(12, 3, -1):
    run = 0x1F << (high - 4)
    if mask & run == run:
      return high
  if mask & 0x100F == 0x100F:  # A, 5, 4, 3, 2
    return 3
  return -1


@numba.njit(cache=True)
def _popcount(bits):
  size = 0
  while bits:
    bits &= bits - 1
    size += 1
  return size


@numba.njit(cache=True)
def _top_ranks(mask, count):
  """The `count` highest ranks of a rank mask, packed 4 bits each."""
  value = 0
  taken = 0
  for rank in range(12, -1, -1):
    if taken == count:
      break
    if mask >> rank & 1:
      value = value << 4 | rank
      taken += 1
  return value << 4 * (5 - count)


@numba.njit(cache=True)
def _add_card(card, s0, s1, s2, s3, counts):
  """Adds a card to the per-suit rank masks and the per-rank counts (3 bits
  per rank); scalars, not arrays: an allocation would cost more than a rank."""
  bit = 1 << (card >> 2)
  suit = card & 3
  if suit == 0:
    s0 |= bit
  elif suit == 1:
    s1 |= bit
  elif suit == 2:
    s2 |= bit
  else:
    s3 |= bit
  return s0, s1, s2, s3, counts + (1 << 3 * (card >> 2))


@numba.njit(cache=True)
def rank_hand(hand, num_cards):
  """Rank of the best five-card hand in `hand[:num_cards]` (5 to 7 cards)."""
  s0 = s1 = s2 = s3 = counts = 0
  for i in range(num_cards):
    s0, s1, s2, s3, counts = _add_card(hand[i], s0, s1, s2, s3, counts)
  return _rank(s0, s1, s2, s3, counts)


@numba.njit(cache=True)
def _rank(s0, s1, s2, s3, counts):
  """The rank of the cards in the masks (see `_add_card`)."""
  flush = -1
  for bits in (s0, s1, s2, s3):
    if _popcount(bits) >= 5:
      flush = bits
  if flush >= 0:
    high = _straight_high(flush)
    if high >= 0:
      return 8 << _CATEGORY | high << 16
  return _rank_below_straight_flush(s0 | s1 | s2 | s3, counts, flush)


@numba.njit(cache=True)
def _rank_below_straight_flush(ranks, counts, flush):
  """`_rank` for cards with no straight flush: their rank mask, per-rank
  counts and the flush suit's rank mask (-1 for none)."""
  quads = trips = pair = second_pair = -1
  for rank in range(12, -1, -1):
    count = counts >> 3 * rank & 7
    if count == 4:
      quads = rank
    elif count == 3:
      if trips < 0:
        trips = rank
      elif pair < 0:  # a second set plays as the full house's pair
        pair = rank
    elif count == 2:
      if pair < 0:
        pair = rank
      elif second_pair < 0:
        second_pair = rank
  if quads >= 0:
    return 7 << _CATEGORY | quads << 16 | _top_ranks(
        ranks & ~(1 << quads), 1) >> 4
  if trips >= 0 and pair >= 0:
    return 6 << _CATEGORY | trips << 16 | pair << 12
  if flush >= 0:
    return 5 << _CATEGORY | _top_ranks(flush, 5)
  high = _straight_high(ranks)
  if high >= 0:
    return 4 << _CATEGORY | high << 16
  if trips >= 0:
    return 3 << _CATEGORY | trips << 16 | _top_ranks(
        ranks & ~(1 << trips), 2) >> 4
  if pair >= 0 and second_pair >= 0:
    rest = ranks & ~(1 << pair) & ~(1 << second_pair)
    return 2 << _CATEGORY | pair << 16 | second_pair << 12 | _top_ranks(
        rest, 1) >> 8
  if pair >= 0:
    return 1 << _CATEGORY | pair << 16 | _top_ranks(
        ranks & ~(1 << pair), 3) >> 4
  return _top_ranks(ranks, 5)


@numba.njit(cache=True)
def showdown_sign(hole0, hole1, board):
  """+1 if hole0 with the 5-card board beats hole1, -1 if it loses, 0 on a
  tie; the board's masks are built once, nothing is allocated."""
  s0 = s1 = s2 = s3 = counts = 0
  for card in board:
    s0, s1, s2, s3, counts = _add_card(card, s0, s1, s2, s3, counts)
  t0, t1, t2, t3, c = _add_card(hole0[0], s0, s1, s2, s3, counts)
  rank0 = _rank(*_add_card(hole0[1], t0, t1, t2, t3, c))
  t0, t1, t2, t3, c = _add_card(hole1[0], s0, s1, s2, s3, counts)
  rank1 = _rank(*_add_card(hole1[1], t0, t1, t2, t3, c))
  return (rank0 > rank1) - (rank0 < rank1)


@numba.njit(cache=True)
def showdown_ranks(deal, num_players, ranks):
  """`ranks[p]`: the 7-card rank (higher wins) of player p's hole cards,
  deal[2p:2p + 2], with the board deal[2n:2n + 5] (n players)."""
  s0 = s1 = s2 = s3 = counts = 0
  for card in deal[2 * num_players:2 * num_players + 5]:
    s0, s1, s2, s3, counts = _add_card(card, s0, s1, s2, s3, counts)
  for p in range(num_players):
    t0, t1, t2, t3, c = _add_card(deal[2 * p], s0, s1, s2, s3, counts)
    ranks[p] = _rank(*_add_card(deal[2 * p + 1], t0, t1, t2, t3, c))


@numba.njit(cache=True)
def rank_hands(hands):
  """Ranks of the rows of an (N, k) card array, k in 5..7."""
  out = np.empty(len(hands), np.int64)
  for i in range(len(hands)):
    out[i] = rank_hand(hands[i], hands.shape[1])
  return out


@numba.njit(cache=True)
def _runout_scores(hole, board, holdings, runout, scores, suitless):
  """Adds, for one complete board, 1 (win) / 0.5 (tie) per holding that does
  not clash with the run-out. The board's masks are built once, and a
  holding that cannot make a flush (fewer cards of the board's three-or-more
  suit than a flush needs, or no such suit) takes its rank from `suitless`
  ((13, 13) scratch: the rank of each pair of card ranks with the board, no
  flush counted; 91 ranks instead of one per holding)."""
  s0 = s1 = s2 = s3 = counts = 0
  for card in board:
    s0, s1, s2, s3, counts = _add_card(card, s0, s1, s2, s3, counts)
  for card in runout:
    s0, s1, s2, s3, counts = _add_card(card, s0, s1, s2, s3, counts)
  t0, t1, t2, t3, c = _add_card(hole[0], s0, s1, s2, s3, counts)
  own = _rank(*_add_card(hole[1], t0, t1, t2, t3, c))
  flush_suit, needed = -1, 0  # five board cards have one such suit at most
  for suit, bits in enumerate((s0, s1, s2, s3)):
    if _popcount(bits) >= 3:
      flush_suit, needed = suit, 5 - _popcount(bits)
  ranks = s0 | s1 | s2 | s3
  for high in range(13):
    for low in range(high + 1):
      both = counts + (1 << 3 * high) + (1 << 3 * low)
      if both >> 3 * high & 7 <= 4 and both >> 3 * low & 7 <= 4:
        suitless[high, low] = _rank_below_straight_flush(
            ranks | 1 << high | 1 << low, both, -1)
  for h in range(len(holdings)):
    a, b = holdings[h, 0], holdings[h, 1]
    clash = False
    for card in runout:
      if card == a or card == b:
        clash = True
    if clash:
      continue
    if flush_suit >= 0 and ((a & 3) == flush_suit) + (
        (b & 3) == flush_suit) >= needed:
      t0, t1, t2, t3, c = _add_card(a, s0, s1, s2, s3, counts)
      other = _rank(*_add_card(b, t0, t1, t2, t3, c))
    else:
      other = suitless[max(a >> 2, b >> 2), min(a >> 2, b >> 2)]
    scores[h] += 1.0 if own > other else 0.5 if own == other else 0.0


@numba.njit(cache=True, nogil=True)  # LBR's threads run it side by side
def _enumerate_runouts(hole, board, holdings, deck, missing):
  scores = np.zeros(len(holdings))
  runout = np.empty(missing, np.int64)
  suitless = np.empty((13, 13), np.int64)
  n = len(deck)
  if missing == 0:
    _runout_scores(hole, board, holdings, runout, scores, suitless)
  elif missing == 1:
    for i in range(n):
      runout[0] = deck[i]
      _runout_scores(hole, board, holdings, runout, scores, suitless)
  else:  # missing == 2
    for i in range(n):
      for j in range(i + 1, n):
        runout[0], runout[1] = deck[i], deck[j]
        _runout_scores(hole, board, holdings, runout, scores, suitless)
  return scores


@numba.njit(cache=True, nogil=True)
def _sample_runouts(hole, board, holdings, deck, missing, samples, seed):
  np.random.seed(seed)
  scores = np.zeros(len(holdings))
  counts = np.zeros(len(holdings))
  suitless = np.empty((13, 13), np.int64)
  cards = deck.copy()
  for _ in range(samples):
    for i in range(missing):  # a partial Fisher-Yates shuffle
      j = np.random.randint(i, len(cards))
      cards[i], cards[j] = cards[j], cards[i]
    runout = cards[:missing]
    _runout_scores(hole, board, holdings, runout, scores, suitless)
    for h in range(len(holdings)):  # the holdings it did not clash with
      clash = False
      for card in runout:
        if card == holdings[h, 0] or card == holdings[h, 1]:
          clash = True
      if not clash:
        counts[h] += 1
  return scores, counts


def checkdown_scores(hole, board, holdings, samples=0, seed=0):
  """`hole`'s check-down result against each opposing holding: the mean over
  the remaining board cards (dealt uniformly from the deck less `hole`,
  `board` and that holding) of 1 for a win, 0.5 for a tie, 0 for a loss.

  Holdings that share a card with `hole` or `board` get NaN. Exact by
  enumeration when at most two board cards are missing (flop, turn, river);
  with more (preflop) or when `samples` > 0, a mean over `samples` random
  run-outs from a generator seeded with `seed` (each holding counts only the
  run-outs it does not clash with).
  """
  hole = np.asarray(hole, np.int64)
  board = np.asarray(board, np.int64)
  holdings = np.asarray(holdings, np.int64).reshape(-1, 2)
  dead = np.zeros(52, bool)
  dead[hole] = True
  dead[board] = True
  blocked = dead[holdings].any(axis=1)
  live = holdings[~blocked]
  deck = np.flatnonzero(~dead).astype(np.int64)
  missing = 5 - len(board)
  out = np.full(len(holdings), np.nan)
  if samples == 0 and missing <= 2:
    # Every holding is compatible with C(n - 2, missing) of the run-outs.
    compatible = {0: 1, 1: len(deck) - 2,
                  2: (len(deck) - 2) * (len(deck) - 3) // 2}[missing]
    out[~blocked] = _enumerate_runouts(hole, board, live, deck,
                                       missing) / compatible
    return out
  if samples <= 0:
    raise ValueError(f"samples={samples}: {missing} board cards are missing; "
                     "enumeration covers at most 2, so give samples > 0")
  scores, counts = _sample_runouts(hole, board, live, deck, missing, samples,
                                   seed)
  with np.errstate(invalid="ignore"):
    out[~blocked] = scores / counts
  return out
