"""A run's average networks saved alone: the loaded policy plays what the
run's agents play, in OpenSpiel's tools and in batched Limit Hold'em
matches; bad input is refused by name."""

import numpy as np
from open_spiel.python.algorithms import exploitability
import pyspiel
import pytest

import known_policies
import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel.core import checkpoints
from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import matches
from nfsp_spiel.nfsp import average_profile
from nfsp_spiel.nfsp import population
from nfsp_spiel.nfsp import selfplay

SMALL = nfsp.NFSPConfig.leduc().replace(
    min_buffer_size_to_learn=200, reservoir_buffer_capacity=20_000,
    replay_buffer_capacity=20_000)


@pytest.fixture(scope="module")
def leduc_run(tmp_path_factory):
  """(game, driver, its checkpoint) after 3,000 episodes of training."""
  game = pyspiel.load_game("nfsp_leduc")
  driver = selfplay.SelfPlay(game, nfsp.agents_for(game, SMALL, seed=1),
                             num_games=32, seed=1)
  driver.play(3000)
  path = driver.save(str(tmp_path_factory.mktemp("run") / "checkpoint"))
  return game, driver, path


def test_the_profile_is_the_runs_average_to_the_bit(leduc_run, tmp_path):
  game, driver, checkpoint = leduc_run
  path = average_profile.save(tmp_path / "profile", checkpoint)
  for kind in average_profile.KINDS:
    ours = average_profile.load(game, path, kind).to_tabular()
    runs = nfsp.NFSPPolicy(game, driver.agents, kind).to_tabular()
    np.testing.assert_array_equal(ours.action_probability_array,
                                  runs.action_probability_array)
  direct = average_profile.from_checkpoint(game, checkpoint).to_tabular()
  np.testing.assert_array_equal(
      direct.action_probability_array,
      nfsp.NFSPPolicy(game, driver.agents).to_tabular(
      ).action_probability_array)
  q_networks, _ = average_profile.checkpoint_weights(checkpoint,
                                                     network="q_network")
  for weights, agent in zip(q_networks, driver.agents):
    for ours, theirs in zip(weights, agent.best_response_learner.q_network
                            .numpy_weights()):
      np.testing.assert_array_equal(ours, theirs)
  loaded = average_profile.load(game, path)
  assert loaded.settings["game"] == str(game)
  assert loaded.settings["episodes"] == driver.episodes
  assert loaded.settings["config"]["hidden_layers"] == list(
      SMALL.hidden_layers)
  # OpenSpiel's own exploitability of the loaded policy, as of the run's.
  assert exploitability.exploitability(game, loaded) == pytest.approx(
      evaluation.exploitability(game, nfsp.NFSPPolicy(game, driver.agents)),
      abs=1e-9)


def test_float16_is_within_its_rounding(leduc_run, tmp_path):
  game, driver, checkpoint = leduc_run
  path = average_profile.save(tmp_path / "half", checkpoint, dtype="float16")
  ours = average_profile.load(game, path).to_tabular()
  runs = nfsp.NFSPPolicy(game, driver.agents).to_tabular()
  difference = np.abs(ours.action_probability_array -
                      runs.action_probability_array).max()
  assert 0 < difference < 1e-2


def test_a_population_member(tmp_path):
  game = pyspiel.load_game("kuhn_poker(players=3)")
  config = nfsp.NFSPConfig.leduc().replace(min_buffer_size_to_learn=100)
  runs = population.Population(game, config, [0, 5], num_games=16)
  runs.play(400)
  checkpoint = runs.save(tmp_path / "population")
  path = average_profile.save(tmp_path / "member1", checkpoint, member=1)
  ours = average_profile.load(game, path).to_tabular()
  theirs = nfsp.NFSPPolicy(game, runs.members[1].agents).to_tabular()
  np.testing.assert_array_equal(ours.action_probability_array,
                                theirs.action_probability_array)
  assert average_profile.read(path)[1]["config"]["seed"] == 5
  with pytest.raises(ValueError, match="member=None.*population of 2"):
    average_profile.save(tmp_path / "x", checkpoint)
  with pytest.raises(ValueError, match="member=2.*0..1"):
    average_profile.save(tmp_path / "x", checkpoint, member=2)


def test_limit_holdem_matches_and_bots(tmp_path):
  """Untrained Limit Hold'em agents (a small network): the loaded profile
  scores what the agents score on the same duplicate deals, and plays
  through OpenSpiel's PolicyBot."""
  game = pyspiel.load_game("nfsp_lhe")
  config = nfsp.NFSPConfig.lhe().replace(hidden_layers=(32,),
                                         reservoir_buffer_capacity=1000,
                                         replay_buffer_capacity=1000)
  agents = nfsp.agents_for(game, config, seed=4)
  checkpoint = nfsp.save_agents(str(tmp_path / "agents"), game, agents)
  path = average_profile.save(tmp_path / "lhe", checkpoint)
  loaded = average_profile.load(game, path)
  call = baselines.AlwaysCall(game)
  ours = matches.head_to_head(game, loaded, call, num_deals=300, seed=2)
  theirs = matches.head_to_head(game, nfsp.NFSPPolicy(game, agents), call,
                                num_deals=300, seed=2)
  assert ours == theirs
  bots = baselines.bots(game, loaded, seed=3)
  returns = pyspiel.evaluate_bots(game.new_initial_state(),
                                  [bots[0], bots[1]], 3)
  assert sum(returns) == pytest.approx(0.0)


def test_bad_input(leduc_run, tmp_path):
  game, _, checkpoint = leduc_run
  with pytest.raises(ValueError, match="dtype='int8'"):
    average_profile.save(tmp_path / "x", checkpoint, dtype="int8")
  with pytest.raises(ValueError, match="member=0.*one run"):
    average_profile.save(tmp_path / "x", checkpoint, member=0)
  path = average_profile.save(tmp_path / "profile", checkpoint)
  with pytest.raises(ValueError, match="kind='best_response'"):
    average_profile.load(game, path, kind="best_response")
  with pytest.raises(ValueError, match="policy='best_response'"):
    average_profile.FrozenAverage([np.zeros((2, 2)), np.zeros(2)]
                                  ).probabilities(np.zeros((1, 2)),
                                                  np.ones((1, 2)),
                                                  "best_response")
  with pytest.raises(ValueError, match="not of game=kuhn_poker"):
    average_profile.load(pyspiel.load_game("kuhn_poker"), path)
  other = checkpoints.save_compressed(tmp_path / "other", {}, choice=[1])
  with pytest.raises(ValueError, match="not an NFSP average profile"):
    average_profile.load(game, other)
  xfp = checkpoints.write(tmp_path / "xfp.npz",
                          checkpoints.header("XFP", game, {}), {})
  with pytest.raises(checkpoints.CheckpointError, match="holds a XFP run"):
    average_profile.save(tmp_path / "x", xfp)


def test_the_shipped_limit_holdem_profile_loads_as_an_openspiel_policy():
  """The package's trained profile: the run and settings it records, a
  distribution over the legal actions wherever play reaches, and bots."""
  game = pyspiel.load_game("nfsp_lhe")
  profile = average_profile.shipped_lhe(game)
  settings = profile.settings
  assert (settings["game"], settings["episodes"], settings["dtype"]) == (
      "nfsp_lhe()", 3_750_001, "float16")
  config = settings["config"]
  assert (config["best_response.double_q"], config["best_response."
                                                   "td_error_clip"],
          config["reward_scale"]) == (True, 1.0, 0.1)
  known_policies.assert_legal_along_sampled_games(game, profile)
  greedy = average_profile.shipped_lhe(game, "greedy_average")
  assert sorted(greedy.action_probabilities(
      game.new_initial_state().child(0).child(1).child(2).child(3)).values()
                ) == [0.0, 0.0, 1.0]
  bots = baselines.bots(game, profile, seed=3)
  returns = pyspiel.evaluate_bots(game.new_initial_state(),
                                  [bots[0], bots[1]], 3)
  assert sum(returns) == pytest.approx(0.0)


def test_the_shipped_profile_scores_what_its_checkpoint_scored():
  """On the 12,500 duplicate deals of seed 0 against the SmooCT-like
  profile, the shipped float16 file scores what the run's float32
  checkpoint scored in its committed row, within float16's rounding."""
  import csv  # pylint: disable=g-import-not-at-top
  import os  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.run import nfsp_training  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  profile = average_profile.shipped_lhe(game)
  rows = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
      os.path.abspath(__file__)))), "docs", "figures", "data",
                      "nfsp_lhe_diagnostics", "clip1_seed0", "vs_smooct.csv")
  with open(rows, encoding="utf-8") as f:
    [row] = [r for r in csv.DictReader(f) if r["policy"] == "average"
             and int(r["step"]) == profile.settings["episodes"]]
  settings = nfsp_training.EvaluationSettings(
      diagnostics=False, eval_deals=1, lbr_hands=0,
      smooct_deals=int(row["deals"]))
  ours = nfsp_training.policy_metrics(game, profile, "average", settings,
                                      seed=0)["mbb_per_hand_vs_smooct"]
  assert ours == pytest.approx(float(row["mbb_per_hand"]), abs=5.0)
