"""NFSP's Limit Hold'em networks given their cards' strength: a diagnostic.

NFSP reads Limit Hold'em's raw 288-dim encoding (NFSP paper sec. 4.3), so its
networks must learn hand strength from card bits before they can play their
cards. Whether that, or the reinforcement learning itself, is what keeps a
best response from exploiting an average strategy is asked by giving the
network the strength outright: `EquityInputs` wraps an agent built for
`state_size + LEVELS` inputs and hands it each 288-dim tensor followed by
the check-down equity of the cards it shows against a uniformly random
holding (the equity-threshold player's one input,
`evaluation.baselines.holding_equities`), as a thermometer code of `LEVELS`
bits: bit k is set where the equity exceeds k / LEVELS. Bits, so that the
memories keep storing one bit per input (`memory_dtype="bits"`); a
thermometer, so that "at least this strong" is one unit's threshold.

The drivers, matches and checkpoints see an agent of the game's tensor size:
the wrapper adds the bits wherever states reach the agent (acting, its
policies, LBR's range queries, the transitions and M_SL rows it stores, Q at
recorded decisions) and passes everything else through. `agent.agent_for`
builds it where `NFSPConfig.inputs` is "cards_and_equity", for self-play
(`examples/nfsp.py --inputs`) and the fixed-opponent test alike.
"""

import numpy as np

from nfsp_spiel.evaluation import baselines
from nfsp_spiel.games import nfsp_lhe
from nfsp_spiel.nfsp import networks

LEVELS = 20


def equity_bits(states, levels=LEVELS):
  """(n, levels) float32: the thermometer code of the equity of the cards in
  each of `nfsp_lhe` information-state tensors `states`; zeros for a row of
  zeros (a terminal transition's next state)."""
  holes, boards, num_board = nfsp_lhe.cards_of_tensors(states)
  bits = np.zeros((len(holes), levels), np.float32)
  dealt = holes[:, 0] >= 0
  if dealt.any():
    equities = baselines.holding_equities(holes[dealt], boards[dealt],
                                          num_board[dealt])
    bits[dealt] = equities[:, None] > np.arange(levels) / levels
  return bits


class _WithInputs:
  """A best-response learner whose `q_values` take the game's tensors."""

  def __init__(self, learner, inputs):
    self._learner = learner
    self._inputs = inputs

  def q_values(self, states):
    return self._learner.q_values(self._inputs(states))

  def __getattr__(self, name):
    if name.startswith("_"):
      raise AttributeError(name)
    return getattr(self._learner, name)


class EquityInputs:
  """`agent` (an NFSP agent of `nfsp_lhe`'s tensor size + `levels` inputs)
  as an agent of the game's tensor size; see the module docstring."""

  def __init__(self, agent, levels=LEVELS):
    if agent.state_size != nfsp_lhe.TENSOR_SIZE + levels:
      raise ValueError(f"agent.state_size={agent.state_size}: EquityInputs "
                       f"needs {nfsp_lhe.TENSOR_SIZE} + levels={levels}")
    self.agent = agent
    self.levels = levels
    self.state_size = nfsp_lhe.TENSOR_SIZE

  def inputs(self, states):
    """The agent's inputs at the game's tensors `states`."""
    states = np.asarray(states, np.float32)
    return np.concatenate([states, equity_bits(states, self.levels)], axis=1)

  @property
  def best_response_learner(self):
    return _WithInputs(self.agent.best_response_learner, self.inputs)

  def probabilities(self, states, legal, policy):
    if isinstance(states, networks.OneHotRows):  # LBR's range queries
      states = states.dense()
    return self.agent.probabilities(self.inputs(states), legal, policy)

  def act(self, states, legal, best_response):
    return self.agent.act(self.inputs(states), legal, best_response)

  def record_steps(self, states, actions, best_response, learn=True):
    return self.agent.record_steps(self.inputs(states), actions,
                                   best_response, learn)

  def observe_transitions(self, states, actions, rewards, next_states,
                          next_legal, done, games=None):
    if not len(states):
      return
    self.agent.observe_transitions(
        self.inputs(states), actions, rewards, self.inputs(next_states),
        next_legal, done, games)

  def __getattr__(self, name):
    if name in ("agent", "__setstate__") or name.startswith("__"):
      raise AttributeError(name)
    return getattr(self.agent, name)
