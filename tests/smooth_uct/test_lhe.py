"""Smooth UCT on Limit Hold'em: the betting tree against `nfsp_lhe`, the
exploration schedule's closed form, the simulator's bookkeeping, policies
over real states, checkpoints, and (slow, with the real tables) learning."""

import dataclasses

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel.poker import board_buckets
from nfsp_spiel.poker import card_abstraction
from nfsp_spiel import evaluation
from nfsp_spiel import smooth_uct
from nfsp_spiel.smooth_uct import lhe
from nfsp_spiel.poker import hand_ranks


@pytest.fixture(scope="module")
def game():
  return pyspiel.load_game("nfsp_lhe")


@pytest.fixture(scope="module")
def tree():
  return lhe.betting_tree()


def _play(game, rng, num_games, decide):
  """Plays `num_games` games of `game` with chance from `rng`; at each
  decision `decide(state)` checks what it wants and returns the action."""
  for _ in range(num_games):
    state = game.new_initial_state()
    while not state.is_terminal():
      if state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in
                                       state.chance_outcomes()]))
      else:
        state.apply_action(decide(state))


def _betting(state):
  return tuple(h.action for h in state.full_history() if h.player >= 0)


def test_betting_tree_replays_nfsp_lhe(game, tree):
  """Random deals and actions in `nfsp_lhe`: every state's node has its
  player, legal actions and contributions, every terminal's payoff follows
  from the node (fold) or the node and the cards (showdown)."""
  rng = np.random.default_rng(0)
  folds = showdowns = 0
  for _ in range(300):
    state = game.new_initial_state()
    while not state.is_terminal():
      if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(actions[rng.choice(len(actions), p=probs)])
        continue
      node = tree.node_of[_betting(state)]
      first = tree.child_start[node]
      assert tree.player[node] == state.current_player()
      assert list(tree.actions[first:first + tree.num_children[node]]) == (
          state.legal_actions())
      assert list(tree.contributions[node]) == state.contributions()
      assert tree.round[node] == state.betting_round()
      state.apply_action(rng.choice(state.legal_actions(), p=None))
    node = tree.node_of[_betting(state)]
    assert tree.player[node] == -2
    returns = state.returns()
    loser = tree.fold_loser[node]
    if loser >= 0:
      folds += 1
      assert returns[loser] == -tree.contributions[node, loser]
    else:
      showdowns += 1
      sign = hand_ranks.showdown_sign(
          np.array(state.hole_cards(0)), np.array(state.hole_cards(1)),
          np.array(state.board_cards()))
      assert returns[0] == sign * tree.contributions[node, 0]
  assert folds > 50 and showdowns > 20


def test_every_betting_sequence_is_a_node(tree):
  """Each decision node's children are the nodes of its sequences extended
  by each legal action, and the tree has no node twice."""
  assert len(tree.node_of) == len(tree.player)
  for betting, node in tree.node_of.items():
    first = tree.child_start[node]
    for slot in range(tree.num_children[node]):
      child = tree.children[first + slot]
      assert tree.node_of[betting + (int(tree.actions[first + slot]),)] == child
      assert child > node


def test_exploration_schedule_closed_form(tree):
  """Eq. 3.2 with C = 24, k = 0.5, in big blinds: 24 preflop (1.5 + 0.5 *
  46.5 is above the cap); on the river after checks all the way, the pot is
  2 and 16 big blinds are left to bet: 10; after a capped preflop and flop
  (pot 16) the turn's start is min(24, 16 + 0.5 * 32)."""
  c = lhe.exploration(tree, 24.0, 0.5)
  assert c[0] == 24.0
  checks = (1, 1) + (1, 1) * 3
  river = tree.node_of[checks[:-1]]
  assert tree.round[river] == 3 and c[river] == pytest.approx(10.0)
  capped = (2, 2, 2, 1) + (1, 2, 2, 2, 2, 1)  # preflop, then flop capped
  turn = tree.node_of[capped]
  assert tree.round[turn] == 2
  assert tree.contributions[turn].sum() == 160
  assert c[turn] == 24.0
  assert c[tree.player >= 0].min() == pytest.approx(10.0)


def test_simulator_bookkeeping(game, fake_tables):
  search = lhe.SmoothUCTLHE(game, seed=1, tables=fake_tables,
                                       threads=1)
  search.run(20_000)
  assert search.episodes == 20_000
  np.testing.assert_allclose(search.action_counts.sum(axis=1), search.counts)
  # At most one information state per player per episode joins the tree;
  # values stay within the largest stake (24 big blinds).
  assert 0 < search.expanded.sum() <= 40_000
  assert np.abs(search.q).max() <= 24.0
  # The root's information states (player 1's preflop buckets) are in the
  # tree from their first visit, which updates them too (Alg. 1).
  root = slice(0, card_abstraction.NUM_BUCKETS[0])
  assert search.counts[root].sum() == 20_000


def test_one_information_state_per_player_joins_per_episode(game,
                                                           fake_tables):
  search = lhe.SmoothUCTLHE(game, seed=5, tables=fake_tables)
  owner = search.tree.player[np.searchsorted(
      search.tree.offset, np.arange(search.tree.num_infosets), "right") - 1]
  before = search.expanded
  joined = []
  for _ in range(300):
    search.run(1)
    after = search.expanded
    new = np.flatnonzero(after & ~before)
    assert np.bincount(owner[new], minlength=2).max() <= 1
    joined.append(len(new))
    before = after
  assert np.mean(joined) > 1  # mostly both players, early on


def test_policies_on_nfsp_lhe_states(game, fake_tables):
  """The policies read N(u, a) / N(u) and argmax Q(u, a) at the state's
  information state: its betting node and the bucket of its player's cards
  on the round (`board_buckets.bucket`, which
  tests/poker/test_board_buckets.py checks against the index tables), uniform
  where unvisited."""
  search = lhe.SmoothUCTLHE(game, seed=2, tables=fake_tables)
  search.run(50_000)
  average, greedy = search.average_policy(), search.greedy_policy()
  rng = np.random.default_rng(3)
  visited = 0

  def check(state):
    nonlocal visited
    node, u = search.information_state(state)
    p, r = state.current_player(), state.betting_round()
    board = state.board_cards()[:card_abstraction.BOARD_CARDS[r]]
    assert u == search.tree.offset[node] + board_buckets.bucket(
        r, state.hole_cards(p), board, fake_tables)
    legal = state.legal_actions()
    mixed = average.action_probabilities(state)
    best = greedy.action_probabilities(state)
    assert sorted(mixed) == sorted(best) == legal
    if search.counts[u]:
      visited += 1
      counts = search.action_counts[u, :len(legal)]
      np.testing.assert_allclose([mixed[a] for a in legal],
                                 counts / counts.sum())
      assert best[legal[int(np.argmax(search.q[u, :len(legal)]))]] == 1.0
    else:
      assert set(mixed.values()) == {1.0 / len(legal)}
    return rng.choice(legal, p=[mixed[a] for a in legal])

  _play(game, rng, 30, check)
  assert visited > 30


def test_greedy_profile_saves_loads_and_plays_as_the_search(game, fake_tables,
                                                           tmp_path):
  search = lhe.SmoothUCTLHE(game, seed=6, tables=fake_tables)
  search.run(20_000)
  path = search.greedy_policy().save(tmp_path / "profile")
  profile = lhe.GreedyProfile.load(game, path, tables=fake_tables)
  assert profile.settings["episodes"] == 20_000
  assert profile.settings["seed"] == 6 and profile.settings["gamma"] == 0.1
  unvisited = profile.choice == lhe.UNVISITED
  np.testing.assert_array_equal(unvisited, search.counts == 0)
  assert 0 < unvisited.mean() < 1
  rng = np.random.default_rng(7)

  def check(state):
    _, u = search.information_state(state)
    legal = state.legal_actions()
    probs = profile.action_probabilities(state)
    if search.counts[u]:
      q = search.q[u, :len(legal)]
      assert probs[legal[int(np.argmax(q))]] == 1.0
    else:
      assert set(probs.values()) == {1.0 / len(legal)}
    return legal[rng.integers(len(legal))]

  _play(game, rng, 20, check)
  np.savez(tmp_path / "other.npz", q=search.q)
  with pytest.raises(ValueError, match="not a greedy profile"):
    lhe.GreedyProfile.load(game, tmp_path / "other.npz",
                                      tables=fake_tables)
  with pytest.raises(ValueError, match="one entry per information state"):
    lhe.GreedyProfile(game, profile.choice[:-1], {},
                                 tables=fake_tables)


def test_checkpoint_round_trip(game, fake_tables, tmp_path):
  search = lhe.SmoothUCTLHE(game, seed=4, tables=fake_tables,
                                       threads=1)
  search.run(5_000)
  path = str(tmp_path / "search.npz")
  search.save(path)
  again = lhe.SmoothUCTLHE.restore(game, path, seed=4,
                                              tables=fake_tables, threads=1)
  assert again.episodes == 5_000
  for name in ("counts", "action_counts", "q"):
    np.testing.assert_array_equal(getattr(again, name), getattr(search, name))
  search.run(1_000)
  again.run(1_000)  # the generator was saved: the same episodes follow
  np.testing.assert_array_equal(again.q, search.q)


def test_threads_share_the_tables(game, fake_tables):
  """Two threads share the episodes and the tables: the root's information
  states (player 1's preflop buckets, visited once per episode) count every
  episode but the few updates lost to a collision (1.5M rows: rare). A
  thread cannot record the deals in order."""
  search = lhe.SmoothUCTLHE(game, seed=1, tables=fake_tables,
                                       threads=2)
  search.run(50_000)
  assert search.episodes == 50_000
  root = slice(0, card_abstraction.NUM_BUCKETS[0])
  assert 0.99 * 50_000 <= search.counts[root].sum() <= 50_000
  with pytest.raises(ValueError, match="threads=2: recording the deals"):
    search._simulate(10, np.zeros((10, 17), np.int64))  # pylint: disable=protected-access


def test_refuses_other_games():
  with pytest.raises(ValueError, match="nfsp_lhe"):
    lhe.SmoothUCTLHE(pyspiel.load_game("leduc_poker"))


@pytest.mark.slow
def test_learns_to_beat_always_call(game):
  """With the real tables, a few million episodes of Smooth UCT make a
  greedy profile that wins against always-call (which never folds, so value
  bets on strong buckets win)."""
  search = lhe.SmoothUCTLHE(game, seed=0)
  search.run(5_000_000)
  result = evaluation.head_to_head(
      game, search.greedy_policy(), evaluation.baselines.AlwaysCall(game),
      num_deals=2000, seed=0)
  assert result.mbb_per_hand - 3 * result.mbb_stderr > 0, result


def test_each_episode_plays_with_the_buckets_of_its_own_cards(game,
                                                               fake_tables):
  """The kernel deals two episodes ahead and looks buckets up a step before
  it plays them: every episode's buckets must still be those of its own
  cards (`board_buckets.bucket`, checked against the index tables in
  tests/poker/test_board_buckets.py), and the deals fresh ones."""
  search = lhe.SmoothUCTLHE(game, seed=8, tables=fake_tables,
                                       threads=1)
  record = np.zeros((500, 17), np.int64)
  search._simulate(500, record)  # pylint: disable=protected-access
  assert search.episodes == 500 and search.counts[:169].sum() == 500
  for row in record:
    deal, buckets = row[:9], row[9:].reshape(2, 4)
    assert len(set(deal.tolist())) == 9
    for p in range(2):
      for r, k in enumerate(card_abstraction.BOARD_CARDS):
        assert buckets[p, r] == board_buckets.bucket(
            r, deal[2 * p:2 * p + 2], deal[4:4 + k], fake_tables)
  assert len({tuple(row[:9]) for row in record}) == 500


def test_the_shipped_profile_is_the_documented_search(game, fake_tables):
  """The package's SmooCT-like opponent is Smooth UCT's greedy profile after
  10^9 episodes with the thesis' LHE settings, seed 0, and has a choice at
  most information states."""
  profile = lhe.shipped_profile(game, tables=fake_tables)
  assert profile.settings == {
      **dataclasses.asdict(smooth_uct.SmoothUCTConfig.lhe()),
      "seed": 0, "episodes": 10**9}
  visited = profile.choice != lhe.UNVISITED
  assert visited.mean() > 0.8
  assert profile.choice[visited].max() <= 2
