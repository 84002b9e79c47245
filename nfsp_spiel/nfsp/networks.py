"""Fully connected ReLU networks for NFSP, in TensorFlow with a numpy mirror.

The networks are plain `tf.Variable`s so that the learners' compiled
(`tf.function`) update steps own them directly. Agents act from a numpy copy
of the weights (`MLP.numpy_weights`, refreshed after every learning call):
one forward pass of a 30-64-3 network costs ~3 us in numpy against ~300 us for
any `tf.function` call from Python, and a batch of states costs one matrix
product per layer either way.
"""

import collections

import numpy as np

from nfsp_spiel.core import hardware
from nfsp_spiel.core.quiet_tensorflow import tf
from nfsp_spiel.nfsp.config import INITIALISATIONS

def initial_layer(fan_in, fan_out, init, rng):
  """One layer's starting (weights, bias) as float32 arrays.

  "torch": Torch7's `nn.Linear` default, weights and biases uniform in
  +-1/sqrt(fan_in): what Heinrich's NFSP code (`fsp/net/fully_connected.lua`)
  starts from. "glorot": Glorot-uniform weights, zero biases (Keras' `Dense`).
  """
  if init == "torch":
    limit = 1.0 / np.sqrt(fan_in)
    weights = rng.uniform(-limit, limit, (fan_in, fan_out))
    bias = rng.uniform(-limit, limit, fan_out)
  elif init == "glorot":
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    weights = rng.uniform(-limit, limit, (fan_in, fan_out))
    bias = np.zeros(fan_out)
  else:
    raise ValueError(f"init={init!r}: must be one of {INITIALISATIONS}")
  return weights.astype(np.float32), bias.astype(np.float32)


class MLP(tf.Module):
  """`input_size` -> hidden ReLU layers -> linear `output_size` outputs,
  initialised by `initial_layer(..., init, rng)`."""

  def __init__(self, input_size, hidden_layers, output_size, rng, name=None,
               init="torch"):
    super().__init__(name=name)
    sizes = [input_size, *hidden_layers, output_size]
    self.layers = [tuple(tf.Variable(a) for a in
                         initial_layer(fan_in, fan_out, init, rng))
                   for fan_in, fan_out in zip(sizes[:-1], sizes[1:])]

  @property
  def weights(self):
    return [v for layer in self.layers for v in layer]

  def __call__(self, inputs):
    """Outputs for a batch of inputs, inside or outside a `tf.function`."""
    return outputs(self.weights, inputs)

  def numpy_weights(self):
    """A numpy copy of the weights for `forward`."""
    return [v.numpy() for v in self.weights]

  def assign(self, arrays):
    """Sets the weights from arrays shaped as `numpy_weights()`'."""
    for variable, value in zip(self.weights, arrays):
      if variable.shape != np.shape(value):
        raise ValueError(f"weight of shape {np.shape(value)} does not fit the "
                         f"network's {tuple(variable.shape)}")
      variable.assign(value)


def outputs(weights, inputs, precision="float32"):
  """An MLP's outputs in TensorFlow from its weights as tensors
  ([w0, b0, w1, b1, ...]): the learning calls differentiate with respect to
  the weights as values, so that one member's update and a population's
  stacked updates are the same function (`nfsp_spiel.nfsp.learner`).
  `precision="bfloat16"`: each product's operands are cast to bfloat16 and
  its result back to float32 (biases, activations and gradients with respect
  to the float32 weights stay float32)."""
  hidden = inputs
  for i in range(0, len(weights) - 2, 2):
    hidden = tf.nn.relu(_product(hidden, weights[i], precision) +
                        weights[i + 1])
  return _product(hidden, weights[-2], precision) + weights[-1]


def _product(inputs, weights, precision):
  if precision == "float32":
    return tf.matmul(inputs, weights)
  return tf.cast(tf.matmul(tf.cast(inputs, tf.bfloat16),
                           tf.cast(weights, tf.bfloat16)), tf.float32)


def check_precision(precision, device=None):
  """Raises ValueError where `precision="bfloat16"` would be emulated."""
  if precision == "bfloat16" and not hardware.bfloat16_units(device):
    lacks = " and ".join(hardware.BFLOAT16_CPU_FLAGS)
    raise ValueError(
        f"precision='bfloat16': no bfloat16 units on device={device!r} (no "
        f"GPU, and the CPU lacks {lacks}); "
        "emulated products would be slower than float32: use "
        "precision='float32'")


class OneHotRows(collections.namedtuple("OneHotRows", "shared hot")):
  """A batch of network inputs that share everything but a few one-hot
  columns: row i is `shared` ((d,)) with ones added in columns `hot[i]`
  ((H, k) column ids, absent from `shared`), e.g. one information state under
  every holding the player could have (LBR's range queries:
  `poker.holding_tensor_parts`). `forward` takes it in place of the (H, d)
  array and makes the first layer one shared product plus k gathered rows
  per row: for Limit Hold'em's 288 inputs and 1024 first units, 16% of the
  network's multiply-adds gone, the results equal up to float rounding."""

  def __len__(self):
    return len(self.hot)

  def dense(self):
    """The (H, d) float32 array the rows stand for."""
    rows = np.repeat(np.asarray(self.shared, np.float32)[None], len(self),
                     axis=0)
    rows[np.arange(len(self))[:, None], self.hot] += 1.0
    return rows


def _first_product(inputs, weights):
  if isinstance(inputs, OneHotRows):
    return inputs.shared @ weights + weights[inputs.hot].sum(axis=1)
  return inputs @ weights


def last_hidden(weights, inputs):
  """The last hidden layer's activations in numpy (what thesis 6.7's t-SNE
  shows), from `MLP.numpy_weights()`; `inputs` an (H, d) array or
  `OneHotRows`."""
  if len(weights) == 2:  # no hidden layer
    return inputs.dense() if isinstance(inputs, OneHotRows) else inputs
  hidden = np.maximum(_first_product(inputs, weights[0]) + weights[1], 0.0)
  for i in range(2, len(weights) - 2, 2):
    hidden = np.maximum(hidden @ weights[i] + weights[i + 1], 0.0)
  return hidden


def forward(weights, inputs):
  """The network's outputs in numpy, from `MLP.numpy_weights()`; `inputs`
  an (H, d) array or `OneHotRows`."""
  if len(weights) == 2:  # no hidden layer
    return _first_product(inputs, weights[0]) + weights[1]
  return last_hidden(weights, inputs) @ weights[-2] + weights[-1]


def sgd_update(loss_fn, weights, learning_rate):
  """One plain SGD step (no momentum: the papers' optimiser) on
  `loss_fn(weights)`, weights as tensors; returns (loss, new weights). Graph
  code."""
  with tf.GradientTape() as tape:
    tape.watch(weights)
    loss = loss_fn(weights)
  gradients = tape.gradient(loss, weights)
  return loss, [w - learning_rate * g for w, g in zip(weights, gradients)]


class Adam(tf.Module):
  """Adam (Kingma & Ba 2015) on `variables`, with its moments as variables
  of its own, so that a compiled learner updates them in place and a
  checkpoint saves them (`numpy_state`). Constants are TF1's
  `AdamOptimizer` defaults (beta1 0.9, beta2 0.999, epsilon 1e-8), the
  optimiser of the NFSP-ARM authors' ARM (`RMFSP/arm_tf.py`). Written out
  rather than taken from Keras: a Keras optimiser builds its slots lazily
  and names them by its own rules, which a checkpoint of plain arrays would
  have to follow across Keras versions."""

  BETA1, BETA2, EPSILON = 0.9, 0.999, 1e-8

  def __init__(self, variables, learning_rate, name=None):
    super().__init__(name=name)
    self.variables_ = list(variables)
    self.learning_rate = learning_rate
    self.first = [tf.Variable(tf.zeros_like(v)) for v in self.variables_]
    self.second = [tf.Variable(tf.zeros_like(v)) for v in self.variables_]
    self.steps = tf.Variable(0.0, name="steps")

  def state(self):
    """The optimiser's variables: first moments, second moments, steps."""
    return [*self.first, *self.second, self.steps]

  def numpy_state(self):
    """The moments and step count as arrays (for checkpoints)."""
    return ([m.numpy() for m in self.first] + [v.numpy() for v in self.second]
            + [self.steps.numpy()])

  def assign(self, arrays):
    """Restores `numpy_state()`'s arrays."""
    count = len(self.first)
    for variable, value in zip(self.first + self.second, arrays[:2 * count]):
      variable.assign(value)
    self.steps.assign(arrays[2 * count])


def adam_update(loss_fn, weights, state, learning_rate):
  """One Adam step on `loss_fn(weights)` with `Adam.state()`'s values as
  `state`; returns (loss, new weights, new state). Graph code."""
  count = len(weights)
  first, second, steps = state[:count], state[count:2 * count], state[-1]
  with tf.GradientTape() as tape:
    tape.watch(weights)
    loss = loss_fn(weights)
  gradients = tape.gradient(loss, weights)
  steps = steps + 1.0
  rate = (learning_rate * tf.sqrt(1.0 - Adam.BETA2**steps) /
          (1.0 - Adam.BETA1**steps))
  first = [Adam.BETA1 * m + (1.0 - Adam.BETA1) * g
           for m, g in zip(first, gradients)]
  second = [Adam.BETA2 * v + (1.0 - Adam.BETA2) * tf.square(g)
            for v, g in zip(second, gradients)]
  weights = [w - rate * m / (tf.sqrt(v) + Adam.EPSILON)
             for w, m, v in zip(weights, first, second)]
  return loss, weights, [*first, *second, steps]
