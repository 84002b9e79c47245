"""NFSP self-play on Limit Hold'em with double Q-learning's target: does
removing the best response's overestimation let self-play learn?

Against a fixed opponent (`fig_nfsp_lhe_fixed_opponent.py`) the preset's
best-response learner turns into always-raise, because Q-learning's max over
noisy estimates puts Q(raise) 15-16 chips above Q(call) for every hand; with
double Q's target (van Hasselt, Guez and Silver 2016; `DQNConfig.double_q`)
at rewards / 10 that offset is gone and the learner plays its cards preflop.
This run asks the same of NFSP's self-play: `NFSPConfig.lhe()` with only
`--double_q` and rewards / 10 changed (neither is the paper's setting: a
diagnostic, not a reproduction of fig. 2a), seeds 0 and 1:

  python examples/nfsp.py --game nfsp_lhe --preset lhe --double_q \\
      --reward_scale 0.1 --episodes 20000000 --eval_every 50000 \\
      --checkpoint_every 50000 --eval_deals 2000 --smooct_deals 2000 \\
      --lbr_hands 200 --keep_checkpoints_every 250000 \\
      --output_dir runs/nfsp_lhe_double_q/rewards_1_10
  python docs/figures/fig_nfsp_lhe_double_q.py \\
      --run double_q_rewards_1_10=runs/nfsp_lhe_double_q/rewards_1_10

and the same with `--seed 1`, `runs/nfsp_lhe_double_q/rewards_1_10_seed1`
and `--run double_q_rewards_1_10_seed1=...` (added before its data). One
change at a time (issue 47 item 2): the paper's own target (eq. 6.1's max,
no `--double_q`) at rewards / 10, seed 0, `runs/nfsp_lhe_double_q/
plain_q_rewards_1_10` and `--run plain_q_rewards_1_10=...` (added with rule
5 below, before its data). Rule 6's branches (the first command with
`--td_error_clip 10 --branch_from runs/nfsp_lhe_double_q/rewards_1_10/
checkpoint.npz --output_dir runs/nfsp_lhe_double_q/clip10_from_2050k`, and
with `--seed 1` from `rewards_1_10_seed1` into `clip10_seed1_from_950k`)
are `--run clip10_seed0=...` and `--run clip10_seed1=...`. Each
curve is copied to `data/nfsp_lhe_diagnostics/<name>/` (so
`fig_nfsp_lhe_diagnostics_double_q.png` draws every diagnostic of it beside
the others of this script); this script draws `fig_nfsp_lhe_double_q.png` and prints the
verdicts, each seed judged alone by the rule below.

The rule, written before the data (committed when the run had not yet
logged its episode-0 evaluation): evaluations are matched by their nearest
multiple of `SPACING`; the *window* at x is the run's evaluations at x -
`SPACING`, x and x + `SPACING` against the SmooCT-like profile, its result
their mean, its standard error their sample deviation over sqrt(3).

1. *Does it learn?* Once the run has `JUDGED_AT` episodes, its last window
   against its first (centred at 2 x `SPACING`): it *learns* if higher by
   more than the larger of twice their combined standard error and
   `MIN_GAIN` mbb/h, *gets worse* if lower by as much, else is *flat*.
2. *Against the preset at the same x*: at each x where the preset's own
   self-play has an evaluation (`data/nfsp_lhe/curve.csv`, seed 0, rewards /
   480, plain Q: 250k and 500k episodes, 12,500 deals each) and the run has
   a full window, the window against that evaluation (its standard error
   taken as the window's alone): *better*, *worse* or *no different* by the
   same margin.
3. *The issue's target*: the last window's mean is above always-call's
   result against the same profile by more than twice its standard error,
   and the last evaluation is above the window's first by more than twice
   that standard error (the curve improving over its last three
   evaluations).

Before `JUDGED_AT` the first verdict is "too short". Beside the verdicts,
not part of them: the average strategy's raise frequency preflop and
postflop and the best response's edge in the last window.

At the paper's spacing and precision (issue 47 item 4: every 250k episodes,
25,000 hands), added before any such data: `--snapshot NAME=DIR` plays the
average and greedy-average strategies of each checkpoint in DIR (hard links
of the run's checkpoints) against the SmooCT-like profile on `PAPER_DEALS`
duplicate deals of seed 0, and always-call on the same deals, with standard
errors, into `data/nfsp_lhe_diagnostics/NAME/vs_smooct.csv`
(`nfsp_runs.evaluate_snapshots`, which also plays each checkpoint's best
responses, the greedy Q policies, as fig. 2a does; rows there are not
replayed; DIR is the run's `kept/` folder, or any folder of hard links of
its checkpoints); at the multiples of `PAPER_SPACING` also the rest of the
issue's protocol, the equity-threshold player on the same number of deals
and LBR over `PAPER_LBR_HANDS` hands, into `NAME/paper_points.csv`. The
figure draws them as error bars. Its rule:

5. *Which change learns* (written before the plain-Q run had data): at each
   x, a multiple of 250k episodes, where the plain-Q run and double Q's
   seed 0 both have a full window, the plain-Q window against double Q's,
   *better*, *worse* or *no different* by rule 1's margin. At the largest
   such x from `JUDGED_AT` on: if the plain-Q run learns (rule 1) and is no
   different from or better than double Q, the reward scale alone was what
   the paper's settings lacked; if it does not learn, or is worse, double
   Q's target is needed too.

6. *Does clipping the TD error hold the run?* (written before either
   branch had data). Seed 0 diverged at 2,078,488 episodes under plain SGD
   at 0.1 (`nfsp_lhe_divergence.py`). Replayed with the TD error clipped
   (`DQNConfig.td_error_clip`, the Huber loss), that call's weights grew to
   3e4 at 24, stayed at their maximum before the call (21) at 10 and 1:
   the clip is the largest of those that held it, 10 (rewards / 10, so 100
   chips). Each seed's run branches from its last checkpoint with
   `--td_error_clip 10` (`examples/nfsp.py --branch_from`, nothing else
   changed): `runs/nfsp_lhe_double_q/clip10_from_2050k` (seed 0, named
   `clip10_seed0`) and `clip10_seed1_from_950k` (`clip10_seed1`). The
   branch *holds* if it passes its parent's last episode (seed 0: the
   divergence) by 250k episodes without diverging, else it *diverges at*
   its step. Its paper-precision points (`--snapshot`) continue the
   parent's: rule 4 is judged on the parent's points followed by the
   branch's, and at each branch point the average strategy is *better*,
   *worse* or *no different* than the parent's last paper-precision point
   by twice their combined standard error.

7. *Does Mnih et al.'s clip hold it?* (written before the run had data,
   after rule 6's seed-0 branch logged, at 2.15M, player 1's Q-network
   norm 1,352 against 214 at 2.1M, its loss 31: bounded, not NaN). Seed 0
   branched from the same 2.05M checkpoint with `--td_error_clip 1`
   (`runs/nfsp_lhe_double_q/clip1_from_2050k`, named `clip1_seed0`), the
   clip that held the replayed call tightest. As rule 6, but the branch
   *holds* only if, besides running 250k episodes past its parent's last
   without diverging, no logged row has a player's Q-network norm
   (`q_norm_<p>`) above `BLOW_UP` times that player's at the parent's
   last row; else it *blows up at* the first such row's step.

8. *Does the clip cost learning from the start?* (written before the run
   had data, after rule 7's branch held to 3.3M with both Q-network norms
   within 1.01 times the parent's, and its average strategy reached
   always-call's level). Seed 0 from episode 0 with the first command plus
   `--td_error_clip 1` (`runs/nfsp_lhe_double_q/clip1_scratch`, named
   `clip1_scratch_seed0`). As rule 5 with this run in the plain-Q run's
   place: at each x, a multiple of 250k episodes, where it and unclipped
   double Q's seed 0 both have a full window, its window against double
   Q's, *better*, *worse* or *no different* by rule 1's margin. At the
   largest such x from `JUDGED_AT` on: if it learns (rule 1) and is no
   different from or better than unclipped double Q, the clip costs no
   learning up to that x; if it does not learn, or is worse, the clip slows
   learning. Rules 1-4 judge it as any run from episode 0.

9. *Does a looser clip keep learning?* (written before the run had data,
   after clip 1 from scratch fell back from -751 +- 15 at 2.5M to -827 +-
   10 at 3.5M while its Q-network's read of hand strength stalled, and the
   unclipped runs read it twice as well at the same x but diverged).
   Seed 0 from episode 0 with the first command plus `--td_error_clip 10`
   (`runs/nfsp_lhe_double_q/clip10_scratch`, named `clip10_scratch_seed0`),
   judged against clip 1 from scratch (`clip1_scratch_seed0`) as rule 8
   judges clip 1 against double Q: at each x, a multiple of 250k episodes,
   where both have a full window, its window against clip 1's, *better*,
   *worse* or *no different* by rule 1's margin. At the largest such x from
   `JUDGED_AT` on: if it diverged (`diverged.txt`) the looser clip does not
   hold; else if it learns (rule 1) and is better than clip 1 there, the
   looser clip learns faster; if it learns and is no different, the clip's
   size does not matter up to that x; otherwise clip 1 stays the recipe.

10. *Given hand strength, does self-play learn?* (written before the run
   had data, after rule 7 of `fig_nfsp_lhe_frozen_average.py` found that a
   best response given its cards' equity takes +596 +- 131 mbb/h from a
   frozen average where one on the cards alone takes -30 +- 75). Seed 0
   from episode 0 with the first command plus `--td_error_clip 1 --inputs
   cards_and_equity` (both players' networks also read their cards'
   check-down equity, `nfsp.equity_inputs`; a diagnostic, not the paper's
   setting; `runs/nfsp_lhe_double_q/clip1_equity_scratch`, named
   `clip1_equity_scratch_seed0`), judged against clip 1 from scratch as in
   rule 9: at the largest shared x from `JUDGED_AT` on, if it learns (rule
   1) and is better than clip 1 there, reading hand strength is what holds
   NFSP's self-play back at that x; otherwise hand strength given is not
   enough for self-play to learn faster up to that x.

11. *Does a faster average network learn hand strength?* (written before
   the run had data, after the equity probe found every cards-alone run's
   average network reading hand strength at R^2 0.24-0.40, about what the
   raw bits give linearly (0.256), even where its Q-network read 0.505
   (clip 10 at 750k), and the run given the equity learned). Seed 0 from
   episode 0 with the first command plus `--td_error_clip 1
   --sl_learning_rate 0.1` (the average network's plain SGD at the
   Q-network's stepsize instead of the paper's 0.01: one change against
   clip 1 from scratch; `runs/nfsp_lhe_double_q/clip1_sl01_scratch`, named
   `clip1_sl01_scratch_seed0`), judged against clip 1 from scratch as in
   rule 9: at the largest shared x from `JUDGED_AT` on, if it diverged the
   faster average network does not hold; else if it learns (rule 1) and is
   better than clip 1 there, the average network's stepsize is what holds
   NFSP's self-play back at that x; otherwise the average network's
   stepsize is not what holds it back up to that x.

4. *The issue's target at the paper's precision*: at the last checkpoint
   within `PAPER_SLACK` episodes of a multiple of `PAPER_SPACING`, the
   average strategy's result is above always-call's on the same deals by
   more than twice their combined standard error (the root of the sum of
   squares), and above its own result at the multiple two spacings earlier
   (the last three such evaluations) by more than twice theirs. Without
   that earlier point it is "too short".
"""

import argparse
import collections
import json
import math
import os

import figure_runs
import figure_style
import nfsp_runs

DATA = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_diagnostics")
RUNS = {"double_q_rewards_1_10": "double Q, rewards / 10, seed 0",
        "double_q_rewards_1_10_seed1": "double Q, rewards / 10, seed 1",
        "plain_q_rewards_1_10": "plain Q (the paper's), rewards / 10, seed 0",
        "clip10_seed0": "seed 0 branched at 2.05M with the TD error clipped at 10",
        "clip10_seed1": "seed 1 branched at 950k with the TD error clipped at 10",
        "clip1_seed0": "seed 0 branched at 2.05M with the TD error clipped at 1",
        "clip1_scratch_seed0": "seed 0 with the TD error clipped at 1",
        "clip10_scratch_seed0": "seed 0 with the TD error clipped at 10",
        "clip1_equity_scratch_seed0": "seed 0 clipped at 1, given its cards' "
                                      "equity",
        "clip1_sl01_scratch_seed0": "seed 0 clipped at 1, its average "
                                    "network's SGD at 0.1"}
# One colour per run, in this figure and in the others that show these runs.
COLOURS = dict(zip(RUNS, (figure_style.COLOURS["NFSP"], "#7570b3", "#d95f02",
                          "#1b9e77", "#e7298a", "#66a61e", "#a6761d", "#e6ab02",
                          "#e31a1c", "#1f78b4"),
                   strict=True))
DOUBLE_Q, PLAIN_Q = "double_q_rewards_1_10", "plain_q_rewards_1_10"
CLIP1_SCRATCH = "clip1_scratch_seed0"


class SameX(collections.namedtuple(
    "SameX", "reference label question better same other diverged")):
  """How rules 5, 8, 9, 10 and 11 judge a run against `reference` (a name in
  `RUNS`) at the same x: the run's name in the lines, the rule's question
  and its readings where the run learns and is better / no different, and
  otherwise; `diverged`: the reading of a run that diverged (None: the rule
  does not ask)."""


# Each run judged against another at the same x, and its rule's readings.
SAME_X = {
    PLAIN_Q: SameX(
        DOUBLE_Q, "plain Q", "which change learns",
        *["the reward scale alone was what the paper's settings lacked"] * 2,
        "double Q's target is needed too", None),
    CLIP1_SCRATCH: SameX(
        DOUBLE_Q, "clip 1", "does the clip cost learning",
        *["the clip costs no learning up to that x"] * 2,
        "the clip slows learning", None),
    "clip10_scratch_seed0": SameX(
        CLIP1_SCRATCH, "clip 10", "does a looser clip keep learning",
        "the looser clip learns faster",
        "the clip's size does not matter up to that x",
        "clip 1 stays the recipe", "the looser clip does not hold"),
    "clip1_equity_scratch_seed0": SameX(
        CLIP1_SCRATCH, "given the equity", "given hand strength, does "
        "self-play learn", "reading hand strength is what holds NFSP's "
        "self-play back at that x",
        *["hand strength given is not enough for self-play to learn faster "
          "up to that x"] * 2, None),
    "clip1_sl01_scratch_seed0": SameX(
        CLIP1_SCRATCH, "SL at 0.1", "does a faster average network learn "
        "hand strength", "the average network's stepsize is what holds "
        "NFSP's self-play back at that x",
        *["the average network's stepsize is not what holds it back up to "
          "that x"] * 2, "the faster average network does not hold")}
# The lines' names of the runs others are judged against.
REFERENCE_LABELS = {DOUBLE_Q: "double Q", CLIP1_SCRATCH: "clip 1"}
# Rule 6's branches and the runs they branched from.
BRANCHES = {"clip10_seed0": DOUBLE_Q,
            "clip10_seed1": "double_q_rewards_1_10_seed1",
            "clip1_seed0": DOUBLE_Q}
NORM_CHECKED = ("clip1_seed0",)  # rule 7's branches
BLOW_UP = 2.0  # rule 7: a Q-network norm this many times the parent's
HOLD_PAST = 250_000  # episodes past the parent's last a branch must reach
PRESET = os.path.join(figure_runs.HERE, "data", "nfsp_lhe", "curve.csv")
PRESET_LABEL = "the preset (plain Q, rewards / 480)"
PRESET_DIAGNOSTICS = "rewards_1_480"  # the preset's run evaluated every 10k
SMOOCT = os.path.join(figure_runs.HERE, "data", "smooct_lhe", "curve.csv")
SPACING = 50_000  # the run's --eval_every
JUDGED_AT = 300_000  # episodes before the first verdict
MIN_GAIN = 100.0  # mbb/h
COLUMN = "mbb_per_hand_vs_smooct"
PAPER_SPACING = 250_000  # the paper's evaluations (issue 47 item 4)
PAPER_SLACK = 10_000  # episodes a checkpoint may lie past such a multiple
PAPER_DEALS = 12_500  # duplicate deals: the paper's 25,000 hands
SNAPSHOTS = "vs_smooct.csv"
PAPER_POINTS = "paper_points.csv"  # the equity player and LBR at 250k
PAPER_LBR_HANDS = 2000  # the paper's LBR count in issue 47 item 4
POSTFLOP = ("flop", "turn", "river")


def _slots(rows):
  """Rows with a result against the profile, keyed by their nearest
  multiple of `SPACING`."""
  return {round(r["step"] / SPACING): r for r in rows if COLUMN in r}


def window(slots, k):
  """(mean, standard error, results) of the window centred at slot `k`, or
  None where the run lacks one of its evaluations."""
  if not all(j in slots for j in (k - 1, k, k + 1)):
    return None
  results = [slots[j][COLUMN] for j in (k - 1, k, k + 1)]
  return (*figure_runs.mean_and_se(results), results)


def verdicts(rows, preset_rows, always_call):
  """The rule's three verdicts on the run's `rows`, as lines of text."""
  slots = _slots(rows)
  last = max(slots, default=0) - 1
  if last * SPACING + SPACING < JUDGED_AT or window(slots, last) is None:
    return [f"too short: {max(slots, default=0) * SPACING:,} of "
            f"{JUDGED_AT:,} episodes"]
  words = {1: "better than", -1: "worse than", 0: "no different from"}
  first, final = window(slots, 2), window(slots, last)
  order = figure_runs.compare_means(final[:2], first[:2], MIN_GAIN)
  trend = {1: "learns", -1: "gets worse", 0: "flat"}[order]
  lines = [f"{trend}: {final[0]:+.0f} +- {final[1]:.0f} mbb/h vs SmooCT at "
           f"{(last - 1) * SPACING:,}-{(last + 1) * SPACING:,} episodes "
           f"against {first[0]:+.0f} +- {first[1]:.0f} at "
           f"{SPACING:,}-{3 * SPACING:,}"]
  for preset in preset_rows:
    k = round(preset["step"] / SPACING)
    around = window(slots, k) if preset["step"] > 0 else None
    if around is not None:
      order = figure_runs.compare_means(around[:2], (preset[COLUMN], 0.0),
                                        MIN_GAIN)
      lines.append(f"at {k * SPACING:,} episodes {words[order]} the preset "
                   f"({around[0]:+.0f} +- {around[1]:.0f} vs "
                   f"{preset[COLUMN]:+.0f})")
  mean, se, results = final
  target = (mean - always_call > 2 * se) and (results[-1] - results[0] >
                                              2 * se)
  lines.append(f"the issue's target (above always-call's {always_call:+.0f} "
               f"and improving over the last three evaluations) is "
               f"{'met' if target else 'not met'}")
  return lines


def same_x_verdict(name, ours, reference, diverged=False):
  """Rule 5, 8, 9, 10 or 11 on run `name`'s curve rows and its reference run's
  (`SAME_X`); `diverged`: the run diverged (its `diverged.txt`)."""
  rule = SAME_X[name]
  our_slots, their_slots = _slots(ours), _slots(reference)
  shared = [k for k in our_slots if k * SPACING % PAPER_SPACING == 0
            and window(our_slots, k) and window(their_slots, k)]
  if not shared:
    return f"{rule.question}: no shared window yet"
  words = {1: "better than", -1: "worse than", 0: "no different from"}
  lines = []
  for k in sorted(shared):
    mine, theirs = window(our_slots, k), window(their_slots, k)
    order = figure_runs.compare_means(mine[:2], theirs[:2], MIN_GAIN)
    lines.append(f"at {k * SPACING:,} episodes {rule.label} {words[order]} "
                 f"{REFERENCE_LABELS[rule.reference]} ({mine[0]:+.0f} +- "
                 f"{mine[1]:.0f} vs {theirs[0]:+.0f} +- {theirs[1]:.0f})")
  if max(shared) * SPACING < JUDGED_AT:  # "the largest such x from JUDGED_AT on"
    return "; ".join(lines + [f"{rule.question}: too short"])
  learns = verdicts(ours, [], 0.0)[0].startswith("learns")
  if diverged and rule.diverged:
    reading = rule.diverged
  elif learns and order >= 0:
    reading = rule.better if order > 0 else rule.same
  else:
    reading = rule.other
  return "; ".join(lines + [f"{rule.question}: {reading}"])


def paper_verdict(results):
  """Rule 4 on `evaluate_snapshots`' rows: a line of text."""
  always_call = next(((float(r["mbb_per_hand"]), float(r["mbb_stderr"]))
                      for r in reversed(results)
                      if r["policy"] == nfsp_runs.ALWAYS_CALL), None)
  by_slot = {step // PAPER_SPACING: (step, mean, se)
             for step, mean, se in _averages(results)
             if step % PAPER_SPACING <= PAPER_SLACK and step >= PAPER_SPACING}
  if always_call is None or not by_slot:
    return (f"at the paper's precision: no evaluation within {PAPER_SLACK:,} "
            f"episodes of a multiple of {PAPER_SPACING:,} yet")
  last = max(by_slot)
  step, mean, se = by_slot[last]
  if last - 2 not in by_slot:
    return (f"at the paper's precision: too short ({mean:+.0f} +- {se:.0f} "
            f"at {step:,}, no point two evaluations earlier)")
  _, before, before_se = by_slot[last - 2]
  above = mean - always_call[0] > 2 * math.hypot(se, always_call[1])
  rising = mean - before > 2 * math.hypot(se, before_se)
  return (f"at the paper's precision the issue's target is "
          f"{'met' if above and rising else 'not met'}: {mean:+.0f} +- "
          f"{se:.0f} mbb/h at {step:,} episodes, always-call "
          f"{always_call[0]:+.0f} +- {always_call[1]:.0f} on the same deals, "
          f"{before:+.0f} +- {before_se:.0f} two evaluations earlier")


def _averages(results):
  """[(step, mean, s.e.)] of the average strategy in `evaluate_snapshots`'
  rows."""
  return [(int(r["step"]), float(r["mbb_per_hand"]), float(r["mbb_stderr"]))
          for r in results if r["policy"] == "average"]


def _norm_growth(rows, parent_row):
  """[(step, player, ratio)]: each row's largest Q-network norm over the
  players, as a multiple of that player's in `parent_row`."""
  growth = []
  for row in rows:
    ratios = [(row[f"q_norm_{p}"] / parent_row[f"q_norm_{p}"], p)
              for p in (0, 1) if f"q_norm_{p}" in row]
    if ratios:
      ratio, player = max(ratios)
      growth.append((int(row["step"]), player, ratio))
  return growth


def branch_verdict(rows, branched_at, diverged, parent_results, results,
                   parent_row, norm_checked=False):
  """Rule 6 (rule 7 where `norm_checked`) on a branch's curve `rows`,
  branched at episode `branched_at` (its branch.json's step), `diverged`
  (its diverged.txt, or None), its parent's `evaluate_snapshots` rows and
  its own, and the parent's last curve row: lines of text."""
  reached = int(max((r["step"] for r in rows), default=branched_at))
  growth = _norm_growth(rows, parent_row)
  blown = [g for g in growth if g[2] > BLOW_UP] if norm_checked else []
  if diverged:
    lines = [f"diverges at {diverged.strip()}"]
  elif blown:
    step, player, ratio = blown[0]
    lines = [f"blows up at {step:,}: player {player}'s Q-network norm "
             f"{ratio:.1f} times the parent's"]
  elif reached >= branched_at + HOLD_PAST:
    lines = [f"holds: {reached:,} episodes, {reached - branched_at:,} past "
             f"the branch at {branched_at:,}"]
  else:
    lines = [f"too short: {reached - branched_at:,} of {HOLD_PAST:,} episodes "
             f"past the branch at {branched_at:,}"]
  before = [r for r in parent_results if int(r["step"]) <= branched_at]
  parent = _averages(before)
  if parent:
    step, mean, se = parent[-1]
    words = {1: "better than", -1: "worse than", 0: "no different from"}
    for at, ours, our_se in _averages(results):
      order = figure_runs.compare_means((ours, our_se), (mean, se), 0.0)
      lines.append(f"at {at:,}: {ours:+.0f} +- {our_se:.0f}, {words[order]} "
                   f"the parent's {mean:+.0f} +- {se:.0f} at {step:,}")
  lines.append(paper_verdict(before + list(results)) + " (parent's points, "
               "then the branch's)")
  if growth:  # beside rule 6's verdict, part of rule 7's
    step, player, ratio = max(growth, key=lambda g: g[2])
    lines.append(f"largest Q-network norm: {ratio:.1f} times the parent's "
                 f"(player {player}, at {step:,})")
  return lines


def mechanism(rows):
  """(preflop raise frequency, postflop raise frequency, mean best-response
  edge) of the average strategy over the last three evaluations."""
  tail = [r for r in rows if "br_edge_0" in r][-3:]
  mean = lambda f: sum(f(r) for r in tail) / len(tail)
  return (mean(lambda r: r["average_preflop_raise"]),
          mean(lambda r: sum(r[f"average_{n}_raise"] for n in POSTFLOP) / 3),
          mean(lambda r: (r["br_edge_0"] + r["br_edge_1"]) / 2))


# (policy, marker, legend words) of the paper-precision points, and the
# raise panel's line styles: one legend entry each, in black, for every run.
SNAPSHOT_MARKERS = (
    ("average", "D", f"average strategy at {2 * PAPER_DEALS:,} hands, +-1 "
     "s.e. (filled)"),
    ("best_response", "v", f"best response (greedy Q) at {2 * PAPER_DEALS:,} "
     "hands, +-1 s.e. (open)"))
RAISE_STYLES = (("preflop", "-"), ("postflop", "--"))


def _markers_legend(results, raises):
  """Black stand-ins for the points' markers and the raise panel's line
  styles, so that each run is named once, by its colour, in the top legend."""
  for kind, marker, words in SNAPSHOT_MARKERS:
    results.plot([], [], color="black", marker=marker, linestyle="none",
                 mfc="black" if kind == "average" else "none", label=words)
  for name, style in RAISE_STYLES:
    raises.plot([], [], color="black", linestyle=style,
                label=name if name == "preflop" else
                "postflop (mean of flop, turn and river)")


def draw(runs, path, always_call, snapshots):
  """`runs`: {label: rows}, this script's runs (`RUNS`) and the preset's;
  `snapshots`: {label: `evaluate_snapshots`' rows}, drawn as +-1 standard
  error bars."""
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  figure, (results, raises) = plt.subplots(2, 1, figsize=(7.2, 7.5),
                                           sharex=True)
  # The preset's runs in greys, in `runs`' order after this script's.
  colours = {RUNS[name]: colour for name, colour in COLOURS.items()}
  greys = iter(("#999999", "#666666"))
  for label, rows in runs.items():
    colour = colours.get(label) or next(greys)
    points = [(r["step"], r[COLUMN]) for r in rows if COLUMN in r]
    # The preset's long run was evaluated three times: points, not a line
    # that would draw a trend between them.
    sparse = label == PRESET_LABEL
    results.plot(*zip(*points), color=colour, marker="s" if sparse else "o",
                 markersize=6 if sparse else 3,
                 linestyle="none" if sparse else "-", label=label)
    for kind, marker, _ in SNAPSHOT_MARKERS:
      measured = [r for r in snapshots.get(label, ()) if r["policy"] == kind]
      if measured:  # in the legend once, by marker (`_markers_legend`)
        results.errorbar([float(r["step"]) for r in measured],
                         [float(r["mbb_per_hand"]) for r in measured],
                         yerr=[float(r["mbb_stderr"]) for r in measured],
                         color=colour, marker=marker, markersize=4,
                         capsize=3, linestyle="none",
                         mfc=colour if kind == "average" else "none")
    for name, style in RAISE_STYLES:
      columns = ([f"average_{name}_raise"] if name == "preflop" else
                 [f"average_{n}_raise" for n in POSTFLOP])
      steps, values = figure_runs.mean_of_columns(rows, columns)
      if steps:  # the run's colour is the top panel's legend
        raises.plot(steps, values, color=colour, linestyle=style)
  figure_style.reference_level(results, always_call, "always-call's result")
  # Always-call on the paper-precision deals (one value for every run).
  for row in (r for rows in snapshots.values() for r in rows
              if r["policy"] == nfsp_runs.ALWAYS_CALL):
    value = float(row["mbb_per_hand"])
    results.axhline(value, color=figure_style.REFERENCE, linestyle=":",
                    linewidth=1, label=f"always-call on the {2 * PAPER_DEALS:,}"
                    f" hands: {value:+.0f} +- {float(row['mbb_stderr']):.0f}")
    break
  _markers_legend(results, raises)
  results.set_ylabel("average strategy vs the SmooCT-like\nprofile (mbb/h)")
  raises.set_ylabel("average strategy's raise frequency\n(self-play)")
  raises.set_xlabel("episodes")
  for axes in (results, raises):
    axes.grid(True, alpha=0.3)
    figure_style.legend_outside(axes, fontsize=7)
  results.set_title("NFSP self-play on Limit Hold'em: double Q")
  figure_style.save(figure, path)


def _branch_files(name):
  """(the step a branch was made at, its diverged.txt's text or None)."""
  folder = os.path.join(DATA, name)
  with open(os.path.join(folder, figure_runs.BRANCH_NAME),
            encoding="utf-8") as f:
    step = json.load(f)["step"]
  return step, nfsp_runs.diverged(DATA, name)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--snapshot", action="append", default=[],
                      metavar="NAME=DIR", help="a run's name in RUNS and a "
                      "folder of its checkpoints to measure at the paper's "
                      "precision")
  args = figure_runs.copy_run_specs(__doc__, DATA, names=list(RUNS),
                                    parser=parser)
  for text in args.snapshot:
    name, _, directory = text.partition("=")
    if name not in RUNS:
      parser.error(f"--snapshot {text}: {name!r} is not one of {list(RUNS)}")
    nfsp_runs.evaluate_snapshots(directory,
                                 os.path.join(DATA, name, SNAPSHOTS),
                                 PAPER_DEALS, seed=0, always_call=True)
    nfsp_runs.evaluate_paper_points(directory,
                                    os.path.join(DATA, name, PAPER_POINTS),
                                    PAPER_SPACING, PAPER_SLACK, PAPER_DEALS,
                                    PAPER_LBR_HANDS, seed=0)
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  runs = {}
  for name, label in RUNS.items():
    path = os.path.join(DATA, name, curves.CSV_NAME)
    if os.path.exists(path):
      runs[label] = curves.read_curve(path)
  preset = curves.read_curve(PRESET)
  always_call = -curves.read_curve(SMOOCT)[-1]["mbb_per_hand_vs_always_call"]
  drawn = {**runs, PRESET_LABEL: preset,
           f"{PRESET_LABEL}, evaluated every 10k": curves.read_curve(
               os.path.join(DATA, PRESET_DIAGNOSTICS, curves.CSV_NAME))}
  snapshots = {label: nfsp_runs.read_snapshot_results(
      os.path.join(DATA, name, SNAPSHOTS)) for name, label in RUNS.items()}
  draw(drawn, os.path.join(figure_runs.HERE, "fig_nfsp_lhe_double_q.png"),
       always_call, snapshots)
  for label, rows in runs.items():
    print(f"{label}:")
    name = next(n for n, text in RUNS.items() if text == label)
    if name in BRANCHES:  # rules 6, 7 (rules 1-3 read a run from episode 0)
      branched_at, diverged = _branch_files(name)
      parent = RUNS[BRANCHES[name]]
      lines = branch_verdict(
          rows, branched_at, diverged, snapshots[parent], snapshots[label],
          [r for r in runs[parent] if r["step"] <= branched_at][-1],
          name in NORM_CHECKED)
    else:
      lines = [*verdicts(rows, preset, always_call),
               paper_verdict(snapshots[label])]
    if name in SAME_X and RUNS[SAME_X[name].reference] in runs:
      lines.append(same_x_verdict(
          name, rows, runs[RUNS[SAME_X[name].reference]],
          bool(nfsp_runs.diverged(DATA, name))))
    for line in lines:
      print(f"  {line}")
    if any("br_edge_0" in r for r in rows):
      preflop, postflop, edge = mechanism(rows)
      print(f"  last three evaluations: the average raises {preflop:.2f} "
            f"preflop and {postflop:.2f} postflop; best-response edge "
            f"{edge:+.0f} mbb/h")


if __name__ == "__main__":
  main()
