"""NFSP's average policy Pi: a network fitted to M_SL, the agent's own best-
response behaviour (Heinrich & Silver 2016, Alg. 1; thesis eq. 6.3).

M_SL is a reservoir (Vitter), an exponential reservoir (Osborne et al.) or,
for the paper's ablation, a sliding window (`nfsp_spiel.nfsp.replay_memory`),
holding one [state, action] row per record in `memory_dtype` ("bits": the
state packed 8 entries to a byte). Pi is trained by plain SGD on the mean
cross-entropy of eq. 6.3, inside the agent's fused learning call, as a
`learner.LearningPart`; acting reads a numpy copy of its weights.
"""

import math

import numpy as np

from nfsp_spiel.core.quiet_tensorflow import tf
from nfsp_spiel.nfsp import learner
from nfsp_spiel.nfsp import networks
from nfsp_spiel.nfsp import replay_memory

# The dtype of M_SL's [state, action] rows as the learning call reads them.
_SL_DTYPES = {"float32": "float32", "uint8": "uint8", "bits": "float32"}

# Rows this short go through Python floats when there is one of them: a
# single game's step then costs two numpy calls fewer than five each (a
# numpy call on a tiny array costs ~1 us, a Python float operation ~50 ns).
PYTHON_ROW = 16


def masked_softmax(logits, legal):
  """Softmax over the legal actions (a 0/1 mask) of each row."""
  if logits.shape[0] == 1 and logits.shape[1] <= PYTHON_ROW:
    row, mask = logits[0].tolist(), legal[0].tolist()
    top = max(x for x, m in zip(row, mask) if m > 0)
    exps = [math.exp(x - top) if m > 0 else 0.0 for x, m in zip(row, mask)]
    total = sum(exps)
    return np.array([[e / total for e in exps]])
  logits = np.where(legal > 0, logits, -np.inf)
  exp = np.exp(logits - logits.max(axis=1, keepdims=True))
  return exp / exp.sum(axis=1, keepdims=True)


def _sl_memory(config, shapes, rng):
  capacity = config.reservoir_buffer_capacity
  if config.reservoir_buffer_kind == "reservoir":
    return replay_memory.Reservoir(capacity, shapes, rng)
  if config.reservoir_buffer_kind == "exponential_reservoir":
    return replay_memory.ExponentialReservoir(
        capacity, shapes, rng, config.reservoir_buffer_min_probability)
  return replay_memory.CircularBuffer(capacity, shapes, rng)


class AveragePolicy:
  """Pi and M_SL of one agent (`NFSPConfig`'s sl_* fields, batch_size,
  updates_per_learn, min_buffer_size_to_learn, memory_dtype)."""

  def __init__(self, state_size, num_actions, config, rng):
    self.config = config
    self.state_size = state_size
    self.network = networks.MLP(state_size, config.hidden_layers,
                                num_actions, rng, name="average_network",
                                init=config.init)
    self.weights = self.network.numpy_weights()
    self._packed = (replay_memory.BitRows(state_size + 1, range(state_size))
                    if config.memory_dtype == "bits" else None)
    self.memory = _sl_memory(config, {"record": (
        (self._packed.packed_width if self._packed else state_size + 1,),
        np.uint8 if self._packed else np.dtype(config.memory_dtype))}, rng)

  # ---- records ----

  def rows(self, states, actions):
    """M_SL rows of [state, action] pairs, as the memory stores them."""
    rows = np.concatenate([np.asarray(states),
                           np.asarray(actions)[:, None]], axis=1)
    return self._packed.pack(rows) if self._packed else rows

  def records(self, rows):
    """Stored rows as [state, action] rows (unpacked where "bits")."""
    return self._packed.unpack(rows) if self._packed else rows

  def add(self, rows):
    self.memory.add_batch(record=rows)

  @property
  def row_format(self):
    """(width, dtype) of a stored row."""
    field = self.memory.fields["record"]
    return field.shape[1], field.dtype

  # ---- acting ----

  def probabilities(self, states, legal):
    return masked_softmax(networks.forward(self.weights, states), legal)

  # ---- learning (`learner.LearningPart`) ----

  def learning_batches(self, calls):
    if len(self.memory) < self.config.min_buffer_size_to_learn:
      return []
    shape = (calls * self.config.updates_per_learn, self.config.batch_size)
    return [self.records(self.memory.sample(shape)["record"])]

  def learning_specs(self, calls):
    shape = (calls * self.config.updates_per_learn, self.config.batch_size)
    return [tf.TensorSpec((*shape, self.state_size + 1), tf.as_dtype(
        _SL_DTYPES[self.config.memory_dtype]))]

  def learn(self, records):
    """One SGD update per leading row of `records` (graph code); returns
    the last update's loss."""
    return learner.learn_in_place(self, records)

  def learning_variables(self):
    return self.network.weights

  def learning_settings(self):
    return {"learning_rate": np.float32(self.config.sl_learning_rate)}

  def learning_step(self, values, settings, calls, records):
    """Eq. 6.3's SGD updates, one per leading row of `records` (the first
    `calls * updates_per_learn` where `calls` is given)."""
    weights = list(values)
    for update in range(records.shape[0]):
      active = None if calls is None else (
          update < calls * self.config.updates_per_learn)
      batch = tf.cast(records[update], tf.float32)
      states = batch[:, :-1]
      actions = tf.cast(batch[:, -1], tf.int32)
      step_loss, new_weights = networks.sgd_update(
          lambda w: tf.reduce_mean(  # eq. 6.3
              tf.nn.sparse_softmax_cross_entropy_with_logits(
                  actions, networks.outputs(
                      w, states, self.config.precision))),  # pylint: disable=cell-var-from-loop
          weights, settings["learning_rate"])
      weights = learner.select(active, new_weights, weights)
      loss = step_loss if update == 0 else learner.select(
          active, step_loss, loss)
    return weights, loss

  def acting_variables(self):
    return self.network.weights

  def set_acting_weights(self, weights):
    self.weights = weights
