"""Writes docs/reproduction.md, the reproduction ledger, from ledger.toml and the CSVs.

Every result figure and table of the four source documents is one `[[item]]`
of `ledger.toml`: the paper's claim, the numbers it is checked against (each
read from a curve CSV under docs/figures/data/ by a `measure`), and ordered
verdict rules over those numbers. The verdict is the first rule whose
conditions all hold, so a verdict can only change when the data change, and
the page cannot say more than the CSVs do. `tests/test_reproduction_ledger.py`
regenerates the page and fails when it drifts from the data.

  python docs/reproduction/make_ledger.py            # rewrite the page
  python docs/reproduction/make_ledger.py --check    # exit 1 if it is stale
"""

import argparse
import ast
import collections
import csv
import glob
import math
import os
import statistics
import sys
import tomllib

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
MEASURE_KEYS = {"csv", "column", "at", "x", "from", "to", "where", "combine"}
ITEM_KEYS = {"id", "document", "label", "section", "claim", "script", "png",
             "ours", "measures", "verdicts"}


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


def read_one(path, spec, where):
  """The measure `spec` on one CSV file."""
  x_column = spec.get("x", "step")
  rows = [row for row in _rows(path) if _matches(row, spec.get("where", {}))]
  if x_column in (rows[0] if rows else {}):
    low, high = spec.get("from", -math.inf), spec.get("to", math.inf)
    rows = [r for r in rows
            if low <= _number(r[x_column], f"{where} {x_column}") <= high]
  at = spec.get("at", "last")
  if not isinstance(at, str):
    if rows and x_column not in rows[0]:
      raise LedgerError(f"{where}: at={at} needs the x column {x_column!r},"
                        f" which {path} lacks")
    rows = [r for r in rows if _number(r[x_column], where) <= at][-1:]
  if not rows:
    if isinstance(at, str) and ("from" in spec or "to" in spec):
      return math.nan  # a window the run has not reached: no rule uses it
    raise LedgerError(f"{where}: no row of {path} matches")
  if spec["column"] not in rows[0]:
    raise LedgerError(f"{where}: {path} has no column {spec['column']!r}; "
                      f"it has {', '.join(rows[0])}")
  values = [_number(r[spec["column"]], where) for r in rows]
  if isinstance(at, str):
    if at not in REDUCERS:
      raise LedgerError(f"{where}: at={at!r}: expected a number or one of "
                        f"{', '.join(REDUCERS)}")
    return REDUCERS[at](values)
  return values[-1]


def measure(spec, where):
  """One number: the measure on each file its `csv` glob matches, combined."""
  unknown = set(spec) - MEASURE_KEYS
  if unknown or "csv" not in spec or "column" not in spec:
    raise LedgerError(f"{where}: a measure needs csv and column and takes "
                      f"only {', '.join(sorted(MEASURE_KEYS))}; got "
                      f"{', '.join(sorted(spec))}")
  paths = sorted(glob.glob(os.path.join(ROOT, spec["csv"])))
  if not paths:
    raise LedgerError(f"{where}: csv={spec['csv']!r} matches no file")
  combine = spec.get("combine", "mean")
  if combine not in COMBINERS:
    raise LedgerError(f"{where}: combine={combine!r}: expected one of "
                      f"{', '.join(COMBINERS)}")
  return COMBINERS[combine]([read_one(p, spec, where) for p in paths])


_ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp,
            ast.Not, ast.USub, ast.BinOp, ast.Add, ast.Sub, ast.Mult,
            ast.Div, ast.Pow, ast.Compare, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
            ast.Eq, ast.NotEq, ast.Name, ast.Load, ast.Constant, ast.Call)
_FUNCTIONS = {"min": min, "max": max, "abs": abs}


def holds(condition, values, where):
  """Evaluates one verdict condition: arithmetic and comparisons only."""
  try:
    tree = ast.parse(condition, mode="eval")
  except SyntaxError as e:
    raise LedgerError(f"{where}: condition {condition!r}: {e.msg}") from None
  for node in ast.walk(tree):
    if not isinstance(node, _ALLOWED) or (
        isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS)):
      raise LedgerError(f"{where}: condition {condition!r} uses "
                        f"{type(node).__name__}; only arithmetic, comparisons"
                        " and min/max/abs are allowed")
    if isinstance(node, ast.Name) and node.id not in values | _FUNCTIONS.keys():
      raise LedgerError(f"{where}: condition {condition!r} names {node.id!r},"
                        f" which is not a measure of the item")
  return bool(eval(compile(tree, where, "eval"),  # pylint: disable=eval-used
                   {"__builtins__": {}}, {**_FUNCTIONS, **values}))


Row = collections.namedtuple("Row", "item ours verdict reason")


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
  values = {name: measure(spec, f"{where} measure {name!r}")
            for name, spec in item.get("measures", {}).items()}
  try:
    ours = item.get("ours", "").format(**values)
  except (KeyError, ValueError, IndexError) as e:
    raise LedgerError(f"{where}: ours={item.get('ours')!r}: {e}") from None
  for rule in item.get("verdicts", []):
    if rule.get("verdict") not in VERDICTS:
      raise LedgerError(f"{where}: verdict={rule.get('verdict')!r}: expected"
                        f" one of {', '.join(VERDICTS)}")
    if all(holds(c, values, where) for c in rule.get("when", [])):
      return Row(item, ours, rule["verdict"], rule.get("reason", ""))
  raise LedgerError(f"{where}: no verdict rule holds; end the list with one "
                    "that has no `when`")


def _cell(text):
  return " ".join(str(text).split()).replace("|", "\\|")


def _links(item):
  links = [f"[png]({os.path.relpath(os.path.join(ROOT, p), os.path.dirname(PAGE))})"
           for p in item.get("png", [])]
  targets = {}  # a file, or the folder above a glob's wildcards
  for spec in item.get("measures", {}).values():
    target = spec["csv"]
    while any(c in target for c in "*?["):
      target = os.path.dirname(target)
    targets[target] = "csv" if target == spec["csv"] else "csvs"
  for target, name in sorted(targets.items()):
    links.append(f"[{name}]({os.path.relpath(os.path.join(ROOT, target), os.path.dirname(PAGE))})")
  if item.get("script"):
    links.append(f"[script]({os.path.relpath(os.path.join(ROOT, item['script']), os.path.dirname(PAGE))})")
  return " ".join(links)


def render(rows):
  counts = collections.Counter(row.verdict for row in rows)
  lines = [
      "# Reproduction ledger",
      "",
      "Every result figure and table of the four source documents, against "
      "this package's curves. Generated by `python "
      "docs/reproduction/make_ledger.py` from `docs/reproduction/ledger.toml`"
      " (claims, measures and verdict rules) and the CSVs under "
      "`docs/figures/data/`; `tests/test_reproduction_ledger.py` fails when "
      "this page drifts from them. Do not edit it by hand.",
      "",
      "A verdict is the first of the item's rules whose conditions hold on "
      "the measured numbers: **reproduced** (the paper's claim, at a "
      "comparable scale), **direction only** (the ordering or trend agrees, "
      "the level does not), **shorter run** (our run stops before the point "
      "of the claim), **disagrees** (our data contradict it), **missing** (no "
      "data yet), **not reproducible here** (needs something we do not have; "
      "the row names the stand-in).",
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
              "| item | claim | ours | verdict | why | files |",
              "| --- | --- | --- | --- | --- | --- |"]
    for row in mine:
      item = row.item
      lines.append("| " + " | ".join(_cell(c) for c in (
          f"<a id=\"{item['id']}\"></a>{item['label']} "
          f"(sec. {item.get('section', '?')})",
          item["claim"], row.ours or "-", f"**{row.verdict}**", row.reason,
          _links(item))) + " |")
  return "\n".join(lines) + "\n"


def ledger_rows(path=LEDGER):
  with open(path, "rb") as f:
    items = tomllib.load(f).get("item", [])
  ids = [item.get("id") for item in items]
  repeated = sorted({i for i in ids if ids.count(i) > 1})
  if repeated:
    raise LedgerError(f"ledger ids repeated: {', '.join(map(str, repeated))}")
  return [judge(item) for item in items]


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--check", action="store_true",
                      help="exit 1 if docs/reproduction.md is not up to date")
  args = parser.parse_args()
  try:
    rows = ledger_rows()
  except LedgerError as e:
    sys.exit(f"error: {e}")
  page = render(rows)
  if args.check:
    with open(PAGE) as f:
      if f.read() != page:
        sys.exit("docs/reproduction.md is stale: run python "
                 "docs/reproduction/make_ledger.py")
    return
  with open(PAGE, "w") as f:
    f.write(page)
  counts = collections.Counter(row.verdict for row in rows)
  print(f"wrote {PAGE}: " + ", ".join(f"{v} {counts[v]}" for v in VERDICTS))


if __name__ == "__main__":
  main()
