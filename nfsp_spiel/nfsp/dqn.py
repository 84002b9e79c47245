"""DQN, NFSP's best-response learner (Mnih et al. 2015).

Heinrich & Silver 2016 (NFSP), sec. 3; Heinrich's thesis sec. 6.4, eq. 6.1
and 6.2: a Q-network fitted by SGD on the squared error
`(r + max_a' Q(s', a'; theta') - Q(s, a; theta))^2` (no discount: episodes
are short and rewards are the game's returns), a target network theta'
refitted every `target_refit_every` updates (0: none, theta' = theta, as
Heinrich's public Leduc code runs), and the epsilon-greedy policy of
eq. 6.2. The loss is half the batch mean of that squared error, so that its
gradient is (Q - target) / batch on the taken action: the scale of Heinrich's
own Q-learner (`fsp/learner/qlearner.lua`), at which the papers' SGD stepsize
0.1 was tuned (the full mean would double every step). The maximum over a'
is taken over the legal actions of s' only
(OpenSpiel's games have no duplicate actions for illegal raises, unlike the
thesis' modified environment of sec. 6.5). `td_error_clip` (not the papers')
swaps the squared error for the Huber loss, as Mnih et al. do.

M_RL, a circular buffer of transitions, belongs to the learner. `DQN` is
one of NFSP's best-response learners (`nfsp_spiel.nfsp.arm` is the other),
configured by `config.DQNConfig` and reached by the agent only through
`nfsp_spiel.nfsp.learner.BestResponseLearner`. Its exploration schedule
(eq. 6.2's epsilon over the agent's steps) is its own: `epsilon(steps)`.
"""

import math

import numpy as np

from nfsp_spiel.core.quiet_tensorflow import tf
from nfsp_spiel.nfsp import learner
from nfsp_spiel.nfsp import networks
from nfsp_spiel.nfsp import replay_memory
from nfsp_spiel.nfsp import transitions

# Added to illegal actions' values before a max (finite, so that 0 * it = 0).
_ILLEGAL = -1e9


def epsilon(settings, learn_every, steps):
  """Eq. 6.2's exploration after `steps` of the agent's steps under
  `settings` (a `DQNConfig`), at iteration steps / learn_every."""
  iteration = steps / learn_every
  start, end = settings.epsilon_start, settings.epsilon_end
  progress = min(steps, settings.epsilon_decay_duration) / (
      settings.epsilon_decay_duration)
  if settings.epsilon_schedule == "polynomial":
    return start / (1.0 + settings.epsilon_decay * np.sqrt(iteration))
  if settings.epsilon_schedule == "linear":
    return start + (end - start) * progress
  if settings.epsilon_schedule == "exponential":
    return end + (start - end) * math.exp(-progress)
  return start / np.sqrt(1.0 + iteration)


class DQN:
  """A Q-network (with a target network unless `target_refit_every` is 0),
  trained by plain SGD on samples of M_RL; see the module docstring.
  `config` is the agent's `NFSPConfig` (its `best_response` a `DQNConfig`)."""

  def __init__(self, state_size, num_actions, config, rng):
    hidden, init = config.hidden_layers, config.init
    settings = config.best_response
    self.config = config
    self.settings = settings
    self.q_network = networks.MLP(state_size, hidden, num_actions, rng,
                                  name="q_network", init=init)
    self.target_network = None  # bootstrap from the Q-network itself
    if settings.target_refit_every:
      self.target_network = networks.MLP(state_size, hidden, num_actions, rng,
                                         name="target_network", init=init)
      self.target_network.assign(self.q_network.numpy_weights())
    self.learning_rate = settings.learning_rate
    self.target_refit_every = settings.target_refit_every
    self.updates = tf.Variable(0, dtype=tf.int64, name="updates")
    self.weights = self.q_network.numpy_weights()
    self.columns = transitions.record_columns(state_size, num_actions)
    self.record_size = 2 * state_size + 3 + num_actions
    # memory_dtype "bits": states, legal masks and done flags one bit each.
    self._packed = (replay_memory.BitRows(self.record_size, np.concatenate([
        np.arange(*self.columns[name]) for name in
        ("state", "next_state", "next_legal", "done")]))
                    if config.memory_dtype == "bits" else None)
    self.memory = replay_memory.CircularBuffer(
        settings.replay_buffer_capacity,
        {"record": ((self._packed.packed_width,), np.uint8) if self._packed
         else ((self.record_size,), np.float32)}, rng)

  # ---- learning ----

  def record_fields(self):
    return transitions.DQN_FIELDS

  def add(self, records):
    self.memory.add_batch(record=self._packed.pack(records) if self._packed
                          else records)

  def learning_batches(self, calls):
    """M_RL samples for `calls` learning calls: one [updates, batch, record]
    array, or none while M_RL is short of `min_buffer_size_to_learn`."""
    if len(self.memory) < self.config.min_buffer_size_to_learn:
      return []
    shape = (calls * self.config.updates_per_learn, self.config.batch_size)
    records = self.memory.sample(shape)["record"]
    return [self._packed.unpack(records) if self._packed else records]

  def learning_specs(self, calls):
    shape = (calls * self.config.updates_per_learn, self.config.batch_size)
    return [tf.TensorSpec((*shape, self.record_size), tf.float32)]

  def learn(self, records):
    """One SGD update per leading row of `records` (graph code); returns the
    last update's loss."""
    return learner.learn_in_place(self, records)

  def learning_variables(self):
    targets = [] if self.target_network is None else (
        self.target_network.weights)
    return [*self.q_network.weights, *targets, self.updates]

  def learning_settings(self):
    return {"learning_rate": np.float32(self.learning_rate),
            "td_error_clip": np.float32(self.settings.td_error_clip),
            "target_refit_every": np.int64(max(self.target_refit_every, 1))}

  def learning_step(self, values, settings, calls, records):
    """Eq. 6.1's SGD updates, one per leading row of `records` (the first
    `calls * updates_per_learn` where `calls` is given), each followed by
    the target refit when due."""
    count = len(self.q_network.weights)
    weights, updates = values[:count], values[-1]
    targets = values[count:-1] or None
    for update in range(records.shape[0]):
      active = None if calls is None else (
          update < calls * self.config.updates_per_learn)
      batch = {name: records[update, :, start:stop]
               for name, (start, stop) in self.columns.items()}
      for name in ("action", "reward", "done"):
        batch[name] = batch[name][:, 0]
      batch["action"] = tf.cast(batch["action"], tf.int32)
      step_loss, new_weights = networks.sgd_update(
          lambda w: self.loss(batch, w, targets, settings["td_error_clip"]),  # pylint: disable=cell-var-from-loop
          weights, settings["learning_rate"])
      new_updates = updates + 1
      if targets is not None:  # refit every `target_refit_every` updates
        targets = learner.select(
            active, learner.select(
                new_updates % settings["target_refit_every"] == 0,
                new_weights, targets), targets)
      weights = learner.select(active, new_weights, weights)
      updates = learner.select(active, new_updates, updates)
      loss = step_loss if update == 0 else learner.select(
          active, step_loss, loss)
    return [*weights, *(targets or []), updates], loss

  def loss(self, batch, weights=None, targets=None, clip=None):
    """Half the mean squared TD error of eq. 6.1 on a batch of transitions,
    at `weights` (default: the Q-network's) bootstrapping from `targets`
    (default: the target network's, or the Q-network's where there is
    none); where `clip` (default: `td_error_clip`, a tensor in learning
    steps, so that stacked members may differ) is positive, the Huber loss
    of that threshold, whose gradient is the TD error clipped to it."""
    if weights is None:
      weights = self.q_network.weights
      if self.target_network is not None:
        targets = self.target_network.weights
    def next_values(network_weights):  # illegal next actions far below
      return (networks.outputs(network_weights, batch["next_state"],
                               self.config.precision)
              + (1.0 - batch["next_legal"]) * _ILLEGAL)

    bootstrap = next_values(weights if targets is None else targets)
    if self.settings.double_q:  # the Q-network's choice, valued by bootstrap
      best = tf.gather(bootstrap, tf.argmax(next_values(weights), axis=1,
                                            output_type=tf.int32),
                       batch_dims=1)
    else:  # eq. 6.1's max
      best = tf.reduce_max(bootstrap, axis=1)
    target = batch["reward"] + (1.0 - batch["done"]) * best
    values = tf.gather(networks.outputs(weights, batch["state"],
                                        self.config.precision),
                       batch["action"], batch_dims=1)
    if clip is None:
      clip = self.settings.td_error_clip
    return tf.reduce_mean(huber(tf.stop_gradient(target) - values, clip))

  def acting_variables(self):
    return self.q_network.weights

  def set_acting_weights(self, weights):
    self.weights = weights

  def refresh(self):
    """Copies the Q-network's weights to the numpy mirror acting uses."""
    self.weights = self.q_network.numpy_weights()

  # ---- acting ----

  def q_values(self, states):
    return networks.forward(self.weights, states)

  def epsilon(self, steps):
    """The exploration after `steps` of the agent's steps."""
    return epsilon(self.settings, self.config.learn_every, steps)

  def behaviour_probabilities(self, states, legal, steps):
    return epsilon_greedy(self.q_values(states), legal, self.epsilon(steps))

  def policy_probabilities(self, states, legal):
    return epsilon_greedy(self.q_values(states), legal, 0.0)

  # ---- checkpoints ----

  def memory_arrays(self):
    return self.memory.state()

  def load_memory_arrays(self, arrays):
    self.memory.load_state(arrays)

  def networks(self):
    return {k: v for k, v in (("q_network", self.q_network),
                              ("target_network", self.target_network))
            if v is not None}

  def state_arrays(self):
    return {}  # plain SGD keeps no state beyond the networks and `updates`

  def load_state_arrays(self, arrays):
    del arrays
    self.refresh()


def huber(errors, clip):
  """Per error, half its square, or where `clip` > 0 the Huber loss of
  threshold `clip`: the same within it, linear of slope `clip` beyond."""
  size = tf.abs(errors)
  clip = tf.cast(clip, errors.dtype)
  inside = tf.minimum(size, clip)
  clipped = 0.5 * tf.square(inside) + clip * (size - inside)
  return tf.where(clip > 0, clipped, 0.5 * tf.square(errors))


def epsilon_greedy(q_values, legal, epsilon):
  """Eq. 6.2 as distributions: epsilon spread uniformly over the legal actions
  (`legal` is a 0/1 mask), the rest on the best legal action."""
  best = np.argmax(np.where(legal > 0, q_values, -np.inf), axis=1)
  probs = legal * (epsilon / legal.sum(axis=1, keepdims=True))
  probs[np.arange(len(best)), best] += 1.0 - epsilon
  return probs
