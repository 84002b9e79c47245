"""Conformance suite run on every registered game of nfsp_spiel.

Random playthroughs with legal-action and chance checks, zero-sum returns,
clone and serialize round trips, tensors of the declared shape, the
information-state string <=> tensor correspondence, and OpenSpiel's own
`random_sim_test`.
"""

import collections
import re

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401  (registers the games)

GAMES = [
    "river_poker",
    "river_poker(beliefs=defined)",
    "river_poker(min_rank=10,board=TcJdQhKsAh,max_bets=3,pot=4,bet=2)",
    "nfsp_leduc",
    "nfsp_leduc(ranks=30)",
    "nfsp_leduc(ranks=4,suits=3)",
    "nfsp_lhe",
    "nfsp_lhe3",
]


def chance_outcome(state, rng):
  """A chance outcome of `state`, drawn with its probability."""
  outcomes, probs = zip(*state.chance_outcomes())
  return int(rng.choice(outcomes, p=probs))


def _sample(state, rng):
  if state.is_chance_node():
    return chance_outcome(state, rng)
  return int(rng.choice(state.legal_actions()))


def _playthroughs(game, num_games, seed):
  """Yields every state of `num_games` random games."""
  rng = np.random.default_rng(seed)
  for _ in range(num_games):
    state = game.new_initial_state()
    yield state
    while not state.is_terminal():
      state = state.child(_sample(state, rng))
      yield state


def test_games_are_registered():
  names = pyspiel.registered_names()
  for name in ("river_poker", "nfsp_leduc", "nfsp_lhe", "nfsp_lhe3"):
    assert name in names


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test(name):
  pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=50,
                          serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_random_playthroughs(name):
  game = pyspiel.load_game(name)
  shape = game.information_state_tensor_shape()
  assert len(shape) == 1
  for state in _playthroughs(game, num_games=200, seed=1):
    if state.is_terminal():
      returns = state.returns()
      assert sum(returns) == pytest.approx(0.0, abs=1e-12)
      assert all(game.min_utility() <= r <= game.max_utility()
                 for r in returns)
      assert state.legal_actions() == []
      continue
    if state.is_chance_node():
      outcomes = state.chance_outcomes()
      actions = [a for a, _ in outcomes]
      assert actions == sorted(set(actions))
      assert all(0 <= a < game.max_chance_outcomes() for a in actions)
      assert all(p > 0 for _, p in outcomes)
      assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
      assert state.legal_actions() == actions
    else:
      player = state.current_player()
      legal = state.legal_actions()
      assert legal and legal == sorted(set(legal))
      assert all(0 <= a < game.num_distinct_actions() for a in legal)
      assert all(state.legal_actions(other) == []
                 for other in range(game.num_players()) if other != player)
      mask = state.legal_actions_mask(player)
      assert [a for a, m in enumerate(mask) if m] == legal
    assert state.returns() == [0.0] * game.num_players()
    for player in range(game.num_players()):
      tensor = np.array(state.information_state_tensor(player))
      assert tensor.shape == tuple(shape)
      assert set(np.unique(tensor)) <= {0.0, 1.0}
    # Clone and serialization round trips give the same state.
    for copy in (state.clone(), game.deserialize_state(state.serialize())):
      assert copy.history() == state.history()
      assert str(copy) == str(state)
      assert copy.is_terminal() == state.is_terminal()
      for player in range(game.num_players()):
        assert (copy.information_state_string(player) ==
                state.information_state_string(player))
        assert (copy.information_state_tensor(player) ==
                state.information_state_tensor(player))
    # A clone is independent of its original.
    if not state.is_chance_node():
      before = state.information_state_string(0)
      state.clone().apply_action(state.legal_actions()[0])
      assert state.information_state_string(0) == before


def _canonical(name, info_state):
  """Removes what the game's tensor deliberately omits (see test docstring)."""
  if name.startswith("nfsp_leduc"):
    suits = pyspiel.load_game(name).get_parameters()["suits"]
    return re.sub(r"(Private|Public): (\d+)",
                  lambda m: f"{m.group(1)}: rank {int(m.group(2)) // suits}",
                  info_state)
  return info_state


@pytest.mark.parametrize("name", GAMES)
def test_info_state_string_iff_tensor(name):
  """Same string <=> same tensor over the decision states of 3000 games.

  Both directions, per observing player. nfsp_leduc's strings are OpenSpiel's
  and name card ids, while the paper's tensor encodes ranks (suits are
  irrelevant in Leduc): there, same tensor <=> same string up to suits.
  """
  game = pyspiel.load_game(name)
  seen = 0
  for player in range(game.num_players()):
    string_to_tensor, tensor_to_string = {}, collections.defaultdict(set)
    for state in _playthroughs(game, num_games=1500, seed=2 + player):
      if state.is_terminal() or state.is_chance_node():
        continue
      string = state.information_state_string(player)
      tensor = tuple(state.information_state_tensor(player))
      assert string_to_tensor.setdefault(string, tensor) == tensor, string
      tensor_to_string[tensor].add(_canonical(name, string))
      seen += 1
    ambiguous = {t: s for t, s in tensor_to_string.items() if len(s) > 1}
    assert not ambiguous, next(iter(ambiguous.values()))
    assert len(tensor_to_string) > 50
  assert seen > 3000


@pytest.mark.parametrize("name", GAMES)
def test_rl_environment_runs(name):
  from open_spiel.python import rl_environment  # pylint: disable=g-import-not-at-top
  env = rl_environment.Environment(
      name, chance_event_sampler=rl_environment.ChanceEventSampler(seed=0))
  size = env.observation_spec()["info_state"][0]
  rng = np.random.default_rng(0)
  time_step = env.reset()
  for _ in range(300):
    if time_step.last():
      assert sum(time_step.rewards) == pytest.approx(0.0)
      time_step = env.reset()
      continue
    player = time_step.observations["current_player"]
    assert len(time_step.observations["info_state"][player]) == size
    legal = time_step.observations["legal_actions"][player]
    time_step = env.step([int(rng.choice(legal))])


@pytest.mark.parametrize("name", GAMES)
def test_illegal_actions_are_refused_and_change_nothing(name):
  """Every action outside the legal ones (or a chance node's outcomes: a card
  dealt twice, a card off the deck) raises, as OpenSpiel's C++ poker games
  do, and leaves the state as it was; at terminal states every action
  raises."""
  game = pyspiel.load_game(name)
  candidates = range(-3, max(game.num_distinct_actions(),
                             game.max_chance_outcomes()) + 3)
  checked = collections.Counter()
  for state in _playthroughs(game, 5, seed=7):
    if state.is_chance_node():
      allowed = {a for a, _ in state.chance_outcomes()}
    elif state.is_terminal():
      allowed = set()
    else:
      allowed = set(state.legal_actions())
    before = state.serialize()
    for action in candidates:
      if action in allowed or action == pyspiel.INVALID_ACTION:
        continue  # -1: OpenSpiel's own check refuses it first
      with pytest.raises(ValueError, match=f"action {action} "):
        state.apply_action(action)
      checked["chance" if state.is_chance_node() else "terminal"
              if state.is_terminal() else "decision"] += 1
    assert state.serialize() == before
  assert min(checked.values()) > 0 and len(checked) == 3


def test_openspiel_leduc_refuses_what_nfsp_leduc_refuses():
  """The reference for the test above: OpenSpiel's C++ Leduc refuses a third
  raise in a round and a card dealt twice."""
  for name, error in (("leduc_poker", pyspiel.SpielError),
                      ("nfsp_leduc", ValueError)):
    state = pyspiel.load_game(name).new_initial_state()
    state.apply_action(0)
    with pytest.raises(error):
      state.clone().apply_action(0)  # the jack of spades again
    state.apply_action(1)
    state.apply_action(2)
    state.apply_action(2)
    with pytest.raises(error):
      state.clone().apply_action(2)  # a third raise


@pytest.mark.parametrize("name", GAMES)
def test_state_strings_tell_states_apart(name):
  """OpenSpiel's C++ tools (GetAllStates, state equality) key states by
  `str(state)`: different histories, mid-deal included, differ there."""
  game = pyspiel.load_game(name)
  seen = {}
  for state in _playthroughs(game, 20, seed=11):
    history = tuple(state.history())
    assert seen.setdefault(str(state), history) == history, str(state)
