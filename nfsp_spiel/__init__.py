"""nfsp_spiel: Heinrich's self-play family for OpenSpiel.

Importing this package registers its games with pyspiel, so that
`pyspiel.load_game("river_poker(...)")`, `pyspiel.load_game("nfsp_leduc")` and
`pyspiel.load_game("nfsp_lhe")` work in any OpenSpiel experiment afterwards.
"""

import importlib
import importlib.abc
import importlib.util
import os
import sys

# Modules that moved when the package was laid out in layers (issue 27):
# their old names keep working, as the same module objects.
MOVED_MODULES = {
    "nfsp_spiel.arm": "nfsp_spiel.nfsp.arm",
    "nfsp_spiel.batched_games": "nfsp_spiel.trees.batched_games",
    "nfsp_spiel.board_buckets": "nfsp_spiel.poker.board_buckets",
    "nfsp_spiel.cache_hints": "nfsp_spiel.poker.cache_hints",
    "nfsp_spiel.card_abstraction": "nfsp_spiel.poker.card_abstraction",
    "nfsp_spiel.checkpoints": "nfsp_spiel.core.checkpoints",
    "nfsp_spiel.checks": "nfsp_spiel.core.checks",
    "nfsp_spiel.distributed": "nfsp_spiel.nfsp.distributed",
    "nfsp_spiel.dqn": "nfsp_spiel.nfsp.dqn",
    "nfsp_spiel.evaluation.curves": "nfsp_spiel.run.curves",
    "nfsp_spiel.evaluation.diagnostics": "nfsp_spiel.evaluation.gaps",
    "nfsp_spiel.fsp": "nfsp_spiel.fictitious_play.fsp",
    "nfsp_spiel.game_tensors": "nfsp_spiel.trees.game_tensors",
    "nfsp_spiel.game_tree": "nfsp_spiel.trees.game_tree",
    "nfsp_spiel.games.hand_ranks": "nfsp_spiel.poker.hand_ranks",
    "nfsp_spiel.networks": "nfsp_spiel.nfsp.networks",
    "nfsp_spiel.nfsp.game_tensors": "nfsp_spiel.trees.game_tensors",
    "nfsp_spiel.nfsp_config": "nfsp_spiel.nfsp.config",
    "nfsp_spiel.openspiel_nfsp": "nfsp_spiel.nfsp.openspiel_nfsp",
    "nfsp_spiel.openspiel_nfsp_tf1": "nfsp_spiel.nfsp.openspiel_nfsp_tf1",
    "nfsp_spiel.public_tree": "nfsp_spiel.trees.public_tree",
    "nfsp_spiel.quiet_tensorflow": "nfsp_spiel.core.quiet_tensorflow",
    "nfsp_spiel.replay_memory": "nfsp_spiel.nfsp.replay_memory",
    "nfsp_spiel.run_directory": "nfsp_spiel.run.run_directory",
    "nfsp_spiel.selfplay": "nfsp_spiel.nfsp.selfplay",
    "nfsp_spiel.sequence_form": "nfsp_spiel.trees.sequence_form",
    "nfsp_spiel.smooth_uct_lhe": "nfsp_spiel.smooth_uct.lhe",
    "nfsp_spiel.xfp": "nfsp_spiel.fictitious_play.xfp",
}


class _MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
  """Imports a module's old name (`MOVED_MODULES`) as its new module: both
  names then hold the same object, so that classes, exceptions and module
  state are shared, not copied."""

  def find_spec(self, name, path=None, target=None):
    del path, target
    if name not in MOVED_MODULES:
      return None
    return importlib.util.spec_from_loader(name, self)

  def create_module(self, spec):
    module = importlib.import_module(MOVED_MODULES[spec.name])
    spec.loader_state = module.__spec__
    return module

  def exec_module(self, module):
    # The import system stamped the old name's spec on the module: give it
    # back its own.
    module.__spec__ = module.__spec__.loader_state


if not any(isinstance(f, _MovedModuleFinder) for f in sys.meta_path):
  sys.meta_path.insert(0, _MovedModuleFinder())


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
