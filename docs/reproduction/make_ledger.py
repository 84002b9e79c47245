"""Writes docs/reproduction.md, the reproduction ledger, from ledger.toml and the CSVs.

Every result figure and table of the four source documents is one `[[item]]`
of `ledger.toml`: the paper's claim, the numbers it is checked against (each
read from a curve CSV under docs/figures/data/ by a `measure`), and ordered
verdict rules over those numbers. The verdict is the first rule whose
conditions all hold, so a verdict can only change when the data or the rules
change, and the page cannot say more than the CSVs do.
`tests/docs/test_reproduction_ledger.py` regenerates the page and fails when it
drifts from the data.

A measure is one number: `column` of the CSV(s) `csv` (a glob; `column` may
be a glob over columns too, e.g. one column per seed), each series reduced by
`at` and the series combined by `combine`. `at` is a reducer name (last,
first, min, max, mean, stderr, roughness), a number (the last row at or
before that step), or "x:<expression>" (the row at that step, within
SAME_X of it; the expression may name the item's other measures, so two
sides of a claim are read at one x). `from`/`to` bound the rows (numbers or
"x:<expression>"), `every` keeps one row per interval of that many steps (so
curves logged at different spacings are compared at the same one), `where`
selects rows by column values. A measure `{ shared = [globs] }` is instead
the largest step that every file of those globs has a row at: the largest x
both sides of a comparison have. A measure `{ above = [glob_a, glob_b],
column = ... }` reads a claim about whole curves at every x both sides have:
at each step every file of both globs logged, side a's lower band edge (its
files' mean minus their standard error) minus side b's upper one, and the
largest of those (`give = "step"`: the step where it is largest), so a
positive value says side a lay above side b beyond the seed bands somewhere.

Numbers in a row's text come only from measures or from two named tables:
`[item.paper]`, the paper's own numbers and settings, and `[item.rule]`, the
constants of the verdict rules; both are written `{paper.name}` /
`{rule.name}` in `ours` and `reason`, and `paper.name` / `rule.name` in a
condition, so a threshold the reason quotes is the one the rule uses.

Each row also shows, from git, when its rule (its verdict conditions and the
measures and constants they read) and its data (the CSVs its measures read)
last changed, so a reader sees whether the rule predates the data.

  python docs/reproduction/make_ledger.py            # rewrite the page
  python docs/reproduction/make_ledger.py --check    # exit 1 if it is stale
"""

import argparse
import ast
import collections
import csv
import fnmatch
import glob
import json
import math
import os
import statistics
import subprocess
import sys
import tomllib
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LEDGER = os.path.join(HERE, "ledger.toml")
PAGE = os.path.join(ROOT, "docs", "reproduction.md")

VERDICTS = ("reproduced", "direction only", "shorter run", "disagrees",
            "missing", "not reproducible here")
DOCUMENTS = {
    "thesis": "Heinrich, PhD thesis (2017)",
    "icml2015": "Heinrich, Lanctot & Silver, ICML 2015 (XFP, FSP)",
    "nfsp2016": "Heinrich & Silver, NFSP (2016)",
    "nfsp_arm": "Chen et al., NFSP-ARM",
}


def _standard_error(values):
  """The standard error of the mean of `values` (ddof 1; nan for one value):
  the half-width of the seed bands the figures shade (figure_runs.draw_seeds,
  through nfsp_spiel.run.curves.band_columns)."""
  if len(values) < 2:
    return math.nan
  return statistics.stdev(values) / math.sqrt(len(values))


def _roughness(values):
  """How much a curve jumps between consecutive points: the standard
  deviation (ddof 1) of the differences of log10(values), so a trend adds
  nothing to it and the scale of the values does not matter (a "noisy
  performance" claim, compared window against window)."""
  if len(values) < 3 or min(values) <= 0:
    return math.nan
  logs = [math.log10(v) for v in values]
  return statistics.stdev(b - a for a, b in zip(logs, logs[1:]))


REDUCERS = {"last": lambda v: v[-1], "first": lambda v: v[0], "min": min,
            "max": max, "mean": lambda v: sum(v) / len(v),
            "stderr": _standard_error, "roughness": _roughness}
COMBINERS = {"mean": lambda v: sum(v) / len(v), "min": min, "max": max,
             "count": len, "stderr": _standard_error}
MEASURE_KEYS = {"csv", "column", "at", "x", "from", "to", "where", "combine",
                "every"}
SHARED_KEYS = {"shared", "x", "to"}
ABOVE_KEYS = {"above", "column", "x", "give"}
ITEM_KEYS = {"id", "document", "label", "section", "claim", "script", "png",
             "ours", "measures", "verdicts", "paper", "rule"}
CONSTANTS = ("paper", "rule")  # the item's named tables of cited numbers
# Two logs' points count as the same x when this close (relative): runs log
# at their own episode counts (1000002 and 1000004 are both "1M").
SAME_X = 0.01


class LedgerError(ValueError):
  """A ledger entry that cannot be read: names the item and what is wrong."""


def _rows(path):
  with open(path, newline="") as f:
    return list(csv.DictReader(f))


def _number(text, where):
  try:
    return float(text)
  except (TypeError, ValueError):
    raise LedgerError(f"{where}: {text!r} is not a number") from None


def _matches(row, where):
  return all(row.get(column) == str(value) for column, value in where.items())


class _Step(float):
  """A step given as "x:<expression>": read the row logged at it, not the
  last one before it, so both sides of a comparison are read at one x."""


def _every(rows, x_column, every, where):
  """The first row of each interval of `every` steps."""
  kept, last = [], None
  for row in rows:
    interval = _number(row[x_column], where) // every
    if interval != last:
      kept.append(row)
      last = interval
  return kept


def _at_step(rows, x_column, step, path, where):
  """The row logged at `step`, within SAME_X of it."""
  nearest = min(rows, default=None,
                key=lambda r: abs(_number(r[x_column], where) - step))
  if nearest is None or (abs(_number(nearest[x_column], where) - step)
                         > SAME_X * abs(step)):
    raise LedgerError(f"{where}: {path} has no row at {x_column} {step:g} "
                      f"(within {SAME_X:.0%})")
  return [nearest]


def read_one(path, spec, where):
  """The measure `spec` on one CSV file: one number per column it matches."""
  x_column = spec.get("x", "step")
  at = spec.get("at", "last")
  if isinstance(at, str) and at not in REDUCERS:
    raise LedgerError(f"{where}: at={at!r}: expected a number, \"x:<expression>\""
                      f" or one of {', '.join(REDUCERS)}")
  rows = [row for row in _rows(path) if _matches(row, spec.get("where", {}))]
  if x_column in (rows[0] if rows else {}):
    low, high = spec.get("from", -math.inf), spec.get("to", math.inf)
    rows = [r for r in rows
            if low <= _number(r[x_column], f"{where} {x_column}") <= high]
    if "every" in spec:
      rows = _every(rows, x_column, spec["every"], where)
  elif rows and (not isinstance(at, str) or "every" in spec):
    raise LedgerError(f"{where}: at={at} or every needs the x column "
                      f"{x_column!r}, which {path} lacks")
  if isinstance(at, _Step) and rows:
    rows = _at_step(rows, x_column, at, path, where)
  elif not isinstance(at, str):
    rows = [r for r in rows if _number(r[x_column], where) <= at][-1:]
  if not rows:
    if isinstance(at, str) and ("from" in spec or "to" in spec):
      return [math.nan]  # a window the run has not reached: no rule uses it
    raise LedgerError(f"{where}: no row of {path} matches")
  columns = [c for c in rows[0] if fnmatch.fnmatchcase(c, spec["column"])]
  if not columns:
    raise LedgerError(f"{where}: {path} has no column {spec['column']!r}; "
                      f"it has {', '.join(rows[0])}")
  numbers = []
  for column in columns:
    values = [_number(r[column], where) for r in rows]
    numbers.append(REDUCERS[at](values) if isinstance(at, str) else values[-1])
  return numbers


def _paths(pattern, where):
  paths = sorted(glob.glob(os.path.join(ROOT, pattern)))
  if not paths:
    raise LedgerError(f"{where}: csv={pattern!r} matches no file")
  return paths


def _common_steps(steps):
  """The steps of the first list that every other list has, within SAME_X."""
  return [x for x in steps[0] if all(
      any(abs(y - x) <= SAME_X * abs(x) for y in other) for other in steps[1:])]


def _above(spec, where):
  """The `above` measure (module docstring): how far side a's band lies above
  side b's, at the x both have where it lies furthest, or that x."""
  unknown = set(spec) - ABOVE_KEYS
  give = spec.get("give", "excess")
  if (unknown or not isinstance(spec["above"], list) or len(spec["above"]) != 2
      or "column" not in spec or give not in ("excess", "step")):
    raise LedgerError(f"{where}: an above measure is two globs and a column, "
                      f"give \"excess\" or \"step\", and takes only "
                      f"{', '.join(sorted(ABOVE_KEYS))}")
  x_column = spec.get("x", "step")
  sides = [[(path, _rows(path)) for path in _paths(pattern, where)]
           for pattern in spec["above"]]
  for path, rows in (pair for side in sides for pair in side):
    for column in (x_column, spec["column"]):
      if column not in (rows[0] if rows else {}):
        raise LedgerError(f"{where}: {path} has no column {column!r}")
  steps = _common_steps([[_number(r[x_column], where) for r in rows]
                         for side in sides for _, rows in side])
  if not steps:
    raise LedgerError(f"{where}: the files of {spec['above']} share no step")

  def band(side, x):
    values = [_number(_at_step(rows, x_column, x, path, where)[0][
        spec["column"]], where) for path, rows in side]
    error = _standard_error(values) if len(values) > 1 else 0.0
    return sum(values) / len(values), error

  def excess(x):
    (mean_a, error_a), (mean_b, error_b) = band(sides[0], x), band(sides[1], x)
    return (mean_a - error_a) - (mean_b + error_b)

  excesses = {x: excess(x) for x in steps}
  step = max(excesses, key=excesses.get)
  return excesses[step] if give == "excess" else step


def _shared_step(spec, where):
  """The largest step (at most `to`) that every file of the `shared` globs
  has a row at, within SAME_X."""
  unknown = set(spec) - SHARED_KEYS
  if unknown or not isinstance(spec["shared"], list):
    raise LedgerError(f"{where}: a shared measure is a list of globs and takes"
                      f" only {', '.join(sorted(SHARED_KEYS))}")
  x_column = spec.get("x", "step")
  steps = []
  for pattern in spec["shared"]:
    for path in _paths(pattern, where):
      rows = _rows(path)
      if not rows or x_column not in rows[0]:
        raise LedgerError(f"{where}: {path} has no column {x_column!r}")
      steps.append([_number(r[x_column], where) for r in rows])
  common = [x for x in _common_steps(steps)
            if x <= spec.get("to", math.inf)]
  if not common:
    raise LedgerError(f"{where}: the files of {spec['shared']} share no step")
  return max(common)


def measure(spec, where):
  """One number: the measure on each file its `csv` glob matches (each column
  its `column` glob matches), combined."""
  if "shared" in spec:
    return _shared_step(spec, where)
  if "above" in spec:
    return _above(spec, where)
  unknown = set(spec) - MEASURE_KEYS
  if unknown or "csv" not in spec or "column" not in spec:
    raise LedgerError(f"{where}: a measure needs csv and column and takes "
                      f"only {', '.join(sorted(MEASURE_KEYS))}; got "
                      f"{', '.join(sorted(spec))}")
  combine = spec.get("combine", "mean")
  if combine not in COMBINERS:
    raise LedgerError(f"{where}: combine={combine!r}: expected one of "
                      f"{', '.join(COMBINERS)}")
  return COMBINERS[combine]([value for path in _paths(spec["csv"], where)
                             for value in read_one(path, spec, where)])


_ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp,
            ast.Not, ast.USub, ast.BinOp, ast.Add, ast.Sub, ast.Mult,
            ast.Div, ast.Pow, ast.Compare, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
            ast.Eq, ast.NotEq, ast.Name, ast.Load, ast.Constant, ast.Call,
            ast.Attribute)
_FUNCTIONS = {"min": min, "max": max, "abs": abs}


def _parse(expression, where):
  try:
    return ast.parse(expression, mode="eval")
  except SyntaxError as e:
    raise LedgerError(f"{where}: condition {expression!r}: {e.msg}") from None


def _names(expression):
  """The measure names an expression reads."""
  return {node.id for node in ast.walk(ast.parse(expression, mode="eval"))
          if isinstance(node, ast.Name)} - _FUNCTIONS.keys() - set(CONSTANTS)


def evaluate(expression, values, where, constants=None):
  """The value of a condition or step expression: arithmetic, comparisons,
  min/max/abs, the item's measures and its `paper.x` / `rule.x` constants."""
  constants = constants or {}
  tree = _parse(expression, where)
  for node in ast.walk(tree):
    bad_call = isinstance(node, ast.Call) and not (
        isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS)
    bad_attribute = isinstance(node, ast.Attribute) and not (
        isinstance(node.value, ast.Name) and node.value.id in CONSTANTS)
    if not isinstance(node, _ALLOWED) or bad_call or bad_attribute:
      raise LedgerError(f"{where}: condition {expression!r} uses "
                        f"{type(node).__name__}; only arithmetic, comparisons,"
                        " min/max/abs and paper.x / rule.x are allowed")
    if isinstance(node, ast.Attribute) and not hasattr(
        constants.get(node.value.id), node.attr):
      raise LedgerError(f"{where}: condition {expression!r} names "
                        f"{node.value.id}.{node.attr}, which the item's "
                        f"[item.{node.value.id}] table lacks")
    if isinstance(node, ast.Name) and node.id not in (
        values.keys() | _FUNCTIONS.keys() | set(CONSTANTS)):
      raise LedgerError(f"{where}: condition {expression!r} names {node.id!r},"
                        f" which is not a measure of the item")
  return eval(compile(tree, where, "eval"),  # pylint: disable=eval-used
              {"__builtins__": {}}, {**_FUNCTIONS, **constants, **values})


def holds(condition, values, where, constants=None):
  """Evaluates one verdict condition."""
  return bool(evaluate(condition, values, where, constants))


def _steps(spec):
  """The "x:<expression>" steps of a measure, by key."""
  return {key: spec[key][2:] for key in ("at", "from", "to")
          if isinstance(spec.get(key), str) and spec[key].startswith("x:")}


def _measure_values(item, constants, where):
  """Every measure of the item, a measure's "x:" steps after the measures
  they name."""
  specs = item.get("measures", {})
  values = {}

  def resolve(name, pending):
    if name in values:
      return
    if name in pending:
      raise LedgerError(f"{where}: measures {' -> '.join(pending + (name,))}"
                        " read each other's steps")
    spec = dict(specs[name])
    for key, expression in _steps(spec).items():
      for dependency in _names(expression) & specs.keys():
        resolve(dependency, pending + (name,))
      step = evaluate(expression, values, f"{where} measure {name!r}",
                      constants)
      spec[key] = _Step(step) if key == "at" else step
    values[name] = measure(spec, f"{where} measure {name!r}")

  for name in specs:
    if name in CONSTANTS:
      raise LedgerError(f"{where}: a measure may not be called {name!r}")
    resolve(name, ())
  return values


Row = collections.namedtuple("Row", "item ours verdict reason")


def _constants(item, where):
  tables = {}
  for name in CONSTANTS:
    table = item.get(name, {})
    if not isinstance(table, dict):
      raise LedgerError(f"{where}: {name} must be a table")
    tables[name] = types.SimpleNamespace(**table)
  return tables


def _fill(text, fields, where, key):
  try:
    return text.format(**fields)
  except (AttributeError, KeyError, ValueError, IndexError) as e:
    raise LedgerError(f"{where}: {key}={text!r}: {e!r}") from None


def judge(item):
  """The item's measured numbers, its `ours` text, verdict and reason."""
  where = f"ledger item {item.get('id', '?')!r}"
  unknown = set(item) - ITEM_KEYS
  if unknown:
    raise LedgerError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
  if item.get("document") not in DOCUMENTS:
    raise LedgerError(f"{where}: document={item.get('document')!r}: expected "
                      f"one of {', '.join(DOCUMENTS)}")
  for path in item.get("png", []) + [item.get("script") or ""]:
    if path and not os.path.exists(os.path.join(ROOT, path)):
      raise LedgerError(f"{where}: {path} does not exist")
  constants = _constants(item, where)
  values = _measure_values(item, constants, where)
  fields = {**values, **constants}
  ours = _fill(item.get("ours", ""), fields, where, "ours")
  for rule in item.get("verdicts", []):
    if rule.get("verdict") not in VERDICTS:
      raise LedgerError(f"{where}: verdict={rule.get('verdict')!r}: expected"
                        f" one of {', '.join(VERDICTS)}")
    if all(holds(c, values, where, constants) for c in rule.get("when", [])):
      return Row(item, ours, rule["verdict"],
                 _fill(rule.get("reason", ""), fields, where, "reason"))
  raise LedgerError(f"{where}: no verdict rule holds; end the list with one "
                    "that has no `when`")


class _Inline(ast.NodeTransformer):
  """Writes an expression's named constants as their values and every number
  as a float, so a condition's meaning, not its spelling, is what counts."""

  def __init__(self, item):
    self.item = item

  def visit_Attribute(self, node):
    if isinstance(node.value, ast.Name) and node.value.id in CONSTANTS:
      return self.visit(ast.Constant(
          self.item.get(node.value.id, {}).get(node.attr)))
    return self.generic_visit(node)

  def visit_Constant(self, node):
    number = isinstance(node.value, (int, float)) and not isinstance(
        node.value, bool)
    return ast.Constant(float(node.value)) if number else node


def _meaning(expression, item):
  """`expression` with its constants inlined, in one spelling; unreadable
  text as it is (judge() reports it; an old version's error is history)."""
  try:
    tree = ast.parse(expression, mode="eval")
  except SyntaxError:
    return expression
  return ast.unparse(_Inline(item).visit(tree))


def rule_fingerprint(item):
  """What decides the item's verdict besides the data: its rules' verdicts and
  conditions, the measures those read (and the measures their steps name),
  and the values of the constants they name. Not the reasons' or `ours`'
  wording, so rewording a reason is not a change of the rule, and not the
  spelling of a condition: naming a threshold `rule.x` that was written as its
  value is not one either."""
  specs = item.get("measures", {})
  rules = [[r.get("verdict"), [_meaning(c, item) for c in r.get("when", [])]]
           for r in item.get("verdicts", [])]
  pending = [c for _, when in rules for c in when]
  names = set()
  while pending:
    try:
      tree = ast.parse(pending.pop(), mode="eval")
    except SyntaxError:
      continue
    for node in ast.walk(tree):
      if (isinstance(node, ast.Name) and node.id in specs
          and node.id not in names):
        names.add(node.id)
        pending += [_meaning(step, item)
                    for step in _steps(specs[node.id]).values()]
  measures = {}
  for name in names:
    spec = dict(specs[name])
    for key, step in _steps(spec).items():
      spec[key] = "x:" + _meaning(step, item)
    measures[name] = spec
  return json.dumps([rules, measures], sort_keys=True)


Change = collections.namedtuple("Change", "order label")
# A change still in the working tree: it goes into the commit that carries the
# regenerated page, which the page cannot name.
WITH_PAGE = Change(math.inf, "with this page")


def _git(*args, stdin=None):
  return subprocess.run(["git", "-C", ROOT, *args], input=stdin, check=True,
                        capture_output=True).stdout


class Provenance:
  """When each item's rule and data last changed, from git."""

  def __init__(self):
    self.order = {commit: -i for i, commit in enumerate(
        _git("rev-list", "--topo-order", "HEAD").decode().split())}
    self.dirty = set()
    entries = iter(_git("status", "--porcelain=v1", "-z",
                        "--untracked-files=all").decode().split("\0"))
    for entry in entries:
      if entry:
        self.dirty.add(entry[3:])
        if entry[0] in "RC":
          next(entries)  # a rename's or copy's source path
    page = os.path.relpath(PAGE, ROOT)
    self.page_commit = None if page in self.dirty else (
        _git("log", "-1", "--format=%H", "--", page).decode().strip() or None)
    self.labels = {}
    self.data = {}
    current = None
    for line in _git("log", "--format=commit %H %cs %h", "--name-only", "--",
                     "docs/figures/data").decode().splitlines():
      if line.startswith("commit "):
        current = self._change(*line.split()[1:])
      elif line and line not in self.data:
        self.data[line] = current
    self.rules = self._rule_history()

  def _change(self, commit, date, short):
    if commit == self.page_commit:
      return Change(self.order[commit], WITH_PAGE.label)
    return Change(self.order.get(commit, -math.inf), f"{date} {short}")

  def _rule_history(self):
    """Per item id, its rule fingerprint in each committed version of the
    ledger, newest first, with the commit."""
    ledger = os.path.relpath(LEDGER, ROOT)
    commits = [line.split() for line in _git(
        "log", "--format=%H %cs %h", "--", ledger).decode().splitlines()]
    blobs = _git("cat-file", "--batch", stdin="".join(
        f"{c[0]}:{ledger}\n" for c in commits).encode())
    history = collections.defaultdict(list)
    for commit in commits:
      header, _, blobs = blobs.partition(b"\n")
      fields = header.split()
      if fields[1:2] != [b"blob"]:
        continue  # "<name> missing": no content follows
      size = int(fields[2])
      text, blobs = blobs[:size], blobs[size + 1:]
      try:
        items = tomllib.loads(text.decode()).get("item", [])
      except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        items = []  # an unreadable version changes no item's history
      for item in items:
        history[item.get("id")].append((rule_fingerprint(item), commit))
    return history

  def rule(self, item):
    """The last change of the item's rule."""
    fingerprint = rule_fingerprint(item)
    since = None
    for version, commit in self.rules.get(item["id"], []):
      if version != fingerprint:
        break
      since = commit
    return WITH_PAGE if since is None else self._change(*since)

  def data_of(self, paths):
    """The last change of any of `paths` (relative to the root)."""
    changes = [WITH_PAGE if path in self.dirty or path not in self.data
               else self.data[path] for path in paths]
    return max(changes, default=None)


def _patterns(spec):
  """The CSV globs a measure reads."""
  return spec.get("shared") or spec.get("above") or [spec["csv"]]


def _csv_paths(item):
  return sorted({os.path.relpath(path, ROOT)
                 for spec in item.get("measures", {}).values()
                 for pattern in _patterns(spec)
                 for path in glob.glob(os.path.join(ROOT, pattern))})


def provenance():
  """A Provenance, or None where git or the history is not available."""
  try:
    if _git("rev-parse", "--is-shallow-repository").strip() != b"false":
      return None  # a shallow clone's history stops early: dates would lie
    return Provenance()
  except (OSError, subprocess.CalledProcessError):
    return None


def _history(item, known):
  if known is None:
    return "no git history"
  rule, data = known.rule(item), known.data_of(_csv_paths(item))
  if data is None:
    return f"rule {rule.label}; no data"
  if rule.order < data.order:
    relation = "the rule predates the data"
  elif rule.order > data.order:
    relation = "**the rule changed after the data**"
  else:
    relation = "rule and data in one commit"
  return f"rule {rule.label}; data {data.label}: {relation}"


def _cell(text):
  return " ".join(str(text).split()).replace("|", "\\|")


def _links(item):
  links = [f"[png]({os.path.relpath(os.path.join(ROOT, p), os.path.dirname(PAGE))})"
           for p in item.get("png", [])]
  targets = {}  # a file, or the folder above a glob's wildcards
  for spec in item.get("measures", {}).values():
    for pattern in _patterns(spec):
      target = pattern
      while any(c in target for c in "*?["):
        target = os.path.dirname(target)
      targets[target] = "csv" if target == pattern else "csvs"
  for target, name in sorted(targets.items()):
    links.append(f"[{name}]({os.path.relpath(os.path.join(ROOT, target), os.path.dirname(PAGE))})")
  if item.get("script"):
    links.append(f"[script]({os.path.relpath(os.path.join(ROOT, item['script']), os.path.dirname(PAGE))})")
  return " ".join(links)


def render(rows, known):
  """The page; `known` is a Provenance, or None without git history."""
  counts = collections.Counter(row.verdict for row in rows)
  lines = [
      "# Reproduction ledger",
      "",
      "Every result figure and table of the four source documents, against "
      "this package's curves. Generated by `python "
      "docs/reproduction/make_ledger.py` from `docs/reproduction/ledger.toml`"
      " (claims, measures and verdict rules) and the CSVs under "
      "`docs/figures/data/`; `tests/docs/test_reproduction_ledger.py` fails "
      "when this page drifts from them. Do not edit it by hand.",
      "",
      "A verdict is the first of the item's rules whose conditions hold on "
      "the measured numbers: **reproduced** (the paper's claim, at a "
      "comparable scale), **direction only** (the ordering or trend agrees, "
      "the level does not), **shorter run** (our run stops before the point "
      "of the claim), **disagrees** (our data contradict it), **missing** (no "
      "data yet), **not reproducible here** (needs something we do not have; "
      "the row names the stand-in).",
      "",
      "The last column says, from git, when the item's rule (its verdict "
      "conditions and the measures and constants they read; not the wording "
      "of its reasons) and its data (the CSVs its measures read) last changed:"
      " commit date and hash, or *with this page* for a change in the commit "
      "that carries this page, and whether the rule predates the data. A rule "
      "changed after the data says why in its reason.",
      "",
      "| " + " | ".join(f"{v}: {counts[v]}" for v in VERDICTS) + " | total: "
      f"{len(rows)} |",
      "|" + " --- |" * (len(VERDICTS) + 1),
  ]
  for document, title in DOCUMENTS.items():
    mine = [row for row in rows if row.item["document"] == document]
    if not mine:
      continue
    lines += ["", f"## {title}", "",
              "| item | claim | ours | verdict | why | files | rule and data |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for row in mine:
      item = row.item
      lines.append("| " + " | ".join(_cell(c) for c in (
          f"<a id=\"{item['id']}\"></a>{item['label']} "
          f"(sec. {item.get('section', '?')})",
          item["claim"], row.ours or "-", f"**{row.verdict}**", row.reason,
          _links(item), _history(item, known))) + " |")
  return "\n".join(lines) + "\n"


def ledger_rows(path=LEDGER):
  with open(path, "rb") as f:
    items = tomllib.load(f).get("item", [])
  ids = [item.get("id") for item in items]
  repeated = sorted({i for i in ids if ids.count(i) > 1})
  if repeated:
    raise LedgerError(f"ledger ids repeated: {', '.join(map(str, repeated))}")
  return [judge(item) for item in items]


def page():
  """The page for the current ledger, data and git history."""
  return render(ledger_rows(), provenance())


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--check", action="store_true",
                      help="exit 1 if docs/reproduction.md is not up to date")
  args = parser.parse_args()
  try:
    rows = ledger_rows()
  except LedgerError as e:
    sys.exit(f"error: {e}")
  known = provenance()
  if known is None:
    print("warning: no full git history here (not a checkout, a shallow "
          "clone, or no git): the page says 'no git history' where it names "
          "when each rule and its data last changed", file=sys.stderr)
  text = render(rows, known)
  if args.check:
    with open(PAGE) as f:
      if f.read() != text:
        sys.exit("docs/reproduction.md is stale: run python "
                 "docs/reproduction/make_ledger.py")
    return
  with open(PAGE, "w") as f:
    f.write(text)
  counts = collections.Counter(row.verdict for row in rows)
  print(f"wrote {PAGE}: " + ", ".join(f"{v} {counts[v]}" for v in VERDICTS))


if __name__ == "__main__":
  main()
