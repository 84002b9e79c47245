"""nfsp_spiel: Heinrich's self-play family for OpenSpiel.

Importing this package registers its games with pyspiel, so that
`pyspiel.load_game("river_poker(...)")`, `pyspiel.load_game("nfsp_leduc")` and
`pyspiel.load_game("nfsp_lhe")` work in any OpenSpiel experiment afterwards.
"""

from nfsp_spiel import games  # noqa: F401  (registers the games)

__version__ = "0.1.0"
