"""Games of any number of players compiled into sequence-form arrays.

Fictitious play beyond two players (Heinrich, Lanctot & Silver, ICML 2015,
Alg. 1, stated for N players; Heinrich's thesis, ch. 4): each player's best
response is to the others' average strategies, which on arrays means that
each terminal history's payoff is weighted by chance times the product over
the opponents of their realization probabilities of it (sequence-form reach
is a product over players, von Stengel 1996). The average update stays per
player: it reads only that player's own realization weights (eq. 4.3).

The measure is NashConv, the sum over players of what a best response gains
over the profile's value (`nash_conv`); for two players of a zero-sum game it
is twice the exploitability.
"""

import numpy as np

from nfsp_spiel.trees import game_tree
from nfsp_spiel.trees import public_tree
from nfsp_spiel.trees import sequence_form


def check_sequential(game, who):
  """Raises ValueError unless `who` can compile `game` for N players."""
  problems = sequence_form.sequential_problems(game)
  if problems:
    raise ValueError(f"{who} needs a sequential game with information-state "
                     f"strings; {game} has {', '.join(problems)}")


class NPlayerSequenceForm(sequence_form.SequenceForm):
  """A sequential game of N players on sequence-form arrays (any utility).

  `best_response(player, strategies)` takes the whole profile (`player`'s own
  strategy is unread), where the two-player form takes the opponent's.
  """

  def __init__(self, game, tree=None):
    super().__init__(game, tree)
    t = self.game_tree
    self.num_players = game.num_players()
    # Every player's payoff per terminal: general-sum, unlike `utility`.
    self.returns = t.returns[t.player == game_tree.TERMINAL]

  def _check(self, game):
    check_sequential(game, "NPlayerSequenceForm")

  def _reach_of_others(self, player, strategies):
    """Per terminal: chance times the product over the players other than
    `player` of their realization probabilities (`player`=None: over all)."""
    reach = self.chance
    for other, strategy in enumerate(strategies):
      if other != player:
        reach = reach * self.reach(other, strategy)[
            self.terminal_sequence[other]]
    return reach

  def _sequence_payoffs(self, player, opponent_strategy):
    """Per own sequence, the payoff of terminals it is the last one before,
    weighted by chance and the others' joint reach (`opponent_strategy` is
    the whole profile)."""
    weights = self.returns[:, player] * self._reach_of_others(
        player, opponent_strategy)
    return np.bincount(self.terminal_sequence[player], weights,
                       minlength=self.num_sequences[player])

  def on_policy_values(self, strategies):
    """Every player's expected utility under the profile."""
    return self._reach_of_others(None, strategies) @ self.returns

  def value(self, strategies):
    """Player 0's expected utility under the profile."""
    return float(self.on_policy_values(strategies)[0])

  def player_value(self, strategies, player):
    return float(self.on_policy_values(strategies)[player])

  def values(self, strategies):
    """(best-response values, on-policy values) of every player."""
    best = [self.best_response(p, strategies)[0]
            for p in range(self.num_players)]
    return np.array(best), self.on_policy_values(strategies)

  def nash_conv(self, strategies):
    """Sum over players of a best response's gain over the profile's value."""
    best, on_policy = self.values(strategies)
    return float(np.sum(best - on_policy))

  def exploitability(self, strategies):
    """OpenSpiel's exploitability: NashConv / number of players."""
    return self.nash_conv(strategies) / self.num_players


def compile_game(game, who):
  """`game` compiled for fictitious play by `who` (named in errors): River
  poker and nfsp_leduc on their public tree x hands, other two-player games
  walked into a `SequenceForm`, games of more players into an
  `NPlayerSequenceForm`."""
  if game.num_players() == 2:
    return (public_tree.public_tree_form(game) or
            sequence_form.SequenceForm(game))
  check_sequential(game, who)
  return NPlayerSequenceForm(game)


def opponents(form, strategies, player):
  """What `form.best_response(player, ...)` responds to: the opponent's
  strategy in two-player forms, the whole profile in N-player ones."""
  if isinstance(form, NPlayerSequenceForm):
    return strategies
  return strategies[1 - player]


def measure(game):
  """The measure of fictitious play's average on `game`, named as the
  solvers' method and the curves' column: "exploitability" for two players,
  "nash_conv" beyond, where no Nash equilibrium is promised and NashConv
  (the sum of the players' best-response gains) is what OpenSpiel reports."""
  return "exploitability" if game.num_players() == 2 else "nash_conv"
