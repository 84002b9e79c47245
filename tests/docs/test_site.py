"""The documentation site builds, and README's links lead somewhere.

`mkdocs build --strict` (mkdocs.yml at the repository root) fails on a link to
a missing page or file, a link to a missing anchor, and a page left out of the
nav. README.md is not part of the site, so its relative links are checked here.
"""

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _mkdocs():
  try:
    import mkdocs  # pylint: disable=g-import-not-at-top,unused-import
  except ImportError:
    return None
  return [sys.executable, "-m", "mkdocs"]


def test_the_docs_site_builds_strictly(tmp_path):
  command = _mkdocs()
  if command is None:
    pytest.skip('mkdocs is not installed: pip install ".[docs]"')
  result = subprocess.run(
      command + ["build", "--strict", "--site-dir", str(tmp_path / "site")],
      cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
  problems = [line for line in result.stderr.splitlines()
              if line.startswith(("WARNING", "ERROR"))]
  assert result.returncode == 0, "\n".join(problems) or result.stderr[-3000:]
  assert (tmp_path / "site" / "index.html").exists()


def _headings(path):
  """GitHub's and MkDocs' anchors of a Markdown page's headings."""
  with open(path) as f:
    text = f.read()
  text = re.sub(r"```.*?```", "", text, flags=re.S)
  anchors = set(re.findall(r'<a id="([^"]+)"', text))
  for title in re.findall(r"^#+ (.+)$", text, re.M):
    slug = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
    anchors.add(slug)
  return anchors


def test_readme_links_lead_to_files_and_anchors_that_exist():
  with open(os.path.join(ROOT, "README.md")) as f:
    readme = f.read()
  links = re.findall(r"\]\(([^)\s]+)\)", readme)
  local = [link for link in links if not re.match(r"\w+://", link)]
  assert local, "README links nothing"
  missing = []
  for link in local:
    path, _, anchor = link.partition("#")
    target = os.path.join(ROOT, path) if path else os.path.join(ROOT,
                                                                "README.md")
    if not os.path.exists(target):
      missing.append(link)
    elif anchor and target.endswith(".md") and anchor not in _headings(target):
      missing.append(link)
  assert not missing, f"README links to what does not exist: {missing}"


def test_every_docs_page_is_in_the_nav():
  with open(os.path.join(ROOT, "mkdocs.yml")) as f:
    config = f.read()
  pages = {name for name in os.listdir(os.path.join(ROOT, "docs"))
           if name.endswith(".md")}
  listed = set(re.findall(r":\s*([\w\-/]+\.md)\s*$", config, re.M))
  assert pages <= listed, f"pages missing from mkdocs.yml's nav: {pages - listed}"



def test_the_rl_loop_how_to_learns_on_kuhn_poker(tmp_path):
  """docs/how-to-rl-loop.md's snippet, for 4,000 episodes: the agents'
  average policy ends less exploitable than the uniform random policy."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  from open_spiel.python import policy  # pylint: disable=g-import-not-at-top
  from open_spiel.python.algorithms import exploitability  # pylint: disable=g-import-not-at-top
  with open(os.path.join(ROOT, "docs", "how-to-rl-loop.md")) as f:
    snippet, = re.findall(r"```python\n(.*?)```", f.read(), re.S)
  assert '"kuhn_poker"' in snippet
  snippet = re.sub(r"^EPISODES = .*$", "EPISODES = 4000", snippet, flags=re.M)
  result = subprocess.run([sys.executable, "-c", snippet], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300,
                          check=False)
  assert result.returncode == 0, result.stderr[-3000:]
  learned = float(result.stdout.split()[-1])
  game = pyspiel.load_game("kuhn_poker")
  uniform = exploitability.exploitability(game,
                                          policy.UniformRandomPolicy(game))
  assert learned < uniform, (learned, uniform)
