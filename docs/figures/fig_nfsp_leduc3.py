"""NFSP on three-player Leduc poker: NashConv of the average policy, three
seeds, with the default (Leduc) preset.

Beyond two players fictitious play promises no Nash equilibrium: NashConv,
the sum over players of what a best response gains against the others'
average policies (OpenSpiel's `nash_conv`, computed exactly on the game's
arrays each evaluation), says how far the average profile is from one, not
that it goes to 0.

  python examples/nfsp.py --game "leduc_poker(players=3)" --seeds 0,3,6 \\
      --backend tree --episodes 8000000 --eval_every 50000 \\
      --checkpoint_every 50000 --output_dir runs/nfsp_leduc3/defaults
  python docs/figures/fig_nfsp_leduc3.py   # copies the curve, draws

The command resumes its run; this script copies the run's curve to
`data/nfsp_leduc3/curve.csv` when it goes further than the committed one and
draws `fig_nfsp_leduc3.png`: NashConv per seed and the seeds' mean with its
band, beside the NashConv of M_SL's raw action counts (the data the average
network is fitted to) and the uniform random profile's (top), and each
player's best-response gap, the exact best response's value minus the
greedy Q policy's against the others' averages, mean over the seeds
(bottom: what the DQN part leaves on the table). `--games` draws other three-player runs of the same layout
(`GAMES`), each into its own figure, and prints whether each curve has
flattened by the rule below (`FLAT_DROP`).
"""

import argparse
import os

import figure_runs
import figure_style
import nfsp_runs

SEEDS = (0, 3, 6)
# name -> (game string, game in words, run folder under runs/, data folder,
# figure)
GAMES = {
    "leduc3": ("leduc_poker(players=3)", "three-player Leduc poker",
               os.path.join("nfsp_leduc3", "defaults"), "nfsp_leduc3",
               "fig_nfsp_leduc3.png"),
    "kuhn3": ("kuhn_poker(players=3)", "three-player Kuhn poker",
              os.path.join("nfsp_kuhn3", "defaults"), "nfsp_kuhn3",
              "fig_nfsp_kuhn3.png"),
}
NASH_CONV = "NashConv (chips per hand, summed over players)"
# The "to a length where the curve flattens", as a rule written
# before the runs went past 2M (Kuhn) and 4M (Leduc) episodes: the curve has
# flattened at its last evaluation x when, over the last doubling of
# episodes (x/2 to x), the NashConv has not fallen by more than FLAT_DROP of
# its value at x/2, nor by more than twice the combined standard error; each
# end is every seed's NashConv at the WINDOW evaluations nearest it.
FLAT_DROP = 0.1
WINDOW = 3
PLAYER_STYLES = ("-", "--", ":")


def _mean_of_seeds(rows, column, scale=1.0):
  """(steps, mean over the seeds of `column`) where every seed has it."""
  return figure_runs.mean_of_columns(
      rows, [f"{column}/seed{s}" for s in SEEDS], scale)


def uniform_nash_conv(game_string):
  """The uniform random profile's NashConv (exact, on the game's arrays)."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  from open_spiel.python import policy as policy_lib  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game(game_string)
  return evaluation.nash_conv(game, policy_lib.TabularPolicy(game))


def _window(rows, step):
  """(mean, standard error) of every seed's NashConv at the WINDOW
  evaluations nearest `step`."""
  near = sorted(rows, key=lambda row: abs(row["step"] - step))[:WINDOW]
  return figure_runs.mean_and_se([row[f"nash_conv/seed{s}"] for row in near
                                  for s in SEEDS])


def flattening(rows):
  """The rule's verdict on a curve `rows`, as a line of text."""
  last = rows[-1]["step"]
  if rows[0]["step"] > last / 2 or len(rows) < 2 * WINDOW:
    return "too short to judge"
  half, end = _window(rows, last / 2), _window(rows, last)
  fell = figure_runs.compare_means(half, end, FLAT_DROP * half[0]) > 0
  return (f"{'still falling' if fell else 'flattened'}: NashConv "
          f"{half[0]:.3f} +- {half[1]:.3f} at {last / 2:,.0f} episodes, "
          f"{end[0]:.3f} +- {end[1]:.3f} at {last:,.0f} (falling means by "
          f"more than {FLAT_DROP:.0%} and twice the standard error)")


def draw(rows, game, path, uniform=None):
  """The figure of one three-player run's curve `rows` at `path`, with the
  uniform random profile's NashConv `uniform` as a level."""
  colour = figure_style.COLOURS["NFSP"]
  figure, (top, bottom) = figure_style.gap_panels()
  figure_runs.draw_population_seeds(top, rows, "nash_conv", SEEDS, colour,
                                    label="average policy, each seed")
  figure_runs.draw_population_band(
      top, rows, "nash_conv", colour,
      f"average policy, mean of {len(SEEDS)} seeds")
  # The run logs M_SL's exploitability (NashConv / 3) beside Pi's NashConv.
  top.plot(*_mean_of_seeds(rows, "exploitability_sl_memory", scale=3.0),
           color="#7570b3", linestyle="--",
           label="M_SL's action counts, mean of the seeds")
  if uniform is not None:
    figure_style.reference_level(top, uniform, "uniform random profile")
  for player, style in enumerate(PLAYER_STYLES):
    bottom.plot(*_mean_of_seeds(rows, f"br_gap_{player}"), color=colour,
                linestyle=style, marker="o", markersize=2,
                label=f"player {player}")
  figure_style.finish_gap_panels(top, bottom, NASH_CONV,
                                 f"NFSP (Leduc preset) on {game}")
  figure_style.save(figure, path)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--runs", default=os.path.join(nfsp_runs.ROOT, "runs"))
  parser.add_argument("--games", default="leduc3",
                      help=f"comma-separated, of {', '.join(GAMES)}")
  args = parser.parse_args()
  from nfsp_spiel.run import curves  # pylint: disable=g-import-not-at-top
  for name in args.games.split(","):
    game_string, game, run, data, png = GAMES[name]
    data = os.path.join(figure_runs.HERE, "data", data)
    figure_runs.copy_further(os.path.join(args.runs, run), data)
    rows = curves.read_curve(os.path.join(data, "curve.csv"))
    uniform = uniform_nash_conv(game_string)
    draw(rows, game, os.path.join(figure_runs.HERE, png), uniform)
    first, last = rows[0], rows[-1]
    print(f"{game}: to {last['step']:,.0f} episodes (uniform random "
          f"profile: {uniform:.3f}); NashConv per seed "
          + ", ".join(f"{first[f'nash_conv/seed{s}']:.3f} -> "
                      f"{last[f'nash_conv/seed{s}']:.3f}" for s in SEEDS)
          + "; " + flattening(rows))


if __name__ == "__main__":
  main()
