"""Where and how a Limit Hold'em run's best response diverged.

A run whose Q-network's loss turns NaN stops with `FloatingPointError`
("training diverged"). Restored from its last checkpoint it replays the same
episodes (a run is deterministic on one CPU family), so this script plays
from the checkpoint until that error, keeping each agent's last learning
call's inputs (the Q-network's and target network's weights and the M_RL
sample), and then replays that call's SGD updates one by one through the
DQN's own `learning_step`, in the run's precision and in float32, printing
per update the loss (half the mean squared TD error), the largest weight and
the largest activation of the last hidden layer on the batch's states: a
slow drift or one bad batch, a rounding artefact of bfloat16 or plain SGD's
own instability. `--replay_clips` replays the same updates also with the
TD error clipped (`DQNConfig.td_error_clip`, the Huber loss): whether that
remedy holds the very call that diverged.

  python docs/figures/nfsp_lhe_divergence.py --precision bfloat16 \\
      --set double_q=True --set reward_scale=0.1 \\
      --checkpoint runs/nfsp_lhe_double_q/rewards_1_10/checkpoint.npz \\
      --replay_clips 0,24,10,1

writes the replay to `data/nfsp_lhe_diagnostics/divergence_<episodes>.csv`
(<episodes>: where the error was raised).
"""

import argparse
import csv
import os

import numpy as np

import figure_runs
import nfsp_runs


def _recording(learner, kept):
  """Wraps `learner.learning_batches` to keep its inputs in `kept`."""
  draw = learner.learning_batches

  def learning_batches(calls):
    batches = draw(calls)
    kept[learner] = {
        "records": [np.array(b) for b in batches],
        "weights": learner.q_network.numpy_weights(),
        "targets": learner.target_network.numpy_weights(),
        "updates": int(learner.updates.numpy())}
    return batches
  learner.learning_batches = learning_batches


def replay(learner, kept, precision, clip):
  """Rows of the kept call's updates replayed one by one in `precision`
  with the TD error clipped at `clip` (0: not)."""
  from nfsp_spiel.core.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import networks  # pylint: disable=g-import-not-at-top
  run_precision = learner.config.precision
  learner.config = learner.config.replace(precision=precision)
  try:
    values = [tf.constant(w) for w in (*kept["weights"], *kept["targets"])]
    values.append(tf.constant(np.int64(kept["updates"])))
    settings = {k: tf.constant(v)
                for k, v in learner.learning_settings().items()}
    settings["td_error_clip"] = tf.constant(np.float32(clip))
    records = kept["records"][0]
    states = records[..., learner.columns["state"][0]:
                     learner.columns["state"][1]]
    rows = []
    for update in range(records.shape[0]):
      weights = [w.numpy() for w in values[:len(kept["weights"])]]
      hidden = networks.last_hidden(weights, states[update])
      values, loss = learner.learning_step(
          values, settings, None, tf.constant(records[update:update + 1]))
      rows.append({"precision": precision, "td_error_clip": clip,
                   "update": kept["updates"] + update + 1,
                   "loss": float(loss),
                   "largest_hidden": float(np.max(hidden)),
                   "largest_weight_after": float(max(
                       np.max(np.abs(v.numpy()))
                       for v in values[:len(kept["weights"])]))})
      print(rows[-1], flush=True)
    return rows
  finally:
    learner.config = learner.config.replace(precision=run_precision)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  nfsp_runs.add_checkpoint_arguments(parser)
  parser.add_argument("--episodes", type=int, default=200_000,
                      help="episodes past the checkpoint to look in")
  parser.add_argument("--replay_clips", default="0",
                      help="comma-separated TD-error clips to replay the "
                      "failed call with (0: as the run learned)")
  args = parser.parse_args()
  from nfsp_spiel.core.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
  tf.config.threading.set_intra_op_parallelism_threads(1)
  tf.config.threading.set_inter_op_parallelism_threads(1)
  _, _, agents, driver = nfsp_runs.restore_lhe(args.checkpoint,
                                               args.precision, args.set)
  start, kept = driver.episodes, {}
  for agent in agents:
    _recording(agent.best_response_learner, kept)
  try:
    while driver.episodes < start + args.episodes:
      driver.step()
  except FloatingPointError as error:
    print(f"at {driver.episodes:,} episodes: {error}", flush=True)
  else:
    print(f"no divergence in {args.episodes:,} episodes past "
          f"{start:,}")
    return
  # The failed call's weights are in the networks' variables already.
  diverged = [a for a in agents if not all(
      np.isfinite(w).all()
      for w in a.best_response_learner.q_network.numpy_weights())]
  rows = []
  for agent in diverged:
    learner = agent.best_response_learner
    for clip in [float(c) for c in args.replay_clips.split(",")]:
      for precision in dict.fromkeys((args.precision, "float32")):
        rows += [{"agent": agent.player_id, **row}
                 for row in replay(learner, kept[learner], precision, clip)]
  path = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_diagnostics",
                      f"divergence_{driver.episodes}.csv")
  with open(path, "w", newline="", encoding="utf-8") as f:
    writer = csv.DictWriter(f, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
  print(f"wrote {path}")


if __name__ == "__main__":
  main()
