"""How many SGD updates does the Limit Hold'em Q-network need to tell hands
apart? A supervised probe of `NFSPConfig.lhe()`'s network and optimiser.

Against always-raise, the big blind's value of calling down depends only on
its two cards; the targets are the outcomes of calling down (+-70 chips or
a split), times the reward scale: exactly the returns a Q-learner's
call action sees there, with no bootstrapping. The preset's network (four
ReLU layers 1024-512-1024-512, Torch7 initialisation) is fitted to them by
its plain SGD (half the mean squared error, batch 256, learning rate 0.1),
as the DQN part fits its TD targets. Every `--eval_every` updates the fit
is scored on held-out deals as the share of the outcomes' variance it
explains (R^2), beside the best a predictor of the cards can do: the mean
outcome of the training deals with the same preflop hand class (169
classes). The paper's update rate makes about 64 updates per network per
1,000 episodes (2 per 128 of an agent's own steps), so the x-axis reads in
episodes as 16 per update.

  python docs/figures/nfsp_lhe_supervised_probe.py --reward_scale 0.00208333
  python docs/figures/nfsp_lhe_supervised_probe.py --reward_scale 0.2
  python docs/figures/nfsp_lhe_supervised_probe.py --reward_scale 0.00208333 \
      --init glorot --updates 6000

prints one row per evaluation and appends them to
`data/nfsp_lhe_supervised_probe/<scale>/curve.csv`; `--draw` draws every
committed curve in `nfsp_lhe_supervised_probe.png` and trains nothing.

`--tabular` prints, instead, what knowing the hand classes is worth and how
many samples it takes: the big blind folds a class where its mean
call-down outcome over n sampled training deals is below the -10 chips
folding costs, and calls down otherwise; mbb/h on the held-out deals, five
draws of n deals each, beside calling everything and the rule from all
the training deals.

  python docs/figures/nfsp_lhe_supervised_probe.py --tabular \
      --train_deals 400000 --test_deals 200000

`--q_of CHECKPOINT` prints, instead, what the Q-network of a fixed-opponent
run (`fig_nfsp_lhe_fixed_opponent.py`, its checkpoint under
`runs/fixed_opponent/<name>/`) says at that first decision on the test
deals, beside what the actions are worth there: folding loses exactly the
10-chip blind; calling down is worth its hand class's mean outcome on those
deals (a Q-learner's call is worth at least that, since it may fold later).
Whether Q has learnt the cards shows in how its call-minus-fold values
follow the classes' call-down outcomes (their correlation over classes).

  python docs/figures/nfsp_lhe_supervised_probe.py --test_deals 200000 \
      --q_of runs/fixed_opponent/rewards_1_10/checkpoint.npz
"""

import argparse
import os

import numpy as np

import figure_runs
import figure_style

DATA = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_supervised_probe")


class _FirstDecisions:
  """Always-call, keeping the information-state tensors of the first call
  it is asked (every deal's first big-blind decision, in deal order)."""

  def __init__(self, policy):
    self.policy = policy
    self.tensors = None

  def batch_action_probabilities(self, decisions):
    if self.tensors is None:
      self.tensors = decisions.information_state_tensors()
    return self.policy.batch_action_probabilities(decisions)


def deals(game, count, seed):
  """(tensors, chips, hand class) of `count` deals: the big blind facing
  always-raise's opening raise, and its chips from calling down."""
  from nfsp_spiel.evaluation import baselines  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.evaluation import batched_matches  # pylint: disable=g-import-not-at-top
  caller = _FirstDecisions(baselines.AlwaysCall(game))
  chips = batched_matches.play_profile((caller, baselines.AlwaysRaise(game)),
                                       count, seed)
  hole = batched_matches.deal_cards(count, seed)[:, :2]
  ranks, suits = hole // 4, hole % 4
  high, low = ranks.max(axis=1), ranks.min(axis=1)
  suited = (suits[:, 0] == suits[:, 1]) & (high != low)
  return caller.tensors, chips, (high * 13 + low) * 2 + suited


FOLD_CHIPS = -10.0  # the big blind's blind, lost by folding to the raise
CLASSES = 338  # (high * 13 + low) * 2 + suited


def class_means(values, classes, unseen):
  """Each hand class's mean of `values`; `unseen` where a class has none."""
  sums = np.bincount(classes, values, minlength=CLASSES)
  counts = np.bincount(classes, minlength=CLASSES)
  return np.where(counts > 0, sums / np.maximum(counts, 1), unseen)


def fold_rule_result(chips, classes, test_chips, test_classes):
  """mbb/h on the test deals of folding the classes whose mean outcome on
  (`chips`, `classes`) is below `FOLD_CHIPS` (unseen classes call)."""
  fold = class_means(chips, classes, 0.0) < FOLD_CHIPS
  return 100 * np.where(fold[test_classes], FOLD_CHIPS, test_chips).mean()


def tabular(chips, classes, test_chips, test_classes, seed):
  """Prints the fold rule's result from n sampled deals, by n."""
  print(f"calling everything: {100 * test_chips.mean():+.0f} mbb/h; the fold "
        "rule from every training deal: "
        f"{fold_rule_result(chips, classes, test_chips, test_classes):+.0f}")
  rng = np.random.default_rng(seed)
  for n in (1_000, 3_000, 10_000, 30_000, 100_000):
    if n > len(chips):
      break
    results = []
    for _ in range(5):
      rows = rng.choice(len(chips), n, replace=False)
      results.append(fold_rule_result(chips[rows], classes[rows],
                                      test_chips, test_classes))
    print(f"from {n:>7,} deals: {np.mean(results):+.0f} +- "
          f"{np.std(results):.0f} mbb/h (five draws)")


def q_at_first_decision(game, path, tensors, chips, classes):
  """Prints `--q_of`'s comparison for the run checkpointed at `path` on
  the deals of (`tensors`, `chips`, `classes`)."""
  from nfsp_spiel.nfsp import fixed_opponent  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import lhe_diagnostics  # pylint: disable=g-import-not-at-top
  run = fixed_opponent.FixedOpponentRun.from_checkpoint(game, path)
  q = lhe_diagnostics.q_in_chips(run.learner, tensors)
  fold, call, raise_ = (q[:, a].mean() for a in range(3))
  print(f"{path}: {run.episodes:,} episodes; mean Q over {len(chips):,} "
        f"first decisions, in chips: fold {fold:+.1f} (worth exactly "
        f"{FOLD_CHIPS:+.0f}), call {call:+.1f}, raise {raise_:+.1f}")
  means = class_means(chips, classes, np.nan)
  seen = ~np.isnan(means)
  call_down = means[seen]
  q_call = class_means(q[:, 1], classes, np.nan)[seen]
  edge = class_means(q[:, 1] - q[:, 0], classes, np.nan)[seen]
  order = np.argsort(call_down)
  for name, rows in (("weakest", order[:30]), ("strongest", order[-30:])):
    print(f"  the {name} 30 hand classes: calling down is worth "
          f"{call_down[rows].mean():+.1f}, Q(call) {q_call[rows].mean():+.1f}")
  print(f"  correlation over the {seen.sum()} classes of Q(call) - Q(fold) "
        f"with the call-down outcome: {np.corrcoef(edge, call_down)[0, 1]:+.2f}"
        f"; the greedy policy folds {np.mean(q.argmax(axis=1) == 0):.1%} of "
        "these decisions, the rule from the classes' outcomes "
        f"{np.mean(means[classes] < FOLD_CHIPS):.1%}")


def label(folder):
  """A legend label from a run folder's name, `scale_<s>_lr_<r>[_init_<i>]`."""
  _, scale, _, rate, *init = folder.split("_")
  return (f"rewards x {float(scale):.3g}, SGD {rate}, "
          f"{init[-1].capitalize() if init else 'Torch7'} initialisation")


def draw(path):
  """The committed curves: R^2 on held-out deals against SGD updates, the
  hand classes' ceiling as a reference level."""
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  figure, axes = plt.subplots(figsize=(7.2, 4.2))
  ceiling = None
  for folder in sorted(os.listdir(DATA)):
    rows = curves.read_curve(os.path.join(DATA, folder, curves.CSV_NAME))
    axes.plot([r["step"] for r in rows], [r["r2"] for r in rows],
              marker="o", markersize=3, label=label(folder))
    ceiling = rows[-1]["ceiling"]
  if ceiling is not None:
    figure_style.reference_level(
        axes, ceiling, "best function of the preflop hand class")
  axes.set_ylim(bottom=-0.01)
  axes.set_xlabel("SGD updates of batch 256 (the paper's rate: about 64 "
                  "per 1,000 episodes)")
  axes.set_ylabel("\n".join(figure_style.wrap_label(
      "variance of call-down outcomes explained on held-out deals (R²)")))
  axes.set_title("The Limit Hold'em Q-network fitted to exact targets")
  axes.grid(True, alpha=0.3)
  figure_style.legend_outside(axes, fontsize=7)
  figure_style.save(figure, path)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--reward_scale", type=float, default=1 / 480)
  parser.add_argument("--learning_rate", type=float, default=0.1)
  parser.add_argument("--updates", type=int, default=20_000)
  parser.add_argument("--eval_every", type=int, default=1_000)
  parser.add_argument("--train_deals", type=int, default=200_000)
  parser.add_argument("--test_deals", type=int, default=50_000)
  parser.add_argument("--seed", type=int, default=0)
  parser.add_argument("--init", default="torch",
                      help="starting weights, as `NFSPConfig.init`")
  parser.add_argument("--draw", action="store_true",
                      help="draw the committed curves; train nothing")
  parser.add_argument("--tabular", action="store_true",
                      help="print the hand-class table's fold rule by "
                      "sample count; train nothing")
  parser.add_argument("--q_of", metavar="CHECKPOINT",
                      help="print what a fixed-opponent run's Q-network says "
                      "at the first decision; train nothing")
  args = parser.parse_args()
  if args.draw:
    draw(os.path.join(figure_runs.HERE, "nfsp_lhe_supervised_probe.png"))
    return
  import pyspiel  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from nfsp_spiel.core.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import networks  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp.config import NFSPConfig  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  config = NFSPConfig.lhe(init=args.init)
  x_test, y_test, c_test = deals(game, args.test_deals, args.seed + 1)
  if args.q_of:
    q_at_first_decision(game, args.q_of, x_test, y_test, c_test)
    return
  x_train, y_train, c_train = deals(game, args.train_deals, args.seed)
  if args.tabular:
    tabular(y_train, c_train, y_test, c_test, args.seed)
    return
  y_train = (y_train * args.reward_scale).astype(np.float32)
  y_test = y_test * args.reward_scale
  # The best a function of the hand class does: its training mean.
  class_mean = class_means(y_train, c_train, y_train.mean())
  variance = y_test.var()
  ceiling = 1 - np.mean((class_mean[c_test] - y_test) ** 2) / variance
  rng = np.random.default_rng(args.seed)
  network = networks.MLP(x_train.shape[1], config.hidden_layers,
                         game.num_distinct_actions(), rng, init=config.init)
  call = 1  # poker.CALL

  @tf.function(jit_compile=True)
  def update(weights, x, y):
    loss = lambda w: 0.5 * tf.reduce_mean(
        tf.square(networks.outputs(w, x)[:, call] - y))
    return networks.sgd_update(loss, weights, args.learning_rate)

  weights = [tf.constant(w) for w in network.numpy_weights()]
  logger = curves.LearningCurveLogger(
      os.path.join(DATA, f"scale_{args.reward_scale:g}_lr_"
                   f"{args.learning_rate:g}"
                   + ("" if args.init == "torch" else f"_init_{args.init}")))
  batch = config.batch_size
  for step in range(args.updates + 1):
    if step % args.eval_every == 0:
      numpy_weights = [w.numpy() for w in weights]
      predicted = networks.forward(numpy_weights, x_test)[:, call]
      r2 = 1 - np.mean((predicted - y_test) ** 2) / variance
      logger.log(step, r2=r2, ceiling=ceiling,
                 episodes_at_paper_rate=step * 1000 / 64)
      print(f"{step:>7,} updates (~{step * 1000 / 64:>9,.0f} episodes): "
            f"R^2 {r2:+.4f} of the {ceiling:.4f} the hand classes give",
            flush=True)
    if step < args.updates:
      rows = rng.integers(0, len(x_train), batch)
      _, weights = update(weights, tf.constant(x_train[rows]),
                          tf.constant(y_train[rows]))


if __name__ == "__main__":
  main()
