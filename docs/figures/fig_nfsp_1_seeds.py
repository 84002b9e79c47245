"""NFSP paper figs. 1a-1c (thesis figs. 6.1-6.3) with seed bands: one
population of three seeds per run.

1a: each network size (one hidden layer of 8, 16, 32, 64 or 128 ReLUs,
otherwise the paper's Leduc settings, `NFSPConfig.leduc()`); 1b: the
ablations (eta 0.5, a sliding-window M_SL, an exponential-reservoir M_SL)
beside NFSP's [64]; 1c: DQN (`NFSPConfig.dqn()`, NFSP with eta = 1, sec.
4.2) beside NFSP's [64]. Each
run trains as one population
(`examples/nfsp.py --seeds 0,2,4`: three runs in one process, each the run
`--seed` would make; seeds two apart share no random stream) and logs every
seed's exploitability and the mean with +-1 standard error of the mean
across the seeds. The curves are copied to
`data/nfsp_fig1_seeds/<run>/curve.csv`; the checkpoints stay under
`runs/figures/nfsp_fig1_seeds/` (outside git: the same command resumes a
run, a larger `--episodes` carries it on). `fig_nfsp_1a_seeds.png`,
`fig_nfsp_1c_seeds.png`: per run, the seeds thin and the mean of the
average strategy's exploitability with its band, log-log (1c: DQN's greedy
strategy too, its seeds thin).

  python docs/figures/fig_nfsp_1_seeds.py --episodes 1000000
  python docs/figures/fig_nfsp_1_seeds.py --runs dqn --episodes 1000000
  python docs/figures/fig_nfsp_1_seeds.py --runs sliding_window \\
      --episodes 20000000 --eval_every 250000
  python docs/figures/fig_nfsp_1_seeds.py --runs eta_0.5 \\
      --episodes 30000000 --eval_every 250000
  python docs/figures/fig_nfsp_1_seeds.py --runs exponential_reservoir \\
      --episodes 150000000 --eval_every 250000
  python docs/figures/fig_nfsp_1_seeds.py --plot_only

The exponential reservoir (minimum replacement probability 0.25) keeps
exactly the plain reservoir's records until M_SL has seen 8M, about 5e7
episodes at eta 0.1; its run goes to 1.5e8, M_SL turned over about twice by
then, for the ledger's pre-registered noise test (its last 1e7 episodes
against 2e7-3e7). At that length one process a seed uses every core where a
population uses one (a population is no faster than one run on this CPU,
BUILD_NOTES), so its seeds train as separate runs (`--seed k`, each the
population's member k: `tests/nfsp/test_population.py`), all at once, each in
`runs/figures/nfsp_fig1_seeds/<run>/seed<k>`; their curves are copied to
`data/nfsp_fig1_seeds/<run>/seed<k>/curve.csv` and combined into the
population curve's columns. The population that ran first to 9.4M
(`<run>/population_curve.csv`) is checked against them: every point both
hold must agree to the last digit.
"""

import csv
import os
import signal
import subprocess
import sys

import figure_runs
import figure_style

SIZES = (8, 16, 32, 64, 128)
RUNS = {  # run: the training binary's flags
    **{f"hidden_{size}": ["--hidden_layers", str(size)] for size in SIZES},
    "dqn": ["--preset", "dqn", "--eval_policies", "average,best_response"],
    "eta_0.5": ["--anticipatory_param", "0.5"],
    "sliding_window": ["--reservoir_buffer_kind", "sliding_window"],
    "exponential_reservoir": ["--reservoir_buffer_kind",
                              "exponential_reservoir"],
}
PANELS = {
    "1a": {figure_style.hidden_units(size): f"hidden_{size}"
           for size in SIZES},
    "1b": {"NFSP (reservoir, eta 0.1)": "hidden_64",
           "NFSP, the long runs (seeds 0-2)": "nfsp_long", "eta 0.5": "eta_0.5",
           "sliding window": "sliding_window",
           "exp. reservoir": "exponential_reservoir"},
    "1c": {figure_style.hidden_units(64): "hidden_64", "DQN": "dqn"},
}
TITLES = {"1a": "hidden layer sizes", "1b": "NFSP against its ablations",
          "1c": "NFSP against DQN"}
FIGURE = "nfsp_fig1_seeds"
ROOT = os.path.dirname(os.path.dirname(figure_runs.HERE))


def _curve(run):
  return os.path.join(figure_runs.HERE, "data", FIGURE, run, "curve.csv")


def train(run, episodes, eval_every, seeds):
  """One run's population through the training binary (resumable), its
  curve copied into the figure's data."""
  folder = os.path.join(ROOT, "runs", "figures", FIGURE, run)
  subprocess.run([sys.executable, os.path.join(ROOT, "examples", "nfsp.py"),
                  "--seeds", seeds, *RUNS[run], "--episodes", str(episodes),
                  "--eval_every", str(eval_every), "--checkpoint_every",
                  str(eval_every), "--nodiagnostics", "--output_dir", folder],
                 check=True)
  figure_runs.copy_curve_further(os.path.join(folder, "curve.csv"),
                                 _curve(run))


# Runs whose seeds train as separate processes, all at once (module doc).
SEPARATE = ("exponential_reservoir",)
# Their checkpoints (600 MB each, M_SL of 2M float32 rows) every 10
# evaluations: three runs writing one every 250k episodes wrote ~70 MB/s.
CHECKPOINT_EVALUATIONS = 10


def train_separately(run, episodes, eval_every, seeds):
  """Each seed of `run` as its own training run (resumable), all at once;
  a SIGINT or SIGTERM is passed on to them (each then checkpoints), and
  whatever they reached is copied and combined into the figure's data."""
  folder = os.path.join(ROOT, "runs", "figures", FIGURE, run)
  processes = {seed: subprocess.Popen([
      sys.executable, os.path.join(ROOT, "examples", "nfsp.py"), "--seed",
      seed, *RUNS[run], "--episodes", str(episodes), "--eval_every",
      str(eval_every), "--checkpoint_every",
      str(eval_every * CHECKPOINT_EVALUATIONS),
      "--nodiagnostics", "--output_dir", os.path.join(folder, f"seed{seed}")])
               for seed in seeds.split(",")}
  def pass_on(signum, _):
    for process in processes.values():
      process.send_signal(signum)
  signal.signal(signal.SIGINT, pass_on)
  signal.signal(signal.SIGTERM, pass_on)
  failed = [seed for seed, process in processes.items() if process.wait()]
  for seed in processes:
    figure_runs.copy_curve_further(
        os.path.join(folder, f"seed{seed}", "curve.csv"),
        _seed_curve(run, seed))
  combine_separate_runs(run)
  if failed:
    sys.exit(f"{run}: the runs of seeds {failed} failed")


def _seed_curve(run, seed):
  return os.path.join(os.path.dirname(_curve(run)), f"seed{seed}",
                      "curve.csv")


def _seeds_on_disk(run):
  folder = os.path.dirname(_curve(run))
  return sorted(int(name[len("seed"):]) for name in os.listdir(folder)
                if name.startswith("seed") and os.path.exists(
                    os.path.join(folder, name, "curve.csv")))


def combine_separate_runs(run):
  """`run`'s curve from its seeds' separate curves, after checking them
  against the population of the same seeds that ran first."""
  seeds = _seeds_on_disk(run)
  paths = [_seed_curve(run, seed) for seed in seeds]
  check_against_population(run, seeds)
  combine(paths, [f"seed{seed}" for seed in seeds], _curve(run))


def check_against_population(run, seeds):
  """Raises unless every point of `<run>/population_curve.csv` (a
  population of `seeds`) that a separate run also holds has the same
  episode count and exploitability, to the last digit; prints how many."""
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  path = os.path.join(os.path.dirname(_curve(run)), "population_curve.csv")
  if not os.path.exists(path):
    return
  population = curves.read_curve(path)
  compared = 0
  for seed in seeds:
    # By episode count: a stopped run logs a point off the grid.
    separate = {row["step"]: row["exploitability"]
                for row in curves.read_curve(_seed_curve(run, seed))}
    for row in population:
      step = row[f"step/seed{seed}"]
      if step in separate:
        if separate[step] != row[f"exploitability/seed{seed}"]:
          raise ValueError(
              f"{run}, seed {seed}, episode {step:,}: exploitability "
              f"{row[f'exploitability/seed{seed}']!r} in the population, "
              f"{separate[step]!r} in the separate run")
        compared += 1
  print(f"{run}: the {compared} points of the population's seeds {seeds} "
        "that the separate runs hold are equal to them")


# The defaults' long runs (docs/figures/fig_nfsp_leduc_long.py: seeds 0, 1, 2,
# one run each, to 30M, 30M and 23M episodes): fig. 1b's eta 0.1 beyond the
# [64] population's 1M, as one banded curve over the points all three reached.
# Seeds s and s + 1 share a random stream (`population.spaced_seeds`), so these
# three are less independent than the populations' seeds 0, 2, 4.
LONG_RUNS = ("faithful", "faithful_seed1", "faithful_seed2")


def combine_long_runs():
  """`data/<FIGURE>/nfsp_long/curve.csv`: the long runs as one banded curve."""
  combine([os.path.join(figure_runs.HERE, "data", "nfsp_leduc_long", run,
                        "curve.csv") for run in LONG_RUNS],
          [f"seed{seed}" for seed in range(len(LONG_RUNS))],
          _curve("nfsp_long"))


def combine(paths, names, output):
  """`output`: the exploitability of separate runs' curves (`paths`, one
  member `names` each) with their mean and band, in a population curve's
  columns, over the points all of them reached."""
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  runs = [[(row["step"], row["exploitability"])
           for row in curves.read_curve(path)] for path in paths]
  steps, means, lows, highs = curves.mean_and_band(runs)
  points = list(curves.shared_points(runs))
  os.makedirs(os.path.dirname(output), exist_ok=True)
  with open(output, "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["step"] + [f"exploitability{curves.POPULATION_SEPARATOR}"
                                f"{name}" for name in names]
                    + curves.band_names("exploitability"))
    for i, (step, point) in enumerate(zip(steps, points)):
      writer.writerow([round(step)] + [value for _, value in point]
                      + [means[i], lows[i], highs[i]])


def panel_style(panel, curves):
  """Fig. 1a's network sizes as shades of NFSP's colour, smallest lightest,
  with the paper's level; fig. 1b's long runs of NFSP dash-dotted beside
  its population; the rest in their methods' colours."""
  if panel == "1a":
    level = figure_style.paper("nfsp2016-fig1a")["level"]
    return {"styles": figure_style.shades("NFSP", list(curves)),
            "references": [(level, f"NFSP paper: {level}", None, None)]}
  if panel != "1b":
    return {}
  long_runs = "NFSP, the long runs (seeds 0-2)"
  return {"styles": {long_runs: {**figure_style.line_style(long_runs),
                                 "linestyle": "-."}}}


def plot():
  combine_long_runs()
  for run in SEPARATE:
    if os.path.isdir(os.path.dirname(_curve(run))) and _seeds_on_disk(run):
      combine_separate_runs(run)
  for panel, runs in PANELS.items():
    curves = {label: _curve(run) for label, run in runs.items()
              if os.path.exists(_curve(run))}
    if panel == "1c" and "DQN" in curves:
      curves["DQN greedy"] = (curves["DQN"],
                              "exploitability_best_response")
    figure_runs.plot(
        curves, f"fig_nfsp_{panel}_seeds", loglog=True, xlabel="episodes",
        **panel_style(panel, curves),
        title=f"NFSP fig. {panel}, Leduc Hold'em: {TITLES[panel]}, 3 seeds "
        "each (seeds thin; mean, shaded \u00b11 standard error of the mean)")


def main():
  def train_runs(args):
    for run in args.runs.split(","):
      (train_separately if run in SEPARATE else train)(
          run, args.episodes, args.eval_every, args.seeds)
  figure_runs.population_main(__doc__, train_runs, plot, runs=",".join(
      f"hidden_{size}" for size in SIZES))


if __name__ == "__main__":
  main()
