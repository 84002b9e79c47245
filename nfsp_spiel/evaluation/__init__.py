"""Evaluation core: every algorithm of nfsp_spiel reports through this module.

* `as_policy`, `as_tabular`: OpenSpiel policies from agents, callables or
  per-player policies.
* `exploitability`, `nash_conv`, `best_response_values`: OpenSpiel's tools,
  with an exact fast path for River poker.
"""

from nfsp_spiel.evaluation.exploitability import best_response_values
from nfsp_spiel.evaluation.exploitability import exploitability
from nfsp_spiel.evaluation.exploitability import nash_conv
from nfsp_spiel.evaluation.exploitability import river_tabular
from nfsp_spiel.evaluation.policies import as_policy
from nfsp_spiel.evaluation.policies import as_tabular
