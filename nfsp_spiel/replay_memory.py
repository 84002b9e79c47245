"""Replay memories for NFSP: circular buffer, reservoir, exponential reservoir.

Heinrich & Silver 2016 (NFSP), sec. 3 and 4; Heinrich's thesis sec. 5.4.3 and
6.4. Each memory stores fixed-size records (numpy arrays of any shapes) in
preallocated arrays and samples minibatches *with replacement* by index
arithmetic (OpenSpiel's `np.random.choice(..., replace=False)` costs ~2 ms
per batch at 200k entries):

* `CircularBuffer`: the latest `capacity` records (M_RL; the sliding-window
  M_SL of the paper's ablation);
* `Reservoir`: a uniform sample of everything ever added (Vitter 1985's
  Algorithm R), the paper's M_SL for Leduc;
* `ExponentialReservoir`: a new record always enters with probability at
  least `min_probability` (Osborne et al. 2014), so old records decay
  exponentially once `capacity / min_probability` records have been seen;
  the paper's M_SL for Limit Hold'em (minimum probability 0.25).

All expose `state()` / `load_state()` for checkpoints.
"""

import numpy as np


class _Memory:
  """Preallocated record storage shared by the memories."""

  def __init__(self, capacity, shapes, rng):
    if capacity < 1:
      raise ValueError(f"capacity={capacity}: a memory must hold at least one "
                       "record")
    self.capacity = capacity
    self.fields = {name: np.zeros((capacity, *shape), dtype)
                   for name, (shape, dtype) in shapes.items()}
    self.size = 0
    self.seen = 0  # records offered so far
    self._rng = rng

  def _write(self, index, record):
    for name, value in record.items():
      self.fields[name][index] = value

  def _offer(self, record):
    """Counts `record` and stores it if there is room; True if it was."""
    self.seen += 1
    if self.size < self.capacity:
      self._write(self.size, record)
      self.size += 1
      return True
    return False

  def sample(self, batch_size):
    """A minibatch of `batch_size` records drawn with replacement."""
    if not self.size:
      raise ValueError("cannot sample from an empty memory")
    index = self._rng.integers(self.size, size=batch_size)
    return {name: values[index] for name, values in self.fields.items()}

  def __len__(self):
    return self.size

  def state(self):
    """Arrays and counters for a checkpoint (with the memory's own RNG)."""
    return {"size": self.size, "seen": self.seen, **{
        f"field_{name}": values for name, values in self.fields.items()}}

  def load_state(self, state):
    self.size, self.seen = int(state["size"]), int(state["seen"])
    for name in self.fields:
      self.fields[name][:] = state[f"field_{name}"]


class CircularBuffer(_Memory):
  """The most recent `capacity` records."""

  def add(self, **record):
    self._write(self.seen % self.capacity, record)
    self.seen += 1
    self.size = min(self.size + 1, self.capacity)


class Reservoir(_Memory):
  """A uniform random sample of all records offered (Vitter's Algorithm R)."""

  def add(self, **record):
    if self._offer(record):
      return
    index = self._rng.integers(self.seen)  # keep with probability n / seen
    if index < self.capacity:
      self._write(index, record)


class ExponentialReservoir(_Memory):
  """A reservoir whose replacement probability never falls below a minimum."""

  def __init__(self, capacity, shapes, rng, min_probability=0.25):
    super().__init__(capacity, shapes, rng)
    if not 0.0 < min_probability <= 1.0:
      raise ValueError(f"min_probability={min_probability}: must be in (0, 1]")
    self.min_probability = min_probability

  def add(self, **record):
    if self._offer(record):
      return
    keep = max(self.min_probability, self.capacity / self.seen)
    if self._rng.random() < keep:
      self._write(self._rng.integers(self.capacity), record)
