"""`import nfsp_spiel` works in a REPL or notebook opened in the clone.

There Python finds the clone's `nfsp_spiel/` before any installed copy, and
`games/` is `nfsp_spiel.games` only through setup.py's mapping. The check
runs with the editable install's finder removed, i.e. as a clone that was
never installed (or installed elsewhere, non-editable) sees it.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

AS_A_CLONE = """
import sys
sys.meta_path[:] = [finder for finder in sys.meta_path
                    if "editable" not in str(getattr(finder, "__module__", ""))]
import nfsp_spiel, pyspiel
from nfsp_spiel.fictitious_play import xfp
from nfsp_spiel.games import river_poker
print(nfsp_spiel.__file__)
print(river_poker.__file__)
print(pyspiel.load_game("nfsp_leduc"), pyspiel.load_game("nfsp_lhe"))
print(xfp.XFPSolver(pyspiel.load_game("nfsp_leduc")).iterations)
"""


def test_import_from_the_clone():
  result = subprocess.run([sys.executable, "-c", AS_A_CLONE], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          check=False)
  assert result.returncode == 0, result.stderr[-2000:]
  package, games_module, loaded, iterations = result.stdout.splitlines()
  assert package == os.path.join(ROOT, "nfsp_spiel", "__init__.py")
  assert games_module == os.path.join(ROOT, "games", "river_poker.py")
  assert loaded.startswith("nfsp_leduc(") and "nfsp_lhe(" in loaded
  assert iterations == "0"
