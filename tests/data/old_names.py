"""The names of earlier commits: the package's modules before it was laid
out in layers, Smooth UCT's presets before they were classmethods, and
examples/nfsp.py's flags before they took OpenSpiel's names.

The generators of the old-checkpoint and same-numbers data
(make_same_numbers.py, make_old_checkpoints.py) and
benchmarks/against_commit.py run one piece of code against this tree and
against an earlier commit; the code names modules by their layered names,
which a commit before the layers lacks. `alias_layered_names()`, called after
that commit's `nfsp_spiel` is imported, gives its modules their layered
names too; `smooth_uct_preset` reads a preset in either commit's spelling.
The package itself keeps no old name, and `tests/test_layout.py` fails on an
old module name anywhere else in the repository (`OLD_MODULES` is where it
reads them).
"""

import importlib
import importlib.util
import sys
import types

# old name: layered name
OLD_MODULES = {
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


def _module(name):
  """The module `name`, imported, or a new empty package of that name where
  the commit has none (`nfsp_spiel.trees`, ...)."""
  try:
    return importlib.import_module(name)
  except ModuleNotFoundError:
    package = types.ModuleType(name)
    package.__path__ = []
    sys.modules[name] = package
    parent, _, child = name.rpartition(".")
    setattr(_module(parent), child, package)
    return package


def alias_layered_names():
  """Makes each layered name the imported commit lacks import its old
  module (old modules the commit lacks, or cannot import without an
  optional extra, are left out)."""
  for old, new in OLD_MODULES.items():
    try:
      if importlib.util.find_spec(new) is not None:
        continue  # the commit has it
    except ModuleNotFoundError:  # nor has it the package above
      pass
    try:
      module = importlib.import_module(old)
    except ImportError:
      continue
    sys.modules[new] = module
    parent, _, child = new.rpartition(".")
    setattr(_module(parent), child, module)


# examples/nfsp.py's flags of earlier commits: old flag -> flag. The old
# run folders' commands give the old ones, to the base's binary as they are
# and to the current one renamed (`current_flags`).
RENAMED_NFSP_FLAGS = {
    "--rl_memory": "--replay_buffer_capacity",
    "--sl_memory": "--reservoir_buffer_capacity",
    "--sl_memory_kind": "--reservoir_buffer_kind",
    "--eta": "--anticipatory_param",
    "--min_memory_to_learn": "--min_buffer_size_to_learn",
}


def current_flags(script, flags):
  """`flags` (`--name=value`) of an earlier commit's examples/`script` as
  the current one names them."""
  if script != "nfsp.py":
    return list(flags)
  renamed = []
  for flag in flags:
    name, equals, value = flag.partition("=")
    renamed.append(RENAMED_NFSP_FLAGS.get(name, name) + equals + value)
  return renamed


def smooth_uct_preset(smooth_uct, name):
  """Smooth UCT's preset `name` ("leduc") from the module `smooth_uct`: a
  classmethod of its SmoothUCTConfig, or in a commit before those, the
  module's constant (LEDUC)."""
  preset = getattr(smooth_uct.SmoothUCTConfig, name, None)
  return preset() if callable(preset) else getattr(smooth_uct, name.upper())
