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
thesis' modified environment of sec. 6.5).

`DQN.update` is one SGD step meant to run inside a caller's `tf.function`
(the NFSP agent fuses all of a learning call's updates into one compiled
call); acting uses `q_values` on the numpy mirror of the weights.
"""

import numpy as np

from nfsp_spiel import networks
from nfsp_spiel.quiet_tensorflow import tf

# Added to illegal actions' values before a max (finite, so that 0 * it = 0).
_ILLEGAL = -1e9


class DQN:
  """A Q-network (with a target network unless `target_refit_every` is 0),
  trained by plain SGD."""

  def __init__(self, state_size, num_actions, hidden_layers, learning_rate,
               target_refit_every, rng, init="torch"):
    self.q_network = networks.MLP(state_size, hidden_layers, num_actions, rng,
                                  name="q_network", init=init)
    self.target_network = None  # bootstrap from the Q-network itself
    if target_refit_every:
      self.target_network = networks.MLP(state_size, hidden_layers,
                                         num_actions, rng,
                                         name="target_network", init=init)
      self.target_network.assign(self.q_network.numpy_weights())
    self.learning_rate = learning_rate
    self.target_refit_every = target_refit_every
    self.updates = tf.Variable(0, dtype=tf.int64, name="updates")
    self.weights = self.q_network.numpy_weights()

  def loss(self, batch):
    """Half the mean squared TD error of eq. 6.1 on a batch of transitions."""
    bootstrap = (self.q_network if self.target_network is None
                 else self.target_network)
    next_values = bootstrap(batch["next_state"])
    next_values += (1.0 - batch["next_legal"]) * _ILLEGAL
    target = batch["reward"] + (1.0 - batch["done"]) * tf.reduce_max(
        next_values, axis=1)
    values = tf.gather(self.q_network(batch["state"]), batch["action"],
                       batch_dims=1)
    return 0.5 * tf.reduce_mean(tf.square(tf.stop_gradient(target) - values))

  def update(self, batch):
    """One SGD step on `batch`, then the target refit when due (graph code:
    call it inside a `tf.function`); returns the loss."""
    loss = networks.sgd_step(lambda: self.loss(batch),
                             self.q_network.weights, self.learning_rate)
    self.updates.assign_add(1)
    if (self.target_network is not None and
        self.updates % self.target_refit_every == 0):
      for target, source in zip(self.target_network.weights,
                                self.q_network.weights):
        target.assign(source)
    return loss

  def refresh(self):
    """Copies the Q-network's weights to the numpy mirror acting uses."""
    self.weights = self.q_network.numpy_weights()

  def q_values(self, states):
    return networks.forward(self.weights, states)


def epsilon_greedy(q_values, legal, epsilon):
  """Eq. 6.2 as distributions: epsilon spread uniformly over the legal actions
  (`legal` is a 0/1 mask), the rest on the best legal action."""
  best = np.argmax(np.where(legal > 0, q_values, -np.inf), axis=1)
  probs = legal * (epsilon / legal.sum(axis=1, keepdims=True))
  probs[np.arange(len(best)), best] += 1.0 - epsilon
  return probs
