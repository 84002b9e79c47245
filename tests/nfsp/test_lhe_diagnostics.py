"""NFSP's Limit Hold'em diagnostics against matches computed another way."""

import types

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.games import poker
from nfsp_spiel.nfsp import lhe_diagnostics

DEALS = 300


@pytest.fixture(scope="module")
def game():
  return pyspiel.load_game("nfsp_lhe")


class FixedAgent:
  """An agent whose average policy calls and whose greedy Q policy raises
  (where legal), with Q-values (0, 1, 3) chips for (fold, call, raise)."""

  REWARD_SCALE = 1 / 480
  Q_CHIPS = np.array([0.0, 1.0, 3.0])

  def __init__(self):
    self.config = types.SimpleNamespace(reward_scale=self.REWARD_SCALE)
    self.losses = {"rl_loss": 0.5, "sl_loss": 0.25}
    self.best_response_learner = types.SimpleNamespace(
        q_values=lambda states: np.tile(self.Q_CHIPS * self.REWARD_SCALE,
                                        (len(states), 1)))
    self.network = types.SimpleNamespace(
        numpy_weights=lambda: [np.full((2, 2), 1.0), np.full(2, 2.0)])

  def probabilities(self, states, legal, kind):
    del states
    action = poker.RAISE if kind == "best_response" else poker.CALL
    legal = np.asarray(legal, bool)
    chosen = np.where(legal[:, action], action, poker.CALL)
    probs = np.zeros(legal.shape)
    probs[np.arange(len(legal)), chosen] = 1.0
    return probs

  def networks(self):
    return {"q_network": self.network, "average_network": self.network}


@pytest.fixture(scope="module")
def fixed_metrics(game):
  return lhe_diagnostics.lhe_diagnostics(game, [FixedAgent(), FixedAgent()],
                                         DEALS, seed=3)


def test_edges_add_up_to_the_duplicate_match(game, fixed_metrics):
  # Raising against calling in seat 0 and in seat 1 (each minus calling
  # against calling, which cancels over the seats) is the duplicate match
  # of always-raise against always-call, which `head_to_head` plays (and
  # tests check against OpenSpiel's states, deal by deal).
  match = evaluation.head_to_head(game, baselines.AlwaysRaise(game),
                                  baselines.AlwaysCall(game), DEALS, seed=3)
  edges = fixed_metrics["br_edge_0"] + fixed_metrics["br_edge_1"]
  assert edges / 2 == pytest.approx(match.mbb_per_hand, abs=1e-9)
  assert fixed_metrics["br_edge_stderr_0"] > 0


def test_frequencies_of_a_calling_station(fixed_metrics):
  for name in lhe_diagnostics.ROUNDS:
    assert fixed_metrics[f"average_{name}_call"] == 1.0
    assert fixed_metrics[f"average_{name}_fold"] == 0.0
    assert fixed_metrics[f"average_{name}_raise"] == 0.0


def test_results_against_the_baselines(game, fixed_metrics):
  # The average policy always calls: a calling station against always-call
  # breaks even by symmetry of the duplicate deals.
  assert fixed_metrics["mbb_per_hand_vs_always_call"] == pytest.approx(0.0)
  raise_vs_call = evaluation.head_to_head(
      game, baselines.AlwaysRaise(game), baselines.AlwaysCall(game), DEALS,
      seed=3).mbb_per_hand
  assert fixed_metrics["mbb_per_hand_vs_always_raise"] == pytest.approx(
      -raise_vs_call)


def test_q_in_chips_and_norms(fixed_metrics):
  # Q is (0, 1, 3) chips over (fold, call, raise); fold is legal only facing
  # a bet, which between calling stations is the small blind's first
  # decision alone: spreads of 3 there, 2 elsewhere; |Q| 4/3 there, 2
  # elsewhere.
  for p in range(2):
    assert 2.0 <= fixed_metrics[f"q_spread_{p}"] <= 3.0
    assert 4.0 / 3.0 <= fixed_metrics[f"q_abs_{p}"] <= 2.0
    assert fixed_metrics[f"q_norm_{p}"] == pytest.approx(np.sqrt(4 + 8))
    assert fixed_metrics[f"rl_loss_{p}"] == 0.5


class FoldingAgent(FixedAgent):
  """Q-values (-9, -6, -7) chips: folding the small blind's first decision
  (worth exactly -5 chips, the blind) beats Q of calling and raising."""

  Q_CHIPS = np.array([-9.0, -6.0, -7.0])


@pytest.mark.parametrize("agent, error, folds", [(FixedAgent(), 0 + 5, 0.0),
                                                 (FoldingAgent(), -9 + 5,
                                                  1.0)])
def test_fold_error_against_the_blind(game, agent, error, folds):
  # Between calling stations fold is legal only at the small blind's
  # (player 1's) first decision, where it loses exactly the 5-chip blind.
  recorder = lhe_diagnostics.DecisionRecorder(baselines.AlwaysCall(game))
  batched_matches.play_profile((recorder, recorder), 40, seed=2)
  small_blind = lhe_diagnostics.q_diagnostics(agent, 1, recorder)
  assert small_blind["q_fold_error_preflop"] == pytest.approx(error)
  assert small_blind["fold_if_exact_preflop"] == folds
  big_blind = lhe_diagnostics.q_diagnostics(agent, 0, recorder)
  assert set(big_blind) == set(small_blind)  # the same columns every time
  for name in lhe_diagnostics.ROUNDS:  # but no fold there to measure
    assert np.isnan(big_blind[f"q_fold_error_{name}"])
    assert np.isnan(big_blind[f"fold_if_exact_{name}"])


def test_recorder_samples_every_decision_of_a_round(game, monkeypatch):
  # Between raisers the big blind's flop opens unbet (fold illegal) and then
  # faces raises (fold legal): a sample of the first decisions asked would
  # hold the opening ones alone.
  monkeypatch.setattr(lhe_diagnostics, "Q_SAMPLE", 16)
  recorder = lhe_diagnostics.DecisionRecorder(baselines.AlwaysRaise(game))
  batched_matches.play_profile((recorder, recorder), 50, seed=1)
  _, legal, put_in, rounds = recorder.decisions(0)
  assert np.bincount(rounds).tolist() == [16] * 4
  flop = rounds == 1
  assert legal[flop, poker.FOLD].any() and not legal[flop, poker.FOLD].all()
  assert len(set(put_in[flop])) > 1


def test_recorder_keeps_what_it_passes_on(game):
  recorder = lhe_diagnostics.DecisionRecorder(baselines.AlwaysRaise(game))
  batched_matches.play_profile((recorder, recorder), 50, seed=1)
  _, legal, put_in, rounds = recorder.decisions(0)
  # Always-raise's games reach every round; each round's sample is capped.
  assert set(rounds) == {0, 1, 2, 3}
  assert np.bincount(rounds).max() <= lhe_diagnostics.Q_SAMPLE
  assert legal.shape == (len(rounds), 3) and (put_in >= 10).all()
  assert recorder.counts[0] >= 100  # two decisions per deal at least
  frequencies = recorder.frequencies()
  assert frequencies["average_preflop_fold"] == 0.0
  assert 0.5 < frequencies["average_preflop_raise"] < 1.0  # capped: calls


def test_play_profile_is_one_seating_of_play(game):
  first, second = nfsp.NFSPPolicy(game, nfsp.agents_for(
      game, nfsp.NFSPConfig.lhe(hidden_layers=(16,), replay_buffer_capacity=100,
                                reservoir_buffer_capacity=100), seed=2)), (
                                    baselines.AlwaysCall(game))
  both = batched_matches.play(first, second, 40, seed=5)
  seated = (batched_matches.play_profile((first, second), 40, 5, stream=0) -
            batched_matches.play_profile((second, first), 40, 5, stream=1))
  np.testing.assert_allclose(seated / 2, both)


def test_real_agents_give_every_diagnostic(game):
  config = nfsp.NFSPConfig.lhe(hidden_layers=(16,), replay_buffer_capacity=100,
                               reservoir_buffer_capacity=100)
  metrics = lhe_diagnostics.lhe_diagnostics(
      game, nfsp.agents_for(game, config, seed=0), 50, seed=0)
  for p in range(2):
    for name in ("br_edge", "q_abs", "q_spread", "q_norm", "average_norm"):
      assert np.isfinite(metrics[f"{name}_{p}"]), name
  probs = np.array([[metrics[f"average_{r}_{a}"] for a in ("fold", "call",
                                                          "raise")]
                    for r in ("preflop",)])
  np.testing.assert_allclose(probs.sum(axis=1), 1.0)


@pytest.mark.parametrize("kwargs, message", [
    ({"num_deals": 1}, "num_deals=1"),
])
def test_bad_input(game, kwargs, message):
  with pytest.raises(ValueError, match=message):
    lhe_diagnostics.lhe_diagnostics(game, [FixedAgent(), FixedAgent()],
                                    **kwargs)


def test_other_games_are_refused():
  with pytest.raises(ValueError, match="must be nfsp_lhe"):
    lhe_diagnostics.lhe_diagnostics(pyspiel.load_game("kuhn_poker"), [])
