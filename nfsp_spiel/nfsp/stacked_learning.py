"""The learning calls of a population's members in one compiled call, their
networks' weights stacked.

A population (`nfsp_spiel.nfsp.population`) trains K independent NFSP runs
of the same network shapes. Per player and learning part, this module holds
the K members' learning variables stacked ([K, ...] each) and makes every
member's due learning calls with one compiled (XLA) call in which each
part's `learning_step` (`nfsp_spiel.nfsp.learner`) is vectorised over the
members (`tf.vectorized_map`: batched matrix products over K, not K chains).
Each member samples its own batches from its own memories with its own
random stream, as it would alone; members whose calls are fewer than the
most any member makes this lockstep get padding rows, and the step leaves
their values as they were for those rows (`learner.select`).

The stacked variables are the members' weights while the population trains;
`write_back` copies them into each member's own variables (before a
checkpoint), `reload` stacks the members' variables again (after a restore).

Floating point: XLA may sum a reduction over a batch axis (a bias gradient,
a batch mean) in an order that depends on the stacked shape, so a member's
updates may differ from a single run's in the last bits: measured, NFSP-ARM
members' weights (Adam steps) after 1,500 Leduc episodes by 1.5e-8 at most,
and a prototype's first-layer bias gradient on random data; DQN members'
weights on Leduc were equal to the bit (`tests/nfsp/test_population.py`).
Everything else a member does (its games, actions, memories and random
draws) is a single run's until such a difference first changes a sampled
action.
"""

import numpy as np

from nfsp_spiel.core.quiet_tensorflow import tf

# Members' settings that must be equal: they set the stacked shapes.
SHAPE_FIELDS = ("hidden_layers", "batch_size", "updates_per_learn",
                "memory_dtype", "precision")


def check_stackable(configs):
  """Raises ValueError naming the first setting in which the members'
  `NFSPConfig`s differ where that changes a stacked shape."""
  first = configs[0]
  for k, config in enumerate(configs[1:], 1):
    mine, theirs = config.best_response, first.best_response
    if type(mine) is not type(theirs):
      raise ValueError(f"population member {k} learns with {mine.kind}, "
                       f"member 0 with {theirs.kind}: one learner per "
                       "population")
    for name in SHAPE_FIELDS:
      if getattr(config, name) != getattr(first, name):
        raise ValueError(
            f"population member {k} has {name}={getattr(config, name)!r}, "
            f"member 0 {getattr(first, name)!r}: members must share every "
            f"setting that sets a network or batch shape ({SHAPE_FIELDS}, "
            "the best-response learner's kind and shapes)")
    for name, value in mine.shapes().items():
      if value != theirs.shapes()[name]:
        raise ValueError(
            f"population member {k} has {mine.kind} {name}={value!r}, member"
            f" 0 {theirs.shapes()[name]!r}: members must share it (it sets a "
            "shape or the learning graph)")


class StackedPart:
  """One learning part of one player across the members: the stacked
  variables and settings."""

  def __init__(self, parts):
    self.parts = parts
    self.variables = [tf.Variable(value) for value in self._stack()]
    settings = [part.learning_settings() for part in parts]
    self.settings = {name: np.stack([s[name] for s in settings])
                     for name in settings[0]}
    learning = parts[0].learning_variables()
    self.acting = [next(i for i, v in enumerate(learning) if v is variable)
                   for variable in parts[0].acting_variables()]

  def _stack(self):
    return [np.stack(values) for values in zip(
        *[[v.numpy() for v in part.learning_variables()]
          for part in self.parts])]

  def reload(self):
    for variable, value in zip(self.variables, self._stack()):
      variable.assign(value)

  def write_back(self):
    values = [v.numpy() for v in self.variables]
    for k, part in enumerate(self.parts):
      for variable, value in zip(part.learning_variables(), values):
        variable.assign(value[k])

  def learn(self, calls, *batches):
    """Graph code: every member's `calls[k]` learning calls on its slice of
    `batches`; returns (losses [K], new acting weights stacked)."""
    settings = {k: tf.constant(v) for k, v in self.settings.items()}
    step = self.parts[0].learning_step
    values, losses = tf.vectorized_map(
        lambda args: step(args[0], args[1], args[2], *args[3]),
        ([v.read_value() for v in self.variables], settings, calls,
         list(batches)), fallback_to_while_loop=False)
    for variable, value in zip(self.variables, values):
      variable.assign(value)
    return losses, [values[i] for i in self.acting]


class StackedLearning:
  """Makes the members' due learning calls in one compiled call;
  `agents[k][p]` is member k's agent of player p."""

  def __init__(self, agents):
    self.agents = agents
    check_stackable([member[0].config for member in agents])
    with agents[0][0].placement():
      self.parts = [[StackedPart([member[p].learning_parts()[i]
                                  for member in agents])
                     for i in range(len(agents[0][p].learning_parts()))]
                    for p in range(len(agents[0]))]
    self._functions = {}  # call shape -> concrete function

  def write_back(self):
    """Copies the stacked weights into every member's own variables."""
    for player in self.parts:
      for part in player:
        part.write_back()

  def reload(self):
    """Stacks the members' own variables again (after a restore)."""
    for player in self.parts:
      for part in player:
        part.reload()

  def learn(self, calls):
    """`calls[k][p]` learning calls of member k's agent of player p."""
    members = len(self.agents)
    # Per player and part: each member's batches (or None) and calls.
    plans, signature, arguments = [], [], []
    for p, player_parts in enumerate(self.parts):
      inputs = [[None] * members for _ in player_parts]
      for k, member in enumerate(self.agents):
        if not calls[k][p]:
          continue
        agent = member[p]
        agent.store()
        for i, part in enumerate(agent.learning_parts()):
          batches = part.learning_batches(calls[k][p])
          if batches:
            inputs[i][k] = batches
      for i, part_inputs in enumerate(inputs):
        ready = [k for k in range(members) if part_inputs[k] is not None]
        if not ready:
          signature.append(0)
          continue
        most = max(calls[k][p] for k in ready)
        specs = player_parts[i].parts[0].learning_specs(most)
        part_calls = np.zeros(members, np.int32)
        part_calls[ready] = [calls[k][p] for k in ready]
        stacked = [np.zeros((members, *spec.shape), spec.dtype.as_numpy_dtype)
                   for spec in specs]
        for k in ready:
          for array, batch in zip(stacked, part_inputs[k]):
            array[k, :len(batch)] = batch
        arguments += [tf.constant(part_calls)] + [tf.constant(a)
                                                  for a in stacked]
        plans.append((p, i, ready, specs))
        signature.append(most)
    if not plans:
      return
    signature = tuple(signature)
    if signature not in self._functions:
      self._functions[signature] = self._compile(plans)
    with self.agents[0][0].placement():
      outputs = self._functions[signature](*arguments)
    self._take(plans, outputs)

  def _take(self, plans, outputs):
    """Hands each member's agents their parts' losses and acting weights."""
    num_parts = [len(player) for player in self.parts]
    taken = {}  # (k, p) -> ([ready per part], [loss], [weights])
    for (p, i, ready, _), (losses, weights) in zip(plans, outputs):
      losses, weights = losses.numpy(), [w.numpy() for w in weights]
      for k in ready:
        entry = taken.setdefault((k, p), ([False] * num_parts[p],
                                          [None] * num_parts[p],
                                          [None] * num_parts[p]))
        entry[0][i], entry[1][i] = True, losses[k]
        entry[2][i] = [w[k] for w in weights]
    for (k, p), (ready, losses, weights) in sorted(taken.items()):
      self.agents[k][p].take_learning(tuple(ready), losses, weights)

  def _compile(self, plans):
    """The compiled call of `plans`, as a concrete function."""
    specs, members = [], len(self.agents)
    for _, _, _, part_specs in plans:
      specs.append(tf.TensorSpec((members,), tf.int32))
      specs += [tf.TensorSpec((members, *s.shape), s.dtype)
                for s in part_specs]

    def learn(*arguments):
      arguments, outputs = list(arguments), []
      for p, i, _, part_specs in plans:
        count = 1 + len(part_specs)
        part_arguments, arguments = arguments[:count], arguments[count:]
        outputs.append(self.parts[p][i].learn(*part_arguments))
      return outputs

    # As `fused_learning`: bfloat16 products skip XLA, whose CPU backend
    # does not use the bfloat16 units (members share their precision).
    bfloat16 = self.agents[0][0].config.precision == "bfloat16"
    return tf.function(learn, input_signature=specs,
                       jit_compile=not bfloat16).get_concrete_function()
