"""Does a fixed-opponent run's greedy Q policy play its cards? Raises and
folds by hand strength, beside the equity-threshold player's.

Against always-raise, a raise is re-raised until the cap, so raising a weak
hand only puts more into a pot it loses more often than not; the
equity-threshold player (`evaluation.baselines.EquityThreshold`) raises at
an equity of 0.6 against a random holding and folds below the pot odds.
For each policy this plays `--deals` deals in seat 0 against always-raise
(batched matches, seed 0, the fixed-opponent runs' deals) and prints per
betting round, in five bands of the acting player's equity, how often it
raised and folded at its decisions there; for a run's greedy Q policy also
the correlation over its decisions where raising is legal of Q(raise) -
Q(call) with that equity (does Q's preference follow the cards?) and that
difference's mean and standard deviation over those decisions, in chips
(a mean larger than the spread sets one action for every hand).

  python docs/figures/nfsp_lhe_raise_by_equity.py \\
      runs/fixed_opponent/rewards_1_10/checkpoint.npz \\
      runs/fixed_opponent/rewards_1_48_long/checkpoint.npz

writes `data/nfsp_lhe_fixed_opponent/raise_by_equity.txt` (and prints it).
"""

import argparse
import os

import numpy as np

import figure_runs

OUTPUT = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_fixed_opponent",
                      "raise_by_equity.txt")
BANDS = (0.4, 0.5, 0.6, 0.7)  # equity band edges: five bands


class _EquityRecorder:
  """A `BatchedPolicy` passing `policy`'s answers through and keeping, at
  player 0's decisions, (round, equity, probabilities, Q in chips or nan,
  legal)."""

  def __init__(self, policy, agent=None):
    self.policy, self.agent, self.batches = policy, agent, []

  def batch_action_probabilities(self, decisions):
    from nfsp_spiel.evaluation import baselines  # pylint: disable=g-import-not-at-top
    from nfsp_spiel.nfsp import lhe_diagnostics  # pylint: disable=g-import-not-at-top
    probs = self.policy.batch_action_probabilities(decisions)
    mine = np.flatnonzero(decisions.player == 0)
    if mine.size:
      kept = decisions.rows(mine)
      q = (np.full((mine.size, 3), np.nan) if self.agent is None else
           lhe_diagnostics.q_in_chips(self.agent,
                                      kept.information_state_tensors()))
      self.batches.append((kept.round, baselines.decision_equities(kept),
                           probs[mine], q, kept.legal))
    return probs


def report(name, recorder):
  """Lines of the table for one policy's recorded decisions."""
  from nfsp_spiel.games import poker  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import lhe_diagnostics  # pylint: disable=g-import-not-at-top
  rounds, equity, probs, q, legal = (np.concatenate(part) for part in
                                     zip(*recorder.batches))
  lines = []
  for r, round_name in enumerate(lhe_diagnostics.ROUNDS):
    here = rounds == r
    band = np.digitize(equity[here], BANDS)
    cells = []
    for action in (poker.RAISE, poker.FOLD):
      shares = [probs[here][band == b, action].mean() if (band == b).any()
                else np.nan for b in range(len(BANDS) + 1)]
      cells.append(" ".join(f"{x:4.2f}" for x in shares))
    line = (f"{name:<24} {round_name:<8} {here.sum():>6,}  raise {cells[0]}"
            f"  fold {cells[1]}")
    both = here & legal[:, poker.RAISE] & ~np.isnan(q[:, 0])
    if both.sum() > 2:
      gap = q[both, poker.RAISE] - q[both, poker.CALL]
      line += (f"  corr {np.corrcoef(gap, equity[both])[0, 1]:+.2f}"
               f"  Q(raise) - Q(call) {gap.mean():+.1f} +- {gap.std():.1f}")
    lines.append(line)
  return lines


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("checkpoints", nargs="*",
                      help="fixed-opponent runs' checkpoint.npz files")
  parser.add_argument("--deals", type=int, default=4000)
  args = parser.parse_args()
  import pyspiel  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from nfsp_spiel.evaluation import baselines  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.evaluation import batched_matches  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import fixed_opponent  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp.agent_policies import NFSPPolicy  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  bands = " ".join(f"{edge:.1f}" for edge in BANDS)
  lines = [f"seat 0 against always-raise, {args.deals:,} deals (seed 0); "
           f"per round, decisions, then the share raised and folded in "
           f"equity bands split at {bands}; corr: of Q(raise) - Q(call) "
           "with equity, and its mean +- sd (chips)"]
  policies = [("equity-threshold", baselines.EquityThreshold(game), None)]
  for path in args.checkpoints:
    run = fixed_opponent.FixedOpponentRun.from_checkpoint(game, path)
    name = f"{os.path.basename(os.path.dirname(path))} {run.episodes // 1000}k"
    policies.append((name, NFSPPolicy(game, [run.learner, None],
                                      "best_response"), run.learner))
  for name, policy, agent in policies:
    recorder = _EquityRecorder(policy, agent)
    batched_matches.play_profile((recorder, baselines.AlwaysRaise(game)),
                                 args.deals, 0)
    lines += report(name, recorder)
    print("\n".join(lines[-4:]), flush=True)
  os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
  with open(OUTPUT, "w") as f:
    f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
  main()
