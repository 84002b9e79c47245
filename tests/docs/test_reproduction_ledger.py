"""The reproduction ledger (docs/reproduction.md) says what the CSVs say.

The page is generated from docs/reproduction/ledger.toml, the curve CSVs and
git's record of when each rule and its data last changed; it must equal a
fresh generation, so a changed curve, claim or verdict rule that is not
regenerated fails here, and so does a verdict the numbers no longer support.
"""

import copy
import importlib.util
import math
import os
import re
import subprocess
import sys
import tomllib

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_SPEC = importlib.util.spec_from_file_location(
    "make_ledger", os.path.join(ROOT, "docs", "reproduction", "make_ledger.py"))
make_ledger = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(make_ledger)


# One item per result figure and table of the four documents, counted from
# the papers: thesis figs. 3.2-3.5, 4.3-4.7, 5.1-5.4, 6.5-6.8 and tables 3.2,
# 3.3 (its figs. 6.1-6.4 and table 6.1 are the NFSP paper's and ledgered
# there); ICML 2015 figs. 1-3; NFSP figs. 1a-1c, 2a, 3a, 3b and table 2b;
# NFSP-ARM figs. 3-7 (1 and 2 are diagrams) and tables 1, 2.
ITEMS = (
    ["thesis-fig3.2", "thesis-fig3.3", "thesis-fig3.4", "thesis-fig3.5",
     "thesis-table3.2", "thesis-table3.3"]
    + [f"thesis-fig4.{k}" for k in range(3, 8)]
    + [f"thesis-fig5.{k}" for k in range(1, 5)]
    + [f"thesis-fig6.{k}" for k in range(5, 9)]
    + [f"icml2015-fig{k}" for k in range(1, 4)]
    + ["nfsp2016-fig1a", "nfsp2016-fig1b", "nfsp2016-fig1c", "nfsp2016-fig2a",
       "nfsp2016-table2b", "nfsp2016-fig3a", "nfsp2016-fig3b"]
    + [f"nfsp_arm-fig{k}" for k in range(3, 8)]
    + ["nfsp_arm-table1", "nfsp_arm-table2"])


def _needs_history():
  if make_ledger.provenance() is None:
    pytest.skip("no full git history: the page names commits from it")


def test_the_page_is_generated_from_the_current_data():
  _needs_history()
  with open(make_ledger.PAGE) as f:
    page = f.read()
  assert page == make_ledger.page(), (
      "docs/reproduction.md is stale: run python docs/reproduction/"
      "make_ledger.py")


def test_the_generators_check_passes():
  _needs_history()
  done = subprocess.run([sys.executable, os.path.join(
      ROOT, "docs", "reproduction", "make_ledger.py"), "--check"],
                        capture_output=True, text=True, check=False)
  assert done.returncode == 0, done.stderr


def test_every_result_figure_and_table_has_one_item():
  ids = [row.item["id"] for row in make_ledger.ledger_rows()]
  assert sorted(ids) == sorted(ITEMS)


def _ledger_items():
  with open(make_ledger.LEDGER, "rb") as f:
    return tomllib.load(f)["item"]


def test_a_flipped_rule_or_a_deleted_item_changes_the_page():
  _needs_history()
  items = _ledger_items()
  known = make_ledger.provenance()
  page = make_ledger.render([make_ledger.judge(i) for i in items], known)
  flipped = copy.deepcopy(items)
  fig34 = next(i for i in flipped if i["id"] == "thesis-fig3.4")
  fig34["verdicts"][0]["when"] = []
  row = make_ledger.judge(fig34)
  assert row.verdict == "reproduced"
  assert "with this page" in make_ledger._history(fig34, known)
  assert make_ledger.render([make_ledger.judge(i) for i in flipped],
                            known) != page
  assert make_ledger.render([make_ledger.judge(i) for i in items[1:]],
                            known) != page


def test_a_rules_fingerprint_ignores_wording_not_conditions_or_measures():
  item = next(i for i in _ledger_items() if i["id"] == "thesis-fig3.4")
  before = make_ledger.rule_fingerprint(item)
  reworded = copy.deepcopy(item)
  reworded["verdicts"][0]["reason"] += " (reworded)"
  reworded["ours"] = "other words"
  assert make_ledger.rule_fingerprint(reworded) == before
  for change in (lambda i: i["verdicts"][0]["when"].append("g0 < 1"),
                 lambda i: i["verdicts"].reverse(),
                 lambda i: i["measures"]["g0_end"].update(at="min")):
    changed = copy.deepcopy(item)
    change(changed)
    assert make_ledger.rule_fingerprint(changed) != before


def test_a_rules_fingerprint_reads_named_constants_as_their_values():
  item = {"id": "x", "measures": {"e": {"csv": "c", "column": "e"}},
          "verdicts": [{"verdict": "reproduced", "when": ["e < 0.017*2"]}]}
  before = make_ledger.rule_fingerprint(item)
  named = copy.deepcopy(item)
  named["rule"] = {"twice": 2}
  named["verdicts"][0]["when"] = ["e < 0.017 * rule.twice"]
  assert make_ledger.rule_fingerprint(named) == before
  named["rule"]["twice"] = 3
  assert make_ledger.rule_fingerprint(named) != before


def test_without_git_history_the_page_says_so(tmp_path, monkeypatch):
  monkeypatch.setattr(make_ledger, "ROOT", str(tmp_path))
  assert make_ledger.provenance() is None
  assert make_ledger._history({"id": "x"}, None) == "no git history"


def test_every_document_and_verdict_vocabulary_is_used_as_defined():
  rows = make_ledger.ledger_rows()
  assert {row.item["document"] for row in rows} == set(make_ledger.DOCUMENTS)
  for row in rows:
    assert row.verdict in make_ledger.VERDICTS
    assert row.reason, row.item["id"]
    if row.verdict != "missing":
      assert row.item.get("measures") or row.verdict == "not reproducible here", (
          f"{row.item['id']}: a verdict other than missing needs measured data")


def test_readme_links_the_ledger_and_its_rows_exist():
  with open(os.path.join(ROOT, "README.md")) as f:
    readme = f.read()
  assert "docs/reproduction.md" in readme.split("\n## ")[0]
  ids = {row.item["id"] for row in make_ledger.ledger_rows()}
  cited = set(re.findall(r"docs/reproduction\.md#([\w.\-]+)", readme))
  assert cited, "README quotes no ledger row"
  assert cited <= ids, f"README cites rows the ledger lacks: {cited - ids}"


def _write(tmp_path, name, text):
  path = tmp_path / name
  path.write_text(text)
  return os.path.relpath(path, make_ledger.ROOT)


@pytest.fixture(name="curve")
def fixture_curve(tmp_path):
  return _write(tmp_path, "curve.csv",
                "step,exploitability\n10,2.0\n100,1.0\n1000,0.5\n")


def test_a_measure_reads_the_row_at_or_before_its_point(curve):
  read = lambda **kw: make_ledger.measure(
      {"csv": curve, "column": "exploitability", **kw}, "t")
  assert read(at="last") == 0.5
  assert read(at="first") == 2.0
  assert read(at=999) == 1.0
  assert read(at=1000) == 0.5
  assert read(at="mean", **{"from": 100}) == 0.75
  assert read(at="max", to=100) == 2.0


def test_roughness_is_the_spread_of_log_steps_not_the_trend(tmp_path):
  # A decade down every step has no roughness, however steep; two decades
  # then none (log steps -2, 0, -2, 0, -2) has the steps' sd, sqrt(1.2).
  for name, exponents, expected in (("smooth", range(6), 0.0),
                                    ("jumpy", (0, 2, 2, 4, 4, 6), 1.2 ** 0.5)):
    text = "step,e\n" + "".join(f"{x},{10.0 ** -e}\n"
                                for x, e in enumerate(exponents))
    value = make_ledger.measure(
        {"csv": _write(tmp_path, f"{name}.csv", text), "column": "e",
         "at": "roughness"}, "t")
    assert value == pytest.approx(expected), name


def test_a_window_the_run_has_not_reached_is_nan_and_fails_conditions(curve):
  value = make_ledger.measure({"csv": curve, "column": "exploitability",
                               "at": "roughness", "from": 5000}, "t")
  assert math.isnan(value)
  for condition in ("late > 1.5 * early", "late <= 1.5 * early"):
    assert not make_ledger.holds(condition, {"late": value, "early": 0.1},
                                 "t")


def test_a_measure_combines_the_files_of_a_glob(tmp_path):
  for seed, value in enumerate((1.0, 2.0, 6.0)):
    (tmp_path / f"seed{seed}").mkdir()
    _write(tmp_path, f"seed{seed}/curve.csv", f"step,e\n1,{value}\n")
  pattern = os.path.relpath(tmp_path, make_ledger.ROOT) + "/seed*/curve.csv"
  read = lambda combine: make_ledger.measure(
      {"csv": pattern, "column": "e", "combine": combine}, "t")
  assert (read("mean"), read("min"), read("max"), read("count")) == (
      3.0, 1.0, 6.0, 3)
  # The seed band's half-width: sd 2.646 (ddof 1) over sqrt(3).
  assert read("stderr") == pytest.approx(7 ** 0.5 / 3 ** 0.5)


def test_the_first_rule_that_holds_is_the_verdict(curve):
  item = {"id": "x", "document": "thesis", "label": "Fig. 0", "claim": "c",
          "ours": "{e:.2f} at {x:g}",
          "measures": {"e": {"csv": curve, "column": "exploitability"},
                       "x": {"csv": curve, "column": "step"}},
          "verdicts": [
              {"verdict": "reproduced", "when": ["e < 0.1"], "reason": "a"},
              {"verdict": "shorter run", "when": ["x < 1e4", "e < 1"],
               "reason": "b"},
              {"verdict": "disagrees", "reason": "c"}]}
  row = make_ledger.judge(item)
  assert (row.ours, row.verdict, row.reason) == ("0.50 at 1000",
                                                 "shorter run", "b")


@pytest.mark.parametrize("condition,message", [
    ("__import__('os')", "uses"),
    ("e.real > 0", "uses"),
    ("f < 1", "names 'f'"),
    ("e <", "condition"),
])
def test_conditions_are_arithmetic_over_the_items_measures(condition, message):
  with pytest.raises(make_ledger.LedgerError, match=message):
    make_ledger.holds(condition, {"e": 1.0}, "t")


@pytest.mark.parametrize("spec,message", [
    ({"csv": "no/such/*.csv", "column": "e"}, "matches no file"),
    ({"csv": "{curve}", "column": "nope"}, "has no column 'nope'"),
    ({"csv": "{curve}", "column": "exploitability", "at": "median"},
     "at='median'"),
    ({"csv": "{curve}", "column": "exploitability", "at": 1}, "no row"),
    ({"csv": "{curve}", "column": "exploitability", "combine": "sum"},
     "combine='sum'"),
    ({"csv": "{curve}", "colum": "exploitability"}, "needs csv and column"),
])
def test_bad_measures_name_what_is_wrong(curve, spec, message):
  spec = {k: v.format(curve=curve) if isinstance(v, str) else v
          for k, v in spec.items()}
  with pytest.raises(make_ledger.LedgerError, match=message):
    make_ledger.measure(spec, "t")


def test_an_unknown_verdict_is_refused(curve):
  item = {"id": "x", "document": "thesis", "label": "L", "claim": "c",
          "verdicts": [{"verdict": "roughly", "reason": "r"}]}
  with pytest.raises(make_ledger.LedgerError, match="verdict='roughly'"):
    make_ledger.judge(item)


def test_both_sides_of_a_claim_are_read_at_the_largest_x_both_have(tmp_path):
  # One run logs every 100 steps to 1000, the other every 250 to 2000, at
  # slightly different counts (as runs do): the shared x is 1000, and "x:"
  # reads the row logged there, not the last one before it.
  short = _write(tmp_path, "short.csv", "step,e\n" + "".join(
      f"{x + 2},{1000 / (x + 2)}\n" for x in range(0, 1001, 100)))
  long = _write(tmp_path, "long.csv", "step,e\n" + "".join(
      f"{x + 4},{x}\n" for x in range(0, 2001, 250)))
  item = {"id": "x", "document": "thesis", "label": "L", "claim": "c",
          "ours": "{a:.0f} vs {b:.0f} at {both:.0f}",
          "measures": {"both": {"shared": [short, long]},
                       "a": {"csv": short, "column": "e", "at": "x:both"},
                       "b": {"csv": long, "column": "e", "at": "x:both"}},
          "verdicts": [{"verdict": "disagrees", "reason": "r"}]}
  assert make_ledger.judge(item).ours == "1 vs 1000 at 1002"
  item["measures"]["b"]["at"] = "x:both - 100"
  with pytest.raises(make_ledger.LedgerError, match="no row at step 902"):
    make_ledger.judge(item)


def test_a_claim_about_whole_curves_is_read_at_every_x_both_have(tmp_path):
  # Side a: two seeds, bands 1 +- 0 at step 10 and 5 +- 1 at step 20; side b
  # one seed (no band) at 2 and 3, logged at 10.05 and 20 (the same x) and at
  # 30, which side a lacks. Lower edge of a minus b: -1 at 10, +1 at 20.
  for seed, values in enumerate(((1, 4), (1, 6))):
    (tmp_path / f"a{seed}").mkdir()
    _write(tmp_path, f"a{seed}/curve.csv",
           f"step,e\n10,{values[0]}\n20,{values[1]}\n")
  b = _write(tmp_path, "b.csv", "step,e\n10.05,2\n20,3\n30,100\n")
  a = os.path.relpath(tmp_path, make_ledger.ROOT) + "/a*/curve.csv"
  read = lambda sides, **kw: make_ledger.measure(
      {"above": sides, "column": "e", **kw}, "t")
  assert read([a, b]) == pytest.approx(1.0)
  assert read([a, b], give="step") == 20
  # b above a: 2 - (1 + 0) at 10, its largest.
  assert read([b, a]) == pytest.approx(1.0)
  assert read([b, a], give="step") == pytest.approx(10.05)
  with pytest.raises(make_ledger.LedgerError, match="two globs"):
    read([a])
  with pytest.raises(make_ledger.LedgerError, match="no column 'f'"):
    make_ledger.measure({"above": [a, b], "column": "f"}, "t")


def test_a_window_ending_at_a_shared_x_thinned_to_one_spacing(tmp_path):
  fine = _write(tmp_path, "fine.csv", "step,e/seed0,e/seed1\n" + "".join(
      f"{x},{2 ** x},{4 ** x}\n" for x in range(0, 9)))
  read = lambda **kw: make_ledger.measure(
      {"csv": fine, "column": "e/seed*", "at": "roughness", **kw}, "t")
  # Every second row: log10 steps of 2 ** 2 and 4 ** 2, constant per seed.
  assert read(every=2) == pytest.approx(0.0)
  assert make_ledger.measure({"csv": fine, "column": "e/seed*", "at": 2,
                              "combine": "max"}, "t") == 16


def test_paper_and_rule_constants_are_named_in_conditions_and_text(curve):
  item = {"id": "x", "document": "thesis", "label": "L", "claim": "c",
          "paper": {"level": 0.4}, "rule": {"margin": 1.5},
          "ours": "{e:.1f}",
          "measures": {"e": {"csv": curve, "column": "exploitability"}},
          "verdicts": [
              {"verdict": "reproduced", "when": ["e <= rule.margin * paper.level"],
               "reason": "{e} within {rule.margin} times the paper's {paper.level}"},
              {"verdict": "disagrees", "reason": "r"}]}
  assert make_ledger.judge(item).reason == "0.5 within 1.5 times the paper's 0.4"
  item["verdicts"][0]["when"] = ["e < paper.lvl"]
  with pytest.raises(make_ledger.LedgerError, match="paper.lvl"):
    make_ledger.judge(item)


def _digits_outside_fields(text):
  return re.findall(r"\S*\d\S*", re.sub(r"\{[^{}]*\}", "", text))


def test_numbers_in_reasons_and_ours_come_from_measures_or_named_tables():
  # Every rule's reason (a rule not chosen today may be tomorrow) and the
  # row's `ours` quote numbers only through fields: a measure over a committed
  # CSV (an x label too, from the step it reads), {paper.x} (the paper's own
  # numbers and settings) or {rule.x} (the rules' constants). A digit written
  # into the prose would not follow the data.
  for item in _ledger_items():
    texts = [item.get("ours", "")] + [rule.get("reason", "")
                                      for rule in item["verdicts"]]
    digits = [d for text in texts for d in _digits_outside_fields(text)]
    assert not digits, f"{item['id']}: numbers in the prose: {digits}"


def test_the_prose_number_check_sees_digits_outside_fields_only():
  assert _digits_outside_fields("{x:.2f} at {paper.episodes:.0e} {rule.k}") == []
  assert _digits_outside_fields("ends 7-11x lower at {x}") == ["7-11x"]


@pytest.mark.parametrize("item_id", ["thesis-fig4.3", "icml2015-fig1"])
def test_a_claim_about_a_longer_run_is_not_confirmed_by_a_shorter_one(item_id):
  # The claim is about the paper's whole run: put its length beyond any run
  # and the verdict can be "shorter run" (the data agree so far) or
  # "disagrees" (they already contradict it), never a confirmation.
  item = copy.deepcopy(next(i for i in _ledger_items() if i["id"] == item_id))
  item["paper"]["iterations"] = 1e12
  assert make_ledger.judge(item).verdict in ("shorter run", "disagrees")
