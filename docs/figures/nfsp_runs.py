"""Shared by the NFSP figure scripts: one resumable NFSP training run whose
curve holds exploitability and the run diagnostics.

A run trains the batched self-play driver with `NFSPConfig.leduc(**changes)`
(or the DQN preset, or any `NFSPConfig`) on nfsp_leduc (or another game)
and at log-spaced episode counts logs the exploitability of the config's
evaluation policy, the learned best response's (`exploitability_greedy`:
greedy Q; ARM's regret matching), and with `diagnostics` each player's
best-response gap and the exploitability of M_SL's counts
(`nfsp.diagnostics`) to `data/<figure>/<run>/curve.csv`. It checkpoints to
`runs/figures/<figure>/<run>/checkpoint.npz` (outside git) after each
logged point past `CHECKPOINT_FROM` episodes; started again, it resumes
from there, its curve cut back to the checkpoint's episode count
(`nfsp_spiel.run.run_directory`, as the training binaries), so the curve never
repeats or skips a point. `stop_at` ends a run early on the same
schedule (the points of an `episodes`-long run up to `stop_at`, a
checkpoint at the last), so that a later call with a larger `stop_at`, or
none, carries it on exactly as if it had not stopped.
"""

import os

import figure_runs

ROOT = os.path.dirname(os.path.dirname(figure_runs.HERE))
CHECKPOINT_FROM = 500_000


def train(figure, run, changes, episodes, seed, points=40,
          game_string="nfsp_leduc", backend="auto", diagnostics=True,
          first_point=1000, stop_at=None, against_random=False):
  """Trains one run (call it in its own process: it pins TensorFlow to one
  thread); returns the curve's path. `changes`: NFSPConfig.leduc's changes
  (the learner's settings may take their flat names, `rl_learning_rate`,
  ...: `NFSPConfig.replace`), "dqn", or an `NFSPConfig`. `against_random` also logs the evaluated
  policy's exact reward in each seat against a uniform random player
  (`reward_vs_random_seat<p>`, the NFSP-ARM paper's figs. 6-7)."""
  from nfsp_spiel.core.quiet_tensorflow import tf  # pylint: disable=g-import-not-at-top
  tf.config.threading.set_intra_op_parallelism_threads(1)
  tf.config.threading.set_inter_op_parallelism_threads(1)
  import pyspiel  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.run import run_directory  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game(game_string)
  if isinstance(changes, nfsp.NFSPConfig):
    config = changes
  elif changes == "dqn":
    config = nfsp.NFSPConfig.dqn()
  else:
    config = nfsp.NFSPConfig.leduc(**changes)
  agents = nfsp.agents_for(game, config, seed=seed)
  settings = dict(num_games=128, seed=seed, backend=backend)
  folder = run_directory.RunDirectory(
      os.path.join(figure_runs.HERE, "data", figure, run),
      checkpoint=os.path.join(ROOT, "runs", "figures", figure, run,
                              "checkpoint.npz"),
      keep_previous=False)  # git keeps the curve a fresh run replaces
  driver = (selfplay.SelfPlay.restore(game, folder.checkpoint, agents,
                                      **settings) if folder.resuming
            else selfplay.SelfPlay(game, agents, **settings))
  folder.open_curve(driver.episodes)
  targets = sorted(figure_runs.log_points(episodes, points) | {episodes})
  if stop_at is not None:
    targets = [target for target in targets if target <= stop_at]
  for target in targets:
    if target < first_point or target <= driver.episodes:
      continue
    driver.play(target - driver.episodes)
    evaluated = nfsp.NFSPPolicy(game, agents,
                                config.evaluation_policy).to_tabular()
    greedy = nfsp.NFSPPolicy(game, agents, "best_response").to_tabular()
    folder.log(driver.episodes,
               exploitability=evaluation.exploitability(game, evaluated),
               exploitability_greedy=evaluation.exploitability(game, greedy),
               **(nfsp.diagnostics(game, agents, evaluated, greedy)
                  if diagnostics else {}),
               **({f"reward_vs_random_seat{p}": value for p, value in
                   enumerate(evaluation.seat_values(game, evaluated))}
                  if against_random else {}))
    if driver.episodes >= min(CHECKPOINT_FROM, episodes) or (
        target == targets[-1]):
      folder.save(driver.save, driver.episodes)
  return folder.curve



def restore_lhe(checkpoint, precision="float32", sets=()):
  """(game, config, agents, driver) of an `examples/nfsp.py --game nfsp_lhe
  --preset lhe` run's `checkpoint`, `precision` and `sets` (NAME=VALUE
  texts of `NFSPConfig.replace`, as `--set` gives them) as it was trained
  (the checkpoint's header must match), restored with that binary's defaults
  (128 games, seed 0, learning in groups of 8 locksteps)."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import sweep  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  config = nfsp.NFSPConfig.lhe(precision=precision)
  for text in sets:
    name, [(_, value)] = sweep.sweep_axis(config, text)
    config = config.replace(**{name: value})
  agents = nfsp.agents_for(game, config)
  driver = selfplay.SelfPlay.restore(game, checkpoint, agents, num_games=128,
                                     seed=0, learn_locksteps=8)
  return game, config, agents, driver
