"""Is a Limit Hold'em run's network learning hand strength? A linear probe.

The frozen-average test's rule 7 (`fig_nfsp_lhe_frozen_average.py`) found
that a best response given its cards' equity exploits the run's average
where one reading the raw cards does not. Whether the run's own networks
come to encode that strength as they train is read off their last hidden
layer: on `DECISIONS` decisions of Limit Hold'em (every one of a
calling-and-raising random play's decisions, seed 0, the same for every
checkpoint), a ridge regression per betting round from the layer's
activations to the acting player's check-down equity against a random
holding (`baselines.holding_equities`), fitted on the first `TRAIN` share of
the decisions and scored on the rest by R^2 (the share of the equity's
variance it explains there). For each kept checkpoint of a run, both
players' Q-networks and average networks; beside them, the same probe of an
untrained network of the run's settings (random features) and of the raw
inputs themselves (a linear function of the card bits).

The rule, written before the data: a network *learns hand strength* if its
R^2, averaged over the four rounds and the two players, is higher at the
run's last kept checkpoint than at its first by more than `MARGIN`, and
*still learns* if it also rose by more than `MARGIN` over the last
`RECENT` kept checkpoints (a trend that more episodes would extend); it
*stalls* if it rose over the run but not over those; *does not learn* if it
did not rise over the run.

  python docs/figures/nfsp_lhe_equity_probe.py \\
      runs/nfsp_lhe_double_q/clip1_scratch/kept --name clip1_scratch_seed0

writes `data/nfsp_lhe_diagnostics/<name>/equity_probe.csv`, draws every
run's CSV there into `fig_nfsp_lhe_equity_probe.png` and prints the
verdicts; `--plot_only` redraws from the CSVs.
"""

import argparse
import csv
import glob
import os

import numpy as np

import fig_nfsp_lhe_double_q as double_q
import figure_runs
import figure_style

DATA = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_diagnostics")
DECISIONS = 60_000
TRAIN = 0.75
RIDGE = 1e-2  # times the mean activation's square: a light penalty
MARGIN = 0.03
RECENT = 4
ROUNDS = ("preflop", "flop", "turn", "river")
NETWORKS = ("q_network", "average_network")
UNTRAINED = 0  # the step of the untrained network's rows
RAW = "raw inputs"
CSV_NAME = "equity_probe.csv"
# The runs of fig_nfsp_lhe_double_q.py (double Q, rewards / 10) are drawn
# with its names and colours; another run by its folder's name.
LABELS = {**{name: label.replace("double Q, rewards / 10, ", "")
             for name, label in double_q.RUNS.items()},
          "double_q_rewards_1_10": "seed 0, unclipped",
          "double_q_rewards_1_10_seed1": "seed 1, unclipped"}


def sample_decisions(count=DECISIONS, seed=0):
  """(information-state tensors, equities, rounds, players) of the first
  `count` decisions of random play that never folds."""
  # pylint: disable=g-import-not-at-top
  import pyspiel
  import nfsp_spiel  # noqa: F401  pylint: disable=unused-import
  from nfsp_spiel.evaluation import baselines
  from nfsp_spiel.games import nfsp_lhe
  from nfsp_spiel.games import poker
  # pylint: enable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  rng = np.random.default_rng(seed)
  tensors, players = [], []
  while len(tensors) < count:
    state = game.new_initial_state()
    while not state.is_terminal() and len(tensors) < count:
      if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
        continue
      player = state.current_player()
      tensors.append(state.information_state_tensor(player))
      players.append(player)
      state.apply_action(int(rng.choice(
          [a for a in state.legal_actions() if a != poker.FOLD])))
  tensors = np.array(tensors, np.float32)
  holes, boards, num_board = nfsp_lhe.cards_of_tensors(tensors)
  rounds = np.searchsorted(nfsp_lhe.BOARD_CARDS, num_board)
  return (tensors, baselines.holding_equities(holes, boards, num_board),
          rounds, np.array(players))


def probe_r2(features, equities, rounds):
  """R^2 on the held-out decisions of a ridge regression from `features`
  to `equities`, fitted per betting round: a list over `ROUNDS`."""
  cut = int(TRAIN * len(features))
  x = np.asarray(features, np.float64)
  scores = []
  for r in range(len(ROUNDS)):
    train = np.flatnonzero(rounds[:cut] == r)
    test = cut + np.flatnonzero(rounds[cut:] == r)
    mean, y_mean = x[train].mean(axis=0), equities[train].mean()
    a = x[train] - mean
    penalty = RIDGE * max(float((a ** 2).mean()), 1e-12) * len(train)
    weights = np.linalg.solve(a.T @ a + penalty * np.eye(a.shape[1]),
                              a.T @ (equities[train] - y_mean))
    predicted = (x[test] - mean) @ weights + y_mean
    residual = ((equities[test] - predicted) ** 2).sum()
    total = ((equities[test] - equities[test].mean()) ** 2).sum()
    scores.append(1.0 - residual / total)
  return scores


def _rows(step, network, player, scores):
  return [{"step": step, "network": network, "player": player,
           "round": name, "r2": float(score)}
          for name, score in zip(ROUNDS, scores)]


def measure(kept, decisions):
  """The CSV's rows: every checkpoint in the folder `kept`, an untrained
  network of its settings (step `UNTRAINED`) and the raw inputs."""
  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import agent as agent_lib
  from nfsp_spiel.nfsp import average_profile
  from nfsp_spiel.nfsp.config import NFSPConfig
  # pylint: enable=g-import-not-at-top
  tensors, equities, rounds, players = decisions
  paths = sorted(glob.glob(os.path.join(kept, "*.npz")),
                 key=lambda p: int(os.path.basename(p)[:-4]))
  if not paths:
    raise FileNotFoundError(f"{kept}: no kept checkpoints (<step>.npz)")
  rows = _rows(UNTRAINED, RAW, -1, probe_r2(tensors, equities, rounds))
  _, settings = average_profile.checkpoint_weights(paths[0])
  config = NFSPConfig.from_header(settings["config"])
  for player in (0, 1):
    fresh = agent_lib.NFSP(player, tensors.shape[1], 3, config, seed=player)
    for name in NETWORKS:
      weights = fresh.networks()[name].numpy_weights()
      rows += _probe_player(UNTRAINED, name, player, weights, decisions)
  for path in paths:
    step = int(os.path.basename(path)[:-4])
    for name in NETWORKS:
      weights, _ = average_profile.checkpoint_weights(path, network=name)
      for player in (0, 1):
        rows += _probe_player(step, name, player, weights[player], decisions)
    print(f"{step:,} episodes: " + ", ".join(
        f"{name} {mean_r2(rows, step, name):.3f}" for name in NETWORKS),
          flush=True)
  return rows


def _probe_player(step, name, player, weights, decisions):
  """The rows of one player's network, probed at that player's decisions."""
  from nfsp_spiel.nfsp import networks  # pylint: disable=g-import-not-at-top
  tensors, equities, rounds, players = decisions
  mine = players == player
  hidden = networks.last_hidden(weights, tensors[mine])
  return _rows(step, name, player, probe_r2(hidden, equities[mine],
                                            rounds[mine]))


def mean_r2(rows, step, network, round_name=None):
  """R^2 of `network` at `step` averaged over the players and the rounds
  (or in `round_name` alone)."""
  return float(np.mean([r["r2"] for r in rows
                        if r["step"] == step and r["network"] == network
                        and round_name in (None, r["round"])]))


def verdict(rows, network):
  """The rule on `network`'s rows: a line of text."""
  steps = sorted({r["step"] for r in rows if r["network"] == network
                  and r["step"] != UNTRAINED})
  if len(steps) < RECENT + 1:
    return f"{network}: too few kept checkpoints ({len(steps)})"
  first, recent, last = (mean_r2(rows, s, network)
                         for s in (steps[0], steps[-RECENT - 1], steps[-1]))
  if last - first <= MARGIN:
    reading = "does not learn hand strength"
  elif last - recent > MARGIN:
    reading = "still learns hand strength"
  else:
    reading = "learns hand strength, then stalls"
  untrained = mean_r2(rows, UNTRAINED, network)
  return (f"{network}: {reading} (R^2 {first:.3f} at {steps[0]:,}, "
          f"{recent:.3f} at {steps[-RECENT - 1]:,}, {last:.3f} at "
          f"{steps[-1]:,} episodes; untrained {untrained:.3f})")


def draw(runs, path):
  """`runs`: {name: its CSV's rows}; a column per betting round, a colour
  per run, solid for the Q-network and dashed for the average network."""
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  figure, axes = plt.subplots(1, len(ROUNDS), figsize=(13, 3.8), sharey=True)
  others = iter(("#999999", "#666666", "#333333"))
  colours = {name: double_q.COLOURS.get(name) or next(others)
             for name in runs}
  for r, round_name in enumerate(ROUNDS):
    ax = axes[r]
    for name, rows in runs.items():
      for network, style in zip(NETWORKS, ("-", "--")):
        steps = sorted({row["step"] for row in rows
                        if row["network"] == network
                        and row["step"] != UNTRAINED})
        values = [mean_r2(rows, s, network, round_name) for s in steps]
        ax.plot(steps, values, style, marker="o", markersize=3,
                color=colours[name],
                label=f"{LABELS.get(name, name)}: "
                f"{network.replace('_', '-')}")
    first = next(iter(runs.values()))
    for network, style in zip(NETWORKS, ("-", "--")):
      ax.axhline(mean_r2(first, UNTRAINED, network, round_name),
                 color="black", linestyle=style, linewidth=0.8, alpha=0.5,
                 label=f"untrained {network.replace('_', '-')}")
    ax.axhline(mean_r2(first, UNTRAINED, RAW, round_name), color="grey",
               linestyle=":", linewidth=1.2,
               label="the raw inputs themselves")
    ax.set_title(round_name)
    ax.set_xlabel("episodes")
    ax.grid(True, alpha=0.3)
    ax.set_ylim(0, 1)
  axes[0].set_ylabel("equity's R^2 from the last hidden\nlayer (linear "
                     "probe, held out)")
  figure_style.legend_outside(axes[-1], fontsize=7)
  figure.suptitle("Does a Limit Hold'em run's network learn hand strength? "
                  "NFSP, double Q, rewards / 10 (both players' mean)",
                  fontsize=11)
  figure_style.save(figure, path)


def _read(path):
  with open(path, encoding="utf-8") as f:
    return [{**r, "step": int(r["step"]), "player": int(r["player"]),
             "r2": float(r["r2"])} for r in csv.DictReader(f)]


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("kept", nargs="?", help="a run's folder of kept "
                      "checkpoints (<step>.npz)")
  parser.add_argument("--name", required=True,
                      help="the run's folder under data/nfsp_lhe_diagnostics")
  parser.add_argument("--plot_only", action="store_true")
  args = parser.parse_args()
  path = os.path.join(DATA, args.name, CSV_NAME)
  if not args.plot_only:
    if not args.kept:
      parser.error("give the run's kept folder, or --plot_only")
    rows = measure(args.kept, sample_decisions())
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
      writer = csv.DictWriter(f, ["step", "network", "player", "round", "r2"])
      writer.writeheader()
      writer.writerows(rows)
  found = {os.path.basename(os.path.dirname(p)): _read(p)
           for p in glob.glob(os.path.join(DATA, "*", CSV_NAME))}
  runs = {name: found[name] for name in sorted(
      found, key=lambda n: (list(LABELS).index(n) if n in LABELS
                            else len(LABELS), n))}
  draw(runs, os.path.join(figure_runs.HERE, "fig_nfsp_lhe_equity_probe.png"))
  for name, rows in runs.items():
    for network in NETWORKS:
      print(f"{name}: {verdict(rows, network)}")
  raw = mean_r2(runs[args.name], UNTRAINED, RAW)
  print(f"beside: a linear function of the raw inputs {raw:.3f}")


if __name__ == "__main__":
  main()
