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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
                 lambda i: i["measures"]["g0"].update(at="min")):
    changed = copy.deepcopy(item)
    change(changed)
    assert make_ledger.rule_fingerprint(changed) != before


def test_without_git_history_the_page_says_so(tmp_path, monkeypatch):
  monkeypatch.setattr(make_ledger, "ROOT", str(tmp_path))
  assert make_ledger.provenance() is None
  assert make_ledger._history({"id": "x"}, None) == "no git history"
