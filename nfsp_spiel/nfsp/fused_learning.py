"""Several NFSP agents' learning calls in one compiled (XLA) call.

A learning call of the papers' small networks costs more in TensorFlow's
dispatch than in arithmetic (BUILD_NOTES, "NFSP: where the time goes and why
it is built so"), so the drivers make every call that fell due in a lockstep, all
players' and both networks' of each, in one compiled function. Each agent
first samples its batches (in order, so the random streams are those of
learning one agent at a time), then every part makes its updates in order:
the best-response learner, then the average policy.

`FusedLearning` owns the compiled functions, one per shape of call (which
agents, how many calls, which parts have data); a driver holds one.
"""

import concurrent.futures
import weakref

from nfsp_spiel.core.quiet_tensorflow import tf

MOST_CALLS = 8  # learning calls of an agent per compiled call, in groups


def call_groups(due):
  """Splits each agent's due learning calls into groups of a power of two
  (up to `MOST_CALLS`) calls, the same for every agent with calls left:
  each group shape compiles once, and counts that vary from one chunk of
  locksteps to the next then compile few shapes."""
  due = list(due)
  while any(due):
    least = min(d for d in due if d)
    size = min(MOST_CALLS, 1 << (least.bit_length() - 1))
    yield [size if d else 0 for d in due]
    due = [d - size if d else 0 for d in due]


class FusedLearning:
  """Makes agents' due learning calls in one compiled call; see the module
  docstring."""

  def __init__(self):
    self._functions = {}  # call shape -> concrete function

  def learn(self, agents, calls):
    """Makes `calls[i]` learning calls of `agents[i]` for every i."""
    call = self.prepare(agents, calls)
    if call is not None:
      call.take(call.run())

  def learn_in_groups(self, agents, calls):
    """`learn(agents, calls)` made as `call_groups(calls)`: for the calls
    of several locksteps at once (an agent's calls stay in order)."""
    for group in call_groups(calls):
      self.learn(agents, group)

  def prepare(self, agents, calls):
    """The `PreparedCall` of `learn(agents, calls)`, its batches drawn (from
    the agents' random streams) and its function compiled; None where no
    part can learn yet."""
    plans = []
    for agent, count in zip(agents, calls):
      if not count:
        continue
      agent.store()
      inputs = [part.learning_batches(count)
                for part in agent.learning_parts()]
      ready = tuple(bool(batches) for batches in inputs)
      if any(ready):
        plans.append((agent, count, ready, inputs))
    if not plans:
      return None
    signature = tuple((id(agent), count, ready)
                      for agent, count, ready, _ in plans)
    if signature not in self._functions:
      self._functions[signature] = _compile(plans)
    # Tensors, not numpy arrays: a concrete function binds numpy arguments
    # through a path that costs ~0.15 ms each, `tf.constant` ~0.02 ms.
    batches = [tf.constant(batch) for *_, inputs in plans
               for part_inputs in inputs for batch in part_inputs]
    return PreparedCall(self._functions[signature], plans, batches)


class PreparedCall:
  """One compiled learning call with its batches: `run` computes the
  updates (TensorFlow only, no agent state but the networks' variables:
  safe in another thread), `take` hands each agent its losses and new
  acting weights."""

  def __init__(self, function, plans, batches):
    self._function, self._plans, self._batches = function, plans, batches

  def run(self):
    with self._plans[0][0].placement():
      return self._function(*self._batches)

  def take(self, outputs):
    for (agent, _, ready, _), (losses, weights) in zip(self._plans, outputs):
      agent.take_learning(ready, losses, weights)


class BackgroundLearning:
  """A chunk's learning calls made in a thread while the driver plays the
  next chunk: `submit` prepares the calls (in the caller's thread, so the
  batches come from the agents' random streams in the same order), takes
  the previous chunk's results, and starts these; `wait` takes them. Acting
  weights then lag by one more chunk. The thread runs TensorFlow alone
  (which releases the GIL), so acting, the games and the calls overlap
  (BUILD_NOTES, "Limit Hold'em's learning on a CPU's matrix units")."""

  def __init__(self, learning):
    self._learning = learning
    self._executor = concurrent.futures.ThreadPoolExecutor(
        1, thread_name_prefix="nfsp-learning")
    self._pending = None  # (prepared calls, their future)

  def submit(self, agents, calls):
    """Starts `learn_in_groups(agents, calls)`' calls after taking the
    previous chunk's."""
    prepared = [call for group in call_groups(calls)
                if (call := self._learning.prepare(agents, group))]
    self.wait()
    if prepared:
      self._pending = (prepared, self._executor.submit(
          lambda: [call.run() for call in prepared]))

  def wait(self):
    """Takes the results of the calls started last, if any."""
    if self._pending is None:
      return
    prepared, future = self._pending
    self._pending = None
    for call, outputs in zip(prepared, future.result()):
      call.take(outputs)


def _compile(plans):
  """The XLA-compiled learning call of `plans`, as a concrete function
  (calling one costs half a `tf.function`'s dispatch)."""
  specs, layout = [], []
  for agent, count, ready, _ in plans:
    parts = []
    for part, part_ready in zip(agent.learning_parts(), ready):
      if part_ready:
        part_specs = part.learning_specs(count)
        specs += part_specs
        parts.append((part, len(part_specs)))
      else:
        parts.append((part, None))
    layout.append((agent, parts))

  def learn(*batches):
    batches, outputs = list(batches), []
    for agent, parts in layout:
      losses, weights = [], []
      with agent.placement():
        for part, inputs in parts:
          if inputs is None:
            losses.append(None)
            weights.append(None)
            continue
          part_batches, batches = batches[:inputs], batches[inputs:]
          losses.append(part.learn(*part_batches))
          weights.append([tf.identity(v) for v in part.acting_variables()])
      outputs.append((losses, weights))
    return outputs

  # XLA's CPU backend does not use bfloat16 units, TensorFlow's own kernels
  # (oneDNN, cuBLAS) do (BUILD_NOTES, "Mixed precision").
  bfloat16 = any(agent.config.precision == "bfloat16" for agent, *_ in plans)
  return tf.function(learn, input_signature=specs,
                     jit_compile=not bfloat16).get_concrete_function()


_ONE_OFF = weakref.WeakKeyDictionary()  # first agent -> its FusedLearning


def learn_together(agents, calls):
  """`FusedLearning().learn(agents, calls)` for callers without a driver
  (an agent's own `learn`); the compiled functions are kept while
  `agents[0]` lives."""
  if agents:
    _ONE_OFF.setdefault(agents[0], FusedLearning()).learn(agents, calls)
