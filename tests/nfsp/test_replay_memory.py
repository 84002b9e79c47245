"""Replay memories: contents, sampling distributions, checkpoints, input."""

import numpy as np
import pytest

from nfsp_spiel.nfsp import replay_memory

SHAPES = {"info_state": ((3,), np.float32), "action": ((), np.int64)}


def _fill(memory, count):
  for i in range(count):
    memory.add(info_state=np.full(3, i, np.float32), action=i)


def test_circular_buffer_keeps_the_latest():
  memory = replay_memory.CircularBuffer(5, SHAPES, np.random.default_rng(0))
  _fill(memory, 12)
  assert len(memory) == 5 and memory.seen == 12
  assert sorted(memory.fields["action"]) == [7, 8, 9, 10, 11]
  batch = memory.sample(1000)
  assert batch["info_state"].shape == (1000, 3)
  assert set(batch["action"]) == {7, 8, 9, 10, 11}


def test_reservoir_is_a_uniform_sample_of_the_stream():
  """Each of 100 items survives in a 10-slot reservoir with probability 0.1."""
  kept = np.zeros(100)
  for seed in range(2000):
    memory = replay_memory.Reservoir(10, SHAPES, np.random.default_rng(seed))
    _fill(memory, 100)
    kept[memory.fields["action"]] += 1
  np.testing.assert_allclose(kept / 2000, 0.1, atol=0.025)
  # Early and late items equally likely.
  assert abs(kept[:50].mean() - kept[50:].mean()) / 2000 < 0.01


def test_exponential_reservoir_favours_recent_items():
  """Past n / p items, a new item enters with probability p and then loses
  its slot with probability p / n per add: survival p (1 - p / n)^age."""
  survived = np.zeros(400)
  for seed in range(500):
    memory = replay_memory.ExponentialReservoir(
        20, SHAPES, np.random.default_rng(seed), min_probability=0.25)
    _fill(memory, 400)
    survived[memory.fields["action"]] += 1
  survival = survived / 500
  ages = 399 - np.arange(400)
  expected = 0.25 * (1 - 0.25 / 20) ** ages  # items added after n / p = 80
  # Averaged over bins of 20 items (500 runs: per-item noise is ~0.02).
  np.testing.assert_allclose(survival[200:].reshape(10, 20).mean(1),
                             expected[200:].reshape(10, 20).mean(1),
                             atol=0.015)
  assert survival[100:150].mean() < survival[350:].mean() / 5


def test_checkpoint_round_trip():
  memory = replay_memory.Reservoir(10, SHAPES, np.random.default_rng(0))
  _fill(memory, 25)
  other = replay_memory.Reservoir(10, SHAPES, np.random.default_rng(0))
  other.load_state(memory.state())
  assert other.seen == 25 and len(other) == 10
  np.testing.assert_array_equal(other.fields["action"],
                                memory.fields["action"])


def test_bad_input():
  with pytest.raises(ValueError, match="capacity=0"):
    replay_memory.CircularBuffer(0, SHAPES, np.random.default_rng(0))
  with pytest.raises(ValueError, match="min_probability=1.5"):
    replay_memory.ExponentialReservoir(5, SHAPES, np.random.default_rng(0),
                                       min_probability=1.5)
  with pytest.raises(ValueError, match="empty memory"):
    replay_memory.Reservoir(5, SHAPES, np.random.default_rng(0)).sample(4)


@pytest.mark.parametrize("kind", ["reservoir", "exponential"])
def test_batched_adds_keep_the_inclusion_probabilities(kind):
  """Adding the stream in batches of 7 keeps each record with the same
  probability as adding it alone: 10/100 for the reservoir, p (1 - p/n)^age
  for the exponential one (fixed seeds, 2000 runs)."""
  kept = np.zeros(100)
  for seed in range(2000):
    rng = np.random.default_rng(seed)
    memory = (replay_memory.Reservoir(10, SHAPES, rng) if kind == "reservoir"
              else replay_memory.ExponentialReservoir(10, SHAPES, rng, 0.25))
    for start in range(0, 100, 7):
      actions = np.arange(start, min(start + 7, 100))
      memory.add_batch(info_state=np.repeat(actions[:, None], 3, axis=1),
                       action=actions)
    assert memory.seen == 100 and len(memory) == 10
    kept[memory.fields["action"]] += 1
  if kind == "reservoir":
    expected = np.full(100, 0.1)
  else:  # items after n / p = 40 enter w.p. p, then survive each add w.p.
    expected = 0.25 * (1 - 0.25 / 10) ** (99 - np.arange(100))
    kept, expected = kept[40:], expected[40:]
  np.testing.assert_allclose((kept / 2000).reshape(-1, 10).mean(1),
                             expected.reshape(-1, 10).mean(1), atol=0.02)


@pytest.mark.parametrize("width,binary", [(2, [0]), (9, range(8)),
                                          (14, range(13)),
                                          (582, list(range(288)) +
                                           list(range(290, 582)))])
def test_bit_rows_round_trip(width, binary):
  rng = np.random.default_rng(width)
  rows = rng.normal(size=(50, width)).astype(np.float32)
  binary = list(binary)
  rows[:, binary] = rng.integers(0, 2, (50, len(binary)))
  codec = replay_memory.BitRows(width, binary)
  packed = codec.pack(rows)
  assert packed.dtype == np.uint8 and packed.shape == (50, codec.packed_width)
  assert codec.packed_width == (len(binary) + 7) // 8 + 4 * (width -
                                                           len(binary))
  np.testing.assert_array_equal(codec.unpack(packed), rows)
  # Minibatch shapes (updates, batch, row) unpack along the last axis.
  np.testing.assert_array_equal(codec.unpack(packed.reshape(5, 10, -1)),
                                rows.reshape(5, 10, -1))
  bad = rows.copy()
  bad[0, binary[-1]] = 0.5
  with pytest.raises(ValueError, match="memory_dtype='bits' stores 0/1 "
                     "states one bit each; a state holds 0.5"):
    codec.pack(bad)
