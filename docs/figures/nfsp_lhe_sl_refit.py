"""Is a Limit Hold'em run's average strategy limited by its fit to M_SL or by
the data in M_SL? The LHE analogue of Leduc's M_SL-counts diagnostic
(`nfsp.diagnostics`), which needs exact best responses LHE does not have.

From a checkpoint, each agent's average network Pi alone is trained on for
`--updates` more plain-SGD updates on its own M_SL (eq. 6.3, the run's
learning rate and batch; no game is played, nothing else learns, M_SL does
not change), and every `--eval_every` updates Pi is scored against the
SmooCT-like profile on the same duplicate deals (paired, so differences
carry less noise than two runs' results), beside its cross-entropy on a
fixed sample of M_SL. The default 6,400 updates are what the run itself
makes per network in 100k episodes at the paper's update rate (2 per 128
own steps; about 4 own steps an episode), so the refit's change reads
against the run's own next 100k episodes, which spend as many updates on
data that moves.

`--learning_rate` refits at another rate than the run's (its value is in
the CSV's name and rows): whether a fit that moves faster would gain where
the run's own rate does not; the same rule reads it.

`--recent F` refits on the newest fraction F of each M_SL alone (a memory
not yet full holds its records in the order they came; a full one is
refused): whether the old best responses in M_SL, which fictitious play's
averaging keeps at their share, hold Pi back. Its rule, written before its
data, with the same margin: **age-limited** when the last result beats the
first (the recent best responses alone make a better average),
**not age-limited** when it does not, **worse** when it loses.

The rule, written before its first data: the run is **fit-limited** at the
checkpoint when the refit's last result beats its first by more than
max(2 combined standard errors, MIN_GAIN mbb/h); **data-limited** when it
does not (Pi already plays what M_SL holds as well as more fitting makes it,
so only better best responses in M_SL move it); **worse** when it loses by
that margin.

  python docs/figures/nfsp_lhe_sl_refit.py --precision bfloat16 \\
      --set double_q=True --set reward_scale=0.1 \\
      --checkpoint runs/nfsp_lhe_double_q/rewards_1_10/checkpoint.npz

prints a row per evaluation and the verdict, and writes them to
`data/nfsp_lhe_diagnostics/sl_refit_<episodes>.csv` (at the run's rate;
`sl_refit_<episodes>_lr_<rate>.csv` at another).
"""

import argparse
import csv
import os

import numpy as np

import figure_runs
import nfsp_runs

MIN_GAIN = 100.0  # mbb/h; as the double-Q rule's (fig_nfsp_lhe_double_q.py)
LOSS_BATCHES = 20  # the fixed M_SL sample the cross-entropy is read on
CHUNK = 16  # SGD updates per compiled call


def cross_entropy(agent, records):
  """Pi's mean cross-entropy (eq. 6.3) on M_SL `records` ([state, action]
  rows), through the acting weights."""
  from nfsp_spiel.nfsp import networks  # pylint: disable=g-import-not-at-top
  logits = networks.forward(agent.average_policy.weights, records[:, :-1])
  logits = logits - logits.max(axis=1, keepdims=True)
  log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
  actions = records[:, -1].astype(np.int64)
  return float(-log_probs[np.arange(len(records)), actions].mean())


def verdict(first, last, recent=False):
  """The rule's word on the refit's first and last (mean, s.e.); `recent`:
  the `--recent` refit's words."""
  order = figure_runs.compare_means(last, first, MIN_GAIN)
  if recent:
    return {1: "age-limited", 0: "not age-limited", -1: "worse"}[order]
  return {1: "fit-limited", 0: "data-limited", -1: "worse"}[order]


def recent_sampler(memory, fraction):
  """Draws (shape) records uniformly from the newest `fraction` of
  `memory` (all of it at 1), as `memory.sample` draws from all."""
  if fraction == 1.0:
    return lambda shape: memory.sample(shape)["record"]
  size = len(memory)
  if size >= memory.capacity:
    raise ValueError(f"--recent {fraction}: M_SL is full ({size:,} records), "
                     "so its rows are no longer in the order they came")
  first = size - max(1, int(round(fraction * size)))
  records = memory.fields["record"]
  rng = np.random.default_rng(0)
  return lambda shape: records[rng.integers(first, size, size=shape)]


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  nfsp_runs.add_checkpoint_arguments(parser)
  parser.add_argument("--updates", type=int, default=6400)
  parser.add_argument("--eval_every", type=int, default=1600)
  parser.add_argument("--deals", type=int, default=2000)
  parser.add_argument("--learning_rate", type=float,
                      help="Pi's SGD rate in the refit (default: the run's)")
  parser.add_argument("--recent", type=float, default=1.0,
                      help="the newest fraction of M_SL the refit draws from")
  args = parser.parse_args()
  if not 0.0 < args.recent <= 1.0:
    parser.error(f"--recent {args.recent}: a fraction in (0, 1]")
  if args.updates % args.eval_every or args.eval_every % CHUNK:
    parser.error(f"--updates must be a multiple of --eval_every, and that of "
                 f"{CHUNK}")
  from nfsp_spiel.core.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
  tf.config.threading.set_intra_op_parallelism_threads(1)
  tf.config.threading.set_inter_op_parallelism_threads(1)
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.smooth_uct import lhe as smooth_uct_lhe  # pylint: disable=g-import-not-at-top
  game, config, agents, driver = nfsp_runs.restore_lhe(
      args.checkpoint, args.precision, args.set)
  if args.learning_rate is not None:
    for agent in agents:  # the restored header was checked with the run's
      agent.average_policy.config = agent.average_policy.config.replace(
          sl_learning_rate=args.learning_rate)
  rate = agents[0].average_policy.config.sl_learning_rate
  profile = smooth_uct_lhe.shipped_profile(game)
  shape = (LOSS_BATCHES * config.batch_size,)
  samples = [agent.average_policy.records(
      agent.average_policy.memory.sample(shape)["record"]).astype(np.float32)
             for agent in agents]
  steps = [tf.function(agent.average_policy.learn) for agent in agents]
  draws = [recent_sampler(agent.average_policy.memory, args.recent)
           for agent in agents]
  rows = []
  for done in range(0, args.updates + 1, args.eval_every):
    if done:
      for agent, step, draw in zip(agents, steps, draws):
        part = agent.average_policy
        for _ in range(args.eval_every // CHUNK):
          step(part.records(draw((CHUNK, config.batch_size))).astype(
              np.float32))
        part.set_acting_weights(part.network.numpy_weights())
    result = evaluation.head_to_head(
        game, nfsp.NFSPPolicy(game, agents), profile, args.deals, seed=0)
    rows.append({"episodes": driver.episodes, "updates": done,
                 "sl_learning_rate": rate, "recent": args.recent,
                 "mbb_per_hand_vs_smooct": result.mbb_per_hand,
                 "mbb_stderr": result.mbb_stderr,
                 **{f"sl_cross_entropy_{p}": cross_entropy(agent, sample)
                    for p, (agent, sample) in enumerate(zip(agents,
                                                            samples))}})
    print(rows[-1], flush=True)
  first = (rows[0]["mbb_per_hand_vs_smooct"], rows[0]["mbb_stderr"])
  last = (rows[-1]["mbb_per_hand_vs_smooct"], rows[-1]["mbb_stderr"])
  print(f"{verdict(first, last, args.recent < 1)}: {first[0]:+.0f} +- "
        f"{first[1]:.0f} mbb/h -> {last[0]:+.0f} +- {last[1]:.0f} after "
        f"{args.updates:,} updates of Pi alone on the newest {args.recent:g} "
        f"of M_SL at rate {rate:g} "
        f"({', '.join(args.set) or 'the paper settings'})")
  path = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_diagnostics",
                      f"sl_refit_{driver.episodes}" + (
                          "" if args.learning_rate is None else
                          f"_lr_{args.learning_rate:g}") + (
                              "" if args.recent == 1 else
                              f"_recent_{args.recent:g}") + ".csv")
  with open(path, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)


if __name__ == "__main__":
  main()
