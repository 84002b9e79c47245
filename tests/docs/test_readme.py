"""Every README snippet runs as pasted into Python's REPL and as a script,
printing its results (with fast settings: the test shrinks each snippet's
upper-case size constant, e.g. `EPISODES = 1_000_000`, and nothing else).

The documentation pages' snippets (docs/*.md) run too, as scripts only, to
keep the suite's time down; a page's snippet that repeats one of README's word
for word is already run by README's tests and is not run again.
"""

import glob
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
FAST = {"ITERATIONS": "20", "EPISODES": "3000", "DEALS": "20"}


def _snippets_of(path):
  with open(path) as f:
    text = f.read()
  return re.findall(r"```python\n(.*?)```", text, re.S)


def _snippets():
  return _snippets_of(os.path.join(ROOT, "README.md"))


def _docs_snippets():
  """[(page, snippet)] of docs pages' snippets that README does not hold."""
  seen = set(_snippets())
  found = []
  for path in sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
    for snippet in _snippets_of(path):
      if snippet not in seen:
        seen.add(snippet)
        found.append((os.path.relpath(path, ROOT), snippet))
  return found


def _fast(snippet):
  for name, value in FAST.items():
    snippet = re.sub(rf"^{name} = .*$", f"{name} = {value}", snippet,
                     flags=re.M)
  return snippet


def _run(snippet, how, folder):
  command = ([sys.executable, "-c", snippet] if how == "script" else
             [sys.executable, "-i"])
  result = subprocess.run(command, input=None if how == "script" else snippet,
                          cwd=folder, capture_output=True, text=True,
                          timeout=600, check=False)
  errors = [line for line in result.stderr.splitlines()
            if "Error" in line or "Traceback" in line]
  assert result.returncode == 0 and not errors, result.stderr[-3000:]
  printed = [line for line in result.stdout.splitlines() if line.strip()]
  assert printed, "the snippet printed nothing"


def test_the_readme_has_its_snippets():
  # One per algorithm: XFP, FSP, Smooth UCT, NFSP, NFSP-ARM (the evaluation
  # example is docs/evaluation.md's, run below with the pages' snippets).
  assert len(_snippets()) >= 5


def test_the_docs_pages_have_their_own_snippets():
  # docs/runs.md, docs/scaling.md and docs/evaluation.md hold the snippets
  # that moved out of README.
  assert len(_docs_snippets()) >= 3


def _pasted_cases():
  """(how, index) of each README snippet; pasted into the REPL, NFSP's
  training snippets (the ones that import `selfplay`) are slow: as scripts
  they run the same code in the default run."""
  cases = []
  for how in ("script", "repl"):
    for index, snippet in enumerate(_snippets()):
      slow = how == "repl" and "selfplay" in snippet
      cases.append(pytest.param(how, index, id=f"{how}-{index}",
                                marks=[pytest.mark.slow] if slow else []))
  return cases


def _docs_cases():
  """(page, index) of each page's snippet; slow are those that start Ray
  (`distributed`, 60 s; Ray runs only in the slow run) and those that play
  Limit Hold'em (`nfsp_lhe`: its matches and LBR are
  tests/evaluation/test_matches.py's and test_lbr.py's)."""
  return [pytest.param(page, index, marks=[pytest.mark.slow] if (
      "distributed" in snippet or '"nfsp_lhe"' in snippet) else [])
          for index, (page, snippet) in enumerate(_docs_snippets())]


@pytest.mark.parametrize("how,index", _pasted_cases())
def test_snippet_runs_as_pasted(tmp_path, index, how):
  _run(_fast(_snippets()[index]), how, tmp_path)


@pytest.mark.parametrize("page,index", _docs_cases())
def test_docs_snippet_runs_as_a_script(tmp_path, page, index):
  del page  # In the test's name only.
  _run(_fast(_docs_snippets()[index][1]), "script", tmp_path)
