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

import csv
import glob
import os

import figure_runs

ROOT = os.path.dirname(os.path.dirname(figure_runs.HERE))
CHECKPOINT_FROM = 500_000
DIVERGED = "diverged.txt"  # a run's training divergence, if it had one


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



def add_checkpoint_arguments(parser, checkpoint=None, precision="bfloat16"):
  """The flags of a script that restores an LHE run (`restore_lhe`):
  --checkpoint (required without a default), --precision and --set."""
  parser.add_argument("--checkpoint", default=checkpoint,
                      required=checkpoint is None)
  parser.add_argument("--precision", default=precision,
                      help="The run's NFSPConfig.precision.")
  parser.add_argument("--set", action="append", default=[],
                      metavar="NAME=VALUE",
                      help="a setting of NFSPConfig.replace the run changed "
                      "from the preset, e.g. double_q=True (repeatable)")


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


# A Limit Hold'em run's checkpoints measured afterwards against the SmooCT-
# like profile, with standard errors (the curve logs means only).
SNAPSHOT_FIELDS = ("step", "policy", "mbb_per_hand", "mbb_stderr", "deals")
ALWAYS_CALL = "always_call"  # the row of always-call on the same deals


def read_snapshot_results(path):
  """The rows `evaluate_snapshots` wrote to `path` (none if it is absent)."""
  if not os.path.exists(path):
    return []
  with open(path, newline="", encoding="utf-8") as f:
    return list(csv.DictReader(f))


def _greedy_q(game, checkpoint):
  """The run's best responses as the paper's fig. 2a plays them: each
  player's greedy Q policy (the DQN's evaluation policy, the argmax of its
  Q-network over the legal actions), read from the checkpoint as
  `greedy_average` reads an average network's argmax."""
  from nfsp_spiel.nfsp import agent_policies  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import average_profile  # pylint: disable=g-import-not-at-top
  networks, settings = average_profile.checkpoint_weights(
      checkpoint, network="q_network")
  return agent_policies.NFSPPolicy(
      game, average_profile.frozen_players(networks, settings),
      "greedy_average")


def evaluate_snapshots(directory, results_path, deals, seed,
                       always_call=False):
  """Plays the average, greedy-average and best-response (greedy Q)
  strategies of each `nfsp_lhe` run
  checkpoint in `directory` (hard links of a run's checkpoints, which its
  atomic replace leaves intact) against the shipped SmooCT-like profile on
  `deals` duplicate deals seeded with `seed` (the run's own evaluation deals
  where the counts agree), read straight from the checkpoint
  (`nfsp.average_profile.from_checkpoint`); appends a row per checkpoint and
  policy to `results_path` (rows already there are not replayed).
  `always_call`: also always-call on the same deals, once (step 0, policy
  `ALWAYS_CALL`)."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import average_profile  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.smooth_uct import lhe as smooth_uct_lhe  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  profile = smooth_uct_lhe.shipped_profile(game)
  done = {(int(row["step"]), row["policy"])
          for row in read_snapshot_results(results_path)}
  players = []
  if always_call and (0, ALWAYS_CALL) not in done:
    players.append((0, ALWAYS_CALL, evaluation.baselines.AlwaysCall(game)))
  for path in sorted(glob.glob(os.path.join(directory, "*.npz"))):
    for kind in average_profile.KINDS:
      policy = average_profile.from_checkpoint(game, path, kind=kind)
      if (policy.settings["episodes"], kind) not in done:
        players.append((policy.settings["episodes"], kind, policy))
    if (policy.settings["episodes"], "best_response") not in done:
      players.append((policy.settings["episodes"], "best_response",
                      _greedy_q(game, path)))
  os.makedirs(os.path.dirname(results_path), exist_ok=True)
  new_file = not os.path.exists(results_path)
  with open(results_path, "a", newline="", encoding="utf-8") as f:
    writer = csv.DictWriter(f, SNAPSHOT_FIELDS)
    if new_file:
      writer.writeheader()
    for step, kind, policy in players:
      result = evaluation.head_to_head(game, policy, profile, deals,
                                       seed=seed)
      writer.writerow({"step": step, "policy": kind,
                       "mbb_per_hand": result.mbb_per_hand,
                       "mbb_stderr": result.mbb_stderr, "deals": deals})
      f.flush()
      print(f"{step:,} episodes, {kind}: {result.mbb_per_hand:.0f} +- "
            f"{result.mbb_stderr:.0f} mbb/h against the SmooCT-like "
            "profile", flush=True)


def evaluate_paper_points(directory, results_path, spacing, slack, deals,
                          lbr_hands, seed):
  """The rest of the paper's evaluation (issue 47 item 4) at each `nfsp_lhe`
  checkpoint in `directory` within `slack` episodes past a multiple of
  `spacing`: the average strategy against the equity-threshold player on
  `deals` duplicate deals and LBR's winnings over `lbr_hands` hands, as the
  run's curve measures them (`nfsp_training.policy_metrics`, its columns),
  seeded with `seed`; appends a row per checkpoint to `results_path`
  (checkpoints already there are not replayed)."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from nfsp_spiel.nfsp import average_profile  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.run import nfsp_training  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  settings = nfsp_training.EvaluationSettings(
      diagnostics=False, eval_deals=deals, lbr_hands=lbr_hands,
      smooct_deals=0)
  done = {int(row["step"]) for row in read_snapshot_results(results_path)}
  os.makedirs(os.path.dirname(results_path), exist_ok=True)
  for path in sorted(glob.glob(os.path.join(directory, "*.npz"))):
    policy = average_profile.from_checkpoint(game, path)
    step = policy.settings["episodes"]
    if step in done or step < spacing or step % spacing > slack:
      continue
    row = {"step": step, "deals": deals, "lbr_hands": lbr_hands,
           **nfsp_training.policy_metrics(game, policy, "average", settings,
                                          seed)}
    new_file = not os.path.exists(results_path)
    with open(results_path, "a", newline="", encoding="utf-8") as f:
      writer = csv.DictWriter(f, list(row))
      if new_file:
        writer.writeheader()
      writer.writerow(row)
    print(f"{step:,} episodes: " + ", ".join(
        f"{k} {v:.0f}" for k, v in row.items() if k != "step"), flush=True)


def train_fixed_opponent(data, name, config, setting, episodes, eval_every,
                         run_dir, checkpoint_seconds):
  """Trains run `name` of `nfsp.fixed_opponent` (`config`'s learner against
  `setting`'s opponent) to `episodes`: resumed from its checkpoint in
  `run_dir/name` where it has one (a checkpoint of other settings is
  refused), else from scratch; its curve is kept in `data/name`, consistent
  with the checkpoint (`RunDirectory`; a checkpoint at each evaluation and
  every `checkpoint_seconds`); Ctrl-C stops it within seconds."""
  # pylint: disable=g-import-not-at-top
  import pyspiel
  import nfsp_spiel  # noqa: F401  pylint: disable=unused-import
  from nfsp_spiel.nfsp import fixed_opponent
  from nfsp_spiel.run import nfsp_training
  from nfsp_spiel.run import run_directory
  # pylint: enable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  run = run_directory.RunDirectory(
      os.path.join(data, name), keep_previous=False, unit="episodes",
      checkpoint=os.path.join(run_dir, name, run_directory.CHECKPOINT_NAME),
      checkpoint_seconds=checkpoint_seconds)
  loop = fixed_opponent.FixedOpponentRun(game, config, setting)
  if run.resuming:
    loop.restore(run.checkpoint)
    print(f"{name}: resumed at {loop.episodes:,} episodes from "
          f"{run.checkpoint}", flush=True)
  run.open_curve(loop.episodes)
  run.catch_stop_signals()
  try:
    nfsp_training.train(run, loop, episodes, eval_every, eval_every)
  except FloatingPointError as error:  # kept beside the curve, for the rule
    with open(os.path.join(data, name, DIVERGED), "w", encoding="utf-8") as f:
      f.write(f"training diverged at {loop.episodes:,} episodes: {error}\n")
    print(f"{name}: training diverged at {loop.episodes:,} episodes",
          flush=True)


def diverged(data, name):
  """The text `train_fixed_opponent` kept where run `name` diverged, or
  None."""
  path = os.path.join(data, name, DIVERGED)
  if not os.path.exists(path):
    return None
  with open(path, encoding="utf-8") as f:
    return f.read().strip()
