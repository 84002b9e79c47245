"""nfsp_leduc against OpenSpiel's leduc_poker, and its 30-dim encoding."""

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401


def _walk_both(ours, theirs):
  """Walks the whole tree of both games in lock step; returns the node count."""
  assert ours.current_player() == theirs.current_player()
  assert ours.is_terminal() == theirs.is_terminal()
  if ours.is_terminal():
    assert ours.returns() == theirs.returns()
    for p in (0, 1):
      assert (ours.information_state_string(p) ==
              theirs.information_state_string(p))
    return 1
  for p in (0, 1):  # chance nodes included (between the rounds: round 2)
    assert (ours.information_state_string(p) ==
            theirs.information_state_string(p))
  if ours.is_chance_node():
    mine, other = zip(*ours.chance_outcomes()), zip(*theirs.chance_outcomes())
    (actions, probs), (their_actions, their_probs) = mine, other
    assert actions == their_actions
    assert probs == pytest.approx(their_probs, abs=1e-15)
  else:
    for p in (0, 1):
      assert ours.legal_actions(p) == theirs.legal_actions(p)
  return 1 + sum(_walk_both(ours.child(a), theirs.child(a))
                 for a in ours.legal_actions())


def test_whole_tree_equals_openspiel_leduc_poker():
  nodes = _walk_both(pyspiel.load_game("nfsp_leduc").new_initial_state(),
                     pyspiel.load_game("leduc_poker").new_initial_state())
  assert nodes == 9457  # every history of 2-player Leduc, chance included


def test_cpp_cfr_gives_the_same_policy_values():
  """OpenSpiel's C++ CFR runs on our Python game and matches leduc_poker."""
  results = []
  for name in ("nfsp_leduc", "leduc_poker"):
    game = pyspiel.load_game(name)
    solver = pyspiel.CFRSolver(game)
    for _ in range(10):
      solver.evaluate_and_update_policy()
    results.append(pyspiel.exploitability(game, solver.average_policy()))
  assert results[0] == pytest.approx(results[1], abs=1e-12)
  assert 0.0 < results[0] < 1.0  # CFR after 10 iterations, still far off


def test_tensor_values_along_a_known_game():
  game = pyspiel.load_game("nfsp_leduc")
  state = game.new_initial_state()
  # Player 0 gets card 2 (rank 1, Q), player 1 card 5 (rank 2, K).
  for action in (2, 5):
    state.apply_action(action)
  expected = {0: [1], 1: [2]}
  for p in (0, 1):
    assert np.flatnonzero(state.information_state_tensor(p)).tolist() == \
        expected[p]
  state.apply_action(2)  # p0 raises: slot [p0][r0][0 raises][raise] = 6+1
  state.apply_action(2)  # p1 re-raises: [p1][r0][1][raise] = 6+12+2+1 = 21
  state.apply_action(1)  # p0 calls: [p0][r0][2][call] = 6+4 = 10
  state.apply_action(0)  # public card 0 (rank 0, J)
  state.apply_action(1)  # p0 checks: [p0][r1][0][call] = 6+6 = 12
  ones = np.flatnonzero(state.information_state_tensor(1)).tolist()
  assert ones == [2, 3, 7, 10, 12, 21]
  assert len(state.information_state_tensor(1)) == 30


def test_sixty_card_leduc():
  game = pyspiel.load_game("nfsp_leduc(ranks=30)")
  assert game.information_state_tensor_shape() == [84]
  assert game.max_chance_outcomes() == 60
  state = game.new_initial_state()
  assert len(state.chance_outcomes()) == 60
  # Pairs win whatever the ranks: p0 holds a 2 (card 0), p1 an ace-high 29
  # (card 58), and the public card pairs p0.
  for action in (0, 58, 1, 1, 1):
    state.apply_action(action)
  state.apply_action(1)
  state.apply_action(1)
  assert state.returns() == [1.0, -1.0]


@pytest.mark.parametrize("private0,private1,public,expected", [
    (0, 2, 4, -1.0),   # J vs Q, K on board: Q-high wins
    (4, 2, 0, 1.0),    # K vs Q, J on board: K-high wins
    (0, 1, 4, 0.0),    # J vs J: split
    (1, 4, 0, 1.0),    # pair of jacks beats K-high
])
def test_showdowns(private0, private1, public, expected):
  state = pyspiel.load_game("nfsp_leduc").new_initial_state()
  for action in (private0, private1, 1, 1, public, 1, 1):
    state.apply_action(action)
  assert state.returns() == [expected, -expected]
