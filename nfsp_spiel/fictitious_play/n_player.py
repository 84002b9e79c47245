"""Fictitious play's compiled game beyond two players, and its measure.

Fictitious play beyond two players (Heinrich, Lanctot & Silver, ICML 2015,
Alg. 1, stated for N players; Heinrich's thesis, ch. 4): each player's best
response is to the others' average strategies, on the arrays of
`trees.sequence_form.NPlayerSequenceForm` (each terminal history's payoff
weighted by chance times the product over the opponents of their realization
probabilities). The average update stays per player: it reads only that
player's own realization weights (eq. 4.3).

The measure is NashConv, the sum over players of what a best response gains
over the profile's value (`NPlayerSequenceForm.nash_conv`); for two players of
a zero-sum game it is twice the exploitability.
"""

from nfsp_spiel.trees import public_tree
from nfsp_spiel.trees import sequence_form


def compile_game(game, who):
  """`game` compiled for fictitious play by `who` (named in errors): River
  poker and nfsp_leduc on their public tree x hands, other two-player games
  walked into a `SequenceForm`, games of more players into an
  `NPlayerSequenceForm`."""
  if game.num_players() == 2:
    return (public_tree.public_tree_form(game) or
            sequence_form.SequenceForm(game))
  sequence_form.check_sequential(game, who)
  return sequence_form.NPlayerSequenceForm(game)


def opponents(form, strategies, player):
  """What `form.best_response(player, ...)` responds to: the opponent's
  strategy in two-player forms, the whole profile in N-player ones."""
  if isinstance(form, sequence_form.NPlayerSequenceForm):
    return strategies
  return strategies[1 - player]


def measure(game):
  """The measure of fictitious play's average on `game`, named as the
  solvers' method and the curves' column: "exploitability" for two players,
  "nash_conv" beyond, where no Nash equilibrium is promised and NashConv
  (the sum of the players' best-response gains) is what OpenSpiel reports."""
  return "exploitability" if game.num_players() == 2 else "nash_conv"
