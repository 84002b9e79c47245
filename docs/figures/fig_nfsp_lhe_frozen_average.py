"""Is NFSP's Limit Hold'em best response too slow, or has fictitious play
settled? The clip-1 run's best response against its own frozen average.

At 3.25M episodes the clip-1 branch (`fig_nfsp_lhe_double_q.py`, rule 7)
has an average strategy that LBR beats by more than 1,000 mbb/h, while in
self-play its best responses (greedy Q) gain little against the other
player's average (the curve's `br_edge_<p>`), and its Q-networks' norms
barely move. Either the clipped TD error leaves the best response too slow
to find what the average still gives away, or a best response of this
network, with its target held still, finds no more. The test
(`nfsp.fixed_opponent` with `Against("average", profile=...)`): seat 1
plays the checkpoint's seat-1 average strategy, frozen; seat 0's best
response goes on learning from that checkpoint's Q-networks (`warm_start`:
its memory and exploration start afresh), with the run's own settings read
from the checkpoint, once with the TD error clipped at 1 as in the run and
once unclipped (`td_error_clip=0`, the papers' squared error):

  python docs/figures/fig_nfsp_lhe_frozen_average.py --name clip1 \\
      --episodes 200000 --eval_every 25000
  python docs/figures/fig_nfsp_lhe_frozen_average.py --name clip0 \\
      --set td_error_clip=0 --episodes 200000 --eval_every 25000
  python docs/figures/fig_nfsp_lhe_frozen_average.py   # draws, judges

Each evaluation plays the greedy Q policy in seat 0 against the frozen
average on the same `NUM_DEALS` deals (batched matches, +-1 s.e.), with the
equity-threshold player and always-call on those deals as references.
Curves: `data/nfsp_lhe_frozen_average/<name>/`; checkpoints in
`--run_dir/<name>` (outside git); the same command resumes a run.

The rule, written before the data:

1. *Does it climb?* At a run's last evaluation, of at least `JUDGED_AT`
   episodes, its result against its episode-0 result (the checkpoint's own
   best response on the same deals): it *climbs* if higher by more than the
   larger of twice their combined standard error and `MIN_GAIN` mbb/h,
   *falls* if lower by as much, else is *flat*.
2. *Does the clip slow the best response?* At the last evaluation both runs
   reached (the same x within 2%): if the unclipped run is higher than the
   clipped one by rule 1's margin, *the clip slows the best response*;
   otherwise, if neither climbs, *neither climbs: with its target still,
   the best response finds no more than it had*; otherwise *the clip does
   not slow it*.

A run whose training diverged keeps the error in `<name>/diverged.txt`
(`nfsp_runs.train_fixed_opponent`) and is judged *diverges* by rules 1-3.
The unclipped run diverged within its first thousand episodes (as did one
with the TD error clipped at 10, `--name clip10 --set td_error_clip=10`),
so rule 2 has no comparison, and rule 3 was written then, before its run
had data:

3. *Is the clipped best response too slow?* Clip 1 with four times the SGD
   updates per learning call (`--name clip1_updates_x4 --set
   updates_per_learn=8`, the same commands otherwise): if it climbs while
   clip 1 does not, and at the last evaluation both reached it is higher
   than clip 1 by rule 1's margin, *the clipped best response is too slow
   at the paper's update rate*; if it is flat or falls, *more updates find
   no more*; otherwise *no verdict*.

4. *Is it the trained network?* (written after rule 3's verdict, before
   its run had data). A fresh learner of the same settings, unclipped
   (`--name cold_clip0 --cold --set td_error_clip=0`: new networks, not
   the checkpoint's): if it climbs and at the last evaluation both reached
   it is higher than clip 1 by rule 1's margin, *a fresh network finds what
   the trained one does not*; if it is flat or falls, *a fresh learner finds
   no more either*; otherwise *no verdict*.

5. *Does the fresh learner overtake, given time?* (written after rule 4's
   "no verdict" at 200k episodes, where the fresh learner was still
   climbing, before either run went further). Both runs go on to
   `LONG_AT` episodes with their commands and `--episodes 500000`. At the
   last evaluation both reached, from `LONG_AT` on: if the fresh learner
   is higher than clip 1 by rule 1's margin, *a fresh network finds what
   the trained one does not*; if it is lower by that margin and has not
   climbed over its last `LONG_WINDOW` episodes (its last evaluation
   against its evaluation nearest `LONG_WINDOW` before it, by rule 1's
   margin), *the fresh learner levels off below the trained one*; if it
   is lower and still climbing, *no verdict: the fresh learner still
   climbs*; otherwise *the fresh learner gets where the trained one is,
   not past it*.

6. *Is the paper's stepsize what holds it?* (written after rule 5's
   verdict, before its run had data). The one-layer learner against
   always-raise learned at an RL stepsize of 0.01 and not at the paper's
   0.1 (benchmarks/results/journal.md). Clip 1, warm, with
   `rl_learning_rate` 0.01 (`--name clip1_rl_0.01 --set
   rl_learning_rate=0.01 --episodes 500000`), judged against clip 1 as
   rule 3 judges: if it climbs while clip 1 does not, and at the last
   evaluation both reached it is higher than clip 1 by rule 1's margin,
   *the paper's stepsize holds the best response back*; if it is flat or
   falls, *a smaller stepsize finds no more*; otherwise *no verdict*.

7. *Is it reading hand strength from the cards?* (written after rule 6's
   verdict, before its run had data). The fresh unclipped learner of rule
   4 given, besides the cards, their check-down equity against a random
   holding as `equity_inputs.LEVELS` more input bits (`nfsp.equity_inputs`;
   `--name cold_clip0_equity --cold --inputs cards_and_equity --set
   td_error_clip=0 --episodes 500000`), against the same learner without
   them (`cold_clip0`) at the last evaluation both reached, from `LONG_AT`
   on: if it is higher by rule 1's margin, *reading hand strength from the
   raw cards holds the best response back*; otherwise *given its hand
   strength, the learner finds no more: the reinforcement learning holds it
   back*. A run that diverges is judged *diverges*.

Beside the verdicts, not part of them: LBR's winnings against the same
average strategy at the same checkpoint (`fig_nfsp_lhe_double_q.py`'s
paper-precision point): an exact best response gains at least that much.
"""

import argparse
import csv
import os

import figure_runs
import figure_style
import nfsp_runs

DATA = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_frozen_average")
PROFILE_STEP = 3_250_010  # the kept checkpoint the runs start from
PROFILE = os.path.join(nfsp_runs.ROOT, "runs", "nfsp_lhe_double_q",
                       "clip1_from_2050k", "kept", f"{PROFILE_STEP}.npz")
# LBR's row at that checkpoint (issue 47 item 4's protocol).
PAPER_POINTS = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_diagnostics",
                            "clip1_seed0", "paper_points.csv")
NUM_DEALS = 5000
JUDGED_AT = 100_000
LONG_AT = 500_000  # rule 5
LONG_WINDOW = 200_000
MIN_GAIN = 50.0  # mbb/h
CHECKPOINT_SECONDS = 600
LABELS = {"clip1": "TD error clipped at 1 (as the run)",
          "clip0": "TD error unclipped (the papers' loss)",
          "clip10": "TD error clipped at 10",
          "clip1_updates_x4": "TD error clipped at 1, 4x the SGD updates",
          "cold_clip0": "fresh networks, TD error unclipped",
          "clip1_rl_0.01": "TD error clipped at 1, RL stepsize 0.01",
          "cold_clip0_equity": "fresh networks, TD error unclipped, the "
                               "cards' equity as input"}
COLOURS = {"clip1": "#66a61e", "clip0": figure_style.COLOURS["NFSP"],
           "clip10": "#d95f02", "clip1_updates_x4": "#7570b3",
           "cold_clip0": "#1b9e77", "clip1_rl_0.01": "#a6761d",
           "cold_clip0_equity": "#e6ab02"}
REFERENCES = {"equity_threshold": ("equity-threshold player",
                                   figure_style.REFERENCE),
              "always_call": ("always-call", "grey")}


def _point(row):
  return row["mbb_per_hand"], row["mbb_stderr"]


def climbs(rows):
  """Rule 1 on a run's curve rows: +1 (climbs), -1 (falls), 0 (flat), or
  None before `JUDGED_AT`."""
  if rows[-1]["step"] < JUDGED_AT:
    return None
  return figure_runs.compare_means(_point(rows[-1]), _point(rows[0]),
                                   MIN_GAIN)


def _compared(a, b):
  """(rule 1's order of run rows `a` against `b` at their last shared
  evaluation, that evaluation's two rows), or None without one."""
  pair = figure_runs.shared_evaluation(a, b)
  if pair is None:
    return None
  return figure_runs.compare_means(_point(pair[0]), _point(pair[1]),
                                   MIN_GAIN), *pair


def verdict(runs, diverged):
  """The rules on `runs` ({name: curve rows}) and `diverged` ({name: its
  diverged.txt's text} of the runs that diverged): lines of text."""
  words = {1: "climbs", -1: "falls", 0: "flat", None: "too short"}
  lines = []
  for name, rows in runs.items():
    last, first = rows[-1], rows[0]
    if name in diverged:
      lines.append(f"{name}: diverges ({diverged[name]})")
      continue
    lines.append(f"{name}: {words[climbs(rows)]} ({last['mbb_per_hand']:+.0f}"
                 f" +- {last['mbb_stderr']:.0f} mbb/h at "
                 f"{last['step']:,.0f} episodes against "
                 f"{first['mbb_per_hand']:+.0f} +- {first['mbb_stderr']:.0f}"
                 " at 0)")
  if {"clip0", "clip1"} <= set(runs):
    lines.append("does the clip slow the best response: "
                 + _rule_2(runs, diverged))
  questions = {"clip1_updates_x4": "is the clipped best response too slow",
               "cold_clip0": "is it the trained network",
               "clip1_rl_0.01": "is the paper's stepsize what holds it"}
  for name, question in questions.items():
    if {name, "clip1"} <= set(runs):
      lines.append(f"{question}: {_against_clip_1(name, runs, diverged)}")
  if {"cold_clip0", "clip1"} <= set(runs):
    lines.append("does the fresh learner overtake, given time: "
                 + _overtakes(runs["cold_clip0"], runs["clip1"]))
  if {"cold_clip0_equity", "cold_clip0"} <= set(runs):
    lines.append("is it reading hand strength from the cards: "
                 + _equity_helps(runs, diverged))
  return lines


def _equity_helps(runs, diverged):
  """Rule 7 on the equity-input learner against the fresh learner: its
  reading."""
  if "cold_clip0_equity" in diverged:
    return "diverges"
  shared = _compared(runs["cold_clip0_equity"], runs["cold_clip0"])
  if shared is None or shared[1]["step"] < LONG_AT:
    return "too short"
  order, ours, theirs = shared
  reading = ("reading hand strength from the raw cards holds the best "
             "response back" if order > 0 else
             "given its hand strength, the learner finds no more: the "
             "reinforcement learning holds it back")
  return (f"{reading} (at {ours['step']:,.0f} episodes: with equity "
          f"{ours['mbb_per_hand']:+.0f} +- {ours['mbb_stderr']:.0f}, cards "
          f"alone {theirs['mbb_per_hand']:+.0f} +- "
          f"{theirs['mbb_stderr']:.0f}; the equity-threshold player "
          f"{ours['reference_equity_threshold']:+.0f})")


def _overtakes(fresh, trained):
  """Rule 5 on the fresh learner's and clip 1's curve rows: its reading."""
  shared = figure_runs.shared_evaluation(fresh, trained)
  if shared is None or shared[0]["step"] < LONG_AT:
    return "too short"
  ours, theirs = shared
  order = figure_runs.compare_means(_point(ours), _point(theirs), MIN_GAIN)
  earlier = min(fresh, key=lambda row: abs(row["step"] - (ours["step"]
                                                          - LONG_WINDOW)))
  still_climbing = figure_runs.compare_means(_point(ours), _point(earlier),
                                             MIN_GAIN) > 0
  if order > 0:
    reading = "a fresh network finds what the trained one does not"
  elif order < 0 and not still_climbing:
    reading = "the fresh learner levels off below the trained one"
  elif order < 0:
    reading = "no verdict: the fresh learner still climbs"
  else:
    reading = "the fresh learner gets where the trained one is, not past it"
  return (f"{reading} (at {ours['step']:,.0f} episodes: fresh "
          f"{ours['mbb_per_hand']:+.0f} +- {ours['mbb_stderr']:.0f}, clip 1 "
          f"{theirs['mbb_per_hand']:+.0f} +- {theirs['mbb_stderr']:.0f}; "
          f"fresh at {earlier['step']:,.0f}: "
          f"{earlier['mbb_per_hand']:+.0f})")


def _rule_2(runs, diverged):
  if "clip0" in diverged:
    return "no comparison: the unclipped run diverged"
  shared = _compared(runs["clip0"], runs["clip1"])
  orders = climbs(runs["clip0"]), climbs(runs["clip1"])
  if shared is None or None in orders:
    return "too short"
  order, unclipped, clipped = shared
  if order > 0:
    reading = "the clip slows the best response"
  elif max(orders) < 1:
    reading = ("neither climbs: with its target still, the best response "
               "finds no more than it had")
  else:
    reading = "the clip does not slow it"
  return (f"{reading} (at {unclipped['step']:,.0f} episodes: unclipped "
          f"{unclipped['mbb_per_hand']:+.0f}, clipped "
          f"{clipped['mbb_per_hand']:+.0f})")


# Rules 3, 4 and 6: (run, its words in the line, readings if it climbs past clip
# 1 / if it is flat or falls).
AGAINST_CLIP_1 = {
    "clip1_updates_x4": ("4x the updates",
                         "the clipped best response is too slow at the "
                         "paper's update rate", "more updates find no more"),
    "cold_clip0": ("fresh networks",
                   "a fresh network finds what the trained one does not",
                   "a fresh learner finds no more either"),
    "clip1_rl_0.01": ("RL stepsize 0.01",
                      "the paper's stepsize holds the best response back",
                      "a smaller stepsize finds no more")}


def _against_clip_1(name, runs, diverged):
  """Rule 3, 4 or 6 on run `name` against clip 1: its reading."""
  words, ahead, no_more = AGAINST_CLIP_1[name]
  if name in diverged:
    return f"the run with {words} diverged"
  shared = _compared(runs[name], runs["clip1"])
  more, base = climbs(runs[name]), climbs(runs["clip1"])
  if shared is None or None in (more, base):
    return "too short"
  order, ours, theirs = shared
  if more == 1 and base < 1 and order > 0:
    reading = ahead
  elif more < 1:
    reading = no_more
  else:
    reading = "no verdict"
  return (f"{reading} (at {ours['step']:,.0f} episodes: {words} "
          f"{ours['mbb_per_hand']:+.0f}, clip 1 {theirs['mbb_per_hand']:+.0f})")


def lbr_at_profile():
  """LBR's winnings (mbb/h) against the profile's average strategy, or
  None where that point was not measured."""
  if not os.path.exists(PAPER_POINTS):
    return None
  with open(PAPER_POINTS, encoding="utf-8") as f:
    for row in csv.DictReader(f):
      if int(row["step"]) == PROFILE_STEP:
        return float(row["lbr_mbb_per_hand"])
  return None


def draw(runs, path, lbr, diverged):
  """`runs` as in `verdict`; a run that `diverged` is its last evaluation,
  marked with a cross."""
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  figure, axes = plt.subplots(figsize=(7.2, 4.8))
  for name, rows in runs.items():
    x = [r["step"] for r in rows]
    y = [r["mbb_per_hand"] for r in rows]
    se = [r["mbb_stderr"] for r in rows]
    failed = name in diverged
    axes.plot(x, y, color=COLOURS[name], marker="x" if failed else "o",
              markersize=8 if failed else 3,
              label=f"greedy Q policy, {LABELS[name]}"
              + (": training diverged" if failed else ""))
    figure_style.band(axes, x, [a - e for a, e in zip(y, se)],
                      [a + e for a, e in zip(y, se)], COLOURS[name])
  if runs:
    last = next(iter(runs.values()))[-1]
    for key, (label, colour) in REFERENCES.items():
      figure_style.reference_level(axes, last[f"reference_{key}"],
                                   f"{label} on the same deals", colour)
  if lbr is not None:
    figure_style.reference_level(axes, lbr, "LBR against the same average (2,000 "
                                 "hands)", "#e7298a")
  axes.set_ylabel("result in seat 0 against the frozen\naverage strategy "
                  "(mbb/h; " + figure_style.BAND + ")")
  axes.set_xlabel("episodes of the test (from the checkpoint's best "
                  "response, or fresh)")
  axes.grid(True, alpha=0.3)
  figure_style.legend_outside(axes, fontsize=7)
  axes.set_title("NFSP's best response against its own average, frozen at "
                 f"{PROFILE_STEP / 1e6:.2f}M episodes")
  figure_style.save(figure, path)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--name", choices=sorted(LABELS),
                      help="the run to train (resumed where it has a "
                      "checkpoint)")
  parser.add_argument("--episodes", type=int, default=200_000)
  parser.add_argument("--eval_every", type=int, default=25_000)
  parser.add_argument("--profile", default=PROFILE,
                      help="the NFSP checkpoint whose seat-1 average plays "
                      "and whose seat-0 best response starts learning")
  parser.add_argument("--run_dir", default=os.path.join(
      nfsp_runs.ROOT, "runs", "frozen_average"),
                      help="the runs' checkpoints, one folder per run")
  parser.add_argument("--cold", action="store_true",
                      help="fresh networks, not the checkpoint's best "
                      "response (rule 4)")
  parser.add_argument("--inputs", default="cards",
                      help="what the learner reads: cards, or "
                      "cards_and_equity (rule 7)")
  parser.add_argument("--set", action="append", default=[],
                      metavar="NAME=VALUE", help="a setting of "
                      "NFSPConfig.replace changed from the checkpoint's")
  args = parser.parse_args()
  if args.name:
    # pylint: disable=g-import-not-at-top
    from nfsp_spiel.core import checkpoints
    from nfsp_spiel.nfsp import fixed_opponent
    from nfsp_spiel.nfsp import sweep
    from nfsp_spiel.nfsp.config import NFSPConfig
    # pylint: enable=g-import-not-at-top
    config = NFSPConfig.from_header(
        checkpoints.read_header(args.profile)["config"])
    changes = {}
    for text in args.set:
      name, [(_, value)] = sweep.sweep_axis(config, text)
      changes[name] = value
    setting = fixed_opponent.Against("average", NUM_DEALS, seed=0,
                                     profile=args.profile,
                                     warm_start=not args.cold)
    nfsp_runs.train_fixed_opponent(
        DATA, args.name, config.replace(inputs=args.inputs, **changes),
        setting, args.episodes,
        args.eval_every, args.run_dir, CHECKPOINT_SECONDS)
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  runs, diverged = {}, {}
  for name in LABELS:
    path = os.path.join(DATA, name, curves.CSV_NAME)
    if os.path.exists(path):
      runs[name] = curves.read_curve(path)
      text = nfsp_runs.diverged(DATA, name)
      if text:
        diverged[name] = text
  lbr = lbr_at_profile()
  draw(runs, os.path.join(figure_runs.HERE, "fig_nfsp_lhe_frozen_average.png"),
       lbr, diverged)
  for line in verdict(runs, diverged):
    print(line)
  if lbr is not None:
    print(f"beside: LBR wins {lbr:+.0f} mbb/h against the same average")


if __name__ == "__main__":
  main()
