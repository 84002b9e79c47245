"""Does mixed precision change what NFSP learns on Leduc?

NFSP with the paper's Leduc settings (`NFSPConfig.leduc()`, [64]) trained
with `precision="bfloat16"` (bfloat16 products, float32 weights and updates)
as a population of seeds 0, 2 and 4, against the float32 population of the
same seeds (fig. 1a's [64] run, `fig_nfsp_1_seeds.py`): the mean of the
average strategy's exploitability with its +-1 standard-error band.

This machine's CPU has no bfloat16 units, where `examples/nfsp.py` refuses
bfloat16 (emulated products are slower than float32). TensorFlow computes the
same bfloat16-rounded products on any CPU, only slower, so for this check
the run goes through the binary in this process with the units pretended
(`core.hardware.bfloat16_units`), as `tests/nfsp/test_networks.py` does. Acting is
float32 numpy in both precisions. The checkpoint stays under
`runs/figures/nfsp_precision/` (the same command resumes it); the curve is
copied to `data/nfsp_precision/bfloat16/curve.csv`.

  python docs/figures/fig_nfsp_precision_leduc.py --episodes 1000000
  python docs/figures/fig_nfsp_precision_leduc.py --plot_only
"""

import os
import runpy
import sys

import figure_runs  # docs/figures/figure_runs.py

ROOT = os.path.dirname(os.path.dirname(figure_runs.HERE))
RUN = os.path.join(ROOT, "runs", "figures", "nfsp_precision", "bfloat16")
CURVE = os.path.join(figure_runs.HERE, "data", "nfsp_precision", "bfloat16",
                     "curve.csv")
FLOAT32 = os.path.join(figure_runs.HERE, "data", "nfsp_fig1_seeds",
                       "hidden_64", "curve.csv")


def train(episodes, eval_every, seeds):
  """The bfloat16 population through examples/nfsp.py, in this process."""
  from nfsp_spiel.core import hardware  # pylint: disable=g-import-not-at-top
  # Emulated here: the same numbers as bfloat16 units give, slower.
  hardware.bfloat16_units = lambda device=None: True
  argv = sys.argv
  sys.path.insert(0, os.path.join(ROOT, "examples"))  # its run_flags
  sys.argv = [os.path.join(ROOT, "examples", "nfsp.py"), "--seeds", seeds,
              "--precision", "bfloat16", "--hidden_layers", "64",
              "--episodes", str(episodes), "--eval_every", str(eval_every),
              "--checkpoint_every", str(eval_every), "--nodiagnostics",
              "--output_dir", RUN]
  try:
    runpy.run_path(sys.argv[0], run_name="__main__")
  except SystemExit as done:  # absl's app.run ends with sys.exit
    if done.code:
      raise
  finally:
    sys.argv = argv
  figure_runs.copy_curve_further(os.path.join(RUN, "curve.csv"), CURVE)


def plot():
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  output = os.path.join(figure_runs.HERE, "fig_nfsp_precision_leduc.png")
  curves.plot_curves(
      {"float32": FLOAT32, "bfloat16 products": CURVE}, output,
      metric="exploitability", loglog=True, xlabel="episodes",
      title="NFSP on nfsp_leduc ([64]) in both precisions, 3 seeds each "
      "(seeds thin; mean, shaded +-1 standard error of the mean)")
  print(output)


def main():
  figure_runs.population_main(
      __doc__, lambda args: train(args.episodes, args.eval_every, args.seeds),
      plot)


if __name__ == "__main__":
  main()
