"""Evaluation core: every algorithm of nfsp_spiel reports through this module.

* `as_policy`, `as_tabular`: OpenSpiel policies from agents, callables or
  per-player policies (`public_tree_tabular` for River poker and nfsp_leduc).
* `exploitability`, `nash_conv`, `best_response_values`: OpenSpiel's tools,
  with an exact vectorised best response for River poker and nfsp_leduc, and
  exact best responses on arrays for sequential games of more than two
  players (`trees.sequence_form.NPlayerSequenceForm`).
* `seat_values`: a policy's exact expected return in each seat against a
  fixed opponent (uniform random by default).
* `best_response_gaps`, `best_response_quality` (thesis eq. 5.2),
  `best_response_gap_by_state` (where a learned best response loses),
  `strategy_distance`.
* `head_to_head`: duplicate matches in game units and mbb/h (on
  `nfsp_lhe`, all deals at once: `batched_matches`);
  `three_player_match`: one policy against two copies of another (on
  `nfsp_lhe3`, all deals at once: `batched_three_player`).
* `local_best_response` (LBR, Lisy & Bowling 2017): a lower bound on a
  hold'em strategy's exploitability in mbb/h; `baselines`: always-call,
  always-raise, always-fold and equity-threshold players.
* `kuhn`: Kuhn poker's equilibrium family and the distance to it.

The learning curves (`LearningCurveLogger`, `plot_curves`, ...) belong to the
run infrastructure: `nfsp_spiel.run.curves`.
"""

from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import kuhn

from nfsp_spiel.evaluation.gaps import best_response_gap_by_state
from nfsp_spiel.evaluation.gaps import best_response_gaps
from nfsp_spiel.evaluation.gaps import best_response_quality
from nfsp_spiel.evaluation.gaps import strategy_distance
from nfsp_spiel.evaluation.best_responses import best_response_values
from nfsp_spiel.evaluation.best_responses import exploitability
from nfsp_spiel.evaluation.best_responses import nash_conv
from nfsp_spiel.evaluation.best_responses import public_tree_tabular
from nfsp_spiel.evaluation.best_responses import seat_values
from nfsp_spiel.evaluation.lbr import LbrResult
from nfsp_spiel.evaluation.lbr import local_best_response
from nfsp_spiel.evaluation.matches import head_to_head
from nfsp_spiel.evaluation.matches import MatchResult
from nfsp_spiel.evaluation.matches import three_player_match
from nfsp_spiel.evaluation.policies import as_policy
from nfsp_spiel.evaluation.policies import as_tabular
from nfsp_spiel.poker.stakes import big_blind
