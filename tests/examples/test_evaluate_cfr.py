"""examples/evaluate_cfr.py: OpenSpiel's CFR in a run folder, its curve and
its match against uniform play."""

import re

from . import binaries

def test_evaluate_cfr(tmp_path):
  out = binaries.run("evaluate_cfr.py", "--game=kuhn_poker", "--iterations=40",
                     "--eval_every=20", "--match_deals=200",
                     f"--output_dir={tmp_path}")
  rows = binaries.curve(tmp_path)
  assert [row["step"] for row in rows] == [20, 40]
  assert rows[-1]["exploitability"] < 0.05  # CFR after 40 iterations of Kuhn
  assert (tmp_path / "curve.png").exists()
  # The match against uniform: a Kuhn payoff per game (at most 2 chips).
  deals, mean = re.search(r"over (\d+) duplicate deals: (\S+) \+-",
                          out).groups()
  assert int(deals) == 200 and -2 <= float(mean) <= 2
