"""The situation of a Limit Hold'em decision, from its cards and betting, and
how a 2-D map of decisions (a t-SNE map of a network's last hidden layer,
thesis sec. 6.7) groups them.

A `Situation` holds one decision of `nfsp_lhe` self-play (`sample_situations`):
the round and the betting so far (`betting`: per round a string of r, raise
or bet, and c, call or check), the made hand (`made_hand`), a straight draw
(`straight_draw`), the initiative (`has_initiative`), the pot, the hand's
equity and the policy's action probabilities. `GROUPS` are the thesis' figs.
6.7 and 6.8 situations, picked by rule. `measure_features` and
`measure_groups` measure a map by each decision's nearest neighbours there
(`embeddings`); `docs/figures/fig_nfsp_lhe_tsne.py` draws and writes them.
"""

import collections
import re

import numpy as np

from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import embeddings
from nfsp_spiel.evaluation import matches


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


def measure_features(situations, near):
  """One player's map measured per feature, a row each: how well the
  neighbours `near` (`embeddings.neighbours`) name a decision's round,
  initiative and most likely action (`score`, against `chance`), and the
  rank correlation of its pot with their mean pot."""
  rows = []
  for feature, values in (
      ("round", [s.round for s in situations]),
      ("initiative", [s.initiative for s in situations]),
      ("action", [int(np.argmax(s.probabilities)) for s in situations])):
    score, chance = embeddings.majority_score(values, near)
    rows.append({"feature": feature,
                 "measure": "neighbour majority, balanced accuracy",
                 "score": score, "chance": chance})
  pots = np.log([s.pot for s in situations])
  rows.append({"feature": "pot", "measure": "rank correlation with "
               "neighbours' mean", "score": embeddings.rank_correlation(
                   pots, pots[near].mean(1)), "chance": 0.0})
  return rows


def aggression(probabilities):
  """P(call) + 2 P(raise) of (fold, call, raise) probabilities."""
  return probabilities[1] + 2 * probabilities[2]


def measure_groups(player, situations, near):
  """(rows, members) of `player`'s `GROUPS` on its map: per group its
  members, their share of the map's decisions of the same round, the share
  of their neighbours `near` that are members too, the ratio of the two
  (`enrichment`) and, where the thesis saw a gradient, the rank correlation
  of the members' equity with their aggression; members: {caption: the
  members' indices}."""
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
        row["gradient"] = embeddings.rank_correlation(
            [situations[i].equity for i in index],
            [aggression(situations[i].probabilities) for i in index])
    rows.append(row)
  return rows, members
