"""Thesis sec. 6.7 (figs. 6.5-6.8): what NFSP's average networks learned in
Limit Hold'em, as t-SNE maps of each player's last hidden layer.

The states come from self-play of the trained average strategy profile:
`--states` decisions of each player, each mapped through that player's own
average network (the thesis: "for both players respectively"; it used about
100,000 per player, here fewer, for scikit-learn's t-SNE on two cores).
Perplexity 30, PCA start, seed `--seed`; `pip install ".[figures]"` for
scikit-learn's t-SNE (the measures, `nfsp_spiel.evaluation.embeddings`,
are numpy alone).

Figs. 6.5 (player 0) and 6.6 (player 1): each map coloured, as the thesis'
are, by A) the action probabilities (fold, call, raise as red, green, blue),
B) the round, C) the initiative (the player made the hand's last bet or
raise), D) the pot in big bets (log scale). Figs. 6.7 (player 0) and 6.8
(player 1): the thesis' hand-picked groups of game situations, each drawn
over the grey map in its action colours. The groups are the captions'
situations, picked by rule (betting sequence, made hand, draw), not by hand:
the thesis' first player is the big blind, who acts first after the flop;
here that is player 0 (`nfsp_lhe` follows ACPC: player 1 posts the small
blind and acts first preflop). Sequences read like `universal_poker`'s,
one string per round joined by '/': r raise or bet, c call or check.

The thesis read its maps by eye. Here every claim is also measured, on the
2-D map, by each state's 10 nearest neighbours there
(`nfsp_spiel.evaluation.lhe_situations`; `data/nfsp_lhe_tsne/*.csv`, which
the ledger reads):
- `neighbourhoods.csv`, per player and feature: how well the neighbours'
  majority names the state's round, initiative or most likely action, as a
  balanced accuracy (each value's share named right, averaged over the
  values, since most states lack the initiative: `score`), against always
  naming one value (`chance`, 1 / number of values); for the pot, the rank
  correlation of a state's pot with its neighbours' mean pot (`chance` 0);
- `groups.csv`, per player and group: its members, their share of the
  map's states of the same round (`share`), the share of their neighbours
  that are members too (`neighbours_in_group`; a group scattered at random
  over its round's region would give about `share`), the ratio of the two
  (`enrichment`), and where the thesis saw a gradient, the rank correlation
  of the members' hand strength (check-down equity against a random
  holding) with how aggressive their action probabilities are (P(call) +
  2 P(raise)).
Each map measure is repeated on the map of the same states through the
untrained networks (the run's initial weights: `score_untrained`,
`enrichment_untrained`): what an untrained map shows comes from the
encoding, not from learning.

The agents are the checkpoint of an `examples/nfsp.py --game nfsp_lhe
--preset lhe` run (`--precision` and `--set` as it was trained: the
checkpoint's header must match), restored with that binary's defaults (128
games, seed 0, learning every 8 locksteps). Both CSVs record the mapped
network's `double_q` (0 or 1), `reward_scale` and `td_error_clip`, so a map of a run with
other settings than the paper's says so in the ledger.

  python docs/figures/fig_nfsp_lhe_tsne.py --checkpoint runs/nfsp_lhe/checkpoint.npz
  python docs/figures/fig_nfsp_lhe_tsne.py --precision bfloat16 \
      --set double_q=True --set reward_scale=0.1 \
      --checkpoint runs/nfsp_lhe_double_q/rewards_1_10/checkpoint.npz
  python docs/figures/fig_nfsp_lhe_tsne.py --precision bfloat16 \
      --set double_q=True --set reward_scale=0.1 --set td_error_clip=1 \
      --checkpoint runs/nfsp_lhe_double_q/clip1_from_2050k/kept/3750001.npz
"""

import argparse
import csv
import os

import numpy as np

import figure_runs
import nfsp_runs
from nfsp_spiel.evaluation import embeddings
from nfsp_spiel.evaluation import lhe_situations

DATA = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_tsne")


def _write(name, rows):
  os.makedirs(DATA, exist_ok=True)
  with open(os.path.join(DATA, name), "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)


# ---- figures ----

def draw_maps(plt, maps, trained, path):
  """Figs. 6.5 and 6.6: a row per player, the four colourings."""
  figure, grid = plt.subplots(len(maps), 4, figsize=(20, 5 * len(maps)),
                              squeeze=False)
  for row, (player, (points, situations)) in enumerate(maps.items()):
    colourings = (
        ("A: action probabilities (fold red, call green, raise blue)",
         np.stack([s.probabilities for s in situations]), None),
        ("B: round (0 preflop ... 3 river)",
         [s.round for s in situations], "viridis"),
        ("C: initiative (made the last bet or raise)",
         [float(s.initiative) for s in situations], "coolwarm"),
        ("D: pot in big bets (log2)",
         np.log2([s.pot for s in situations]), "magma"))
    for axes, (title, values, cmap) in zip(grid[row], colourings):
      if cmap is None:
        axes.scatter(points[:, 0], points[:, 1], c=np.clip(values, 0, 1), s=3)
      else:
        shown = axes.scatter(points[:, 0], points[:, 1], c=values, s=3,
                             cmap=cmap)
        figure.colorbar(shown, ax=axes)
      axes.set_title(f"player {player}: {title}", fontsize=9)
      axes.set_xticks([])
      axes.set_yticks([])
  figure.suptitle("Thesis figs. 6.5 (player 0, the big blind) and 6.6 "
                  "(player 1): t-SNE of each player's average network, last "
                  f"hidden layer, {trained}", fontsize=11)
  figure.savefig(path, dpi=90, bbox_inches="tight")


def draw_groups(plt, maps, members, trained, path):
  """Figs. 6.7 and 6.8: a row per player, a group per panel over the grey
  map, its members in their action colours."""
  figure, grid = plt.subplots(len(maps), 5, figsize=(25, 5 * len(maps)),
                              squeeze=False)
  for row, (player, (points, situations)) in enumerate(maps.items()):
    for axes, (label, index) in zip(grid[row], members[player].items()):
      axes.scatter(points[:, 0], points[:, 1], c="0.85", s=2)
      if len(index):
        colours = np.clip(np.stack([situations[i].probabilities
                                    for i in index]), 0, 1)
        axes.scatter(points[index, 0], points[index, 1], c=colours, s=14,
                     edgecolors="k", linewidths=0.3)
      axes.set_title(f"player {player}, {label}\n({len(index)} states)",
                     fontsize=8)
      axes.set_xticks([])
      axes.set_yticks([])
  figure.suptitle("Thesis figs. 6.7 (player 0) and 6.8 (player 1): the "
                  "captions' situations on each player's map, coloured by "
                  "action probabilities (fold red, call green, raise blue), "
                  f"{trained}", fontsize=11)
  figure.savefig(path, dpi=80, bbox_inches="tight")


def embed(agent, situations, seed):
  """The t-SNE map of `situations` through `agent`'s average network's last
  hidden layer, and each point's neighbours there."""
  from sklearn.manifold import TSNE  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import networks  # pylint: disable=g-import-not-at-top
  hidden = networks.last_hidden(agent.average_network.numpy_weights(),
                                np.stack([s.tensor for s in situations]))
  points = TSNE(n_components=2, perplexity=30, init="pca",
                random_state=seed).fit_transform(hidden)
  return points, embeddings.neighbours(points)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  nfsp_runs.add_checkpoint_arguments(
      parser, os.path.join(nfsp_runs.ROOT, "runs", "nfsp_lhe",
                           "checkpoint.npz"), precision="float32")
  parser.add_argument("--states", type=int, default=6000,
                      help="Decisions per player.")
  parser.add_argument("--seed", type=int, default=0)
  args = parser.parse_args()
  import matplotlib  # pylint: disable=g-import-not-at-top
  matplotlib.use("Agg")
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  game, config, agents, driver = nfsp_runs.restore_lhe(
      args.checkpoint, args.precision, args.set)
  # The control: the same states through the run's networks before any
  # training (its seed's initial weights). What an untrained map shows
  # comes from the encoding, not from learning.
  untrained = nfsp.agents_for(game, config)
  situations = lhe_situations.sample_situations(
      game, nfsp.NFSPPolicy(game, agents), args.states, args.seed)
  maps, members, feature_rows, group_rows = {}, {}, [], []
  for player, found in situations.items():
    points, near = embed(agents[player], found, args.seed)
    _, near_untrained = embed(untrained[player], found, args.seed)
    maps[player] = (points, found)
    for row, control in zip(
        lhe_situations.measure_features(found, near),
        lhe_situations.measure_features(found, near_untrained)):
      feature_rows.append({"player": player, **row,
                           "score_untrained": control["score"]})
    rows, members[player] = lhe_situations.measure_groups(player, found,
                                                          near)
    controls, _ = lhe_situations.measure_groups(player, found,
                                                near_untrained)
    group_rows += [{"player": player, **row,
                    "enrichment_untrained": control["enrichment"]}
                   for row, control in zip(rows, controls)]
  for rows in (feature_rows, group_rows):
    for row in rows:
      row.update(episodes=driver.episodes,
                 double_q=int(config.best_response.double_q),
                 reward_scale=config.reward_scale,
                 td_error_clip=config.best_response.td_error_clip)
  _write("neighbourhoods.csv", feature_rows)
  _write("groups.csv", group_rows)
  trained = (f"after {driver.episodes:,} episodes "
             f"({', '.join(args.set) or 'the paper settings'})")
  draw_maps(plt, maps, trained,
            os.path.join(figure_runs.HERE, "fig_nfsp_lhe_tsne.png"))
  draw_groups(plt, maps, members, trained,
              os.path.join(figure_runs.HERE, "fig_nfsp_lhe_tsne_groups.png"))
  for row in feature_rows + group_rows:
    print(row)


if __name__ == "__main__":
  main()
