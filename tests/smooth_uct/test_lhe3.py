"""Smooth UCT on three-player Limit Hold'em (`smooth_uct.lhe3`)."""

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import smooth_uct
from nfsp_spiel.games import poker
from nfsp_spiel.trees import three_player_betting
from nfsp_spiel.smooth_uct import lhe3


@pytest.fixture(scope="module")
def game():
  return pyspiel.load_game("nfsp_lhe3")


def test_the_kernels_rules_are_the_games(game):
  """Random games of nfsp_lhe3 replayed through the kernel's betting: the
  same player to act and legal actions at every decision, the same chips
  won at the end (folds, showdowns, split pots)."""
  rng = np.random.default_rng(0)
  endings = {"fold": 0, "showdown": 0}
  for _ in range(400):
    state = game.new_initial_state()
    players, masks, actions = [], [], []
    while not state.is_terminal():
      if state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        continue
      players.append(state.current_player())
      mask = np.zeros(3, bool)
      mask[state.legal_actions()] = True
      masks.append(mask)
      legal = state.legal_actions()
      calm = [a for a in legal if a != poker.FOLD]
      actions.append(int(rng.choice(calm if rng.random() < 0.85 else legal)))
      state.apply_action(actions[-1])
    deal = np.array(state.hole_cards(0) + state.hole_cards(1) +
                    state.hole_cards(2) + state.board_cards())
    if len(deal) < 11:  # ended before the river: deal the rest, unused
      rest = [c for c in range(52) if c not in deal][:11 - len(deal)]
      deal = np.concatenate([deal, rest])
    got_players = np.empty(64, np.int64)
    got_masks = np.empty((64, 3), bool)
    returns = np.empty(3)
    count = three_player_betting.replay(deal, np.array(actions), got_players,
                                        got_masks, returns)
    assert count == len(actions)
    np.testing.assert_array_equal(got_players[:count], players)
    np.testing.assert_array_equal(got_masks[:count], masks)
    np.testing.assert_array_equal(returns, state.returns())
    endings["showdown" if len(state.board_cards()) == 5 and
            actions[-1] != poker.FOLD else "fold"] += 1
  assert min(endings.values()) > 50


def test_simulator_bookkeeping(game, fake_tables):
  """The button's first decision is in its tree from the first visit of
  each bucket on: its rows count every episode; at most one state per
  player joins per episode; values stay within the stakes (a player loses
  at most 24 big blinds and wins at most the others' 48)."""
  search = lhe3.SmoothUCTLHE3(game, seed=1, tables=fake_tables, threads=1,
                              capacity=2**20)
  search.run(20_000)
  assert search.episodes == 20_000
  assert 0 < search.filled <= 3 * 20_000
  np.testing.assert_array_equal(search.counts,
                                search.action_counts.sum(axis=1))
  root = [lhe3.lookup_row(search.keys, np.zeros(0, np.int64), b)
          for b in range(169)]
  root = [u for u in root if u >= 0]  # the stand-in tables miss some buckets
  assert len(root) > 90 and search.counts[root].sum() == 20_000
  assert -24.0 <= search.q.min() and search.q.max() <= 48.0


def test_policies_find_the_kernels_states(game, fake_tables):
  """The policies hash a state's betting and bucket as the kernel does: the
  button's first decision is in the tree at every deal once its buckets
  were all visited, and the average policy there is N(u, a) / N(u)."""
  search = lhe3.SmoothUCTLHE3(game, seed=2, tables=fake_tables, threads=1,
                              capacity=2**20)
  search.run(50_000)
  average, greedy = search.average_policy(), search.greedy_policy()
  rng = np.random.default_rng(3)
  found = 0
  for _ in range(40):
    state = game.new_initial_state()
    while state.is_chance_node():
      state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    u = search.row(state)
    assert u >= 0
    counts = search.action_counts[u, :3]
    np.testing.assert_allclose(list(average.action_probabilities(
        state).values()), counts / counts.sum())
    assert greedy.action_probabilities(state)[int(np.argmax(
        search.q[u, :3]))] == 1.0
    state.apply_action(poker.CALL)  # the small blind's decision next
    found += search.row(state) >= 0
  assert found > 30


def test_greedy_profile_saves_loads_and_plays_as_the_search(
    game, fake_tables, tmp_path):
  """The compact profile (sorted keys, a choice each) plays argmax Q over
  the actions tried wherever the search's tables have the state, and
  uniformly elsewhere."""
  search = lhe3.SmoothUCTLHE3(game, seed=6, tables=fake_tables, threads=1,
                              capacity=2**20)
  search.run(20_000)
  path = search.greedy_policy().save(tmp_path / "profile")
  profile = lhe3.GreedyProfile3.load(game, path, tables=fake_tables)
  assert len(profile.keys) == search.filled
  assert profile.settings["episodes"] == 20_000
  rng = np.random.default_rng(7)
  checked = {"in": 0, "out": 0}
  for _ in range(60):
    state = game.new_initial_state()
    while not state.is_terminal():
      if state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        continue
      legal = state.legal_actions()
      probs = profile.action_probabilities(state)
      u = search.row(state)
      if u >= 0:
        tried = search.action_counts[u, :len(legal)] > 0
        q = np.where(tried, search.q[u, :len(legal)], -np.inf)
        assert probs[legal[int(np.argmax(q))]] == 1.0
        checked["in"] += 1
      else:
        assert set(probs.values()) == {1.0 / len(legal)}
        checked["out"] += 1
      state.apply_action(legal[rng.integers(len(legal))])
  assert min(checked.values()) > 20
  np.savez(tmp_path / "other.npz", q=search.q)
  with pytest.raises(ValueError, match="not a three-player greedy profile"):
    lhe3.GreedyProfile3.load(game, tmp_path / "other.npz", tables=fake_tables)


def test_threads_and_checkpoints(game, fake_tables, tmp_path):
  search = lhe3.SmoothUCTLHE3(game, seed=4, tables=fake_tables, threads=1,
                              capacity=2**18)
  search.run(3_000)
  path = search.save(str(tmp_path / "search.npz"))
  again = lhe3.SmoothUCTLHE3.restore(game, path, seed=4, tables=fake_tables,
                                     threads=1, capacity=2**18)
  search.run(1_000)
  again.run(1_000)
  np.testing.assert_array_equal(again.keys, search.keys)
  np.testing.assert_array_equal(again.q, search.q)
  threaded = lhe3.SmoothUCTLHE3(game, seed=4, tables=fake_tables, threads=2,
                                capacity=2**18)
  threaded.run(4_000)
  assert threaded.episodes == 4_000 and threaded.filled > 0


def test_a_full_table_adds_no_more_states(game, fake_tables):
  search = lhe3.SmoothUCTLHE3(game, seed=5, tables=fake_tables, threads=1,
                              capacity=2**10)
  search.run(5_000)
  assert search.filled == int(lhe3.MAX_LOAD * 2**10)
  assert search.counts.sum() > 0


def test_bad_settings(game, fake_tables):
  with pytest.raises(ValueError, match="capacity=1000: must be a power of "
                     "two"):
    lhe3.SmoothUCTLHE3(game, tables=fake_tables, capacity=1000)
  with pytest.raises(ValueError, match="nfsp_lhe3"):
    lhe3.SmoothUCTLHE3(pyspiel.load_game("nfsp_lhe"), tables=fake_tables)


def test_presets():
  config = smooth_uct.SmoothUCTConfig.lhe3()
  assert config.exploration_cap == 36.0 and config.exploration_k == 0.5
  assert config.gamma == 0.1 and config.d == 1 / 20000
  assert smooth_uct.SmoothUCTConfig.uct_lhe3().eta0 == 1.0


@pytest.mark.slow
def test_learns_to_beat_always_call(game):
  """With the real tables, 2 x 10^7 episodes make an average policy that
  wins against two always-call players (who never fold). Measured with
  seed 0 over 2,000 deals, average / greedy policy: +78 / +112 mbb/h after
  10^7 episodes, +109 / +79 after 2 x 10^7, +131 / +128 after 4 x 10^7
  (standard errors 40-43): a small edge this early, hence 6,000 deals."""
  search = lhe3.SmoothUCTLHE3(game, seed=0, threads=1, capacity=2**23)
  for _ in range(2):
    search.run(10_000_000)
  call = evaluation.baselines.AlwaysCall(game)
  result = evaluation.three_player_match(game, search.average_policy(),
                                         call, num_deals=6000, seed=0)
  assert result.mbb_per_hand - 3 * result.mbb_stderr > 0, result


def test_three_player_match_by_hand(game):
  """Always-fold against two raisers: the small blind folds to the
  button's raise (-5), the big blind to the small blind's re-raise (-10),
  the button folds first to the big blind (0): -5 chips a hand, -500 mbb/h.
  A deterministic player against its own copies scores exactly 0."""
  baselines = evaluation.baselines
  result = evaluation.three_player_match(
      game, baselines.AlwaysFold(game), baselines.AlwaysRaise(game),
      num_deals=20)
  assert result.mbb_per_hand == -500.0 and result.mbb_stderr == 0.0
  same = evaluation.three_player_match(game, baselines.AlwaysCall(game),
                                       baselines.AlwaysCall(game),
                                       num_deals=20)
  assert same.mean == 0.0
  with pytest.raises(ValueError, match="needs a three-player game"):
    evaluation.three_player_match(pyspiel.load_game("nfsp_lhe"),
                                  baselines.AlwaysCall(game),
                                  baselines.AlwaysCall(game))
