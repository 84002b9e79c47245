"""examples/play_games.py: every registered game plays, beside OpenSpiel's
C++ CFR."""

from . import binaries

def test_play_games():
  out = binaries.run("play_games.py", "--games_per_title=20", "--cfr_iterations=1")
  for name in ("river_poker", "nfsp_leduc", "nfsp_lhe"):
    assert f"== {name}" in out
  assert "OpenSpiel's C++ CFR" in out
