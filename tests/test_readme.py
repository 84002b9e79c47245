"""Every README snippet runs as pasted into Python's REPL and as a script,
printing its results (with fast settings: the test shrinks each snippet's
upper-case size constant, e.g. `EPISODES = 1_000_000`, and nothing else)."""

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAST = {"ITERATIONS": "20", "EPISODES": "3000", "DEALS": "20"}


def _snippets():
  with open(os.path.join(ROOT, "README.md")) as f:
    text = f.read()
  return re.findall(r"```python\n(.*?)```", text, re.S)


def _fast(snippet):
  for name, value in FAST.items():
    snippet = re.sub(rf"^{name} = .*$", f"{name} = {value}", snippet,
                     flags=re.M)
  return snippet


def test_the_readme_has_its_snippets():
  assert len(_snippets()) >= 6


@pytest.mark.parametrize("index", range(len(_snippets())))
@pytest.mark.parametrize("how", ["script", "repl"])
def test_snippet_runs_as_pasted(tmp_path, index, how):
  snippet = _fast(_snippets()[index])
  command = ([sys.executable, "-c", snippet] if how == "script" else
             [sys.executable, "-i"])
  result = subprocess.run(command, input=None if how == "script" else snippet,
                          cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, check=False)
  errors = [line for line in result.stderr.splitlines()
            if "Error" in line or "Traceback" in line]
  assert result.returncode == 0 and not errors, result.stderr[-3000:]
  printed = [line for line in result.stdout.splitlines() if line.strip()]
  assert printed, "the snippet printed nothing"
