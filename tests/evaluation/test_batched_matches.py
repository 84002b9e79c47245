"""Batched Limit Hold'em matches: the same games as `head_to_head` one by one."""

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel.smooth_uct import lhe
from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.evaluation import matches
from nfsp_spiel.games import nfsp_lhe
from nfsp_spiel.poker import board_buckets


@pytest.fixture(scope="module")
def game():
  return pyspiel.load_game("nfsp_lhe")


@pytest.fixture(scope="module")
def mixed_profile(game, fake_tables):
  """A greedy profile with a choice at half of the information states and
  uniform play at the rest: deterministic and random decisions both."""
  tree = lhe.betting_tree()
  rng = np.random.default_rng(0)
  widths = np.repeat(tree.num_children, np.diff(tree.offset,
                                                append=tree.num_infosets))
  choice = (rng.integers(0, 3, tree.num_infosets) % widths).astype(np.uint8)
  choice[rng.random(tree.num_infosets) < 0.5] = lhe.UNVISITED
  return lhe.GreedyProfile(game, choice, {}, tree, fake_tables)


@pytest.fixture(scope="module")
def network(game):
  config = nfsp.NFSPConfig.lhe(hidden_layers=(32,), replay_buffer_capacity=100,
                               reservoir_buffer_capacity=100)
  return nfsp.NFSPPolicy(game, nfsp.agents_for(game, config, seed=1))


def checked_down_cards(game, seed, deal):
  """The cards `matches.chance_action` deals from deal `deal`'s stream, read
  off a game checked down to the showdown: each player's hole cards in seat
  order, then the flop, turn and river."""
  chance = np.random.default_rng([seed, 1, deal])
  state = game.new_initial_state()
  while not state.is_terminal():
    if state.is_chance_node():
      state.apply_action(matches.chance_action(state, chance.random()))
    else:
      state.apply_action(1)  # check or call down to the showdown
  return sum((state.hole_cards(p) for p in range(game.num_players())),
             []) + state.board_cards()


def test_deals_are_the_ones_head_to_head_plays(game):
  cards = batched_matches.deal_cards(30, seed=4)
  for deal, row in enumerate(cards):
    np.testing.assert_array_equal(checked_down_cards(game, 4, deal), row)


def test_decisions_see_the_games_tensors_and_buckets(game, fake_tables):
  """At random decisions of random games, a Decisions row built from the
  betting node and the cards has the game's information-state tensor,
  legal actions and contributions, and `board_buckets.buckets` the bucket of
  `board_buckets.bucket`."""
  tree = batched_matches.betting_tree()
  rng = np.random.default_rng(2)
  rows = []
  for _ in range(40):
    state = game.new_initial_state()
    while not state.is_terminal():
      if state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        continue
      betting = tuple(h.action for h in state.full_history() if h.player >= 0)
      player = state.current_player()
      board = state.board_cards() + [-1] * (5 - len(state.board_cards()))
      rows.append((tree.node_of[betting], player, state.betting_round(),
                   state.hole_cards(player), board,
                   state.information_state_tensor(player),
                   state.legal_actions(), state.contributions(),
                   board_buckets.bucket(state.betting_round(),
                                        state.hole_cards(player),
                                        state.board_cards(), fake_tables)))
      # Folding rarely, so that most games reach the river.
      calm = [a for a in state.legal_actions() if a != 0]
      state.apply_action(rng.choice(calm if rng.random() < 0.9 else
                                    state.legal_actions()))
  node, player, round_, hole, board, tensor, legal, spent, bucket = map(
      list, zip(*rows))
  legal_mask = np.zeros((len(rows), 3), bool)
  for row, actions in enumerate(legal):
    legal_mask[row, actions] = True
  decisions = batched_matches.Decisions(
      tree, np.array(node), np.array(player), np.array(round_),
      np.array(hole), np.array(board), batched_matches._child_by_action(tree)[  # pylint: disable=protected-access
          np.array(node)] >= 0)
  assert len(decisions) > 300 and (decisions.round == 3).sum() > 50
  np.testing.assert_array_equal(decisions.information_state_tensors(),
                                np.array(tensor, np.float32))
  np.testing.assert_array_equal(decisions.legal, legal_mask)
  np.testing.assert_array_equal(decisions.contributions(), spent)
  np.testing.assert_array_equal(decisions.round, tree.round[node])
  np.testing.assert_array_equal(board_buckets.buckets(
      decisions.round, decisions.hole, np.where(decisions.board < 0, 0,
                                                decisions.board),
      fake_tables), bucket)


@pytest.mark.parametrize("pairing", ["profile_vs_raise", "profile_vs_itself",
                                     "network_vs_profile", "network_vs_call",
                                     "equity_vs_profile"])
def test_batched_match_equals_the_one_by_one_match(game, mixed_profile,
                                                   network, pairing):
  """Deal by deal the same games, random decisions included (the profile's
  uniform states, the network's mixed policy): equal means and errors."""
  first, second, deals = {
      "profile_vs_raise": (mixed_profile, baselines.AlwaysRaise(game), 150),
      "profile_vs_itself": (mixed_profile, mixed_profile, 150),
      "network_vs_profile": (network, mixed_profile, 150),
      "network_vs_call": (network, baselines.AlwaysCall(game), 150),
      "equity_vs_profile": (baselines.EquityThreshold(game, runouts=50),
                            mixed_profile, 10),
  }[pairing]
  batched = evaluation.head_to_head(game, first, second, num_deals=deals,
                                    seed=5, batched=True)
  one_by_one = evaluation.head_to_head(game, first, second, num_deals=deals,
                                       seed=5, batched=False)
  assert batched.mean == pytest.approx(one_by_one.mean, abs=1e-9)
  assert batched.stderr == pytest.approx(one_by_one.stderr, abs=1e-9)
  assert batched.stderr > 0


def test_always_fold_loses_its_blinds_batched(game):
  """Against a raiser, folding loses the big blind in one seat and the
  small blind in the other: -750 mbb/h on every deal."""
  result = evaluation.head_to_head(game, baselines.AlwaysFold(game),
                                   baselines.AlwaysRaise(game), num_deals=50,
                                   batched=True)
  assert result.mbb_per_hand == -750.0 and result.mbb_stderr == 0.0


def test_batched_is_the_default_where_it_applies(game, mixed_profile,
                                                 monkeypatch):
  def refuse(*args):
    raise AssertionError("played one by one")
  monkeypatch.setattr(matches, "_play_one_by_one", refuse)
  evaluation.head_to_head(game, mixed_profile, baselines.AlwaysCall(game),
                          num_deals=5)


def test_batched_refuses_what_it_cannot_play(game, mixed_profile):
  with pytest.raises(ValueError, match="batched=True: batched matches play "
                     "duplicate nfsp_lhe"):
    evaluation.head_to_head(game, mixed_profile, lambda state: {1: 1.0},
                            num_deals=5, batched=True)
  with pytest.raises(ValueError, match="duplicate=False"):
    evaluation.head_to_head(game, mixed_profile, mixed_profile, num_deals=5,
                            batched=True, duplicate=False)


class _Illegal(baselines.AlwaysCall):
  """Folds where nothing is bet: an illegal action in a batch."""

  def batch_action_probabilities(self, decisions):
    probs = np.zeros(decisions.legal.shape)
    probs[:, 0] = 1.0
    return probs


def test_illegal_batch_probabilities_name_the_side(game):
  with pytest.raises(ValueError, match=r"second.batch_action_probabilities "
                     r"gave \[1. 0. 0.\] at betting node \d+, where the "
                     r"legal actions are \[1 2\]"):
    evaluation.head_to_head(game, baselines.AlwaysCall(game), _Illegal(game),
                            num_deals=3)


def test_tensor_blocks_follow_the_round():
  """Preflop shows the hole cards alone, the flop three board cards, the
  turn and river one more each, in their own blocks."""
  tensors = nfsp_lhe.card_tensors([[0, 1]] * 4, [[2, 3, 4, 5, 6]] * 4,
                                  [0, 1, 2, 3])
  assert tensors.sum(axis=1).tolist() == [2, 5, 6, 7]
  assert tensors[3, [0, 1, 52 + 2, 52 + 3, 52 + 4, 104 + 5, 156 + 6]].all()
