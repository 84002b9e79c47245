"""Does NFSP's reinforcement learner learn Limit Hold'em? Against a fixed
opponent, at two reward scales.

In self-play the best response chases a moving average; against always-raise
its target stands still (`nfsp.fixed_opponent`): the agent of
`NFSPConfig.lhe()` with `anticipatory_param=1` (it always plays its
epsilon-greedy best response, the NFSP paper's DQN baseline) learns in
seat 0 against always-raise in seat 1, and at every evaluation its greedy Q
policy plays the same deals against it (batched matches, +-1 s.e.).
References on those deals: the equity-threshold player (card-aware play
that beats a raiser) and always-call (which does not).

  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name rewards_1_480 \\
      --reward_scale 0.00208333 --episodes 30000 --eval_every 5000
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name rewards_1_5 \\
      --reward_scale 0.2 --episodes 30000 --eval_every 5000
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name \
      rewards_1_480_updates_x8 --reward_scale 0.00208333 \
      --set updates_per_learn=16 --episodes 10000 --eval_every 2500
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name \
      rewards_1_480_init_glorot --reward_scale 0.00208333 --set init=glorot
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name all_four_changes \
      --reward_scale 0.0208333 --set init=glorot --set updates_per_learn=16 \
      --set target_refit_every=300 --episodes 10000 --eval_every 2500
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name \
      hidden_64_rewards_1_5 --reward_scale 0.2 --set hidden_layers=64 \
      --set precision=float32
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name \
      hidden_64_rewards_1_5_long --reward_scale 0.2 --set hidden_layers=64 \
      --set precision=float32 --episodes 500000 --eval_every 25000
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name \
      hidden_64_rewards_1_5_updates_x8 --reward_scale 0.2 \
      --set hidden_layers=64 --set precision=float32 \
      --set updates_per_learn=16 --episodes 40000 --eval_every 5000
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name \
      hidden_64_rewards_1_5_rl_lr_0.01 --reward_scale 0.2 \
      --set hidden_layers=64 --set precision=float32 \
      --set rl_learning_rate=0.01 --episodes 500000 --eval_every 25000
      # (and _0.03 with rl_learning_rate=0.03, stopped at 225k)
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name \
      hidden_64_rewards_1_10 --reward_scale 0.1 --set hidden_layers=64 \
      --set precision=float32 --episodes 500000 --eval_every 25000
      # (stopped at 425k)
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name \
      rewards_1_5_rl_lr_0.01 --reward_scale 0.2 --set rl_learning_rate=0.01 \
      --episodes 60000 --eval_every 10000
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name \
      rewards_1_48_long --reward_scale 0.0208333 --episodes 300000 \
      --eval_every 25000
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name rewards_1_10 \
      --reward_scale 0.1 --episodes 300000 --eval_every 25000
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py --name \
      rewards_1_10_double_q --reward_scale 0.1 --set double_q=True \
      --episodes 300000 --eval_every 25000
  python docs/figures/fig_nfsp_lhe_fixed_opponent.py   # draws, judges

The double-Q run (`DQNConfig.double_q`, not the paper's method) asks
whether Q-learning's overestimation is what stops the preset's network:
its rule, written when its curve had only its episode-0 row, is this
file's rule, read so: it supports overestimation as the blocker if
`rewards_1_10_double_q` is *better than* `rewards_1_10` at the last x both
reached (150k episodes at least), and contradicts it if it is no
different or worse there.

The runs of the one-layer network are drawn apart
(`fig_nfsp_lhe_fixed_opponent_hidden_64.png`).

The paper's update rate makes about 64 SGD updates per network per 1,000
episodes here (2 per 128 of the agent's own steps); the third run makes
eight times as many (`sgd_updates` in each curve), to tell a learner
limited by its number of updates from one that does not learn. The
others change the initialisation, then four settings at once, then the
network (one hidden layer of 64, Leduc's, which makes many more updates
per second); the bottom panels show how often the greedy Q policy folds
and raises preflop and after the flop (runs that logged it).

The rule, written before the data: at a scale's last evaluation, of at least
`JUDGED_AT` episodes, its greedy Q policy *learns* if its result is more than
two standard errors above both its first evaluation after learning began
(`eval_every` episodes) and always-call's result; one scale is *better* than
another if, at the last evaluation both reached (the same x within 2%; pairs
without one are not compared), it is higher by more than two combined standard
errors (the deals are the same, so this is conservative). Curves:
`data/nfsp_lhe_fixed_opponent/<name>/`; each run checkpoints in
`--run_dir/<name>` (outside git) at every evaluation and every ten minutes, and
the same command resumes it (Ctrl-C stops it at the
last consistent checkpoint); the runs before that mechanism (those of
500k episodes and less) were each trained in one go.
"""

import argparse
import math
import os

import figure_runs
import figure_style
import nfsp_runs

DATA = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_fixed_opponent")
JUDGED_AT = 20_000
# Wall-clock seconds between checkpoints at the latest (at the next row): an
# evaluation interval of the preset's network takes about an hour here.
CHECKPOINT_SECONDS = 600
LABELS = {"rewards_1_480": "rewards / 480 (the preset)",
          "rewards_1_480_updates_x8": "rewards / 480, 8x the updates",
          "rewards_1_480_init_glorot": "rewards / 480, Glorot's initialisation",
          "rewards_1_5": "rewards / 5 (thesis: 1 per small blind)",
          "all_four_changes": "rewards / 48, Glorot, 8x the updates, "
                              "target refits every 300",
          "hidden_64_rewards_1_5": "one hidden layer of 64, rewards / 5, "
                                   "float32",
          "hidden_64_rewards_1_5_long": "one hidden layer of 64, rewards / 5, "
                                        "float32, 500k episodes",
          "hidden_64_rewards_1_5_updates_x8": "one hidden layer of 64, "
                                              "rewards / 5, 8x the updates",
          "hidden_64_rewards_1_5_rl_lr_0.01": "one hidden layer of 64, "
                                              "rewards / 5, RL SGD at 0.01",
          "hidden_64_rewards_1_5_rl_lr_0.03": "one hidden layer of 64, "
                                              "rewards / 5, RL SGD at 0.03 "
                                              "(stopped at 225k)",
          "hidden_64_rewards_1_10": "one hidden layer of 64, rewards / 10 "
                                    "(per big blind), float32 (stopped at "
                                    "425k)",
          "rewards_1_5_rl_lr_0.01": "rewards / 5, RL SGD at 0.01",
          "rewards_1_48_long": "rewards / 48, 300k episodes",
          "rewards_1_10": "rewards / 10 (per big blind), 300k episodes",
          "rewards_1_10_double_q": "rewards / 10, double Q-learning's "
                                   "target (a diagnostic)"}
COLOURS = {"rewards_1_480": figure_style.COLOURS["NFSP"],
           "rewards_1_480_updates_x8": "#7570b3",
           "rewards_1_480_init_glorot": "#d95f02",
           "rewards_1_5": "#e7298a",
           "all_four_changes": "#a6761d", "hidden_64_rewards_1_5": "#666666",
           "hidden_64_rewards_1_5_long": "#000000",
           "hidden_64_rewards_1_5_updates_x8": "#7570b3",
           "hidden_64_rewards_1_5_rl_lr_0.01": "#1b9e77",
           "hidden_64_rewards_1_5_rl_lr_0.03": "#e6ab02",
           "rewards_1_5_rl_lr_0.01": "#1b9e77",
           "hidden_64_rewards_1_10": "#d95f02",
           "rewards_1_48_long": "#66a61e", "rewards_1_10": "#e6ab02",
           "rewards_1_10_double_q": "#e41a1c"}
# (file, network in words) of the preset network's runs, then of the
# one-layer network's (`figure_runs.by_network`).
FIGURES = (("fig_nfsp_lhe_fixed_opponent.png", "the preset's network"),
           ("fig_nfsp_lhe_fixed_opponent_hidden_64.png",
            "one hidden layer of 64"))
# The action panels: preflop, and the mean of the three postflop rounds (the
# rounds apart made one line per round and run, too many to read).
ROUND_GROUPS = {"preflop": (("preflop",), "-"),
                "postflop (mean of flop, turn, river)":
                    (("flop", "turn", "river"), "--")}
REFERENCE_NAMES = {  # reference -> (legend label, colour)
    "equity_threshold": ("equity-threshold player", figure_style.REFERENCE),
    "always_call": ("always-call", "grey")}


def train(name, reward_scale, episodes, eval_every, num_deals, seed,
          run_dir, **changes):
  """Trains run `name` against always-raise, the preset's settings but
  `changes` (`NFSPConfig.replace` names) (`nfsp_runs.train_fixed_opponent`)."""
  from nfsp_spiel.nfsp import fixed_opponent  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp.config import NFSPConfig  # pylint: disable=g-import-not-at-top
  nfsp_runs.train_fixed_opponent(
      DATA, name, NFSPConfig.lhe().replace(reward_scale=reward_scale,
                                           **changes),
      fixed_opponent.Against("always_raise", num_deals, seed), episodes,
      eval_every, run_dir, CHECKPOINT_SECONDS)


def verdict(runs):
  """The rule above on `runs` ({name: curve rows}); one line per run."""
  lines = []
  for name, rows in runs.items():
    last = rows[-1]
    if last["step"] < JUDGED_AT:
      lines.append(f"{name}: too short ({last['step']:,.0f} of "
                   f"{JUDGED_AT:,} episodes)")
      continue
    first = rows[1]
    call = last["reference_always_call"]
    margin = 2 * math.hypot(last["mbb_stderr"], first["mbb_stderr"])
    learns = (last["mbb_per_hand"] - first["mbb_per_hand"] > margin
              and last["mbb_per_hand"] - call > 2 * last["mbb_stderr"])
    lines.append(
        f"{name}: {'learns' if learns else 'does not learn'} by "
        f"{last['step']:,.0f} episodes ({last['mbb_per_hand']:+.0f} +- "
        f"{last['mbb_stderr']:.0f} mbb/h; {first['mbb_per_hand']:+.0f} at "
        f"{first['step']:,.0f}; always-call {call:+.0f}, equity-threshold "
        f"{last['reference_equity_threshold']:+.0f})")
  names = sorted(runs)
  for i, a in enumerate(names):
    for b in names[i + 1:]:
      pair = figure_runs.shared_evaluation(runs[a], runs[b])
      if pair is None:
        continue  # no evaluation at the same x: nothing to compare
      row_a, row_b = pair
      gain = row_a["mbb_per_hand"] - row_b["mbb_per_hand"]
      margin = 2 * math.hypot(row_a["mbb_stderr"], row_b["mbb_stderr"])
      order = ("better than" if gain > margin else
               "worse than" if gain < -margin else "no different from")
      lines.append(f"{a} is {order} {b} at {row_a['step']:,.0f} episodes "
                   f"({gain:+.0f} mbb/h, 2 s.e. {margin:.0f})")
  return "\n".join(lines)


def draw(runs, path, network):
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  figure, (result, weights, folds, raises) = plt.subplots(
      4, 1, figsize=(7.2, 12.5), sharex=True)
  for name, rows in runs.items():
    x = [r["step"] for r in rows]
    y = [r["mbb_per_hand"] for r in rows]
    se = [r["mbb_stderr"] for r in rows]
    colour = COLOURS.get(name, "grey")
    result.plot(x, y, color=colour, marker="o", markersize=3,
                label=f"greedy Q policy, {LABELS.get(name, name)}")
    figure_style.band(result, x, [a - e for a, e in zip(y, se)],
                      [a + e for a, e in zip(y, se)], colour)
    weights.plot(x, [r["q_norm"] / rows[0]["q_norm"] for r in rows],
                 color=colour, marker="o", markersize=3,
                 label=LABELS.get(name, name))
    for axes, action in ((folds, "fold"), (raises, "raise")):
      for rounds, style in ROUND_GROUPS.values():
        steps, values = figure_runs.mean_of_columns(
            rows, [f"greedy_{round_name}_{action}" for round_name in rounds])
        if steps:
          axes.plot(steps, values, color=colour, linestyle=style)
  if runs:
    any_run = next(iter(runs.values()))
    for key, (label, colour) in REFERENCE_NAMES.items():
      figure_style.reference_level(result, any_run[-1][f"reference_{key}"],
                                   f"{label} on the same deals", colour)
  result.set_ylabel("result in seat 0 against always-raise\n(mbb/h; "
                    + figure_style.BAND + ")")
  weights.set_ylabel("Q network's weight norm\nover its norm at episode 0")
  figure_style.log_axes(weights, x=False)
  for label, (_, style) in ROUND_GROUPS.items():  # colours: the runs above
    folds.plot([], [], color="black", linestyle=style, label=label)
  folds.set_ylabel("greedy Q policy's fold\nfrequency in those matches")
  raises.set_ylabel("greedy Q policy's raise\nfrequency in those matches")
  raises.set_xlabel("episodes")
  for axes in (result, weights, folds, raises):
    axes.grid(True, alpha=0.3)
    figure_style.legend_outside(axes, fontsize=7)
  result.set_title("NFSP's best response (NFSPConfig.lhe(), eta = 1, "
                   f"{network}) against always-raise")
  figure_style.save(figure, path)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--name", help="run folder under data/; trains it")
  parser.add_argument("--reward_scale", type=float)
  parser.add_argument("--episodes", type=int, default=30_000)
  parser.add_argument("--eval_every", type=int, default=5_000)
  parser.add_argument("--num_deals", type=int, default=10_000)
  parser.add_argument("--seed", type=int, default=0)
  parser.add_argument("--run_dir", default=os.path.join(
      os.path.dirname(os.path.dirname(figure_runs.HERE)), "runs",
      "fixed_opponent"), help="the runs' checkpoints, one folder per run")
  parser.add_argument("--set", action="append", default=[],
                      metavar="NAME=VALUE",
                      help="a setting of NFSPConfig.replace changed from "
                      "the preset's, e.g. updates_per_learn=16 (repeatable)")
  args = parser.parse_args()
  if args.name:
    if args.reward_scale is None:
      parser.error("--name trains a run: give its --reward_scale")
    from nfsp_spiel.nfsp import sweep  # pylint: disable=g-import-not-at-top
    from nfsp_spiel.nfsp.config import NFSPConfig  # pylint: disable=g-import-not-at-top
    preset = NFSPConfig.lhe()
    changes = {}
    for text in args.set:
      name, [(_, value)] = sweep.sweep_axis(preset, text)
      changes[name] = value
    train(args.name, args.reward_scale, args.episodes, args.eval_every,
          args.num_deals, args.seed, args.run_dir, **changes)
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  runs = {}
  for name in sorted(os.listdir(DATA)) if os.path.isdir(DATA) else ():
    path = os.path.join(DATA, name, curves.CSV_NAME)
    if os.path.exists(path):
      runs[name] = curves.read_curve(path)
  for (file_name, network), chosen_runs in zip(FIGURES,
                                               figure_runs.by_network(runs)):
    draw(chosen_runs, os.path.join(figure_runs.HERE, file_name), network)
  print(verdict(runs))


if __name__ == "__main__":
  main()
