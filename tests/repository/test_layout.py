"""The package's layers, as the import graph shows them (docs/layout.md): no
import cycle, games import no algorithm, each lower layer imports only the
layers below it, no module goes by a name from before the layers, and the
test tree mirrors the package."""

import ast
import pathlib
import re
import subprocess

import pytest

from test_same_numbers import load_data_module

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "nfsp_spiel"
old_names = load_data_module("old_names")


def _modules():
  """Module name -> source path, for the package and the games."""
  modules = {}
  for path in PACKAGE.rglob("*.py"):
    parts = path.relative_to(ROOT).with_suffix("").parts
    modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
  for path in (ROOT / "games").glob("*.py"):
    name = "nfsp_spiel.games" + ("" if path.stem == "__init__"
                                 else f".{path.stem}")
    modules[name] = path
  return modules


def _imports(path, modules):
  """The package modules `path` imports, at module level or inside a
  function: an import deferred into a function still makes the two modules
  depend on each other."""
  found = set()
  for node in ast.walk(ast.parse(path.read_text())):
    names = []
    if isinstance(node, ast.Import):
      names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and node.module:
      # `from package import submodule` depends on the submodule.
      names = [f"{node.module}.{alias.name}" for alias in node.names]
      names = [n if n in modules else node.module for n in names]
    found.update(name for name in names if name in modules)
  return found


def _graph():
  modules = _modules()
  return {name: _imports(path, modules) for name, path in modules.items()}


def test_no_import_cycles():
  graph = _graph()
  index, low, stack, on_stack, cycles = {}, {}, [], set(), []

  def visit(node):  # Tarjan's strongly connected components
    index[node] = low[node] = len(index)
    stack.append(node)
    on_stack.add(node)
    for successor in graph[node]:
      if successor not in index:
        visit(successor)
        low[node] = min(low[node], low[successor])
      elif successor in on_stack:
        low[node] = min(low[node], index[successor])
    if low[node] == index[node]:
      component = []
      while True:
        member = stack.pop()
        on_stack.discard(member)
        component.append(member)
        if member == node:
          break
      if len(component) > 1 or node in graph[node]:
        cycles.append(sorted(component))

  for node in graph:
    if node not in index:
      visit(node)
  assert not cycles


@pytest.mark.parametrize("layer, allowed", [
    ("nfsp_spiel.games", ("nfsp_spiel.games",)),
    ("nfsp_spiel.core", ("nfsp_spiel.core",)),
    ("nfsp_spiel.poker", ("nfsp_spiel.poker",)),
    ("nfsp_spiel.trees", ("nfsp_spiel.trees", "nfsp_spiel.poker",
                          "nfsp_spiel.core", "nfsp_spiel.games")),
    ("nfsp_spiel.evaluation", ("nfsp_spiel.evaluation", "nfsp_spiel.trees",
                               "nfsp_spiel.poker", "nfsp_spiel.core",
                               "nfsp_spiel.games")),
])
def test_lower_layers_import_only_lower_ones(layer, allowed):
  for name, imported in _graph().items():
    if name == layer or name.startswith(layer + "."):
      outside = [m for m in imported
                 if not any(m == a or m.startswith(a + ".") for a in allowed)
                 and m != "nfsp_spiel"]
      assert not outside, f"{name} imports {outside}"


# Old module names in any spelling: dotted, as a path, and imported from
# their package (`from nfsp_spiel import <old name>, ...`).
_OLD_PATH = re.compile(r"\bnfsp_spiel[./](?:%s)\b(?![-\w])" % "|".join(
    re.escape(name.split(".", 1)[1]).replace(r"\.", "[./]")
    for name in sorted(old_names.OLD_MODULES, key=len, reverse=True)))
_FROM_IMPORT = re.compile(
    r"from\s+(nfsp_spiel(?:\.\w+)*)\s+import\s+(\([^)]*\)|[^\n]*)")
# What `nfsp_spiel.evaluation` once lent of the curves, which are
# `nfsp_spiel.run.curves`'.
_CURVE_NAMES = ("curves", "LearningCurveLogger", "cut_curve", "plot_curves",
                "read_curve")
_EVALUATION_CURVES = re.compile(
    r"(?<!nfsp_spiel\.)\bevaluation\.(?:%s)\b" % "|".join(_CURVE_NAMES))
# Recorded output of earlier commits (profiles name the files of their day).
_RECORDS = "benchmarks/results/"


def _old_names_in(text):
  """(line, name) of each old module name in `text`."""
  found = [(m.start(), m.group()) for m in _OLD_PATH.finditer(text)]
  found += [(m.start(), m.group()) for m in _EVALUATION_CURVES.finditer(text)]
  for match in _FROM_IMPORT.finditer(text):
    module, names = match.groups()
    for name in re.split(r"[,\s]+", names.split("#")[0].strip("()")):
      if (f"{module}.{name}" in old_names.OLD_MODULES or
          module == "nfsp_spiel.evaluation" and name in _CURVE_NAMES):
        found.append((match.start(), f"{module}.{name}"))
  return sorted((text.count("\n", 0, at) + 1, name) for at, name in found)


def _without_the_table(path, text):
  """`text`, with tests/data/old_names.py's table of the old names blanked
  out: the one place they stay."""
  if path != pathlib.Path(old_names.__file__).relative_to(ROOT).as_posix():
    return text
  lines = text.split("\n")
  for node in ast.parse(text).body:
    if isinstance(node, ast.Assign) and node.targets[0].id == "OLD_MODULES":
      for k in range(node.lineno - 1, node.end_lineno):
        lines[k] = ""
  return "\n".join(lines)


def test_no_old_module_names_in_the_repository():
  """Code, snippets and pages name modules by their layered paths."""
  files = subprocess.run(
      ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
      cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
  found = []
  for path in files:
    if path.startswith(_RECORDS) or not (ROOT / path).is_file():
      continue
    try:
      text = (ROOT / path).read_text(encoding="utf-8")
    except UnicodeDecodeError:  # binary
      continue
    found += [f"{path}:{line}: {name}" for line, name
              in _old_names_in(_without_the_table(path, text))]
  assert not found, "\n".join(found)


def test_the_old_names_are_found():
  # Spelled with "@" and "EVAL" here, so that this file holds no old name.
  text = ("from @ import nfsp, selfplay\n"
          "`@/smooth_uct_lhe.py`, @.EVAL.curves\n"
          "from @.EVAL import (exploitability,\n"
          "    read_curve)\n"
          "EVAL.plot_curves(...)\n"
          "from @.nfsp import selfplay  # @.smooth_uct.lhe\n").replace(
              "@", "nfsp_spiel").replace("EVAL", "evaluation")
  assert _old_names_in(text) == [
      (line, name.replace("@", "nfsp_spiel").replace("EVAL", "evaluation"))
      for line, name in [(1, "@.selfplay"), (2, "@.EVAL.curves"),
                         (2, "@/smooth_uct_lhe"), (3, "@.EVAL.read_curve"),
                         (5, "EVAL.plot_curves")]]


# --- The test tree mirrors the package (docs/layout.md) ----------------------

TESTS = ROOT / "tests"
# The folders of tests/ that stand for no package module: the documentation
# (README's snippets, the site, the reproduction ledger) and the repository
# itself (its layers, a clone's import). tests/examples/ mirrors examples/.
NOT_MODULES = ("docs", "repository")
# At the top of tests/: the whole package against earlier commits, beside the
# data they read (tests/data/).
TOP_LEVEL = ("test_same_numbers.py", "test_old_checkpoints.py")


def _mirrored(test):
  """The file or folder that a test file's path names, or None:
  tests/<package>/test_<module>.py -> nfsp_spiel/<package>/<module>.py
  (tests/games/ -> games/), tests/<package>/test_<package>.py -> that
  package's __init__.py, tests/examples/test_<binary>.py ->
  examples/<binary>.py, tests/docs/ and tests/repository/ -> themselves."""
  parts = test.relative_to(TESTS).parts
  if len(parts) == 1:
    return test if parts[0] in TOP_LEVEL else None
  folders, name = parts[:-1], parts[-1]
  if not (name.startswith("test_") and name.endswith(".py")):
    return None
  name = name.removeprefix("test_").removesuffix(".py")
  if folders[0] in NOT_MODULES:
    return TESTS / folders[0] if len(folders) == 1 else None
  if folders[0] == "examples":
    source = ROOT / "examples" / f"{name}.py"
  elif folders[0] == "games":
    source = ROOT.joinpath(*folders) / f"{name}.py"
  else:
    source = PACKAGE.joinpath(*folders) / f"{name}.py"
  if not source.is_file() and name == folders[-1]:
    source = source.parent / "__init__.py"
  return source if source.is_file() else None


def _unmirrored(tests):
  return [test.relative_to(TESTS).as_posix() for test in tests
          if _mirrored(test) is None]


def _test_files():
  return sorted(path for path in TESTS.rglob("test_*.py")
                if "data" not in path.relative_to(TESTS).parts[:-1])


def test_the_test_tree_mirrors_the_package():
  """Each test file stands beside the module it tests, so that a module's
  tests are found by its path; each test folder is a package (the same file
  name may stand in two folders, as tests/examples/test_xfp.py and
  tests/fictitious_play/test_xfp.py do)."""
  tests = _test_files()
  assert len(tests) > 40
  assert _unmirrored(tests) == []
  folders = {test.parent for test in tests} - {TESTS}
  assert sorted(folder.relative_to(TESTS).as_posix() for folder in folders
                if not (folder / "__init__.py").is_file()) == []


def test_a_test_file_that_mirrors_nothing_is_found():
  mirrored = ["nfsp/test_agent.py", "smooth_uct/test_lhe.py",
              "games/test_nfsp_lhe.py", "games/test_games.py",
              "examples/test_xfp.py", "docs/test_readme.py",
              "test_same_numbers.py"]
  stray = ["test_smooth_uct_lhe.py", "evaluation/test_diagnostics.py",
           "games/test_conformance.py", "examples/test_examples.py",
           "nfsp/deeper/test_agent.py", "docs/site/test_nav.py",
           "benchmarks/test_speed.py"]
  assert _unmirrored([TESTS / name for name in mirrored + stray]) == stray
