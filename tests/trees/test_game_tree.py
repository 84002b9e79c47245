"""The one compiled game tree (`game_tree.GameTree`) and what builds on it:
its arrays against the game, one walk per Smooth UCT search, the sentinels
shared by every compiled tree, and the rules of Limit Hold'em stated once."""

import subprocess
import sys

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel.trees import batched_games
from nfsp_spiel.trees import game_tree
from nfsp_spiel.trees import public_tree
from nfsp_spiel.trees import sequence_form
from nfsp_spiel import smooth_uct
from nfsp_spiel.smooth_uct import lhe
from nfsp_spiel.games import nfsp_lhe


@pytest.fixture(scope="module")
def leduc():
  return pyspiel.load_game("leduc_poker")


@pytest.fixture(scope="module")
def tree(leduc):
  return game_tree.GameTree(leduc)


def test_random_walks_through_the_arrays_meet_the_game(leduc, tree):
  assert tree.num_nodes == 9457
  rng = np.random.default_rng(0)
  for _ in range(200):
    state, node, reach = leduc.new_initial_state(), 0, 1.0
    while True:
      assert tree.player[node] == game_tree.player_of(state)
      assert tree.reach[node] == pytest.approx(reach)
      children = tree.children_of(node)
      assert np.all(children > node)  # pre-order: parents first
      assert np.all(tree.parent[children] == node)
      if state.is_terminal():
        np.testing.assert_array_equal(tree.returns[node], state.returns())
        break
      if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [(a, p) for a, p in outcomes] == list(zip(
            tree.action[children], tree.probability[children]))
        k = rng.integers(len(outcomes))
        reach *= outcomes[k][1]
      else:
        p = state.current_player()
        key = state.information_state_string(p)
        assert tree.keys[p][tree.infoset[node]] == key
        assert list(tree.action[children]) == state.legal_actions()
        k = rng.integers(len(children))
      state.apply_action(int(tree.action[children[k]]))
      node = children[k]


def test_information_state_rows_and_tensors(leduc, tree):
  rows = tree.infoset_rows()
  acting = tree.player >= 0
  assert rows[~acting].max() == -1
  assert sorted(set(rows[acting])) == list(range(sum(tree.num_infosets)))
  tensors = tree.information_state_tensors(1)
  assert tensors.shape == (tree.num_infosets[1],
                           leduc.information_state_tensor_size())
  np.testing.assert_array_equal(
      tensors[3], tree.states[1][3].information_state_tensor(1))


def test_one_walk_serves_the_form_and_the_search(leduc, tree):
  form = sequence_form.SequenceForm(leduc, tree)
  assert form.game_tree is tree
  fresh = sequence_form.SequenceForm(leduc)
  for p in (0, 1):
    assert form.keys[p] == fresh.keys[p]
    np.testing.assert_array_equal(form.parent_sequence[p],
                                  fresh.parent_sequence[p])
  np.testing.assert_array_equal(form.terminal_sequence, fresh.terminal_sequence)
  search = smooth_uct.SmoothUCT(leduc, seed=0)
  assert search.tree is search.form.game_tree


def test_every_compiled_tree_uses_the_same_sentinels(leduc):
  assert game_tree.CHANCE == pyspiel.PlayerId.CHANCE
  assert batched_games.TERMINAL == game_tree.TERMINAL
  assert batched_games.CHANCE == game_tree.CHANCE
  betting = lhe.betting_tree()
  assert set(betting.player) == {0, 1, game_tree.TERMINAL}
  nodes = public_tree.public_tree(pyspiel.load_game("nfsp_leduc")).nodes
  assert {n.player for n in nodes} == {0, 1, game_tree.CHANCE,
                                       game_tree.TERMINAL}
  games = batched_games.TreeGames(leduc, 1, np.random.default_rng(0))
  assert set(games.player) == {0, 1, game_tree.CHANCE, game_tree.TERMINAL}


def test_too_large_a_game_is_refused(leduc):
  with pytest.raises(game_tree.TooLarge, match="max_nodes=100"):
    game_tree.GameTree(leduc, max_nodes=100)


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker",
                                  "kuhn_poker(players=3)"])
def test_the_history_count_is_told_exactly_at_the_limit(name):
  game = pyspiel.load_game(name)
  histories = game_tree.GameTree(game).num_nodes
  assert game_tree.more_histories_than(game, histories - 1)
  assert not game_tree.more_histories_than(game, histories)
  game_tree.GameTree(game, max_nodes=histories)  # not refused
  with pytest.raises(game_tree.TooLarge):
    game_tree.GameTree(game, max_nodes=histories - 1)


def test_limit_holdem_is_told_too_large_without_its_walk():
  """Its deals alone are 52 x 51 x 50 x 49 histories: the count passes a
  limit of 200,000 after a few thousand states are made."""
  made = []
  game = pyspiel.load_game("nfsp_lhe")

  class Counting:  # counts the states the check makes
    def __init__(self, state):
      self.state = state

    def __getattr__(self, name):
      return getattr(self.state, name)

    def child(self, action):
      made.append(action)
      return Counting(self.state.child(action))

  class CountingGame:
    def new_initial_state(self):
      return Counting(game.new_initial_state())

  assert game_tree.more_histories_than(CountingGame(), 200_000)
  assert len(made) < 10_000


def test_the_limit_holdem_rules_are_the_games():
  assert nfsp_lhe.UNIVERSAL_POKER_LHE == (
      "universal_poker(betting=limit,numPlayers=2,numRounds=4,blind=10 5,"
      "firstPlayer=2 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,"
      "numBoardCards=0 3 1 1,raiseSize=10 10 20 20,maxRaises=3 4 4 4,"
      "bettingAbstraction=fcpa)")
  assert lhe.BIG_BLIND == nfsp_lhe.BIG_BLIND == 10


def test_presets_are_the_thesis_values():
  presets = smooth_uct.SmoothUCTConfig
  assert presets.leduc() == presets(c=18.0, gamma=0.1, eta0=0.9, d=0.002)
  assert presets.uct(20.0) == presets(c=20.0, gamma=0.0, eta0=1.0, d=0.0)
  assert presets.lhe() == presets(
      c=24.0, gamma=0.1, eta0=0.9, d=1 / 20000, exploration_cap=24.0,
      exploration_k=0.5)
  assert presets.uct_lhe() == presets(
      c=24.0, gamma=0.0, eta0=1.0, d=0.0, exploration_cap=24.0,
      exploration_k=0.5)


def test_compiling_a_game_loads_no_tensorflow():
  code = ("import sys, pyspiel, numpy as np, nfsp_spiel\n"
          "from nfsp_spiel import smooth_uct\n"
          "from nfsp_spiel.trees import batched_games\n"
          "batched_games.TreeGames(pyspiel.load_game('kuhn_poker'), 2,\n"
          "                        np.random.default_rng(0))\n"
          "assert 'tensorflow' not in sys.modules\n")
  subprocess.run([sys.executable, "-c", code], check=True)
