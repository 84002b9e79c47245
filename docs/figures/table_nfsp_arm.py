"""NFSP-ARM paper tables 1 and 2: trained NFSP-ARM against trained NFSP.

Chen et al. sec. 5.1 (Leduc, 40M hands per seating) and 5.3 (Tic-Tac-Toe)
report, per seating, player 1's win rate, loss rate and mean payoff. Here
the agents are the final checkpoints of `fig_nfsp_arm.py`'s runs: NFSP-ARM
seed k against each opponent of seed k whose checkpoint exists, NFSP (the
NFSP paper's settings) and NFSP-baseline (NFSP as the NFSP-ARM authors ran
it, `NFSPConfig.nfsp_arm_baseline`), all playing their average policies;
`episodes` and `opponent_episodes` say how long each trained. The games
are small enough to compute every number exactly: a walk of the game tree
under both policies gives, per seating, the probability that player 1 wins
or loses and its expected payoff (no sampling error). A duplicate match
(`evaluation.head_to_head`, each deal played in both seatings) checks the
walk: its mean and standard error against the exact seat-averaged payoff.
Rows go to `data/nfsp_arm/table.csv`: a game tabled again replaces all its
rows; rows of other games are kept, those written before NFSP-ARM took the
authors' eta and sizes marked so in `nfsp_arm_preset`.

  python docs/figures/table_nfsp_arm.py --games leduc_poker --deals 20000
"""

import argparse
import csv
import os

import figure_runs
import fig_nfsp_arm
import nfsp_runs

EARLIER_PRESET = "earlier nfsp_arm(): eta 0.1, [64]"


def outcome(state, seats, reach=1.0, totals=None):
  """Adds up, below `state` and weighted by `reach`, player 0's expected
  return and its probabilities of winning and losing, `seats[p]` being a
  TabularPolicy playing p."""
  totals = totals if totals is not None else {"payoff": 0.0, "win": 0.0,
                                              "loss": 0.0}
  if state.is_terminal():
    value = state.returns()[0]
    totals["payoff"] += reach * value
    totals["win"] += reach * (value > 0)
    totals["loss"] += reach * (value < 0)
    return totals
  if state.is_chance_node():
    children = state.chance_outcomes()
  else:
    player = state.current_player()
    children = seats[player].action_probabilities(state, player).items()
  for action, probability in children:
    if probability > 0:
      outcome(state.child(action), seats, reach * probability, totals)
  return totals


def trained_policy(game_string, algorithm, seed):
  """The average policy of a figure run's final checkpoint, tabulated."""
  import pyspiel  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game(game_string)
  agents = nfsp.agents_for(game, fig_nfsp_arm.config(algorithm, game_string),
                           seed=seed)
  driver = selfplay.SelfPlay.restore(game, os.path.join(
      nfsp_runs.ROOT, "runs", "figures", fig_nfsp_arm.FIGURE, game_string,
      fig_nfsp_arm.run_name(algorithm, seed), "checkpoint.npz"), agents,
                                     num_games=128, seed=seed, backend="tree")
  return game, driver.episodes, nfsp.NFSPPolicy(game, agents).to_tabular()


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--games", default=",".join(fig_nfsp_arm.GAMES))
  parser.add_argument("--seeds", default="0,1,2")
  parser.add_argument("--opponents", default="NFSP,NFSP-baseline")
  parser.add_argument("--deals", type=int, default=20000)
  args = parser.parse_args()
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from nfsp_spiel import evaluation  # pylint: disable=g-import-not-at-top
  rows = []
  for game_string in args.games.split(","):
    for seed in (int(s) for s in args.seeds.split(",")):
      for opponent in args.opponents.split(","):
        try:
          game, episodes, ours = trained_policy(game_string, "NFSP-ARM", seed)
          _, opponent_episodes, theirs = trained_policy(game_string, opponent,
                                                        seed)
        except FileNotFoundError as missing:
          print(f"skipping {game_string} seed {seed} against {opponent}: "
                f"{missing}")
          continue
        exact = {}
        for first, second, names in ((ours, theirs, ("NFSP-ARM", opponent)),
                                     (theirs, ours, (opponent, "NFSP-ARM"))):
          totals = outcome(game.new_initial_state(), [first, second])
          exact[names] = totals
          rows.append({"game": game_string, "seed": seed,
                       "player1": names[0], "player2": names[1],
                       "episodes": episodes,
                       "opponent_episodes": opponent_episodes,
                       "win_rate": totals["win"], "loss_rate": totals["loss"],
                       "payoff": totals["payoff"]})
        seat_averaged = (exact[("NFSP-ARM", opponent)]["payoff"]
                         - exact[(opponent, "NFSP-ARM")]["payoff"]) / 2
        match = evaluation.head_to_head(game, ours, theirs, args.deals,
                                        seed=seed)
        for row in rows[-2:]:
          row.update(nfsp_arm_seat_averaged=seat_averaged,
                     match_mean=match.mean, match_stderr=match.stderr,
                     match_deals=args.deals,
                     nfsp_arm_preset=f"nfsp_arm({game_string!r})")
  path = os.path.join(figure_runs.HERE, "data", fig_nfsp_arm.FIGURE,
                      "table.csv")
  if rows:  # rows of games not tabled now are kept
    done = {row["game"] for row in rows}
    if os.path.exists(path):
      with open(path, newline="", encoding="utf-8") as previous:
        kept = [row for row in csv.DictReader(previous)
                if row["game"] not in done]
      for row in kept:  # rows from before the authors' eta and sizes
        row.setdefault("opponent_episodes", row.pop("nfsp_episodes", ""))
        if not row.get("nfsp_arm_preset"):
          row["nfsp_arm_preset"] = EARLIER_PRESET
      rows = kept + rows
    with open(path, "w", newline="", encoding="utf-8") as out:
      writer = csv.DictWriter(out, fieldnames=list(rows[-1]))
      writer.writeheader()
      writer.writerows(rows)
  print("| game | seed | player 1 | player 2 | episodes (NFSP-ARM, other) |"
        " P1 win | P1 loss | P1 payoff | NFSP-ARM, seats averaged (exact) |"
        " duplicate match +- s.e. |")
  print("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
  for row in rows:
    row = {key: value if key in ("game", "seed", "player1", "player2",
                                 "nfsp_arm_preset") else
           float(value) for key, value in row.items()}
    print(f"| {row['game']} | {row['seed']} | {row['player1']} | "
          f"{row['player2']} | {row['episodes']:,.0f}, "
          f"{row['opponent_episodes']:,.0f} | "
          f"{row['win_rate']:.1%} | {row['loss_rate']:.1%}"
          f" | {row['payoff']:+.4f} | {row['nfsp_arm_seat_averaged']:+.4f} | "
          f"{row['match_mean']:+.4f} +- {row['match_stderr']:.4f} |")
  print(f"wrote {path}")


if __name__ == "__main__":
  main()
