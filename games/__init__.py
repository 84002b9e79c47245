"""The papers' poker games, registered with pyspiel on import.

Installed as `nfsp_spiel.games` (setup.py maps this folder there).
"""

from nfsp_spiel.games import nfsp_leduc  # noqa: F401
from nfsp_spiel.games import nfsp_lhe  # noqa: F401
from nfsp_spiel.games import nfsp_lhe3  # noqa: F401
from nfsp_spiel.games import river_poker  # noqa: F401
