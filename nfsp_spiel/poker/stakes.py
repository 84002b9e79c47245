"""The stakes of the poker games: what a big blind is in each, the unit of
milli-big-blinds per hand (mbb/h) in which poker results are given."""

# Chips in a big blind, by game: LHE's blind; the ante where there is no blind
# (Kuhn, Leduc); half a river bet in River poker, whose bet is LHE's big bet.
_BIG_BLIND = {
    "nfsp_lhe": lambda game: 10.0,
    "nfsp_lhe3": lambda game: 10.0,
    "universal_poker": lambda game: float(max(
        int(b) for b in game.get_parameters()["blind"].split())),
    "leduc_poker": lambda game: 1.0,
    "nfsp_leduc": lambda game: 1.0,
    "kuhn_poker": lambda game: 1.0,
    "river_poker": lambda game: game.get_parameters()["bet"] / 2.0,
}


def big_blind(game):
  """Chips in a big blind for the poker games, else None."""
  rule = _BIG_BLIND.get(game.get_type().short_name)
  return rule(game) if rule else None
