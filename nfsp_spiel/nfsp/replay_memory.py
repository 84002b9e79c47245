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

All expose `state()` / `load_state()` for checkpoints. `BitRows` stores
rows whose 0/1 columns take a bit each (LHE's 288 inputs in 36 bytes), for
the paper's 30m-record M_SL and 600k-transition M_RL.
"""

import numpy as np


class _Memory:
  """Preallocated record storage shared by the memories.

  `add_batch` takes a batch of records (arrays with a leading batch axis) and
  treats them exactly as if they had been added one at a time in order; `add`
  is a batch of one.
  """

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

  def add(self, **record):
    self.add_batch(**{name: np.asarray(value)[None]
                      for name, value in record.items()})

  def add_batch(self, **records):
    count = len(next(iter(records.values())))
    if not count:
      return
    # The stream positions (1-based) of the records offered.
    position = self.seen + 1 + np.arange(count)
    self.seen += count
    slots = self._slots(position)
    kept = slots >= 0
    for name, values in records.items():
      # Repeated slots in one batch: numpy keeps the last write, as adding
      # the records one by one would.
      self.fields[name][slots[kept]] = np.asarray(values)[kept]
    self.size = min(self.capacity, self.seen)

  def _slots(self, position):
    """The slot each record goes to (-1: discarded); records that fit while
    the memory fills take the next free slot."""
    raise NotImplementedError

  def sample(self, batch_size):
    """Records drawn with replacement; `batch_size` may be a shape such as
    (updates, batch), giving arrays of shape (*batch_size, ...)."""
    if not self.size:
      raise ValueError("cannot sample from an empty memory")
    index = self._rng.integers(self.size, size=batch_size)
    return {name: values[index] for name, values in self.fields.items()}

  def __len__(self):
    return self.size

  def state(self):
    """Arrays and counters for a checkpoint (the memory's RNG is its
    owner's): only the filled part of each field."""
    return {"size": self.size, "seen": self.seen, **{
        f"field_{name}": values[:self.size]
        for name, values in self.fields.items()}}

  def load_state(self, state):
    size, seen = int(state["size"]), int(state["seen"])
    if size > self.capacity:
      raise ValueError(f"the checkpoint holds {size} records, more than this "
                       f"memory's capacity={self.capacity}")
    self.size, self.seen = size, seen
    for name in self.fields:
      self.fields[name][:size] = state[f"field_{name}"]


class CircularBuffer(_Memory):
  """The most recent `capacity` records."""

  def _slots(self, position):
    return (position - 1) % self.capacity


class Reservoir(_Memory):
  """A uniform random sample of all records offered (Vitter's Algorithm R)."""

  def _slots(self, position):
    # Record k replaces a uniform slot of k candidates: kept w.p. n / k.
    slots = np.floor(self._rng.random(len(position)) * position).astype(
        np.int64)
    filling = position <= self.capacity
    slots[filling] = position[filling] - 1
    slots[slots >= self.capacity] = -1
    return slots


class ExponentialReservoir(_Memory):
  """A reservoir whose replacement probability never falls below a minimum."""

  def __init__(self, capacity, shapes, rng, min_probability=0.25):
    super().__init__(capacity, shapes, rng)
    if not 0.0 < min_probability <= 1.0:
      raise ValueError(f"min_probability={min_probability}: must be in (0, 1]")
    self.min_probability = min_probability

  def _slots(self, position):
    keep = np.maximum(self.min_probability, self.capacity / position)
    slots = self._rng.integers(self.capacity, size=len(position))
    slots[self._rng.random(len(position)) >= keep] = -1
    filling = position <= self.capacity
    slots[filling] = position[filling] - 1
    return slots



class BitRows:
  """Float rows stored compactly: the `binary` columns (0/1: the papers'
  encodings, legal masks, done flags) one bit each, the other columns as
  their float32 bytes, all in one uint8 row (M_RL's LHE transition: 81
  bytes instead of 2328; M_SL's record: 40 instead of 289 as bytes).
  `what` names the setting in the error a non-binary value raises."""

  def __init__(self, width, binary, what="memory_dtype='bits'"):
    self.width = width
    self.binary = np.asarray(binary, np.int64)
    self.other = np.setdiff1d(np.arange(width), self.binary)
    self._bit_bytes = (len(self.binary) + 7) // 8
    self.packed_width = self._bit_bytes + 4 * len(self.other)
    self._what = what

  def pack(self, rows):
    rows = np.asarray(rows)
    bits = rows[..., self.binary]
    if not np.array_equal(bits, bits.astype(bool)):
      bad = bits[(bits != 0) & (bits != 1)].flat[0]
      raise ValueError(f"{self._what} stores 0/1 states one bit each; a "
                       f"state holds {bad}: use memory_dtype 'uint8' or "
                       "'float32'")
    rest = np.ascontiguousarray(rows[..., self.other], np.float32)
    return np.concatenate([np.packbits(bits.astype(bool), axis=-1),
                           rest.view(np.uint8)], axis=-1)

  def unpack(self, packed):
    """float32 rows of `width` columns from `pack`'s rows (any leading
    shape, e.g. a minibatch's (updates, batch))."""
    rows = np.empty((*packed.shape[:-1], self.width), np.float32)
    rows[..., self.binary] = np.unpackbits(
        packed[..., :self._bit_bytes], axis=-1, count=len(self.binary))
    rows[..., self.other] = np.ascontiguousarray(
        packed[..., self._bit_bytes:]).view(np.float32)
    return rows
