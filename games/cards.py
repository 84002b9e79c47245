"""Cards, hand ranges and showdown ranks shared by the poker games.

Card ids follow the ACPC / OpenSpiel `universal_poker` encoding,
`card = rank * 4 + suit`, with ranks "23456789TJQKA" (0..12) and suits "cdhs"
(0..3), so every 52-bit k-of-n block in this package means the same card at the
same index, and `nfsp_lhe` can reuse `universal_poker`'s chance outcomes as is.
"""

import itertools
import re

import numpy as np
from phevaluator import evaluate_cards

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NUM_CARDS = 52


def card_id(text):
  """'Kh' -> 46. Raises ValueError on anything else."""
  if (len(text) != 2 or text[0].upper() not in RANKS or
      text[1].lower() not in SUITS):
    raise ValueError(f"not a card: {text!r}")
  return RANKS.index(text[0].upper()) * 4 + SUITS.index(text[1].lower())


def card_str(card):
  return RANKS[card // 4] + SUITS[card % 4]


def cards_str(cards):
  return "".join(card_str(c) for c in cards)


def parse_cards(text, param="cards"):
  """'KhTc7d5sJh' -> [46, 32, 21, 15, 38]; errors name `param`."""
  if len(text) % 2:
    raise ValueError(
        f"{param}={text!r}: expected concatenated two-letter cards such as "
        f"'KhTc7d5sJh' (rank in {RANKS}, suit in {SUITS})")
  try:
    cards = [card_id(text[i:i + 2]) for i in range(0, len(text), 2)]
  except ValueError as e:
    raise ValueError(f"{param}={text!r}: {e}; a card is a rank in {RANKS} "
                     f"followed by a suit in {SUITS}") from None
  if len(set(cards)) != len(cards):
    raise ValueError(f"{param}={text!r}: a card appears twice")
  return cards


def holdings(deck):
  """All unordered two-card holdings of `deck`, as an (H, 2) array (low, high)."""
  return np.array(list(itertools.combinations(sorted(deck), 2)),
                  dtype=np.int64).reshape(-1, 2)


def showdown_ranks(hands, board):
  """Hand strength of each two-card holding with `board`: larger is better.

  Uses the PH evaluator (a perfect-hash 7-card evaluator); tests check it
  against eval7, an independent implementation.
  """
  board_text = [card_str(c) for c in board]
  return np.array(
      [-evaluate_cards(card_str(a), card_str(b), *board_text)
       for a, b in hands], dtype=np.int64)


# --- PokerStove-style ranges -------------------------------------------------

_TOKEN = re.compile(
    r"^(?:(?P<pair>(?P<p>[2-9TJQKA])(?P=p))(?:(?P<pplus>\+)|-(?P<pto>(?P<q>[2-9TJQKA])(?P=q)))?"
    r"|(?P<hi>[2-9TJQKA])(?P<lo>[2-9TJQKA])(?P<kind>[so]?)"
    r"(?:(?P<plus>\+)|-(?P<hi2>[2-9TJQKA])(?P<lo2>[2-9TJQKA])(?P<kind2>[so]?))?"
    r"|(?P<combo>[2-9TJQKA][cdhs][2-9TJQKA][cdhs]))$")


def _rank_classes(token, param):
  """Expands one range token into (high rank, low rank, kind) classes.

  kind is 'p' (pair), 's' (suited), 'o' (offsuit) or '' (both).
  """
  m = _TOKEN.match(token)
  if not m:
    raise ValueError(
        f"{param}: malformed range token {token!r}; expected e.g. 'QQ', 'QQ+', "
        "'QQ-JJ', 'AK', 'AQs', 'AQs-A5s', 'J9o+', or a combo such as 'AhKd'")
  if m.group("pair"):
    r = RANKS.index(m.group("p"))
    if m.group("pplus"):
      return [(x, x, "p") for x in range(r, 13)]
    if m.group("pto"):
      r2 = RANKS.index(m.group("q"))
      return [(x, x, "p") for x in range(min(r, r2), max(r, r2) + 1)]
    return [(r, r, "p")]
  hi, lo = RANKS.index(m.group("hi")), RANKS.index(m.group("lo"))
  if hi < lo:
    hi, lo = lo, hi
  kind = m.group("kind")
  if hi == lo:
    raise ValueError(f"{param}: {token!r}: write pairs as 'QQ', 'QQ+' or "
                     "'QQ-JJ', without a suitedness letter")
  if m.group("plus"):  # raise the kicker up to one below the top card
    return [(hi, x, kind) for x in range(lo, hi)]
  if m.group("hi2"):
    hi2, lo2 = RANKS.index(m.group("hi2")), RANKS.index(m.group("lo2"))
    if hi2 < lo2:
      hi2, lo2 = lo2, hi2
    if hi2 != hi or m.group("kind2") != kind:
      raise ValueError(
          f"{param}: range span {token!r} must keep the top card and the "
          "suitedness, as in 'AQs-A5s'")
    return [(hi, x, kind) for x in range(min(lo, lo2), max(lo, lo2) + 1)]
  return [(hi, lo, kind)]


def normalize_range(text, param="range"):
  """'QQ-JJ, AQs;J9o+' -> 'QQ-JJ AQs J9o+'.

  Tokens may be separated by commas (PokerStove), semicolons or spaces; the
  normal form uses spaces because OpenSpiel game strings split parameters at
  commas, so only a comma-free range survives `str(game)` -> `load_game`.
  Quotes around the whole range are dropped (see `game_string_value`).
  """
  normal = " ".join(t for t in re.split(r"[,;\s]+", text.strip().strip("'\""))
                    if t)
  if text and not normal:
    raise ValueError(f"{param}={text!r}: empty range; give a PokerStove range "
                     "such as 'QQ+,AKs,T9o' (or leave it unset)")
  return normal


def game_string_value(normal):
  """A normal-form range as a value that OpenSpiel's game-string parser reads
  back as this string.

  The parser reads a value made only of digits, + and - as an integer ('99')
  or fails on it ('22+', '88-77'), so such a range is quoted (`"22+"`), and
  `normalize_range` drops the quotes. Any other range is a string to the
  parser: it has a letter or a space, and never ends in ')'.
  """
  numeric = normal and not normal.strip("+-0123456789")
  return f'"{normal}"' if numeric else normal


def parse_range(text, param="range"):
  """Parses 'QQ-JJ,AQs-A5s,J9o+,AhKd' into a set of (low card, high card) combos.

  Raises ValueError naming `param` on malformed or empty ranges.
  """
  tokens = normalize_range(text, param).split()
  if not tokens:
    raise ValueError(f"{param}={text!r}: empty range; give a PokerStove range "
                     "such as 'QQ+,AKs,T9o'")
  combos = set()
  for token in tokens:
    m = _TOKEN.match(token)
    if m and m.group("combo"):
      a, b = card_id(token[:2]), card_id(token[2:])
      if a == b:
        raise ValueError(f"{param}: combo {token!r} repeats a card")
      combos.add((min(a, b), max(a, b)))
      continue
    for hi, lo, kind in _rank_classes(token, param):
      for s1, s2 in itertools.product(range(4), repeat=2):
        a, b = hi * 4 + s1, lo * 4 + s2
        if a == b or (kind == "p" and s1 >= s2):
          continue
        if (kind == "s" and s1 != s2) or (kind == "o" and s1 == s2):
          continue
        combos.add((min(a, b), max(a, b)))
  return combos
