"""Card and PokerStove-range parsing, checked against eval7's range parser."""

import eval7
import pytest

from nfsp_spiel.games import cards
from nfsp_spiel.games import river_poker


def _eval7_combos(text):
  return {tuple(sorted(cards.card_id(str(c)) for c in hand))
          for hand, _ in eval7.HandRange(text).hands}


@pytest.mark.parametrize("text", list(river_poker.DEFINED_RANGES) + [
    "QQ+", "22-55", "AK", "AKs", "AKo", "J9o+", "72s+", "T8s+", "AQs-A5s",
    "K4o-K2o", "AA,KK,AKs"])
def test_ranges_match_eval7(text):
  assert cards.parse_range(text) == _eval7_combos(text)


def test_range_sizes_by_hand():
  assert len(cards.parse_range("AA")) == 6
  assert len(cards.parse_range("AKs")) == 4
  assert len(cards.parse_range("AKo")) == 12
  assert len(cards.parse_range("J9o+")) == 24   # J9o and JTo
  assert cards.parse_range("AhKd") == {(cards.card_id("Kd"),
                                        cards.card_id("Ah"))}


def test_separators_and_normal_form():
  assert cards.normalize_range("QQ-JJ, AQs;J9o+  T9o") == "QQ-JJ AQs J9o+ T9o"
  assert cards.parse_range("QQ JJ") == cards.parse_range("QQ,JJ")


@pytest.mark.parametrize("normal,value", [
    ("22+", '"22+"'), ("88-77", '"88-77"'), ("99", '"99"'),
    ("22-44", '"22-44"'), ("22 33", "22 33"), ("22+ AKs", "22+ AKs"), ("AKs", "AKs"),
    ("T9o+", "T9o+"), ("AhKd", "AhKd"), ("", ""),
])
def test_game_string_value_quotes_only_what_openspiel_reads_as_a_number(
    normal, value):
  """OpenSpiel's parser takes a value of digits, + and - for an int; a space
  or a letter makes it a string. normalize_range drops the quotes again."""
  assert cards.game_string_value(normal) == value
  assert cards.normalize_range(value) == normal


@pytest.mark.parametrize("text,match", [
    ("", "empty range"),
    (" , ", "empty range"),
    ("QQ-XX", "malformed range token 'QQ-XX'"),
    ("AAs", "write pairs as"),
    ("AQs-K5s", "must keep the top card"),
    ("AhAh", "repeats a card"),
    ("ZZ", "malformed"),
])
def test_bad_ranges(text, match):
  with pytest.raises(ValueError, match=match):
    cards.parse_range(text, "range0")


def test_parse_cards_errors():
  assert cards.parse_cards("KhTc") == [46, 32]
  with pytest.raises(ValueError, match="board='Kh1c'"):
    cards.parse_cards("Kh1c", "board")
  with pytest.raises(ValueError, match="appears twice"):
    cards.parse_cards("KhKh", "board")
  with pytest.raises(ValueError, match="two-letter cards"):
    cards.parse_cards("KhT", "board")
