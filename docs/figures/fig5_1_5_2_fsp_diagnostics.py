"""Thesis fig. 5.1 and 5.2: FSP's approximation errors in Leduc Hold'em.

Fig. 5.1: the best-response quality of FSP's Q-learning (eq. 5.2) over the
iterations; fig. 5.2: the squared distance of FSP's counting-model average to
'perfect' XFP averages of the same best responses, updated every 10, 100 and
1000 iterations. One run per seed (`data/fig5_1_5_2/seed<k>/curve.csv`, which
also logs exploitability and the mixing parameter eta_k); the PNGs show every
seed (thin) and their mean (thick), with the iteration where the RL memories
fill and the one from which eta_k drops below 1 marked (BUILD_NOTES.md, "FSP's
diagnostics (figs. 5.1, 5.2)").

  python docs/figures/fig5_1_5_2_fsp_diagnostics.py --iterations 1000000 \
      --seeds 0,1,2
  python docs/figures/fig5_1_5_2_fsp_diagnostics.py --plot_only --seeds 0,1,2

`--reading thesis` runs the thesis' own experiment instead (sec. 5.6.1 uses
Alg. 6-7, whose episodes are sampled from the average profile pi_k: no
mixing with the best responses, `FSPConfig(mixing_gamma=None)`; the runs
above use ICML 2015 sec. 5.2's mixing correction, the package default), to
`data/fig5_1_5_2/thesis_seed<k>/` and `fig5_1_thesis.png`,
`fig5_2_thesis.png`:

  python docs/figures/fig5_1_5_2_fsp_diagnostics.py --reading thesis \
      --iterations 200000 --seeds 0,1,2

`--mechanism 10,1` instead runs seed 0 once per mixing constant gamma (10 is
ICML 2015 sec. 5.2's; 1 the uncorrected memory correction eta_k = alpha_k / p)
to `--iterations`, logging at fixed points what drives the curves: eta_k, the
share of the RL memories' episodes in which the opponent played its best
response rather than its average, the schedules, eq. 5.2 against the average
and against the opponent's best response, exploitability and the error to the
perfect average updated every 100 iterations
(`data/fig5_1_5_2/mechanism/gamma<g>.csv`).

  python docs/figures/fig5_1_5_2_fsp_diagnostics.py --mechanism 10,1 \
      --iterations 200000
"""

import os

from absl import app
from absl import flags
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
import numpy as np
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel.run import curves as run_curves
from nfsp_spiel.fictitious_play import fsp
import figure_runs
import figure_style

flags.DEFINE_integer("iterations", 100000, "FSP iterations per seed.")
flags.DEFINE_list("seeds", ["0"], "Seeds, one run each (comma-separated).")
flags.DEFINE_bool("plot_only", False, "Redraw the PNGs from the seeds' CSVs.")
flags.DEFINE_enum("reading", "icml", ["icml", "thesis"], "icml: the package "
                  "default (ICML 2015 sec. 5.2's mixing, gamma 10); thesis: "
                  "Alg. 6's episodes from pi_k (no mixing).")
flags.DEFINE_list("mechanism", [], "Mixing constants gamma: run the mechanism "
                  "diagnostics (seed 0) instead of the figures.")
INTERVALS = (10, 100, 1000)
# The means of every 10 and every 100 iterations agree to within about 0.5
# throughout: the one drawn later is dashed, so the other shows through.
INTERVAL_STYLES = {"error_100": "--"}
# Besides the 50 log-spaced points: the points the thesis' text discusses
# and the earlier single-seed curve reported (memories full, 10^5).
EXTRA_POINTS = (40000, 100000)
DIRECTORY = os.path.join(figure_runs.HERE, "data", "fig5_1_5_2")


# Per reading: (its runs' folder prefix, its PNGs' suffix, its FSPConfig).
READINGS = {"icml": ("", "", fsp.FSPConfig()),
            "thesis": ("thesis_", "_thesis", fsp.FSPConfig(mixing_gamma=None))}


def seed_path(seed, reading="icml"):
  return os.path.join(DIRECTORY, f"{READINGS[reading][0]}seed{seed}",
                      run_curves.CSV_NAME)


def evaluation_points(iterations):
  return {k for k in figure_runs.log_points(iterations, 50) | set(EXTRA_POINTS)
          if max(INTERVALS) <= k <= iterations}


def run_seeds(seeds, iterations, reading):
  """FSP in `reading`, one run per seed, in lockstep (so that a run stopped
  early has every seed as far); returns the CSV paths."""
  game = pyspiel.load_game("nfsp_leduc")
  solvers = [fsp.FSPSolver(game, READINGS[reading][2], seed=seed)
             for seed in seeds]
  loggers = []
  for seed in seeds:
    path = seed_path(seed, reading)
    if os.path.exists(path):
      os.remove(path)
    loggers.append(run_curves.LearningCurveLogger(os.path.dirname(path)))
  when = evaluation_points(iterations)
  for k in range(1, iterations + 1):
    for solver, logger in zip(solvers, loggers):
      solver.iteration()
      for interval in INTERVALS:
        if k % interval == 0:
          solver.update_exact_average(str(interval))
      if k in when:
        logger.log(k, best_response_quality=solver.best_response_quality(),
                   exploitability=solver.exploitability(),
                   eta=solver.mixing(k),
                   **{f"error_{i}": solver.average_error(str(i))
                      for i in INTERVALS})
  return [logger.path for logger in loggers]


MECHANISM_POINTS = (5000, 10000, 20000, 30000, 39000, 40000, 42000, 45000,
                    50000, 55000, 60000, 70000, 80000, 100000, 120000, 133000,
                    150000, 175000, 200000, 250000, 300000)


def mechanism(gamma, iterations, seed=0):
  """The mechanism diagnostics of one run with mixing constant `gamma`."""
  import csv  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.trees import sequence_form  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_leduc")
  solver = fsp.FSPSolver(game, seed=seed, mixing_gamma=gamma)
  # Per memory slot: did the opponent play its best response in the episode
  # stored there? (Read off the episodes as they are filed; draws nothing.)
  against_best = [np.zeros(solver.config.memory_episodes, bool)
                  for _ in (0, 1)]
  play = solver._episode  # pylint: disable=protected-access

  def episode(best, store, count_player=None):
    for p in (0, 1):
      if store[p]:
        against_best[p][solver.learners[p].memory.next] = best[1 - p]
    return play(best, store, count_player)
  solver._episode = episode  # pylint: disable=protected-access
  path = os.path.join(DIRECTORY, "mechanism", f"gamma{gamma:g}.csv")
  os.makedirs(os.path.dirname(path), exist_ok=True)
  with open(path, "w", newline="") as f:
    writer = None
    for k in range(1, iterations + 1):
      solver.iteration()
      if k % 100 == 0:
        solver.update_exact_average("100")
      if k not in MECHANISM_POINTS:
        continue
      best = sequence_form.SequenceFormPolicy(
          solver.form, solver.best_response_strategies())
      size = solver.learners[0].memory.size
      row = {
          "k": k, "eta": solver.mixing(k),
          "rl_memory_full": int(solver.learners[0].memory.full),
          "memory_vs_best": float(np.mean([b[:size].mean()
                                           for b in against_best])),
          "q_stepsize": solver.config.q_stepsize_at(k),
          "temperature": solver.config.temperature_at(k),
          "best_response_quality": solver.best_response_quality(),
          "quality_vs_opponent_best": evaluation.best_response_quality(
              game, best, [best, best]),
          "exploitability": solver.exploitability(),
          "error_100": solver.average_error("100")}
      if writer is None:
        writer = csv.DictWriter(f, list(row))
        writer.writeheader()
      writer.writerow(row)
      f.flush()
  print(f"wrote {path}")


def regimes(config):
  """(k where the RL memories fill, first k with eta_k < 1): during filling
  each memory gains m episodes per iteration (the opponent's alternating
  ones); eta_k = gamma / (k + 1) / p reaches 1 at k + 1 = gamma / p."""
  full = config.memory_episodes // config.alternating_episodes
  if config.mixing_gamma is None:
    return full, None
  p = ((config.simultaneous_episodes + config.alternating_episodes)
       / config.memory_episodes)
  return full, int(np.ceil(config.mixing_gamma / p))


def plot(seeds, reading="icml"):
  _, suffix, config = READINGS[reading]
  curves = [run_curves.read_curve(seed_path(s, reading))
            for s in seeds]
  steps = np.array([r["step"] for r in curves[0]])
  length = min(len(c) for c in curves)
  steps = steps[:length]
  full, eta_below_one = regimes(config)
  figures = {
      "fig5_1": (["best_response_quality"], "best-response quality, eq. 5.2 "
                 "(chips per hand)",
                 "Leduc: FSP's best-response quality (eq. 5.2)"),
      "fig5_2": ([f"error_{i}" for i in INTERVALS], "squared distance to the "
                 "perfect average (squared action probabilities)",
                 "Leduc: FSP's average vs XFP's perfect averages"),
  }
  for name, (columns, ylabel, title) in figures.items():
    figure, axes = plt.subplots(figsize=(6.4, 4.2))
    labels = {column: (f"perfect average every {column.split('_')[1]} "
                       "iterations" if column.startswith("error")
                       else "FSP (Q-learning)") for column in columns}
    # One method throughout: the intervals as shades of FSP's colour,
    # the rarest update darkest.
    colours = figure_style.shades("FSP", list(labels.values()))
    for column, label in labels.items():
      figure_runs.draw_seeds(
          axes, [[(r["step"], r[column]) for r in c[:length]] for c in curves],
          colours[label]["color"], label, INTERVAL_STYLES.get(column, "-"))
    for k, text, style in ((full, "RL memory M_RL full", ":"),
                           (eta_below_one, "mixing \u03b7_k below 1", "-.")):
      if k is not None and steps[0] <= k <= steps[-1]:
        axes.axvline(k, color="grey", linestyle=style, linewidth=1,
                     label=f"{text} (iteration {k:,})")
    figure_style.log_axes(axes)
    axes.set_xlabel("iterations")
    axes.set_ylabel("\n".join(figure_style.wrap_label(ylabel) +
                              [figure_style.BAND]))
    axes.set_title(title + ("; thesis Alg. 6" if reading == "thesis" else ""))
    axes.grid(True, which="both", alpha=0.3)
    figure_style.legend_outside(axes)
    figure_style.save(figure, os.path.join(figure_runs.HERE,
                                           f"{name}{suffix}.png"))


def main(argv):
  del argv
  if flags.FLAGS.mechanism:
    for gamma in flags.FLAGS.mechanism:
      mechanism(float(gamma), flags.FLAGS.iterations)
    return
  seeds = [int(s) for s in flags.FLAGS.seeds]
  if not flags.FLAGS.plot_only:
    for path in run_seeds(seeds, flags.FLAGS.iterations,
                          flags.FLAGS.reading):
      print(f"wrote {path}")
  plot(seeds, flags.FLAGS.reading)


if __name__ == "__main__":
  app.run(main)
