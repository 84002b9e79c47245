"""Thesis sec. 6.7 (figs. 6.5-6.8): what NFSP's average networks learned in
Limit Hold'em, as t-SNE maps of each player's last hidden layer.

The states come from self-play of the trained average strategy profile:
`--states` decisions of each player, each mapped through that player's own
average network (the thesis: "for both players respectively"; it used about
100,000 per player, here fewer, for scikit-learn's t-SNE on two cores).
Perplexity 30, PCA start, seed `--seed`; `pip install ".[figures]"` for
scikit-learn's t-SNE (the measures below are numpy alone).

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
(`data/nfsp_lhe_tsne/*.csv`, which the ledger reads):
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
--preset lhe` run (`--precision` as it was trained), restored with that
binary's defaults (128 games, seed 0, learning every 8 locksteps).

  python docs/figures/fig_nfsp_lhe_tsne.py --checkpoint runs/nfsp_lhe/checkpoint.npz
"""

import argparse
import collections
import csv
import os
import re

import numpy as np

import figure_runs
import nfsp_runs

NEIGHBOURS = 10
DATA = os.path.join(figure_runs.HERE, "data", "nfsp_lhe_tsne")


# ---- the situation of a decision, from its cards and betting ----

def made_hand(hole, board):
  """'flush', 'straight', 'two pair or better', 'pair' (one pair, a hole
  card in it), 'board pair' (the board's pair only) or 'high card' (thesis
  fig. 6.8's footnote: cards that have formed no pair or better): the best
  the 2 + len(board) cards make."""
  cards = list(hole) + list(board)
  suits = collections.Counter(card % 4 for card in cards)
  if max(suits.values()) >= 5:
    return "flush"
  if _straight(card // 4 for card in cards):
    return "straight"
  ranks = collections.Counter(card // 4 for card in cards)
  counts = sorted(ranks.values())
  if counts[-1] >= 3 or counts[-2:] == [2, 2]:
    return "two pair or better"
  if counts[-1] == 1:
    return "high card"
  paired = next(rank for rank, count in ranks.items() if count == 2)
  return "pair" if paired in (card // 4 for card in hole) else "board pair"


def _straight(ranks):
  ranks = set(ranks)
  if 12 in ranks:
    ranks.add(-1)  # the ace plays low too
  return any(all(r + k in ranks for k in range(5)) for r in range(-1, 9))


def straight_draw(hole, board):
  """Four to a straight that a fifth rank would complete, using a hole
  card, with no straight made yet."""
  ranks = [card // 4 for card in list(hole) + list(board)]
  board_ranks = [card // 4 for card in board]
  if _straight(ranks):
    return False
  return any(_straight(ranks + [rank]) and not _straight(board_ranks + [rank])
             for rank in range(13))


def betting(state, player):
  """Per round so far, the betting as a string of r and c."""
  text = state.information_state_string(player)
  sequences = re.search(r"\[Sequences: ([^\]]*)\]", text).group(1)
  return sequences.split("|")


def has_initiative(rounds, player):
  """Whether `player` made the hand's last bet or raise (player 1 acts first
  preflop, player 0 after)."""
  last = None
  for round_, actions in enumerate(rounds):
    first = 1 if round_ == 0 else 0
    for i, action in enumerate(actions):
      if action == "r":
        last = (first + i) % 2
  return last == player


def _now(situation):
  """The betting so far in the situation's round."""
  return situation.rounds[-1]


def _bet_turn(situation):
  """The player to act made the turn's last bet or raise (a bluff where its
  hand is still high card, or a draw that missed, on the river)."""
  return "r" in situation.rounds[2] and has_initiative(
      situation.rounds[:3], situation.player)


def _pocket_pair(situation):
  return situation.hole[0] // 4 == situation.hole[1] // 4


# Figs. 6.7 and 6.8's groups: (caption, rule on a `Situation`, whether the
# thesis saw a gradient by hand quality within the group).
GROUPS = {
    0: (("A: pairs preflop vs call",
         lambda s: s.rounds == ("c",) and _pocket_pair(s), False),
        ("B: pairs check/calling down (rc/crc/crc/cr)",
         lambda s: s.rounds == ("rc", "crc", "crc", "cr") and s.hand == "pair",
         True),
        ("C: pairs on flop facing c-bet (rc/cr)",
         lambda s: s.rounds == ("rc", "cr") and s.hand == "pair", True),
        ("D: straight draws facing a turn bet",
         lambda s: s.round == 2 and _now(s).endswith("r") and s.draw, False),
        ("E: missed straight draws on river after bluff-betting turn",
         lambda s: s.round == 3 and _bet_turn(s) and s.missed_draw, False)),
    1: (("A: high cards vs river bet after check-through turn",
         lambda s: s.round == 3 and s.rounds[2] == "cc" and _now(s) == "r"
         and s.hand == "high card", True),
        ("B: high cards facing check/raise on flop (rc/crr)",
         lambda s: s.rounds == ("rc", "crr") and s.hand == "high card", True),
        ("C: flushes facing a check",
         lambda s: _now(s) == "c" and s.hand == "flush", False),
        ("D: straight draws facing a flop bet",
         lambda s: s.round == 1 and _now(s).endswith("r") and s.draw, False),
        ("E: facing a river check after bluff-betting or raising the turn",
         lambda s: s.round == 3 and _now(s) == "c" and _bet_turn(s)
         and s.hand == "high card", False)),
}


Situation = collections.namedtuple(
    "Situation", "player round rounds hole board hand draw missed_draw "
    "initiative pot equity probabilities tensor")


def sample_situations(game, policy, count, seed):
  """Per player, `count` decisions of self-play of `policy`."""
  from nfsp_spiel.evaluation import baselines  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.evaluation import matches  # pylint: disable=g-import-not-at-top
  rng = np.random.default_rng(seed)
  big_bet = 2 * matches.big_blind(game)
  situations = {0: [], 1: []}
  while min(len(found) for found in situations.values()) < count:
    state = game.new_initial_state()
    while not state.is_terminal():
      if state.is_chance_node():
        state.apply_action(matches.chance_action(state, rng.random()))
        continue
      player = state.current_player()
      probs = policy.action_probabilities(state, player)
      hole, board = state.hole_cards(player), state.board_cards()
      rounds = betting(state, player)
      hand = made_hand(hole, board)
      situations[player].append(Situation(
          player, state.betting_round(), tuple(rounds), hole, board, hand,
          straight_draw(hole, board), len(board) == 5
          and hand == "high card" and straight_draw(hole, board[:4]),
          has_initiative(rounds, player),
          sum(state.contributions()) / big_bet,
          baselines.equity_against_uniform(hole, board),
          np.array([probs.get(a, 0.0) for a in range(3)]),
          np.array(state.information_state_tensor(player), np.float32)))
      actions = list(probs)
      weights = np.array(list(probs.values()))
      state.apply_action(actions[rng.choice(len(actions),
                                            p=weights / weights.sum())])
  return {player: found[:count] for player, found in situations.items()}


# ---- measurements on the map ----

def neighbours(points, k=NEIGHBOURS, chunk=1024):
  """Each point's k nearest other points on the map (indices; exact, by
  distances computed a chunk of rows at a time)."""
  points = np.asarray(points, np.float64)
  near = np.empty((len(points), k), np.int64)
  for start in range(0, len(points), chunk):
    rows = np.arange(start, min(start + chunk, len(points)))
    distances = ((points[rows, None, :] - points[None, :, :]) ** 2).sum(-1)
    distances[np.arange(len(rows)), rows] = np.inf  # not its own neighbour
    nearest = np.argpartition(distances, k, axis=1)[:, :k]
    order = np.take_along_axis(distances, nearest, 1).argsort(1)
    near[rows] = np.take_along_axis(nearest, order, 1)
  return near


def majority_score(values, near):
  """The balanced accuracy of naming each point's value by its neighbours'
  majority (the mean over values of how often a point with that value is
  named right), and that of always naming one value (1 / values)."""
  values = np.asarray(values)
  kinds = np.unique(values)
  votes = np.stack([(values[near] == kind).sum(1) for kind in kinds], 1)
  predicted = kinds[votes.argmax(1)]
  recalls = [(predicted[values == kind] == kind).mean() for kind in kinds]
  return float(np.mean(recalls)), 1 / len(kinds)


def _ranks(values):
  """Ranks from 0, tied values sharing their mean rank."""
  values = np.asarray(values, np.float64)
  order = np.argsort(values, kind="stable")
  ranks = np.empty(len(values))
  ranks[order] = np.arange(len(values))
  _, starts, counts = np.unique(values[order], return_index=True,
                                return_counts=True)
  for start, count in zip(starts, counts):
    ranks[order[start:start + count]] = start + (count - 1) / 2
  return ranks


def rank_correlation(x, y):
  """Spearman's rank correlation (NaN where a side is constant or there
  are fewer than 3 points)."""
  if len(x) < 3 or np.std(x) == 0 or np.std(y) == 0:
    return float("nan")
  return float(np.corrcoef(_ranks(x), _ranks(y))[0, 1])


def measure_features(situations, near):
  """`neighbourhoods.csv`'s rows of one player."""
  rows = []
  for feature, values in (
      ("round", [s.round for s in situations]),
      ("initiative", [s.initiative for s in situations]),
      ("action", [int(np.argmax(s.probabilities)) for s in situations])):
    score, chance = majority_score(values, near)
    rows.append({"feature": feature, "measure": "neighbour majority, balanced accuracy",
                 "score": score, "chance": chance})
  pots = np.log([s.pot for s in situations])
  rows.append({"feature": "pot", "measure": "rank correlation with "
               "neighbours' mean", "score": rank_correlation(
                   pots, pots[near].mean(1)), "chance": 0.0})
  return rows


def aggression(probabilities):
  return probabilities[1] + 2 * probabilities[2]


def measure_groups(player, situations, near):
  """`groups.csv`'s rows of one player, with each group's members."""
  rounds = np.array([s.round for s in situations])
  rows, members = [], {}
  for label, rule, gradient in GROUPS[player]:
    inside = np.array([bool(rule(s)) for s in situations])
    index = np.flatnonzero(inside)
    members[label] = index
    row = {"group": label, "members": len(index), "share": float("nan"),
           "neighbours_in_group": float("nan"), "enrichment": float("nan"),
           "gradient": float("nan")}
    if len(index):
      same_round = rounds == rounds[index[0]]
      share = inside[same_round].mean()
      in_group = inside[near[index]].mean()
      row.update(share=float(share), neighbours_in_group=float(in_group),
                 enrichment=float(in_group / share))
      if gradient:
        row["gradient"] = rank_correlation(
            [situations[i].equity for i in index],
            [aggression(situations[i].probabilities) for i in index])
    rows.append(row)
  return rows, members


def _write(name, rows):
  os.makedirs(DATA, exist_ok=True)
  with open(os.path.join(DATA, name), "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)


# ---- figures ----

def draw_maps(plt, maps, episodes, path):
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
                  f"hidden layer, after {episodes:,} episodes", fontsize=11)
  figure.savefig(path, dpi=90, bbox_inches="tight")


def draw_groups(plt, maps, members, episodes, path):
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
                  f"after {episodes:,} episodes", fontsize=11)
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
  return points, neighbours(points)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--checkpoint", default=os.path.join(
      nfsp_runs.ROOT, "runs", "nfsp_lhe", "checkpoint.npz"))
  parser.add_argument("--precision", default="float32",
                      help="The run's NFSPConfig.precision.")
  parser.add_argument("--states", type=int, default=6000,
                      help="Decisions per player.")
  parser.add_argument("--seed", type=int, default=0)
  args = parser.parse_args()
  import matplotlib  # pylint: disable=g-import-not-at-top
  matplotlib.use("Agg")
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  import pyspiel  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import selfplay  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  config = nfsp.NFSPConfig.lhe(precision=args.precision)
  agents = nfsp.agents_for(game, config)
  # examples/nfsp.py's driver settings on nfsp_lhe (learning in groups of 8
  # locksteps); the checkpoint's header must match them.
  driver = selfplay.SelfPlay.restore(game, args.checkpoint, agents,
                                     num_games=128, seed=0, learn_locksteps=8)
  # The control: the same states through the run's networks before any
  # training (its seed's initial weights). What an untrained map shows
  # comes from the encoding, not from learning.
  untrained = nfsp.agents_for(game, config)
  situations = sample_situations(game, nfsp.NFSPPolicy(game, agents),
                                 args.states, args.seed)
  maps, members, feature_rows, group_rows = {}, {}, [], []
  for player, found in situations.items():
    points, near = embed(agents[player], found, args.seed)
    _, near_untrained = embed(untrained[player], found, args.seed)
    maps[player] = (points, found)
    for row, control in zip(measure_features(found, near),
                            measure_features(found, near_untrained)):
      feature_rows.append({"player": player, **row,
                           "score_untrained": control["score"]})
    rows, members[player] = measure_groups(player, found, near)
    controls, _ = measure_groups(player, found, near_untrained)
    group_rows += [{"player": player, **row,
                    "enrichment_untrained": control["enrichment"]}
                   for row, control in zip(rows, controls)]
  for rows in (feature_rows, group_rows):
    for row in rows:
      row["episodes"] = driver.episodes
  _write("neighbourhoods.csv", feature_rows)
  _write("groups.csv", group_rows)
  draw_maps(plt, maps, driver.episodes,
            os.path.join(figure_runs.HERE, "fig_nfsp_lhe_tsne.png"))
  draw_groups(plt, maps, members, driver.episodes,
              os.path.join(figure_runs.HERE, "fig_nfsp_lhe_tsne_groups.png"))
  for row in feature_rows + group_rows:
    print(row)


if __name__ == "__main__":
  main()
