"""The E[HS^2] card abstraction of heads-up Limit Texas Hold'em.

Heinrich's thesis (2017), sec. 3.5.3 (its Limit Hold'em experiments, Table
3.1), buckets a player's cards on each round by the expected hand strength
squared of Zinkevich et al. (2007), "A New Algorithm for Generating
Equilibria in Massive Zero-Sum Games":

* On the river, the hand strength HS of (hole cards, 5-card board) is the
  probability of beating a uniformly random opposing holding drawn from the 45
  cards left, a tie counting as half a win.
* On an earlier round, E[HS^2] is the mean of the river's HS^2 over every
  run-out of the board (uniform over the cards left); on the river it is HS^2.
* Values are cut on an equidistant grid over [0, 1] into 169 / 1000 / 500 /
  200 buckets (preflop / flop / turn / river): bucket = min(floor(value * n),
  n - 1). The thesis discretises E[HS^2] on every round, so the river bucket
  is that of HS^2 (same order as HS, finer among strong hands). Preflop
  values span only [0.20, 0.74], so the 169 hand classes fill 57 of the 169
  grid buckets (suited and unsuited hands of the same ranks still apart).
* Imperfect recall: a round's bucket depends on that round's cards only.
  Preflop tells suited from unsuited hands (the thesis' footnote on the bug of
  its competition program).

Hands are indexed up to suit isomorphism with the idea of Waugh (2013), "A
Fast and Optimal Hand Isomorphism Algorithm": the cards of each suit form a
rank set per round (hole, board); suits are sorted by their (hole, board)
card counts, suits with equal counts are an unordered multiset, and a
multiset-colex code ranks it. The index is dense, 0 <= index < INDEX_SIZES[k]
for k = 0, 3, 4, 5 board cards (169, 1,286,792, 13,960,050, 123,156,254), so
the bucket tables are flat arrays.

The tables are exact and built on one core in ~2 minutes (river and preflop
50 s, turn 55 s, flop 16 s; peak memory ~0.7 GB; 147 MiB on disk, 118 of it
the river's uint8 table; `examples/build_ehs2_tables.py`), from the package's
compiled hand ranks (`hand_ranks`), board by board rather than hand by hand:

* River and preflop: for every 5-card board up to suit isomorphism (134,459),
  the 1081 holdings of the 47 cards left are ranked once and sorted; a
  holding's wins and ties against the others, less those sharing one of its
  cards, come from per-card counts (inclusion-exclusion) in O(1) each. The
  river bucket of each holding is written at its index, and its HS^2 summed
  into its preflop class, weighted by the number of boards isomorphic to the
  board; the preflop value is that weighted mean, over all 5-card boards.
* Turn: for every 4-card board up to isomorphism (16,432), the same river
  scores for each of its 48 river cards, HS^2 averaged per holding.
* Flop: the mean over the 47 turn cards of the turn values (E over turn of E
  over river is E over both).

No river value table is kept: the turn pass recomputes river scores (cheaper
than 46 index computations and cache-missing look-ups per turn hand), so the
build holds the river buckets and the turn values (float64), not river HS.

`tables()` loads the bucket tables from a cache directory, building and
writing them on first use (`default_cache_dir()`: $NFSP_SPIEL_CACHE/ehs2 or
~/.cache/nfsp_spiel/ehs2), each file written atomically (a temporary file,
then os.replace) and its SHA-256 stored in SHA256SUMS, written last and
verified on every load. A mismatch raises an error naming the file rather than
rebuilding: it means a disk or writer problem worth seeing, and deleting the
directory rebuilds. `bucket` buckets one hand from Python; `buckets_of_deal` a
deal from compiled code (index computations and table look-ups only, ~400k
deals/s); `hand_value` computes one hand's exact value without the tables (the
tests check it against eval7).
"""

import collections
import hashlib
import itertools
import logging
import math
import os
import pathlib
import tempfile
import time

import numba
import numpy as np

from nfsp_spiel.poker import hand_ranks

BOARD_CARDS = (0, 3, 4, 5)  # per round: preflop, flop, turn, river
NUM_BUCKETS = (169, 1000, 500, 200)  # Table 3.1, two-player LHE
ROUND_NAMES = ("preflop", "flop", "turn", "river")
_DTYPES = (np.uint8, np.uint16, np.uint16, np.uint8)  # the smallest that fit
_HOLDINGS = 1081  # C(47, 2): holdings left on a river board
_OPPONENTS = 990  # C(45, 2): opposing holdings of one of them
_CACHE_ENV = "NFSP_SPIEL_CACHE"
_CHECKSUMS = "SHA256SUMS"  # the format of `sha256sum`, so `sha256sum -c` works

Tables = collections.namedtuple("Tables", ROUND_NAMES)


def _index_spec(sizes):
  """The suit configurations of hands with `sizes` cards per round.

  A suit's key packs its card counts (8 * first round + second round); a
  configuration is the 4 keys sorted in decreasing order, packed 6 bits each.
  Returns the sorted configuration codes and each one's first index (a
  cumulative sum of their sizes, with the total last).
  """
  codes = set()
  split = list(itertools.product(range(max(sizes) + 1), repeat=4))
  for first in (c for c in split if sum(c) == sizes[0]):
    for second in (c for c in split if sum(c) == sizes[1]):
      keys = sorted((8 * a + b for a, b in zip(first, second)), reverse=True)
      codes.add(keys[0] << 18 | keys[1] << 12 | keys[2] << 6 | keys[3])
  codes = np.array(sorted(codes), np.int64)
  offsets = [0]
  for code in codes:
    keys = [code >> 6 * (3 - i) & 63 for i in range(4)]
    size = 1
    for key, group in itertools.groupby(keys):
      m = len(list(group))
      suit_size = math.comb(13, key >> 3) * math.comb(13 - (key >> 3), key & 7)
      size *= math.comb(suit_size + m - 1, m)  # multisets of m suit indices
    offsets.append(offsets[-1] + size)
  return codes, np.array(offsets, np.int64)


# Index kinds: hands with 0, 3, 4, 5 board cards (hole cards, board), then
# boards alone with 4, 5 cards (the canonical boards the build loops over).
_KIND_SIZES = ((2, 0), (2, 3), (2, 4), (2, 5), (4, 0), (5, 0))
_BOARD4, _BOARD5 = 4, 5
_SPECS = [_index_spec(sizes) for sizes in _KIND_SIZES]
_NUM_CODES = np.array([len(codes) for codes, _ in _SPECS], np.int64)
# Padded to one 2-D array each: numba freezes global arrays as constants.
_CODES = np.full((len(_SPECS), _NUM_CODES.max()), 1 << 30, np.int64)
_OFFSETS = np.zeros((len(_SPECS), _NUM_CODES.max() + 1), np.int64)
for _kind, (_codes, _offsets) in enumerate(_SPECS):
  _CODES[_kind, :len(_codes)] = _codes
  _OFFSETS[_kind, :len(_offsets)] = _offsets
  _OFFSETS[_kind, len(_offsets):] = _offsets[-1]
_ROUND_SIZES = np.array(_KIND_SIZES, np.int64)
INDEX_SIZES = tuple(int(_OFFSETS[kind, -1]) for kind in range(4))
_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), np.int64)
_BINOMIAL = np.array([[math.comb(n, k) for k in range(14)] for n in range(14)],
                     np.int64)  # the index's inner loop: a look-up, no loop


@numba.njit(cache=True)
def _choose(n, k):
  if k < 0 or k > n:
    return 0
  value = 1
  for i in range(k):  # a product of i + 1 consecutive ints divides by (i + 1)!
    value = value * (n - i) // (i + 1)
  return value


@numba.njit(cache=True)
def _suit_size(key):
  """Rank-set pairs of a suit with the key's counts (first, second round)."""
  first, second = key >> 3, key & 7
  return _choose(13, first) * _choose(13 - first, second)


@numba.njit(cache=True)
def _colex(mask, used):
  """Colex rank of the ranks in `mask` among the ranks not in `used`."""
  index = position = taken = 0
  for rank in range(13):
    if mask >> rank == 0:
      break
    if used >> rank & 1:
      continue
    if mask >> rank & 1:
      taken += 1
      index += _BINOMIAL[position, taken]
    position += 1
  return index


@numba.njit(cache=True)
def _uncolex(index, count, used):
  """The rank mask of colex rank `index` (`count` ranks not in `used`)."""
  free = np.empty(13, np.int64)
  num_free = 0
  for rank in range(13):
    if not used >> rank & 1:
      free[num_free] = rank
      num_free += 1
  mask = 0
  position = num_free - 1
  for taken in range(count, 0, -1):
    while _choose(position, taken) > index:
      position -= 1
    index -= _choose(position, taken)
    mask |= 1 << free[position]
    position -= 1
  return mask


@numba.njit(cache=True)
def _index(first, second, kind, work):
  """Dense isomorphism index of a hand dealt in two rounds, the `first` and
  `second` round's cards, for an index kind (see _KIND_SIZES). `work`: 16
  int64s of scratch, the rounds' rank masks per suit, then the suits' keys,
  then their indices (a simulation passes its own: an allocation per call
  would cost a fifth of the call)."""
  work[:] = 0
  for card in first:
    work[card & 3] |= 1 << (card >> 2)
  for card in second:
    work[4 + (card & 3)] |= 1 << (card >> 2)
  keys, suit_indices = work[8:12], work[12:]
  for suit in range(4):
    count = hand_ranks._popcount(work[suit])
    keys[suit] = count << 3 | hand_ranks._popcount(work[4 + suit])
    suit_indices[suit] = _colex(work[suit], 0) + _BINOMIAL[13, count] * (
        _colex(work[4 + suit], work[suit]))
  # Sort suits by (key, suit index), decreasing: the keys give the
  # configuration, and suits with equal keys come in decreasing index order,
  # as the multiset code below wants.
  for i in range(1, 4):
    j = i
    while j > 0 and (keys[j] > keys[j - 1] or (
        keys[j] == keys[j - 1] and suit_indices[j] > suit_indices[j - 1])):
      keys[j], keys[j - 1] = keys[j - 1], keys[j]
      suit_indices[j], suit_indices[j - 1] = (suit_indices[j - 1],
                                              suit_indices[j])
      j -= 1
  code = keys[0] << 18 | keys[1] << 12 | keys[2] << 6 | keys[3]
  config = np.searchsorted(_CODES[kind, :_NUM_CODES[kind]], code)
  index = 0
  start = 0
  while start < 4:
    m = 1
    while start + m < 4 and keys[start + m] == keys[start]:
      m += 1
    # Multiset a_0 >= ... >= a_{m-1} -> set b_t = a_t + m - 1 - t, colex.
    code_in_group = 0
    for t in range(m):
      code_in_group += _choose(suit_indices[start + t] + m - 1 - t, m - t)
    index = index * _choose(_suit_size(keys[start]) + m - 1, m) + (
        code_in_group)
    start += m
  return _OFFSETS[kind, config] + index


@numba.njit(cache=True)
def _unindex(index, kind):
  """A representative of `index`'s hands: the first round's cards, then the
  second's; suit 0 is the first suit in the configuration order."""
  config = np.searchsorted(_OFFSETS[kind, :_NUM_CODES[kind] + 1], index,
                           side="right") - 1
  code = _CODES[kind, config]
  keys = np.empty(4, np.int64)
  for i in range(4):
    keys[i] = code >> 6 * (3 - i) & 63
  starts = np.empty(4, np.int64)
  num_groups = 0
  start = 0
  while start < 4:
    starts[num_groups] = start
    num_groups += 1
    m = 1
    while start + m < 4 and keys[start + m] == keys[start]:
      m += 1
    start += m
  rest = index - _OFFSETS[kind, config]
  suit_indices = np.empty(4, np.int64)
  for g in range(num_groups - 1, -1, -1):  # the last group is the lowest digit
    start = starts[g]
    m = (starts[g + 1] if g + 1 < num_groups else 4) - start
    size = _suit_size(keys[start])
    radix = _choose(size + m - 1, m)
    digit = rest % radix
    rest //= radix
    for t in range(m):
      low, high = m - 1 - t, size + m - 1 - t  # b_t is in [low, high]
      while low < high:  # the largest b with C(b, m - t) <= digit
        mid = (low + high + 1) // 2
        if _choose(mid, m - t) <= digit:
          low = mid
        else:
          high = mid - 1
      digit -= _choose(low, m - t)
      suit_indices[start + t] = low - (m - 1 - t)
  cards = np.empty(_ROUND_SIZES[kind, 0] + _ROUND_SIZES[kind, 1], np.int64)
  filled = np.array([0, _ROUND_SIZES[kind, 0]])
  for suit in range(4):
    count = keys[suit] >> 3
    radix = _choose(13, count)
    first = _uncolex(suit_indices[suit] % radix, count, 0)
    second = _uncolex(suit_indices[suit] // radix, keys[suit] & 7, first)
    for r, mask in enumerate((first, second)):
      for rank in range(13):
        if mask >> rank & 1:
          cards[filled[r]] = rank * 4 + suit
          filled[r] += 1
  return cards


@numba.njit(cache=True)
def _hand_kind(num_board):
  return 0 if num_board == 0 else num_board - 2


@numba.njit(cache=True)
def hand_index(hole, board):
  """Dense index of (2 hole cards, 0/3/4/5 board cards) up to suit
  isomorphism, in [0, INDEX_SIZES[round]); order within hole and board does
  not matter."""
  return _index(hole, board, _hand_kind(len(board)), np.empty(16, np.int64))


@numba.njit(cache=True)
def hand_index_in(work, hole, board):
  """`hand_index` with 16 int64s of scratch `work` of the caller's."""
  return _index(hole, board, _hand_kind(len(board)), work)


@numba.njit(cache=True)
def preflop_buckets_by_cards(preflop):
  """The preflop table as a 52 x 52 array over (card, card): a simulation's
  preflop bucket without the index."""
  out = np.zeros((52, 52), preflop.dtype)
  hole = np.empty(2, np.int64)
  for first in range(52):
    for second in range(52):
      if first != second:
        hole[0], hole[1] = first, second
        out[first, second] = preflop[hand_index(hole, hole[:0])]
  return out


@numba.njit(cache=True)
def hand_from_index(index, num_board):
  """A hand with index `index`: 2 hole cards then `num_board` board cards."""
  return _unindex(index, _hand_kind(num_board))


@numba.njit(cache=True)
def _orbit_size(board):
  """How many boards are isomorphic to `board` (24 / its stabiliser)."""
  mask = 0
  for card in board:
    mask |= 1 << card
  fixed = 0
  for p in range(24):
    image = 0
    for card in board:
      image |= 1 << (card & ~3 | _PERMUTATIONS[p, card & 3])
    fixed += image == mask
  return 24 // fixed


@numba.njit(cache=True)
def _deck(board):
  dead = np.zeros(52, np.bool_)
  for card in board:
    dead[card] = True
  return np.flatnonzero(~dead)


@numba.njit(cache=True)
def _river_scores(board, holdings, scores):
  """Fills `holdings` (1081 x 2) with the pairs of the 47 cards off a 5-card
  `board`, and `scores` with each one's 2 * wins + ties against the 990
  holdings that share no card with it (so HS = score / 1980)."""
  deck = _deck(board)
  s0 = s1 = s2 = s3 = counts = 0
  for card in board:
    s0, s1, s2, s3, counts = hand_ranks._add_card(card, s0, s1, s2, s3, counts)
  keys = np.empty(_HOLDINGS, np.int64)
  h = 0
  for i in range(len(deck)):
    t0, t1, t2, t3, c = hand_ranks._add_card(deck[i], s0, s1, s2, s3, counts)
    for j in range(i + 1, len(deck)):
      holdings[h, 0], holdings[h, 1] = deck[i], deck[j]
      rank = hand_ranks._rank(*hand_ranks._add_card(deck[j], t0, t1, t2, t3, c))
      keys[h] = rank << 11 | h  # ranks < 2^24, h < 2^11
      h += 1
  keys.sort()
  # Sweep groups of equal rank upwards. `below[c]` counts the holdings ranked
  # lower that hold card c, `equal[c]` those of the group; a holding (a, b)
  # beats every lower holding but those holding a or b (none holds both,
  # but itself), and ties with its group less those holding a or b (itself
  # counted in both).
  below = np.zeros(52, np.int64)
  equal = np.zeros(52, np.int64)
  num_below = 0
  start = 0
  while start < _HOLDINGS:
    end = start
    while end < _HOLDINGS and keys[end] >> 11 == keys[start] >> 11:
      end += 1
    for g in range(start, end):
      h = keys[g] & 2047
      equal[holdings[h, 0]] += 1
      equal[holdings[h, 1]] += 1
    for g in range(start, end):
      h = keys[g] & 2047
      a, b = holdings[h, 0], holdings[h, 1]
      wins = num_below - below[a] - below[b]
      ties = end - start - equal[a] - equal[b] + 1
      scores[h] = 2 * wins + ties
    for g in range(start, end):
      h = keys[g] & 2047
      for card in (holdings[h, 0], holdings[h, 1]):
        below[card] += equal[card]
        equal[card] = 0
    num_below += end - start
    start = end


@numba.njit(cache=True)
def _turn_totals(board, squared):
  """Per holding off a 4-card `board`, as a 52 x 52 matrix (entry [a, b]
  with a < b), the sum over its 46 river cards of HS^2 (`squared`) or of the
  river score 2 * wins + ties (an exact integer: E[HS] is the sum over
  46 * 1980)."""
  total = np.zeros((52, 52))
  holdings = np.empty((_HOLDINGS, 2), np.int64)
  scores = np.empty(_HOLDINGS, np.int64)
  river = np.empty(5, np.int64)
  river[:4] = board
  for card in _deck(board):
    river[4] = card
    _river_scores(river, holdings, scores)
    for h in range(_HOLDINGS):
      if squared:
        strength = scores[h] / (2.0 * _OPPONENTS)
        total[holdings[h, 0], holdings[h, 1]] += strength * strength
      else:
        total[holdings[h, 0], holdings[h, 1]] += scores[h]
  return total


@numba.njit(cache=True)
def _turn_values(board):
  """E[HS^2] of every holding off a 4-card `board`, as a 52 x 52 matrix
  (entry [a, b] with a < b): the mean HS^2 over its 46 river cards."""
  return _turn_totals(board, True) / 46


@numba.njit(cache=True)
def _bucket(value, num_buckets):
  return min(int(value * num_buckets), num_buckets - 1)


@numba.njit(cache=True)
def _river_pass(river, preflop_sums, preflop_weights):
  """The river and preflop loop over 5-card boards up to isomorphism: writes
  river buckets (unless `river` is empty), adds HS^2 * board weight and the
  weight per preflop index."""
  holdings = np.empty((_HOLDINGS, 2), np.int64)
  scores = np.empty(_HOLDINGS, np.int64)
  no_board = np.empty(0, np.int64)
  preflop = np.empty((52, 52), np.int64)  # an index costs ~0.2 us: look up
  for a in range(52):
    for c in range(a + 1, 52):
      holdings[0, 0], holdings[0, 1] = a, c
      preflop[a, c] = hand_index(holdings[0], no_board)
  for b in range(_OFFSETS[_BOARD5, -1]):
    board = _unindex(b, _BOARD5)
    weight = _orbit_size(board)
    _river_scores(board, holdings, scores)
    for h in range(_HOLDINGS):
      strength = scores[h] / (2.0 * _OPPONENTS)
      pre = preflop[holdings[h, 0], holdings[h, 1]]
      preflop_sums[pre] += weight * strength * strength
      preflop_weights[pre] += weight
      if len(river):
        river[hand_index(holdings[h], board)] = _bucket(strength * strength,
                                                        NUM_BUCKETS[3])


@numba.njit(cache=True)
def turn_pass(turn, squared):
  """Over 4-card boards up to isomorphism, writes every turn index's E[HS^2]
  (`squared`) or its sum of river scores (`_turn_totals`) into `turn`."""
  hole = np.empty(2, np.int64)
  for b in range(_OFFSETS[_BOARD4, -1]):
    board = _unindex(b, _BOARD4)
    values = _turn_totals(board, squared)
    if squared:
      values = values / 46
    deck = _deck(board)
    for i in range(len(deck)):
      for j in range(i + 1, len(deck)):
        hole[0], hole[1] = deck[i], deck[j]
        turn[hand_index(hole, board)] = values[deck[i], deck[j]]


@numba.njit(cache=True)
def flop_pass(turn, flop, divisor):
  """Writes every flop index's sum of its 47 turn values over `divisor`
  into `flop` (47: their mean, E over turn of E over river)."""
  board = np.empty(4, np.int64)
  for i in range(len(flop)):
    hand = hand_from_index(i, 3)
    board[:3] = hand[2:]
    total = 0.0
    for card in _deck(hand):
      board[3] = card
      total += turn[hand_index(hand[:2], board)]
    flop[i] = total / divisor


@numba.njit(cache=True)
def _to_buckets(values, num_buckets, out):
  for i in range(len(values)):
    out[i] = _bucket(values[i], num_buckets)


def _check_hand(hole, board):
  """Python-level input check: the compiled code trusts its cards."""
  hand = np.concatenate([hole, board])
  if (len(hole) != 2 or len(board) not in BOARD_CARDS or
      len(set(hand.tolist())) != len(hand) or hand.min() < 0 or
      hand.max() > 51):
    raise ValueError(f"hole={hole.tolist()}, board={board.tolist()}: want 2 "
                     "hole cards and 0, 3, 4 or 5 board cards, distinct ids "
                     "in [0, 52)")


def preflop_values():
  """E[HS^2] of the 169 preflop indices (exact; ~15 s on one core)."""
  sums, weights = np.zeros(INDEX_SIZES[0]), np.zeros(INDEX_SIZES[0])
  _river_pass(np.empty(0, np.uint8), sums, weights)
  return sums / weights


def hand_value(hole, board):
  """Exact E[HS^2] of one hand (HS^2 on the river), without the tables.

  Args:
    hole: 2 card ids.
    board: 0, 3, 4 or 5 card ids, distinct from `hole`.

  Returns:
    The value that the tables bucket. Preflop computes all 169 values.
  """
  hole = np.asarray(hole, np.int64)
  board = np.asarray(board, np.int64)
  _check_hand(hole, board)
  if len(board) == 0:
    return float(preflop_values()[hand_index(hole, board)])
  a, b = sorted(hole)
  if len(board) == 5:
    holdings = np.empty((_HOLDINGS, 2), np.int64)
    scores = np.empty(_HOLDINGS, np.int64)
    _river_scores(board, holdings, scores)
    h = np.flatnonzero((holdings[:, 0] == a) & (holdings[:, 1] == b))[0]
    return float((scores[h] / (2.0 * _OPPONENTS))**2)
  if len(board) == 4:
    return float(_turn_values(board)[a, b])
  turn = np.empty(4, np.int64)
  turn[:3] = board
  total = 0.0
  for card in _deck(np.concatenate([hole, board])):
    turn[3] = card
    total += _turn_values(turn)[a, b]
  return total / 47


def build_tables(log=logging.info):
  """Builds the four bucket tables (minutes on one core).

  Args:
    log: called with a line per round (its build time).

  Returns:
    (Tables, {round name: build seconds}).
  """
  seconds = {}
  start = time.perf_counter()
  river = np.full(INDEX_SIZES[3], 255, np.uint8)  # 255: not written (a check)
  sums, weights = np.zeros(INDEX_SIZES[0]), np.zeros(INDEX_SIZES[0])
  _river_pass(river, sums, weights)
  if river.max() >= NUM_BUCKETS[3]:
    raise RuntimeError("the river pass missed some river indices")
  seconds["river+preflop"] = time.perf_counter() - start
  log(f"river and preflop: {seconds['river+preflop']:.1f} s")
  preflop = np.empty(INDEX_SIZES[0], np.uint8)
  _to_buckets(sums / weights, NUM_BUCKETS[0], preflop)

  start = time.perf_counter()
  turn_values = np.full(INDEX_SIZES[2], np.nan)
  turn_pass(turn_values, True)
  if np.isnan(turn_values).any():
    raise RuntimeError("the turn pass missed some turn indices")
  turn = np.empty(INDEX_SIZES[2], np.uint16)
  _to_buckets(turn_values, NUM_BUCKETS[2], turn)
  seconds["turn"] = time.perf_counter() - start
  log(f"turn: {seconds['turn']:.1f} s")

  start = time.perf_counter()
  flop_values = np.empty(INDEX_SIZES[1])
  flop_pass(turn_values, flop_values, 47)
  flop = np.empty(INDEX_SIZES[1], np.uint16)
  _to_buckets(flop_values, NUM_BUCKETS[1], flop)
  seconds["flop"] = time.perf_counter() - start
  log(f"flop: {seconds['flop']:.1f} s")
  return Tables(preflop, flop, turn, river), seconds


def default_cache_dir():
  """$NFSP_SPIEL_CACHE/ehs2, or ~/.cache/nfsp_spiel/ehs2."""
  root = os.environ.get(_CACHE_ENV) or os.path.join(
      os.path.expanduser("~"), ".cache", "nfsp_spiel")
  return pathlib.Path(root) / "ehs2"


def _sha256(path):
  """Hex SHA-256 of a file, read in chunks (no second copy of a table)."""
  digest = hashlib.sha256()
  with open(path, "rb") as f:
    for chunk in iter(lambda: f.read(1 << 22), b""):
      digest.update(chunk)
  return digest.hexdigest()


def _write_atomic(path, write):
  """Calls write(file) on a file beside `path`, then renames it: readers
  (and a concurrent build, which writes the same bytes) never see a partial
  file."""
  fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
  try:
    with os.fdopen(fd, "wb") as f:
      write(f)
    os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide a shared cache
    os.replace(tmp, path)
  except BaseException:
    os.unlink(tmp)
    raise


def save_tables(cache_dir, arrays):
  """Writes {name: array} as .npy files, then their SHA-256 sums (last, so
  that a checksum file means a complete set)."""
  cache_dir = pathlib.Path(cache_dir)
  cache_dir.mkdir(parents=True, exist_ok=True)
  lines = []
  for name, array in arrays.items():
    path = cache_dir / f"{name}.npy"
    _write_atomic(path, lambda f, array=array: np.save(f, array))
    lines.append(f"{_sha256(path)}  {path.name}\n")
  _write_atomic(cache_dir / _CHECKSUMS,
                lambda f: f.write("".join(lines).encode()))


def load_tables(cache_dir):
  """{name: array} from `save_tables`' files, or None without a checksum file.

  Raises:
    ValueError: naming a file that is missing or whose SHA-256 differs from
      the stored one. Deliberately not a silent rebuild: a corrupted cache
      points at a disk or a writer problem worth seeing, and the rebuild
      (delete the directory) takes minutes.
  """
  cache_dir = pathlib.Path(cache_dir)
  checksums = cache_dir / _CHECKSUMS
  if not checksums.exists():
    return None
  arrays = {}
  for line in checksums.read_text().splitlines():
    digest, filename = line.split()
    path = cache_dir / filename
    if not path.exists():
      raise ValueError(f"{path}: missing, though listed in {checksums}; "
                       f"delete {cache_dir} to rebuild the tables")
    if _sha256(path) != digest:
      raise ValueError(f"{path}: SHA-256 differs from {checksums} (a "
                       f"corrupted file); delete {cache_dir} to rebuild")
    arrays[filename.removesuffix(".npy")] = np.load(path)
  return arrays


def tables(cache_dir=None):
  """The bucket tables, loaded from `cache_dir` or built there on first use.

  Args:
    cache_dir: defaults to `default_cache_dir()`.

  Returns:
    A `Tables` of flat arrays, bucket = table[hand_index(hole, board)].
  """
  cache_dir = pathlib.Path(cache_dir or default_cache_dir())
  arrays = load_tables(cache_dir)
  if arrays is None:
    logging.info("building the E[HS^2] tables in %s", cache_dir)
    built, _ = build_tables()
    arrays = built._asdict()
    save_tables(cache_dir, arrays)
  for name, size, dtype in zip(ROUND_NAMES, INDEX_SIZES, _DTYPES):
    if name not in arrays or arrays[name].shape != (size,) or (
        arrays[name].dtype != dtype):
      raise ValueError(f"{cache_dir / (name + '.npy')}: not a {size}-entry "
                       f"{np.dtype(dtype).name} table; delete {cache_dir} to "
                       "rebuild")
  return Tables(*(arrays[name] for name in ROUND_NAMES))


def round_hand(round_, hole, board):
  """(hole, board) as int64 arrays, checked as one hand of round `round_`
  (0 preflop ... 3 river) with the round's board cards: Python-level input
  checks for every bucket look-up (here and `board_buckets`)."""
  hole = np.asarray(hole, np.int64)
  board = np.asarray(board, np.int64)
  _check_hand(hole, board)
  if len(board) != BOARD_CARDS[round_]:
    raise ValueError(f"round {round_} ({ROUND_NAMES[round_]}) has "
                     f"{BOARD_CARDS[round_]} board cards, not {len(board)}")
  return hole, board


def bucket(round_, hole, board, tables_):
  """The bucket of one hand on round `round_` (0 preflop ... 3 river), with
  `board` the round's board cards (0, 3, 4 or 5)."""
  hole, board = round_hand(round_, hole, board)
  return int(tables_[round_][hand_index(hole, board)])


@numba.njit(cache=True)
def buckets_of_deal(tables_, hole0, hole1, board):
  """The 4 rounds' buckets of both players of a deal (5 board cards): a
  2 x 4 array, table lookups only, callable from compiled loops."""
  out = np.empty((2, 4), np.int64)
  for player in range(2):
    hole = hole0 if player == 0 else hole1
    out[player, 0] = tables_[0][hand_index(hole, board[:0])]
    out[player, 1] = tables_[1][hand_index(hole, board[:3])]
    out[player, 2] = tables_[2][hand_index(hole, board[:4])]
    out[player, 3] = tables_[3][hand_index(hole, board)]
  return out
