"""The E[HS^2] abstraction: isomorphism index, values against eval7, cache.

The default run checks the index exhaustively preflop and on the flop (every
class reached once), by samples on the turn and river, and single hands'
values against slow eval7 enumerations; the full tables (minutes to build)
are under `-m slow`.
"""

import itertools
import time

import eval7
import numba
import numpy as np
import pytest

from nfsp_spiel.poker import card_abstraction as ca
from nfsp_spiel.games import cards
from nfsp_spiel.poker import hand_ranks

_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), np.int64)


@numba.njit(cache=True)
def _brute_key(hand, num_hole):
  """The least (hole mask, board mask) over the 24 suit permutations: equal
  iff two hands are isomorphic (a definition, independent of the index)."""
  best_hole = best_board = 1 << 62
  for p in range(24):
    hole = board = 0
    for i in range(len(hand)):
      card = hand[i] // 4 * 4 + _PERMUTATIONS[p, hand[i] % 4]
      if i < num_hole:
        hole |= 1 << card
      else:
        board |= 1 << card
    if hole < best_hole or (hole == best_hole and board < best_board):
      best_hole, best_board = hole, board
  return best_hole, best_board


@numba.njit  # no cache: numba's would miss changes to card_abstraction
def _keys_and_indices(hands):
  keys = np.empty((len(hands), 2), np.int64)
  indices = np.empty(len(hands), np.int64)
  for i in range(len(hands)):
    keys[i, 0], keys[i, 1] = _brute_key(hands[i], 2)
    indices[i] = ca.hand_index(hands[i, :2], hands[i, 2:])
  return keys, indices


@numba.njit(cache=True)
def _flop_hands(holes):
  """Every flop off each of `holes`."""
  out = np.empty((len(holes) * 19600, 5), np.int64)
  n = 0
  for hole in holes:
    for a in range(52):
      for b in range(a + 1, 52):
        for c in range(b + 1, 52):
          if (a == hole[0] or a == hole[1] or b == hole[0] or b == hole[1] or
              c == hole[0] or c == hole[1]):
            continue
          out[n, 0], out[n, 1] = hole[0], hole[1]
          out[n, 2], out[n, 3], out[n, 4] = a, b, c
          n += 1
  return out[:n]


def _assert_bijection(hands, size):
  """Index equal iff brute key equal, over `hands`, and every index of
  [0, size) reached."""
  keys, indices = _keys_and_indices(hands)
  assert indices.min() >= 0 and indices.max() < size
  pairs = np.unique(np.column_stack([keys, indices]), axis=0)
  assert len(pairs) == size  # one key per index and one index per key:
  assert len(np.unique(pairs[:, 2])) == size
  assert len(np.unique(pairs[:, :2], axis=0)) == size


def _random_hands(rng, count, num_board):
  return np.array([rng.choice(52, 2 + num_board, replace=False)
                   for _ in range(count)], np.int64)


def test_index_sizes():
  # Waugh (2013), Table 1 ([2, k] rounds), and the boards up to isomorphism.
  assert ca.INDEX_SIZES == (169, 1286792, 13960050, 123156254)
  assert int(ca._OFFSETS[ca._BOARD4, -1]) == 16432
  assert int(ca._OFFSETS[ca._BOARD5, -1]) == 134459


@numba.njit  # no cache: numba's would miss changes to card_abstraction
def _boards_covered(kind, num_cards):
  """Sum of the orbit sizes of the representative boards, checking that
  each is a set of `num_cards` cards."""
  total = 0
  for i in range(ca._OFFSETS[kind, -1]):
    board = ca._unindex(i, kind)
    mask = 0
    for card in board:
      mask |= 1 << card
    if len(board) != num_cards or hand_ranks._popcount(mask) != num_cards:
      return -1
    total += ca._orbit_size(board)
  return total


def test_board_weights():
  """The preflop pass weighs each board representative by its orbit: the
  weights add up to every board once."""
  assert _boards_covered(ca._BOARD4, 4) == 270725  # C(52, 4)
  assert _boards_covered(ca._BOARD5, 5) == 2598960  # C(52, 5)


def test_preflop_index_bijection():
  _assert_bijection(np.array(list(itertools.combinations(range(52), 2))), 169)


# Slow: test_preflop_index_bijection and the index's invariance on every round
# (test_index_is_invariant_and_inverse) stay.
@pytest.mark.slow
def test_flop_index_bijection():
  # Every class has a hand whose hole cards are one of the 169 preflop
  # representatives (permute its suits), so these hands reach every class.
  holes = np.array([ca.hand_from_index(i, 0) for i in range(169)])
  _assert_bijection(_flop_hands(holes), ca.INDEX_SIZES[1])


@pytest.mark.parametrize("num_board", [0, 3, 4, 5])
def test_index_is_invariant_and_inverse(num_board):
  rng = np.random.default_rng(num_board)
  size = ca.INDEX_SIZES[ca.BOARD_CARDS.index(num_board)]
  hands = _random_hands(rng, 3000, num_board)
  keys, indices = _keys_and_indices(hands)
  for hand, key, index in zip(hands[:300], keys, indices):
    # Any suit permutation, any order within hole and within board.
    permutation = rng.permutation(4)
    image = hand // 4 * 4 + permutation[hand % 4]
    hole, board = rng.permutation(image[:2]), rng.permutation(image[2:])
    assert ca.hand_index(hole, board) == index
    # The representative is a hand of the same class.
    representative = ca.hand_from_index(index, num_board)
    assert len(set(representative)) == 2 + num_board
    assert _brute_key(representative, 2) == tuple(key)
  # Equal indices iff isomorphic, on the sample and its permuted copies.
  copies = hands // 4 * 4 + _PERMUTATIONS[rng.integers(0, 24, len(hands))][
      np.arange(len(hands))[:, None], hands % 4]
  keys2, indices2 = _keys_and_indices(np.vstack([hands, copies]))
  pairs = np.unique(np.column_stack([keys2, indices2]), axis=0)
  assert len(np.unique(pairs[:, 2])) == len(pairs)
  assert len(np.unique(pairs[:, :2], axis=0)) == len(pairs)
  # index(unindex(i)) == i on random indices, and in range.
  for i in rng.integers(0, size, 300):
    hand = ca.hand_from_index(i, num_board)
    assert ca.hand_index(hand[:2], hand[2:]) == i


def _eval7_cards(hand):
  return [eval7.Card(cards.card_str(c)) for c in hand]


def _slow_strength(hole, board):
  """HS by eval7 over the 990 opposing holdings, ties half."""
  deck = [c for c in range(52) if c not in hole and c not in board]
  board7 = _eval7_cards(board)
  mine = eval7.evaluate(_eval7_cards(hole) + board7)
  score = 0.0
  for holding in itertools.combinations(deck, 2):
    theirs = eval7.evaluate(_eval7_cards(holding) + board7)
    score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
  return score / 990


def _slow_ehs2(hole, board):
  """E[HS^2] by eval7 over every run-out and every opposing holding."""
  deck = [c for c in range(52) if c not in hole and c not in board]
  values = []
  for runout in itertools.combinations(deck, 5 - len(board)):
    river = _eval7_cards(list(board) + list(runout))
    mine = eval7.evaluate(_eval7_cards(hole) + river)
    rest = [eval7.Card(cards.card_str(c)) for c in deck if c not in runout]
    score = 0.0
    for a, b in itertools.combinations(rest, 2):
      theirs = eval7.evaluate([a, b] + river)
      score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    values.append((score / 990)**2)
  return np.mean(values)


def test_river_strength_matches_eval7():
  rng = np.random.default_rng(1)
  for hand in _random_hands(rng, 40, 5):
    assert ca.hand_value(hand[:2], hand[2:]) == pytest.approx(
        _slow_strength(list(hand[:2]), list(hand[2:]))**2, abs=1e-12)


@pytest.mark.parametrize("board", ["AhKhQhJhTh", "2c2d2h2s3c", "AcKdQh9s7c",
                                   "6c6d9h9sTc", "random"])
def test_river_scores_of_every_holding(board):
  """The sorted sweep against a 1081 x 1081 comparison of the ranks; boards
  where everyone ties (royal flush), most tie, and random ones."""
  rng = np.random.default_rng(2)
  board = (rng.choice(52, 5, replace=False) if board == "random" else
           np.array(cards.parse_cards(board)))
  holdings = np.empty((1081, 2), np.int64)
  scores = np.empty(1081, np.int64)
  ca._river_scores(board, holdings, scores)
  ranks = hand_ranks.rank_hands(np.column_stack(
      [holdings, np.repeat(board[None], 1081, axis=0)]))
  disjoint = ~(holdings[:, None, :, None] == holdings[None, :, None, :]).any(
      axis=(2, 3))
  expected = ((2 * (ranks[:, None] > ranks[None]) +
               (ranks[:, None] == ranks[None])) * disjoint).sum(axis=1)
  np.testing.assert_array_equal(scores, expected)
  assert scores.sum() == 1081 * 990  # every pair shares 2 points


def test_turn_value_matches_eval7():
  rng = np.random.default_rng(3)
  for hand in _random_hands(rng, 3, 4):
    assert ca.hand_value(hand[:2], hand[2:]) == pytest.approx(
        _slow_ehs2(list(hand[:2]), list(hand[2:])), abs=1e-12)


def test_flop_value_matches_eval7():
  hole, board = cards.parse_cards("Ts9s"), cards.parse_cards("8s2hJd")
  assert ca.hand_value(hole, board) == pytest.approx(_slow_ehs2(hole, board),
                                                     abs=1e-12)


@pytest.fixture(scope="module")
def preflop():
  """{hand text like 'AKs': E[HS^2]}."""
  values = ca.preflop_values()
  out = {}
  for i, value in enumerate(values):
    a, b = sorted(ca.hand_from_index(i, 0), reverse=True)
    kind = "" if a // 4 == b // 4 else "s" if a % 4 == b % 4 else "o"
    out[cards.RANKS[a // 4] + cards.RANKS[b // 4] + kind] = value
  return out


def test_preflop_order(preflop):
  assert len(preflop) == 169
  ordered = sorted(preflop, key=preflop.get)
  assert ordered[-1] == "AA"
  assert "72o" in ordered[:5]
  pairs = [r + r for r in cards.RANKS]
  assert sorted(pairs, key=preflop.get) == pairs
  for high, low in itertools.combinations(cards.RANKS[::-1], 2):
    suited, offsuit = preflop[high + low + "s"], preflop[high + low + "o"]
    assert suited > offsuit, high + low
    # The grid keeps them apart too (the thesis' footnote on SmooCT's bug).
    assert ca._bucket(suited, 169) > ca._bucket(offsuit, 169), high + low


@pytest.mark.parametrize("hand", ["AA", "72o", "T9s"])
def test_preflop_value_matches_sampled_boards(preflop, hand):
  """The board-weighted preflop mean against a mean over random boards of
  the river HS^2 (a different route: no isomorphism weights)."""
  hole = cards.parse_cards({"AA": "AhAd", "72o": "7c2d", "T9s": "Ts9s"}[hand])
  rng = np.random.default_rng(4)
  deck = np.array([c for c in range(52) if c not in hole])
  samples = [ca.hand_value(hole, rng.choice(deck, 5, replace=False))
             for _ in range(4000)]
  error = np.std(samples) / np.sqrt(len(samples))
  assert abs(np.mean(samples) - preflop[hand]) < 4 * error


def test_bucket_grid():
  for value, num, expected in [(0.0, 169, 0), (1.0, 169, 168),
                               (0.5, 1000, 500), (0.4999, 1000, 499),
                               (0.9999, 200, 199), (0.005, 200, 1)]:
    assert ca._bucket(value, num) == expected


@pytest.fixture(scope="module")
def fake_tables():
  """Each index's bucket is its index mod 251: shows which entry is read."""
  return ca.Tables(*((np.arange(size) % 251).astype(dtype) for size, dtype in
                     zip(ca.INDEX_SIZES, ca._DTYPES)))


def test_buckets_of_deal(fake_tables):
  rng = np.random.default_rng(5)
  for deal in _random_hands(rng, 200, 7):  # 2 + 2 hole cards, 5 board
    hole0, hole1, board = deal[:2], deal[2:4], deal[4:]
    out = ca.buckets_of_deal(fake_tables, hole0, hole1, board)
    for player, hole in enumerate((hole0, hole1)):
      for r, k in enumerate(ca.BOARD_CARDS):
        assert out[player, r] == ca.hand_index(hole, board[:k]) % 251
        assert out[player, r] == ca.bucket(r, hole, board[:k], fake_tables)
  with pytest.raises(ValueError, match="flop"):
    ca.bucket(1, hole0, board[:4], fake_tables)
  with pytest.raises(ValueError, match="distinct"):
    ca.bucket(3, hole0, [hole0[0]] + list(board[1:]), fake_tables)
  with pytest.raises(ValueError, match="distinct"):
    ca.hand_value([0, 52], [])


def test_cache_checksum(tmp_path, monkeypatch):
  arrays = {"preflop": np.arange(169, dtype=np.uint8),
            "flop": np.arange(1000, dtype=np.uint16)}
  assert ca.load_tables(tmp_path) is None
  ca.save_tables(tmp_path, arrays)
  loaded = ca.load_tables(tmp_path)
  assert loaded.keys() == arrays.keys()
  for name in arrays:
    np.testing.assert_array_equal(loaded[name], arrays[name])
  assert sorted(p.name for p in tmp_path.iterdir()) == [
      "SHA256SUMS", "flop.npy", "preflop.npy"]  # no temporary file left
  # Wrong shapes are refused, not rebuilt.
  with pytest.raises(ValueError, match="flop.npy"):
    ca.tables(tmp_path)
  # One flipped byte in the data.
  path = tmp_path / "flop.npy"
  data = bytearray(path.read_bytes())
  data[-7] ^= 1
  path.write_bytes(bytes(data))
  with pytest.raises(ValueError, match="flop.npy.*SHA-256"):
    ca.load_tables(tmp_path)
  path.unlink()
  with pytest.raises(ValueError, match="flop.npy.*missing"):
    ca.load_tables(tmp_path)
  monkeypatch.setenv("NFSP_SPIEL_CACHE", str(tmp_path / "root"))
  assert ca.default_cache_dir() == tmp_path / "root" / "ehs2"


@pytest.mark.slow
def test_full_tables(tmp_path):
  """Builds the tables (~2 min), checks buckets against single-hand values,
  and times lookups."""
  built = ca.tables(tmp_path)
  loaded = ca.tables(tmp_path)
  for name, num in zip(ca.ROUND_NAMES, ca.NUM_BUCKETS):
    np.testing.assert_array_equal(getattr(built, name), getattr(loaded, name))
    assert getattr(built, name).max() < num
  rng = np.random.default_rng(6)
  for r, k in enumerate(ca.BOARD_CARDS[1:], 1):
    for hand in _random_hands(rng, 20, k):
      value = ca.hand_value(hand[:2], hand[2:])
      expected = {ca._bucket(value + e, ca.NUM_BUCKETS[r])
                  for e in (-1e-9, 0, 1e-9)}  # rounding at a grid line
      assert ca.bucket(r, hand[:2], hand[2:], built) in expected
  values = ca.preflop_values()
  for i in range(169):
    assert built.preflop[i] == ca._bucket(values[i], 169)
  deals = np.array([rng.choice(52, 9, replace=False) for _ in range(100000)])
  _lookup_all(built, deals[:10])
  start = time.perf_counter()
  _lookup_all(built, deals)
  rate = len(deals) / (time.perf_counter() - start)
  print(f"buckets_of_deal: {rate:,.0f} deals/s")


@pytest.mark.slow
def test_preflop_routes_agree():
  """Preflop E[HS^2] two exact ways (~2 min): the board-weighted river
  means, and the mean over flops of the flop values (from the turn pass)."""
  values = ca.preflop_values()
  turn = np.full(ca.INDEX_SIZES[2], np.nan)
  ca.turn_pass(turn, True)
  flop = np.empty(ca.INDEX_SIZES[1])
  ca.flop_pass(turn, flop, 47)
  holes = np.array([ca.hand_from_index(i, 0) for i in range(169)])
  hands = _flop_hands(holes)
  _, indices = _keys_and_indices(hands)
  means = flop[indices].reshape(169, 19600).mean(axis=1)
  np.testing.assert_allclose(means, values, atol=1e-12)


@numba.njit  # no cache: numba's would miss changes to card_abstraction
def _lookup_all(tables, deals):
  total = 0
  for deal in deals:
    total += ca.buckets_of_deal(tables, deal[:2], deal[2:4], deal[4:]).sum()
  return total
