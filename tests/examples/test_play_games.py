"""examples/play_games.py: every default game plays at random, beside
OpenSpiel's C++ CFR on a small River poker."""

import re

import pytest

from . import binaries

# Per game: its name, its utilities' range, the number of random games and
# their mean returns per player.
GAME = re.compile(r"^== (\S+)\n.*utilities \[(\S+), (\S+)\]\n(\d+) random "
                  r"games in \S+ s; mean returns \[([^\]]*)\]", re.M)
CFR = re.compile(r"^(\d+) iterations in \S+ s, exploitability (\S+)$", re.M)


def test_play_games():
  """Each game's mean returns lie within its utilities and sum to zero (the
  games are zero-sum); CFR's exploitability after one iteration lies between
  zero and the game's largest win."""
  out = binaries.run("play_games.py", "--games_per_title=20",
                     "--cfr_iterations=1")
  games = GAME.findall(out)
  assert [name.split("(")[0] for name, *_ in games] == [
      "river_poker", "river_poker", "nfsp_leduc", "nfsp_leduc", "nfsp_lhe"]
  for _, low, high, count, means in games:
    means = [float(mean) for mean in means.split(",")]
    assert int(count) == 20 and len(means) == 2
    assert float(low) <= min(means) <= max(means) <= float(high)
    assert sum(means) == pytest.approx(0.0, abs=1e-6)
  (iterations, exploitability), = CFR.findall(out)
  assert int(iterations) == 1 and 0 < float(exploitability) <= 4
