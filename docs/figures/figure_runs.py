"""Shared by the figure scripts: run a solver, log its curve, plot curves.

Each figure script in this folder writes `<figure>.png` here and its curves
to `data/<figure>/<run>/curve.csv` (through nfsp_spiel's evaluation logger).
"""

import argparse
import csv
import math
import os
import shutil

import numpy as np

from nfsp_spiel.run import curves as run_curves
import figure_style

HERE = os.path.dirname(os.path.abspath(__file__))
# Limit Hold'em diagnostic runs of Leduc's network (one hidden layer of 64)
# are named with this prefix and drawn apart from the preset network's.
ONE_LAYER_PREFIX = "hidden_64"


def by_network(runs):
  """`runs` ({name: rows}) split into (the preset network's, the one-layer
  network's): figures draw them apart, their networks (and run lengths)
  being different."""
  one_layer = {name: rows for name, rows in runs.items()
               if name.startswith(ONE_LAYER_PREFIX)}
  preset = {name: rows for name, rows in runs.items() if name not in one_layer}
  return preset, one_layer


BRANCH_NAME = "branch.json"  # where a run branched from another's checkpoint


def copy_further(run_dir, data_dir):
  """Copies the run's curve.csv (with its branch.json, where the run was
  branched from another's checkpoint) into `data_dir` if it goes further
  than the committed one there (a shorter or restarted run never replaces
  it)."""
  if copy_curve_further(os.path.join(run_dir, run_curves.CSV_NAME),
                        os.path.join(data_dir, run_curves.CSV_NAME)):
    if os.path.exists(os.path.join(run_dir, BRANCH_NAME)):
      shutil.copyfile(os.path.join(run_dir, BRANCH_NAME),
                      os.path.join(data_dir, BRANCH_NAME))


def copy_curve_further(source, target):
  """Copies the curve CSV `source` to `target` if it goes further (a larger
  last step) than the one there, or none is; returns whether it did."""
  if not os.path.exists(source):
    return False
  last = lambda path: max((row["step"] for row in run_curves.read_curve(path)),
                          default=-1)
  if os.path.exists(target) and last(source) <= last(target):
    return False
  os.makedirs(os.path.dirname(target), exist_ok=True)
  shutil.copyfile(source, target)
  return True


def copy_run_specs(doc, data, names=None, parser=None):
  """The command line of the figure scripts that draw committed runs: each
  `--run name=folder` is copied to `data/<name>` when its curve goes
  further (`copy_further`); `names`, where given, are the names taken.
  `doc`: the script's docstring, its first line the description; `parser`:
  the script's own parser where it has more flags. Returns the parsed
  arguments."""
  parser = parser or argparse.ArgumentParser(description=doc.split("\n")[0])
  parser.add_argument("--run", action="append", default=[],
                      help="name=run folder, copied to data/<name> when its "
                      "curve goes further")
  args = parser.parse_args()
  for spec in args.run:
    name, _, folder = spec.partition("=")
    if not folder or (names is not None and name not in names):
      one_of = f", name one of {', '.join(names)}" if names is not None else ""
      parser.error(f"--run={spec}: give name=folder{one_of}")
    copy_further(folder, os.path.join(data, name))
  return args


def log_points(iterations, count=60):
  """About `count` log-spaced iteration numbers from 1 to `iterations`."""
  return set(np.unique(np.geomspace(1, iterations, count).astype(int)))


def run(solver, figure, label, iterations=None, seconds=None, evaluate=None,
        points=60):
  """Iterates `solver` for `iterations` or `seconds`, logging exploitability.

  With `iterations`, it evaluates at log-spaced iterations; with `seconds`, at
  log-spaced times (evaluation time excluded, as the papers measure training).
  Returns the curve's CSV path. A solver that counts its work in the
  papers' cost model (`state_visits`) has it logged beside.
  """
  evaluate = evaluate or solver.exploitability
  work = (lambda: {"state_visits": solver.state_visits}) if hasattr(
      solver, "state_visits") else dict
  directory = os.path.join(HERE, "data", figure, label)
  if os.path.exists(os.path.join(directory, run_curves.CSV_NAME)):
    os.remove(os.path.join(directory, run_curves.CSV_NAME))
  logger = run_curves.LearningCurveLogger(directory)
  if iterations:
    when = log_points(iterations, points)
    for iteration in range(1, iterations + 1):
      solver.iteration()
      if iteration in when:
        logger.log(iteration, exploitability=evaluate(), **work())
  else:
    times = list(np.geomspace(0.05, seconds, points))
    training, iteration = 0.0, 0
    while training < seconds:
      start = logger.seconds
      solver.iteration()
      iteration += 1
      training += logger.seconds - start
      if training >= times[0]:
        while times and training >= times[0]:
          times.pop(0)
        logger.log(iteration, training_seconds=training,
                   exploitability=evaluate(), **work())
  return logger.path


def random_start_labels(variants, seeds):
  """{run folder: legend label} of `random_start_runs`' runs."""
  return {f"{prefix}_{seed}": f"{label} #{seed}"
          for label, (prefix, _) in variants.items() for seed in range(seeds)}


def random_start_runs(game, figure, variants, seeds, iterations):
  """XFP from `seeds` random initial strategies (thesis 4.5.1) per variant,
  {label: (run folder prefix, XFPConfig fields)}; returns {label #seed: csv}."""
  from nfsp_spiel.fictitious_play import xfp  # pylint: disable=g-import-not-at-top
  runs = {}
  for label, (prefix, fields) in variants.items():
    for seed in range(seeds):
      solver = xfp.XFPSolver(game, initial_strategy="random", seed=seed,
                             **fields)
      runs[f"{label} #{seed}"] = run(solver, figure, f"{prefix}_{seed}",
                                     iterations)
  return runs


def plot(runs, figure, ylabel=None, references=(), points=(), styles=None,
         **kwargs):
  """`<figure>.png` of `runs` (`run_curves.curve_figure`'s arguments), in
  the shared style: each run in its method's colour unless `styles` says
  otherwise, exploitability labelled in words unless `ylabel` is given, the
  paper's `references` and `points` drawn (`figure_style.finish`)."""
  if ylabel is None and kwargs.get("metric", "exploitability") == (
      "exploitability"):
    ylabel = figure_style.EXPLOITABILITY
  drawn = run_curves.curve_figure(
      runs, styles={**figure_style.styles(runs), **(styles or {})}, **kwargs)
  figure_style.finish(drawn, ylabel, references, points)
  return figure_style.save(drawn, os.path.join(HERE, f"{figure}.png"))


def plot_available(figure, labels, **kwargs):
  """Plots every run of `figure` that has a curve: {run folder: label}."""
  runs = {}
  for run, label in labels.items():
    path = os.path.join(HERE, "data", figure, run, run_curves.CSV_NAME)
    if os.path.exists(path):
      runs[label] = path
  return plot(runs, figure, **kwargs)


def compare_wall_clock(figure, games, labels, title, algorithms, seconds,
                       **plot_options):
  """XFP and FSP (`algorithms`: those of them to run; none redraws the PNG)
  on each of `games` ({run name: game string}) for `seconds` of training
  each; plots every curve of `figure` that exists, with `plot_options`."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.fictitious_play import fsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.fictitious_play import xfp  # pylint: disable=g-import-not-at-top
  solvers = {"xfp": xfp.XFPSolver,
             "fsp": lambda game: fsp.FSPSolver(game, seed=0)}
  for algorithm in algorithms:
    for name, game_string in games.items():
      prefix = "" if algorithm == "xfp" else "fsp_"
      run(solvers[algorithm](pyspiel.load_game(game_string)), figure,
          prefix + name, seconds=seconds)
  plot_available(figure, labels, x="training_seconds", inset_loglog=True,
                 title=title, **plot_options)


# Several seeds of one algorithm: each seed thin, and the mean with a band of
# +-1 standard error of the mean across the seeds (ddof 1), computed by
# nfsp_spiel.run.curves.mean_and_band, the band a population's curve logs
# (examples/nfsp.py --seeds), over the points all the seeds reached.
BAND_TEXT = "\u00b11 standard error of the mean across seeds"


def draw_seeds(axes, curves, colour, label, linestyle="-"):
  """`curves` (see `run_curves.mean_and_band`) on `axes`: each seed thin, and their
  mean (in `linestyle`) with its band, labelled `label` and the band's
  meaning."""
  for curve in curves:
    axes.plot(*zip(*curve), color=colour, alpha=0.3, linewidth=0.8)
  steps, means, lows, highs = run_curves.mean_and_band(curves)
  if len(curves) > 1:
    figure_style.band(axes, steps, lows, highs, colour)
    label = f"{label} (mean of {len(curves)} seeds \u00b1 s.e.)"
  else:
    label = f"{label} (1 seed)"
  axes.plot(steps, means, color=colour, linestyle=linestyle, label=label)


# A population's curve (examples/nfsp.py --seeds) logs each seed's value
# of a metric beside the seeds' mean and band (`run_curves.band_names`):
# `<metric>/seed<k>`, `<metric>/mean`, `<metric>/low`, `<metric>/high`.


def draw_population_band(axes, rows, metric, colour, label):
  """The seeds' mean of `metric` in a population's curve `rows`, with its
  band, labelled `label`; nothing where the rows lack it."""
  names = run_curves.band_names(metric)
  points = [(r["step"], *(r[name] for name in names)) for r in rows
            if names[0] in r]
  if not points:
    return
  steps, means, lows, highs = zip(*points)
  axes.plot(steps, means, color=colour, label=label, marker="o",
            markersize=3)
  figure_style.band(axes, steps, lows, highs, colour)


def draw_population_seeds(axes, rows, metric, seeds, colour, label=None):
  """Each of `seeds`' `metric` in a population's curve `rows`, thin (one
  legend entry `label` for them all: `figure_style.legend_outside` merges
  equal labels)."""
  for seed in seeds:
    column = f"{metric}/seed{seed}"
    points = [(r["step"], r[column]) for r in rows if column in r]
    if points:
      axes.plot(*zip(*points), color=colour, linewidth=0.6, alpha=0.6,
                label=label)


def mean_of_columns(rows, columns, scale=1.0):
  """(steps, `scale` times the mean of `columns`) at the rows having them
  all, ((), ()) at none: a mean over seeds the curve logs no band for."""
  points = [(r["step"], scale * sum(r[c] for c in columns) / len(columns))
            for r in rows if all(c in r for c in columns)]
  return list(zip(*points)) or [(), ()]


def mean_and_se(values):
  """(mean, standard error) of `values`: their sample deviation (ddof 1)
  over the square root of their number."""
  mean = sum(values) / len(values)
  var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
  return mean, math.sqrt(var / len(values))


SAME_X = 0.02  # evaluations this close (relative) are at the same x


def shared_evaluation(rows_a, rows_b):
  """The last pair of curve rows after episode 0, one of each run, at the
  same x (steps within `SAME_X` of each other: an evaluation falls due a
  few episodes past its multiple), or None."""
  for row_a in reversed(rows_a):
    for row_b in reversed(rows_b):
      if row_a["step"] and abs(row_a["step"] - row_b["step"]) <= (
          SAME_X * row_a["step"]):
        return row_a, row_b
  return None


def compare_means(a, b, min_gain):
  """+1, -1 or 0: `a` higher, lower or no different from `b` (both
  (mean, standard error)), the margin the larger of twice their combined
  standard error and `min_gain`."""
  margin = max(2 * math.hypot(a[1], b[1]), min_gain)
  gain = a[0] - b[0]
  return 1 if gain > margin else -1 if gain < -margin else 0


def train_evaluate_main(doc, train, evaluate, episodes, runs, deals=2000,
                        plot=None):
  """The command line of the search figure scripts (fig. 3.5, table 3.3):
  `train` (resumable through the training binary), `evaluate` or, given a
  `plot`, `plot` (the PNG from the committed table), with `--episodes`
  (default `episodes`), `--threads`, `--runs` (default
  `<repository>/runs/<runs>`), `--deals` (default `deals`) and `--seed`."""
  parser = argparse.ArgumentParser(
      description=doc.split("\n\n")[0].replace("\n", " "))
  commands = {"train": train, "evaluate": evaluate,
              **({"plot": plot} if plot else {})}
  parser.add_argument("command", choices=list(commands))
  parser.add_argument("--episodes", default=episodes,
                      help="Episodes per search (a list: the snapshots).")
  parser.add_argument("--threads", type=int, default=None,
                      help="Simulation threads per search (default: all "
                      "cores).")
  parser.add_argument("--runs", default=os.path.join(
      os.path.dirname(os.path.dirname(HERE)), "runs", runs))
  parser.add_argument("--deals", type=int, default=deals)
  parser.add_argument("--seed", type=int, default=0)
  args = parser.parse_args()
  commands[args.command](args)


def population_main(doc, train, plot, **options):
  """The command line of the seed-population figure scripts (NFSP fig. 1,
  the precision check): `train(args)` unless `--plot_only`, then `plot()`,
  with `--episodes` per member, `--eval_every`, `--seeds` and `options`
  (name -> default string)."""
  parser = argparse.ArgumentParser(description=doc.split("\n")[0])
  for name, default in options.items():
    parser.add_argument(f"--{name}", default=default)
  parser.add_argument("--episodes", type=int, default=1_000_000)
  parser.add_argument("--eval_every", type=int, default=100_000)
  parser.add_argument("--seeds", default="0,2,4")
  parser.add_argument("--plot_only", action="store_true")
  args = parser.parse_args()
  if not args.plot_only:
    train(args)
  plot()


def match_row(result, **columns):
  """A match table's row: `columns`, then the result's mbb/h and its
  standard error (printed as it is made)."""
  row = {**columns, "mbb_per_hand": round(result.mbb_per_hand, 2),
         "mbb_stderr": round(result.mbb_stderr, 2)}
  print(row, flush=True)
  return row


def write_rows(figure, rows):
  """`data/<figure>/matches.csv` from a list of dicts."""
  out = os.path.join(HERE, "data", figure)
  os.makedirs(out, exist_ok=True)
  with open(os.path.join(out, "matches.csv"), "w", newline="",
            encoding="utf-8") as f:
    # Every row's columns, in order of appearance (rows measured before a
    # column existed leave it empty).
    writer = csv.DictWriter(f, list(dict.fromkeys(k for r in rows for k in r)))
    writer.writeheader()
    writer.writerows(rows)
