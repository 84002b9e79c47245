"""Batched three-player matches: the same games as `three_player_match` one
by one."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel import smooth_uct
from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.evaluation import batched_three_player
from nfsp_spiel.smooth_uct import lhe3
from .test_batched_matches import checked_down_cards


@pytest.fixture(scope="module")
def game():
  return pyspiel.load_game("nfsp_lhe3")


@pytest.fixture(scope="module")
def searches(game, fake_tables):
  """Two short searches (Smooth UCT, UCT): their trees hold some of the
  states a match meets, so the profiles play both table choices and
  uniform decisions off the tree."""
  found = []
  for seed, config in ((0, None), (1, smooth_uct.SmoothUCTConfig.uct_lhe3())):
    search = lhe3.SmoothUCTLHE3(game, config, seed=seed, tables=fake_tables,
                                threads=1, capacity=2**18)
    search.run(30_000)
    found.append(search)
  return found


class _Recorder(policy_lib.Policy):
  """Uniform over the legal actions, noting the tensor of every decision
  it is asked about, one by one or batched."""

  def __init__(self, game):
    super().__init__(game, [0, 1, 2])
    self.tensors = []

  def action_probabilities(self, state, player_id=None):
    self.tensors.append(state.information_state_tensor())
    legal = state.legal_actions()
    return {a: 1.0 / len(legal) for a in legal}

  def batch_action_probabilities(self, decisions):
    self.tensors.extend(decisions.information_state_tensors())
    return decisions.legal / decisions.legal.sum(axis=1, keepdims=True)


def test_deals_are_the_ones_three_player_match_plays(game):
  cards = batched_matches.deal_cards(20, seed=3, cards_per_deal=11, first=5)
  for i, row in enumerate(cards):
    np.testing.assert_array_equal(checked_down_cards(game, 3, 5 + i), row)


def test_decisions_carry_the_games_tensors(game):
  """Played uniformly at random both ways (the same games), the batched
  decisions' tensors are the game's own, decision for decision."""
  one_by_one, batched = _Recorder(game), _Recorder(game)
  slow = evaluation.three_player_match(game, one_by_one, one_by_one,
                                       num_deals=25, seed=2, batched=False)
  fast = evaluation.three_player_match(game, batched, batched, num_deals=25,
                                       seed=2, batched=True)
  assert fast.mean == pytest.approx(slow.mean, abs=1e-12)
  assert len(one_by_one.tensors) == len(batched.tensors) > 300
  as_rows = lambda tensors: np.unique(np.array(tensors, np.float32), axis=0)
  np.testing.assert_array_equal(as_rows(one_by_one.tensors),
                                as_rows(batched.tensors))


@pytest.mark.parametrize("pairing", ["greedy_vs_greedy", "average_vs_call",
                                     "raise_vs_greedy"])
def test_batched_match_equals_the_one_by_one_match(game, searches, pairing):
  """The same deals, seats and decisions: equal means and standard errors
  (the profiles play their table choice where they know the state,
  uniformly elsewhere; the average policy mixes everywhere)."""
  smooth, uct = searches
  player, opponent = {
      "greedy_vs_greedy": (smooth.greedy_policy(), uct.greedy_policy()),
      "average_vs_call": (smooth.average_policy(),
                          baselines.AlwaysCall(game)),
      "raise_vs_greedy": (baselines.AlwaysRaise(game), uct.greedy_policy()),
  }[pairing]
  batched = evaluation.three_player_match(game, player, opponent,
                                          num_deals=60, seed=7, batched=True)
  one_by_one = evaluation.three_player_match(game, player, opponent,
                                             num_deals=60, seed=7,
                                             batched=False)
  assert batched.mean == pytest.approx(one_by_one.mean, abs=1e-9)
  assert batched.stderr == pytest.approx(one_by_one.stderr, abs=1e-9)
  assert batched.stderr > 0


def test_the_profiles_know_states_in_the_match(game, searches):
  """Guards the test above against profiles that never know a state: a
  good share of the decisions met are in the tree."""
  profile = searches[0].greedy_policy()
  seen = []

  class Spy:
    def batch_action_probabilities(self, decisions):
      probs = profile.batch_action_probabilities(decisions)
      seen.extend((probs.max(axis=1) == 1.0) & (decisions.legal.sum(1) > 1))
      return probs

  batched_three_player.play(Spy(), Spy(), 60, seed=7)
  assert 0.2 < np.mean(seen) < 0.95


def test_chunks_play_the_same_deals(game, searches, monkeypatch):
  smooth, uct = searches
  whole = batched_three_player.play(smooth.greedy_policy(),
                                    uct.greedy_policy(), 50, seed=1)
  monkeypatch.setattr(batched_three_player, "CHUNK_DEALS", 16)
  chunked = batched_three_player.play(smooth.greedy_policy(),
                                      uct.greedy_policy(), 50, seed=1)
  np.testing.assert_array_equal(whole, chunked)


def test_nfsp_policy_plays_batched(game):
  """NFSP's networks on nfsp_lhe3 answer batched decisions: one forward pass
  per player, the same match as one by one."""
  config = nfsp.NFSPConfig.lhe(hidden_layers=(16,), replay_buffer_capacity=100,
                               reservoir_buffer_capacity=100)
  policy = nfsp.NFSPPolicy(game, nfsp.agents_for(game, config, seed=3))
  call = baselines.AlwaysCall(game)
  batched = evaluation.three_player_match(game, policy, call, num_deals=20,
                                          seed=4, batched=True)
  one_by_one = evaluation.three_player_match(game, policy, call,
                                             num_deals=20, seed=4,
                                             batched=False)
  assert batched.mean == pytest.approx(one_by_one.mean, abs=1e-9)


def test_batched_refuses_what_it_cannot_play(game):
  class OnlyOneByOne(policy_lib.UniformRandomPolicy):
    pass

  with pytest.raises(ValueError, match="batched=True: batched three-player "
                     "matches play nfsp_lhe3"):
    evaluation.three_player_match(game, OnlyOneByOne(game),
                                  baselines.AlwaysCall(game), num_deals=3,
                                  batched=True)
  # Without `batched`, such a match is played one by one.
  assert evaluation.three_player_match(
      game, OnlyOneByOne(game), baselines.AlwaysCall(game),
      num_deals=3).num_deals == 3
