"""NFSP paper fig. 1a (thesis fig. 6.1) with seed bands: one population of
three seeds per network size.

Each size (one hidden layer of 8, 16, 32, 64 or 128 ReLUs, otherwise the
paper's Leduc settings, `NFSPConfig.leduc()`) trains as one population
(`examples/nfsp.py --seeds 0,2,4`: three runs in one process, each the run
`--seed` would make; seeds two apart share no random stream) and logs every
seed's exploitability and the mean with +-1 standard error of the mean
across the seeds. The curves are copied to
`data/nfsp_fig1_seeds/hidden_<size>/curve.csv`; the checkpoints stay under
`runs/figures/nfsp_fig1_seeds/` (outside git: the same command resumes a
run, a larger `--episodes` carries it on). `fig_nfsp_1a_seeds.png`: per
size, the seeds thin and the mean with its band, log-log.

  python docs/figures/fig_nfsp_1a_seeds.py --episodes 1000000
  python docs/figures/fig_nfsp_1a_seeds.py --plot_only
"""

import argparse
import os
import shutil
import subprocess
import sys

import figure_runs

SIZES = (8, 16, 32, 64, 128)
FIGURE = "nfsp_fig1_seeds"
ROOT = os.path.dirname(os.path.dirname(figure_runs.HERE))


def _curve(size):
  return os.path.join(figure_runs.HERE, "data", FIGURE, f"hidden_{size}",
                      "curve.csv")


def train(size, episodes, eval_every, seeds):
  """One size's population through the training binary (resumable), its
  curve copied into the figure's data."""
  run = os.path.join(ROOT, "runs", "figures", FIGURE, f"hidden_{size}")
  subprocess.run([sys.executable, os.path.join(ROOT, "examples", "nfsp.py"),
                  "--seeds", seeds, "--hidden_layers", str(size),
                  "--episodes", str(episodes), "--eval_every", str(eval_every),
                  "--checkpoint_every", str(eval_every), "--nodiagnostics",
                  "--output_dir", run], check=True)
  os.makedirs(os.path.dirname(_curve(size)), exist_ok=True)
  shutil.copyfile(os.path.join(run, "curve.csv"), _curve(size))


def plot():
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  runs = {f"[{size}]": _curve(size) for size in SIZES
          if os.path.exists(_curve(size))}
  output = os.path.join(figure_runs.HERE, "fig_nfsp_1a_seeds.png")
  evaluation.plot_curves(
      runs, output, metric="exploitability", loglog=True, xlabel="episodes",
      title="NFSP fig. 1a on nfsp_leduc: hidden layer sizes, 3 seeds each "
      "(seeds thin; mean, shaded +-1 standard error of the mean)")
  print(output)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
  parser.add_argument("--episodes", type=int, default=1_000_000)
  parser.add_argument("--eval_every", type=int, default=100_000)
  parser.add_argument("--seeds", default="0,2,4")
  parser.add_argument("--plot_only", action="store_true")
  args = parser.parse_args()
  if not args.plot_only:
    for size in args.sizes.split(","):
      train(int(size), args.episodes, args.eval_every, args.seeds)
  plot()


if __name__ == "__main__":
  main()
