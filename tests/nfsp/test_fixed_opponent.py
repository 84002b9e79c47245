"""The best-response test against a fixed opponent (`nfsp.fixed_opponent`)."""

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.games import poker
from nfsp_spiel.nfsp import fixed_opponent
from nfsp_spiel.nfsp.config import NFSPConfig


@pytest.fixture(scope="module")
def game():
  return pyspiel.load_game("nfsp_lhe")


def test_fixed_player_raises_where_legal_else_calls():
  player = fixed_opponent.FixedActionPlayer(1, 4, poker.RAISE)
  legal = np.array([[1, 1, 1], [1, 1, 0], [0, 1, 1]], np.float32)
  actions, _ = player.act(np.zeros((3, 4)), legal, None)
  np.testing.assert_array_equal(actions, [poker.RAISE, poker.CALL,
                                          poker.RAISE])
  assert player.record_steps(None, actions, None) == 0


def test_unknown_opponent_is_refused_by_name():
  with pytest.raises(ValueError, match="opponent='always_fold'"):
    fixed_opponent.Against("always_fold")


def test_references_are_the_baselines_matches_in_seat_0(game):
  setting = fixed_opponent.Against("always_raise", num_deals=200, seed=5)
  references = fixed_opponent.references(game, setting)
  chips = batched_matches.play_profile(
      (baselines.AlwaysCall(game), baselines.AlwaysRaise(game)), 200, 5)
  # A caller against a raiser: one bet per round, every hand shown down
  # for 10 + 10 + 10 + 20 + 20 = 70 chips each (or split).
  assert set(np.abs(chips)) <= {0.0, 70.0}
  assert references["always_call"] == pytest.approx(100 * chips.mean())
  equity = batched_matches.play_profile(
      (baselines.EquityThreshold(game), baselines.AlwaysRaise(game)), 200, 5)
  assert references["equity_threshold"] == pytest.approx(100 * equity.mean())


def test_a_small_learner_comes_to_beat_always_raise_by_far(game):
  """From an untrained network that folds often to a raiser, 1,500 episodes
  of Q-learning (one hidden layer, rewards per small blind) must gain more
  than three standard errors on the same 1,000 deals."""
  config = NFSPConfig.lhe(hidden_layers=(64,), replay_buffer_capacity=20_000,
                          reservoir_buffer_capacity=20_000,
                          reward_scale=0.2, precision="float32")
  setting = fixed_opponent.Against("always_raise", num_deals=1000, seed=1)
  curve = list(fixed_opponent.train_against(game, config, setting, 1500,
                                            1500))
  (x0, first), (x1, last) = curve
  assert (x0, x1 >= 1500) == (0, True)
  gain = last["mbb_per_hand"] - first["mbb_per_hand"]
  assert gain > 3 * np.hypot(first["mbb_stderr"], last["mbb_stderr"])
  assert np.isfinite(last["rl_loss"]) and last["q_norm"] > 0
  # What the greedy policy did in the matches: a distribution per round it
  # reached, and Q's scale in chips at its decisions.
  for metrics in (first, last):
    assert sum(metrics[f"greedy_preflop_{a}"]
               for a in ("fold", "call", "raise")) == pytest.approx(1.0)
    assert metrics["q_spread"] > 0 and np.isfinite(metrics["q_abs"])
  assert last["greedy_preflop_fold"] < first["greedy_preflop_fold"]
