"""Advantage-based Regret Minimization (ARM), a best-response learner.

Jin, Keutzer & Levine 2018, "Regret Minimization for Partially Observable
Deep Reinforcement Learning" (ICML), Alg. 1: ARM learns a value V(o) and a
clipped cumulative advantage Q+(o, a) and plays regret matching on them,

    b(a | o) proportional to max(Q+(o, a) - V(o), 0),   uniform where all are 0.

ARM iteration t fits both to a batch D_t of fresh experience:

    V_t    fitted to  G_k                                        (eq. 11)
    Q+_t   fitted to  max(Q+_{t-1}(o_k, a_k) - V_{t-1}(o_k), 0) + G_k    (eq. 12)

where G_k is the n-step return sum_{i<n} gamma^i r_{k+i} + gamma^n V'(o_{k+n})
bootstrapped from a target copy V' (reset to V at the start of an iteration
and moved towards it by tau after every step), and Q+_{t-1}, V_{t-1} are the
networks as they stood before the iteration (0 in the first). Chen et al.,
"Optimize Neural Fictitious Self-Play in Regret Minimization Thinking"
(NFSP-ARM), Alg. 1, runs ARM as NFSP's best response: its policy plays the
anticipatory episodes, M_SL keeps what it played, and an ARM iteration runs
whenever M_RL holds a batch.

What the papers leave open, the NFSP-ARM authors' code settles
(`RMFSP/arm_tf.py`, `RMFSP/main_leduc.py` in GitHub zhangli140/CCNT_HCIS,
itself after github.com/fschlatt/arm): one network with num_actions + 1
outputs (Q+ then V), n = 4 and gamma = 0.9, tau = 0.01, Adam at 8e-4, 1000
updates of minibatch 32 per iteration, an iteration per 4000 of the agent's
transitions, the sum of the two mean squared errors as loss, rewards as the
game pays them (`NFSPConfig.nfsp_arm`).

Batches: an iteration takes the `ARMConfig.iteration_steps` oldest transitions
waiting (the rest wait for the next one, so every iteration compiles to the
same shapes). Transitions of one game arrive in order; the n-step return of
each follows its game's later transitions within the batch, and where the
episode goes on past the batch's last transition of that game it bootstraps
from V' there (`n_step_targets`, a truncated n-step return). That needs each
transition's game (its records carry the "game" field): the batched driver
passes its game slots, one `step`-driven agent plays one game at a time.

The agent reaches ARM only through `nfsp_spiel.nfsp.learner`'s protocol;
`config.ARMConfig` holds its settings (no exploration schedule: regret
matching explores by itself).
"""

import numpy as np

from nfsp_spiel.core.quiet_tensorflow import tf
from nfsp_spiel.nfsp import learner
from nfsp_spiel.nfsp import networks
from nfsp_spiel.nfsp import transitions


def regret_matching(outputs, legal):
  """b(a|o) from the network's outputs [Q+(o, .), V(o)] and 0/1 legal masks:
  positive advantages normalised, uniform over the legal actions where none
  is positive."""
  advantages = np.maximum(outputs[:, :-1] - outputs[:, -1:], 0.0) * legal
  total = advantages.sum(axis=1, keepdims=True)
  uniform = legal / legal.sum(axis=1, keepdims=True)
  return np.where(total > 0, advantages / np.where(total > 0, total, 1.0),
                  uniform)


def n_step_targets(columns, records, games, n, discount):
  """Per transition of a batch: (discounted reward sum, bootstrap state,
  bootstrap weight gamma^m) of its n-step return, m <= n steps on.

  `records` are M_RL rows in arrival order, `games` the game of each; the
  next step of a transition is the next row of the same game, unless the
  transition ended its episode. The weight is 0 where the episode ended
  within n steps; where the batch holds fewer than n further steps of a
  running episode the return stops at the last one held (and bootstraps
  from its next state).
  """
  count = len(records)
  field = {name: records[:, start:stop] for name, (start, stop)
           in columns.items()}
  rewards = field["reward"][:, 0].astype(np.float64)
  done = field["done"][:, 0] > 0
  order = np.lexsort((np.arange(count), games))  # by game, then arrival
  following = np.full(count, -1)
  same_game = games[order[1:]] == games[order[:-1]]
  linked = same_game & ~done[order[:-1]]
  following[order[:-1][linked]] = order[1:][linked]
  total = np.zeros(count)
  weight = np.ones(count)
  current = np.arange(count)
  active = np.ones(count, bool)  # still summing rewards
  for step in range(n):
    total[active] += weight[active] * rewards[current[active]]
    weight[active] *= discount
    ended = active & done[current]
    weight[ended] = 0.0
    active &= ~ended
    stop = active & ((following[current] < 0) | (step == n - 1))
    active &= ~stop
    current[active] = following[current[active]]
  # `current` is now each return's last transition: bootstrap from its s'.
  return (total.astype(np.float32), field["next_state"][current],
          weight.astype(np.float32))


class ARM:
  """ARM as NFSP's best-response learner; see the module docstring.
  `config` is the agent's `NFSPConfig` (its `best_response` an
  `ARMConfig`)."""

  def __init__(self, state_size, num_actions, config, rng):
    self.config = config
    self.settings = config.best_response
    self.num_actions = num_actions
    hidden, init = config.hidden_layers, config.init
    self.network = networks.MLP(state_size, hidden, num_actions + 1, rng,
                                name="arm_network", init=init)
    self.target_network = networks.MLP(state_size, hidden, num_actions + 1,
                                       rng, name="arm_target_network",
                                       init=init)
    self.target_network.assign(self.network.numpy_weights())
    self.optimizer = networks.Adam(self.network.weights,
                                   self.settings.learning_rate)
    self.updates = tf.Variable(0, dtype=tf.int64, name="updates")
    self.iterations = tf.Variable(0, dtype=tf.int64, name="iterations")
    self.weights = self.network.numpy_weights()
    self.columns = transitions.record_columns(state_size, num_actions)
    self._record_size = 2 * state_size + 4 + num_actions  # + the game
    self._rng = rng
    self.waiting = np.zeros((0, self._record_size), np.float32)

  # ---- learning ----

  def record_fields(self):
    return transitions.FIELDS  # with the game: n-step returns follow it

  def add(self, records):
    self.waiting = np.concatenate([self.waiting,
                                   np.asarray(records, np.float32)])

  @property
  def memory(self):
    """M_RL: the transitions waiting for an iteration."""
    return self.waiting

  @property
  def record_size(self):
    return self._record_size

  def learning_batches(self, calls):
    """One iteration's inputs once `iteration_steps` transitions wait
    (however many learning calls fell due): states, actions, n-step reward
    sums, bootstrap states and weights, and the minibatch rows."""
    del calls  # iterations follow the experience, not the learning calls
    settings = self.settings
    if len(self.waiting) < settings.iteration_steps:
      return []
    batch = self.waiting[:settings.iteration_steps]
    self.waiting = self.waiting[settings.iteration_steps:]
    records, games = batch[:, :-1], batch[:, -1].astype(np.int64)
    returns, bootstrap_states, bootstrap_weights = n_step_targets(
        self.columns, records, games, settings.n_step, settings.discount)
    start, stop = self.columns["state"]
    rows = self._rng.integers(0, len(batch), (settings.updates,
                                               settings.batch_size))
    return [records[:, start:stop],
            records[:, self.columns["action"][0]].astype(np.int32),
            returns, bootstrap_states, bootstrap_weights, rows.astype(np.int32)]

  def learning_specs(self, calls):
    del calls
    settings = self.settings
    count, size = settings.iteration_steps, self.columns["state"][1]
    return [tf.TensorSpec((count, size), tf.float32),
            tf.TensorSpec((count,), tf.int32),
            tf.TensorSpec((count,), tf.float32),
            tf.TensorSpec((count, size), tf.float32),
            tf.TensorSpec((count,), tf.float32),
            tf.TensorSpec((settings.updates, settings.batch_size),
                          tf.int32)]

  def learn(self, states, actions, returns, bootstrap_states,
            bootstrap_weights, rows):
    """One ARM iteration (graph code); returns the last step's loss."""
    return learner.learn_in_place(self, states, actions, returns,
                                  bootstrap_states, bootstrap_weights, rows)

  def learning_variables(self):
    return [*self.network.weights, *self.target_network.weights,
            *self.optimizer.state(), self.updates, self.iterations]

  def learning_settings(self):
    return {"learning_rate": np.float32(self.settings.learning_rate),
            "target_tau": np.float32(self.settings.target_tau)}

  def learning_step(self, values, settings, calls, states, actions, returns,
                    bootstrap_states, bootstrap_weights, rows):
    """One ARM iteration: targets from the network as it stands, the target
    copy V' reset to it, then `updates` Adam steps, each moving V' towards
    the network by tau (`calls` 0: none, the values stay)."""
    count = len(self.network.weights)
    weights, optimizer = values[:count], values[2 * count:-2]
    updates, iterations = values[-2:]
    carried = self.carried_advantages(states, actions, weights, iterations)
    tau = settings["target_tau"]

    def step(update, weights, targets, optimizer, loss):
      del loss
      batch = rows[update]
      value_targets, advantage_targets = self.targets(
          tf.gather(carried, batch), tf.gather(returns, batch),
          tf.gather(bootstrap_states, batch),
          tf.gather(bootstrap_weights, batch), targets)
      loss, weights, optimizer = networks.adam_update(
          lambda w: self.loss(tf.gather(states, batch),
                              tf.gather(actions, batch), value_targets,
                              advantage_targets, w),
          weights, optimizer, settings["learning_rate"])
      targets = [t + tau * (s - t) for t, s in zip(targets, weights)]
      return update + 1, weights, targets, optimizer, loss

    steps = tf.shape(rows)[0]
    _, weights, targets, optimizer, loss = tf.while_loop(
        lambda update, *_: update < steps, step,
        (tf.constant(0), weights, list(weights), optimizer,
         tf.constant(0.0)))
    new = [*weights, *targets, *optimizer,
           updates + tf.cast(steps, tf.int64), iterations + 1]
    return learner.select(None if calls is None else calls > 0, new,
                          values), loss

  def carried_advantages(self, states, actions, weights=None,
                         iterations=None):
    """max(Q+_{t-1}(o, a) - V_{t-1}(o), 0) of eq. 12 from the network as it
    stands before iteration t (`weights`, default the network's); 0 in the
    first (Q+_0 = 0)."""
    weights = self.network.weights if weights is None else weights
    iterations = self.iterations if iterations is None else iterations
    outputs = networks.outputs(weights, states, self.config.precision)
    advantage = tf.gather(outputs, actions, batch_dims=1) - outputs[:, -1]
    return tf.where(iterations > 0, tf.nn.relu(advantage), 0.0)

  def targets(self, carried, returns, bootstrap_states, bootstrap_weights,
              target_weights=None):
    """(V target, Q+ target) of eq. 11 and 12: the n-step return, bootstrapped
    from the target copy V' (`target_weights`, default the target
    network's), and that plus the carried advantage."""
    if target_weights is None:
      target_weights = self.target_network.weights
    value_targets = returns + bootstrap_weights * networks.outputs(
        target_weights, bootstrap_states, self.config.precision)[:, -1]
    return value_targets, carried + value_targets

  def loss(self, states, actions, value_targets, advantage_targets,
           weights=None):
    """Mean squared error of V plus that of Q+ at the taken actions."""
    outputs = networks.outputs(
        self.network.weights if weights is None else weights, states,
        self.config.precision)
    values = outputs[:, -1]
    advantages = tf.gather(outputs, actions, batch_dims=1)
    return (tf.reduce_mean(tf.square(tf.stop_gradient(value_targets) - values))
            + tf.reduce_mean(tf.square(
                tf.stop_gradient(advantage_targets) - advantages)))

  def acting_variables(self):
    return self.network.weights

  def set_acting_weights(self, weights):
    self.weights = weights

  # ---- acting: ARM's policy is regret matching, in training and evaluation

  def outputs(self, states):
    """[Q+(o, .), V(o)] per state, from the numpy mirror."""
    return networks.forward(self.weights, states)

  def behaviour_probabilities(self, states, legal, steps):
    del steps  # regret matching explores by itself (Alg. 1 has no epsilon)
    return regret_matching(self.outputs(states), legal)

  def policy_probabilities(self, states, legal):
    return regret_matching(self.outputs(states), legal)

  # ---- checkpoints ----

  def memory_arrays(self):
    return {"waiting": self.waiting}

  def load_memory_arrays(self, arrays):
    self.waiting = np.asarray(arrays["waiting"], np.float32).reshape(
        -1, self._record_size)

  def networks(self):
    return {"arm_network": self.network,
            "arm_target_network": self.target_network}

  def state_arrays(self):
    arrays = {f"adam_{i}": a for i, a in
              enumerate(self.optimizer.numpy_state())}
    arrays["iterations"] = np.array(int(self.iterations.numpy()))
    return arrays

  def load_state_arrays(self, arrays):
    count = len(self.optimizer.numpy_state())
    self.optimizer.assign([arrays[f"adam_{i}"] for i in range(count)])
    self.iterations.assign(int(arrays["iterations"]))
    self.weights = self.network.numpy_weights()
