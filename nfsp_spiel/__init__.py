"""nfsp_spiel: Heinrich's self-play family for OpenSpiel.

Importing this package registers its games with pyspiel, so that
`pyspiel.load_game("river_poker(...)")`, `pyspiel.load_game("nfsp_leduc")` and
`pyspiel.load_game("nfsp_lhe")` work in any OpenSpiel experiment afterwards.

Everything else is imported from its module, by its layered path
(`from nfsp_spiel.fictitious_play import xfp`, `from nfsp_spiel import nfsp`;
docs/layout.md): this package re-exports nothing, so that importing it stays
cheap (no TensorFlow, no compiled code) and each name has one path.
"""

import importlib.util
import os
import sys


def _games_from_the_clone():
  """Loads the repository's top-level `games/` folder as `nfsp_spiel.games`:
  installed, setup.py maps it there; imported from a clone (a REPL or a
  notebook opened at the repository root, where Python finds this folder
  before any installed copy) the mapping does not exist."""
  folder = os.path.join(os.path.dirname(os.path.dirname(__file__)), "games")
  spec = importlib.util.spec_from_file_location(
      f"{__name__}.games", os.path.join(folder, "__init__.py"),
      submodule_search_locations=[folder])
  module = importlib.util.module_from_spec(spec)
  sys.modules[spec.name] = module
  spec.loader.exec_module(module)
  return module


if importlib.util.find_spec(f"{__name__}.games") is None:
  games = _games_from_the_clone()
else:
  from nfsp_spiel import games  # noqa: F401  (registers the games)

__version__ = "0.1.0"
