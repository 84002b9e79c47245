"""The parts an NFSP agent learns with, as `typing.Protocol`s.

An NFSP agent (`nfsp_spiel.nfsp.agent`) holds two learning parts: a best-
response learner trained on M_RL, the agent's transitions, and the average
policy (`nfsp_spiel.nfsp.average_policy`), trained on M_SL. Both learn inside
one compiled call (`nfsp_spiel.nfsp.fused_learning`), which reaches them only
through `LearningPart`. A best-response learner adds how it acts and what
transitions it needs (`BestResponseLearner`).

A new learner plugs in without touching the agent: a frozen dataclass with a
`kind` name and a `build(state_size, num_actions, config, rng)` method that
returns an object with the methods below, given as
`NFSPConfig(best_response=...)`. `nfsp_spiel.nfsp.dqn` (the NFSP paper's) and
`nfsp_spiel.nfsp.arm` (NFSP-ARM's) are the shipped ones; the test
`tests/nfsp/test_learner.py` adds tabular one-step Q-learning in about 45
lines (it learns in `add` and gives the compiled call nothing; its
checkpoint methods are left out).
"""

from typing import Protocol, Sequence

import numpy as np

from nfsp_spiel.core.quiet_tensorflow import tf


class LearningPart(Protocol):
  """What the fused learning call needs of a part that learns."""

  def learning_batches(self, calls: int) -> list:
    """Numpy inputs of `calls` learning calls; [] while the part cannot
    learn yet (its memory is short)."""

  def learning_specs(self, calls: int) -> list:
    """`tf.TensorSpec`s of `learning_batches(calls)`' arrays."""

  def learn(self, *batches):
    """Graph code, run inside the compiled call: the updates on `batches`;
    returns the last update's loss (`learn_in_place`)."""

  def learning_variables(self) -> Sequence:
    """Every variable a learning call reads and writes (weights, target
    copies, counters, optimiser state), in `learning_step`'s order."""

  def learning_settings(self) -> dict:
    """The scalars a learning call depends on that may differ between the
    members of a population (learning rates, target refit period ...), as
    numpy scalars."""

  def learning_step(self, values, settings, calls, *batches):
    """Graph code, a pure function: `learning_variables()`' new values and
    the last update's loss after the updates of `calls` learning calls on
    `batches` (`calls` None: all of them; a tensor: the rest of the batches
    pad a population's stacked call and change nothing)."""

  def acting_variables(self) -> Sequence:
    """The variables whose new values acting reads after a learning call."""

  def set_acting_weights(self, weights: Sequence[np.ndarray]) -> None:
    """Takes `acting_variables()`' values (numpy) as the weights acting
    reads from now on."""


def learn_in_place(part, *batches):
  """`part.learn(*batches)` through its `learning_step`: the variables'
  values in, the new values assigned (graph code). A population stacks the
  same step over its members (`nfsp_spiel.nfsp.population`)."""
  variables = part.learning_variables()
  values, loss = part.learning_step([v.read_value() for v in variables],
                                    part.learning_settings(), None, *batches)
  for variable, value in zip(variables, values):
    variable.assign(value)
  return loss


def select(active, new, old):
  """`new` where `active` (None or True: everywhere), else `old`; lists
  elementwise (graph code)."""
  if active is None or active is True:
    return new
  if isinstance(new, (list, tuple)):
    return [tf.where(active, n, o) for n, o in zip(new, old)]
  return tf.where(active, new, old)


class BestResponseLearner(LearningPart, Protocol):
  """NFSP's best-response learner: learns from the agent's transitions and
  plays the anticipatory episodes (thesis Alg. 8's beta)."""

  memory: object  # M_RL (anything with len()), for diagnostics and tests
  weights: list  # the numpy weights acting reads
  updates: object  # a tf.Variable (int64): updates made, for checkpoints
  record_size: int  # floats per record of `record_fields()`

  def record_fields(self) -> Sequence[str]:
    """The transition fields it learns from, in record order, among
    `nfsp_spiel.nfsp.transitions.FIELDS`."""

  def add(self, records: np.ndarray) -> None:
    """Completed transitions, rows of `record_fields()`."""

  def behaviour_probabilities(self, states, legal, steps: int) -> np.ndarray:
    """The training policy at a batch of states (0/1 `legal` masks), after
    `steps` of the agent's training steps (an exploration schedule's
    clock)."""

  def policy_probabilities(self, states, legal) -> np.ndarray:
    """The learned best response, played in evaluation."""

  def networks(self) -> dict:
    """Name -> `networks.MLP`, what a checkpoint holds of its weights."""

  def memory_arrays(self) -> dict:
    """M_RL's state as arrays, for checkpoints (and `load_memory_arrays`)."""

  def load_memory_arrays(self, arrays: dict) -> None:
    ...

  def state_arrays(self) -> dict:
    """Optimiser and other state beyond the networks and `updates`."""

  def load_state_arrays(self, arrays: dict) -> None:
    """Restores `state_arrays()` (after the networks) and refreshes the
    acting weights."""
