"""The package's layers, as the import graph shows them (issue 27,
docs/layout.md): no module-level import cycle, games import no algorithm,
each lower layer imports only the layers below it, and every module's old
name still imports as the same module."""

import ast
import importlib
import pathlib

import pytest

import nfsp_spiel

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nfsp_spiel"


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
  """The package modules `path` imports at module level (an import inside a
  function runs later and forms no import-time cycle)."""
  found = set()
  for node in ast.parse(path.read_text()).body:
    for inner in ast.walk(node):
      if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
        break
      names = []
      if isinstance(inner, ast.Import):
        names = [alias.name for alias in inner.names]
      elif isinstance(inner, ast.ImportFrom) and inner.module:
        # `from package import submodule` depends on the submodule.
        names = [f"{inner.module}.{alias.name}" for alias in inner.names]
        names = [n if n in modules or n in nfsp_spiel.MOVED_MODULES
                 else inner.module for n in names]
      for name in names:
        name = nfsp_spiel.MOVED_MODULES.get(name, name)
        if name in modules:
          found.add(name)
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


@pytest.mark.parametrize("old, new", sorted(nfsp_spiel.MOVED_MODULES.items()))
def test_old_module_names_import_the_same_module(old, new):
  module = importlib.import_module(old)
  assert module is importlib.import_module(new)
  assert module.__name__ == new and module.__spec__.name == new
