"""NFSP-ARM paper figs. 3-5: NFSP, NFSP-ARM and ARM on Leduc Hold'em, Liar's
Dice (one die each) and Tic-Tac-Toe, exploitability against episodes.

Chen et al., "Optimize Neural Fictitious Self-Play in Regret Minimization
Thinking", sec. 5: every algorithm gets the same episode budget per game;
NFSP runs the NFSP paper's Leduc settings (`NFSPConfig.leduc`, with rewards
in units of the game's largest payoff: Leduc's 1/26 of a chip, 1 for the
other two), NFSP-ARM `NFSPConfig.nfsp_arm(game)` and ARM
`NFSPConfig.arm(game)` (the authors' eta and network sizes per game; ARM's
own regret-matching policy is what is evaluated), and NFSP-baseline the NFSP
the authors compared against (`NFSPConfig.nfsp_arm_baseline`, OpenSpiel's
TF1 NFSP with their arguments; they ran it on Leduc). OpenSpiel's games,
read as the paper did: `leduc_poker` and `liars_dice` through their
information-state tensors, `tic_tac_toe` through its observation tensor.
Each run logs exploitability at log-spaced episode counts of an
`--episodes`-long run to
`data/nfsp_arm/<game>/<algorithm>_seed<k>/curve.csv` (checkpointed under
runs/figures/ from 500k episodes and at a `--stop_at` end: the same command
with a larger `--stop_at`, or none, resumes; a checkpoint of another
preset is refused, naming the setting, and a run without one starts over,
so a changed preset never continues an old run), and the PNGs
`fig_nfsp_arm_<game>.png` show each algorithm's seeds (thin) and their mean
with a shaded band of +-1 standard error of the mean across seeds (ddof 1),
over the episodes all its seeds reached.

  python docs/figures/fig_nfsp_arm.py --games leduc_poker \
      --algorithms NFSP-ARM,ARM,NFSP,NFSP-baseline --episodes 2000000 \
      --stop_at 164000 --jobs 1
  python docs/figures/fig_nfsp_arm.py --games liars_dice,tic_tac_toe \
      --episodes 300000
  python docs/figures/fig_nfsp_arm.py --plot_only
"""

import argparse
import multiprocessing
import os

import figure_runs
import figure_style
import nfsp_runs

FIGURE = "nfsp_arm"
GAMES = ("leduc_poker", "liars_dice", "tic_tac_toe")
ALGORITHMS = ("NFSP", "NFSP-ARM", "ARM", "NFSP-baseline")
# Run folders, and the legend's words for each algorithm.
RUN_NAMES = {"NFSP": "nfsp", "NFSP-ARM": "nfsp_arm", "ARM": "arm",
             "NFSP-baseline": "nfsp_baseline"}
LABELS = {"NFSP": "NFSP (NFSP paper's Leduc settings)",
          "NFSP-ARM": "NFSP-ARM", "ARM": "ARM",
          "NFSP-baseline": "NFSP as the NFSP-ARM authors ran it "
                           "(OpenSpiel TF1 settings)"}
# Rewards per unit of M_RL for NFSP: Leduc's preset scales chips by 1/26
# (its largest pot); Liar's Dice and Tic-Tac-Toe pay +-1 already.
NFSP_REWARD_SCALE = {"leduc_poker": 0.0385, "liars_dice": 1.0,
                     "tic_tac_toe": 1.0}


def config(algorithm, game):
  from nfsp_spiel.nfsp.config import NFSPConfig as presets  # pylint: disable=g-import-not-at-top
  if algorithm == "NFSP":
    return presets.leduc(reward_scale=NFSP_REWARD_SCALE[game])
  if algorithm == "NFSP-baseline":
    return presets.nfsp_arm_baseline()
  return (presets.nfsp_arm(game) if algorithm == "NFSP-ARM" else
          presets.arm(game))


def run_name(algorithm, seed):
  return f"{RUN_NAMES[algorithm]}_seed{seed}"


def train(args):
  """One run (in its own process), resumable: see `nfsp_runs.train`."""
  game, algorithm, seed, episodes, stop_at = args
  nfsp_runs.train(f"{FIGURE}/{game}", run_name(algorithm, seed),
                  config(algorithm, game), episodes, seed, points=30,
                  game_string=game, backend="tree", diagnostics=False,
                  first_point=10_000, stop_at=stop_at,
                  # Figs. 6-7: the reward against a random player per seat.
                  against_random=game == "tic_tac_toe")
  return game, algorithm, seed


def _curve(game, algorithm, seed):
  return os.path.join(figure_runs.HERE, "data", FIGURE, game,
                      run_name(algorithm, seed), "curve.csv")


# Figs. 6 and 7: Tic-Tac-Toe's reward against a random player in each seat.
SEAT_FIGURES = {"reward_vs_random_seat0": ("fig6", "first player"),
                "reward_vs_random_seat1": ("fig7", "second player")}
# A title names the game in words, not OpenSpiel's short name, and the
# paper's figure (exploitability: figs. 3-5).
GAME_NAMES = {"leduc_poker": "Leduc Hold'em",
              "liars_dice": "Liar's Dice (one die each)",
              "tic_tac_toe": "Tic-Tac-Toe"}
EXPLOITABILITY_FIGURES = {"leduc_poker": "fig3", "liars_dice": "fig4",
                          "tic_tac_toe": "fig5"}


def _title(game, number, seat=None):
  """The paper's figure `number` ("fig6") on `game`, in words, and how the
  seeds are drawn."""
  where = GAME_NAMES[game] + (f", {seat}" if seat else "")
  return (f"NFSP-ARM paper fig. {number.removeprefix('fig')}: {where}\n"
          f"seeds thin; mean, shaded {figure_runs.BAND_TEXT}")


def plot(game, seeds, metric="exploitability"):
  """Each algorithm's seeds and their mean with a band of +-1 standard error
  of the mean across seeds (`figure_runs.draw_seeds`, over the episodes all
  share) of `metric`: exploitability (figs. 3-5), or a seat's reward against a random
  player (figs. 6-7)."""
  import matplotlib  # pylint: disable=g-import-not-at-top
  import matplotlib.ticker  # pylint: disable=g-import-not-at-top
  matplotlib.use("Agg")
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.run import curves as run_curves  # pylint: disable=g-import-not-at-top
  runs = {}
  for algorithm in ALGORITHMS:
    curves = [run_curves.read_curve(_curve(game, algorithm, seed))
              for seed in seeds if os.path.exists(_curve(game, algorithm,
                                                          seed))]
    curves = [[(row["step"], row[metric]) for row in curve]
              for curve in curves if curve and metric in curve[0]]
    if curves:
      runs[algorithm] = curves
  if not runs:
    print(f"no {metric} curves of {game} yet")
    return
  figure, axes = plt.subplots(figsize=(6.4, 4.4))
  for algorithm in ALGORITHMS:
    curves = runs.get(algorithm)
    if not curves:
      continue
    figure_runs.draw_seeds(axes, curves, figure_style.colour(algorithm),
                           LABELS[algorithm])
  figure_style.log_axes(axes, y=metric not in SEAT_FIGURES)
  # Ticks at 1, 2 and 5 per decade, read as 20k, 1M: a run of a few
  # hundred thousand episodes spans less than a decade.
  axes.xaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1, 2, 5)))
  axes.xaxis.set_major_formatter(matplotlib.ticker.EngFormatter(sep=""))
  axes.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
  axes.set_xlabel("episodes")
  poker = run_curves.payoff_unit(
      pyspiel.load_game(game)) == run_curves.CHIPS_PER_HAND
  if metric in SEAT_FIGURES:
    number, seat = SEAT_FIGURES[metric]
    axes.set_ylabel("\n".join(figure_style.wrap_label(
        "reward against a random player (payoff per game)") +
                                     [figure_style.BAND]))
    axes.set_title(_title(game, number, seat), fontsize=10)
    name = f"fig_nfsp_arm_{game}_{number}"
  else:
    axes.set_ylabel("\n".join(figure_style.wrap_label(
        figure_style.EXPLOITABILITY if poker else
        figure_style.PAYOFF_EXPLOITABILITY) + [figure_style.BAND]))
    axes.set_title(_title(game, EXPLOITABILITY_FIGURES[game]), fontsize=10)
    name = f"fig_nfsp_arm_{game}"
  # Outside the axes: the curves end in every corner.
  figure_style.legend_outside(axes)
  axes.grid(True, which="both", alpha=0.3)
  figure_style.save(figure, os.path.join(figure_runs.HERE, f"{name}.png"))


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--games", default=",".join(GAMES))
  parser.add_argument("--algorithms", default=",".join(ALGORITHMS[:3]),
                      help="also NFSP-baseline (Leduc only: the authors ran "
                      "their NFSP baseline on Leduc)")
  parser.add_argument("--seeds", default="0,1,2")
  parser.add_argument("--episodes", type=int, default=2_000_000)
  parser.add_argument("--stop_at", type=int, default=None,
                      help="end the runs at the last of their points up to "
                      "this many episodes (checkpointed there: the same "
                      "command with a larger --stop_at, or none, carries "
                      "them on)")
  parser.add_argument("--jobs", type=int, default=2)
  parser.add_argument("--plot_only", action="store_true")
  args = parser.parse_args()
  games, seeds = args.games.split(","), [int(s) for s in args.seeds.split(",")]
  if not args.plot_only:
    work = [(game, algorithm, seed, args.episodes, args.stop_at)
            for game in games
            for seed in seeds for algorithm in args.algorithms.split(",")]
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
      for done in pool.imap_unordered(train, work):
        print(f"finished {done}", flush=True)
  for game in games:
    plot(game, seeds)
    if game == "tic_tac_toe":
      for metric in SEAT_FIGURES:
        plot(game, seeds, metric)


if __name__ == "__main__":
  main()
