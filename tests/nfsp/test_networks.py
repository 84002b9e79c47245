"""NFSPConfig.precision: bfloat16 products with float32 weights and updates
learn what float32 learns, within bfloat16's rounding; refused where the
machine would emulate them."""

import numpy as np
import pyspiel
import pytest

import nfsp_spiel  # noqa: F401
from nfsp_spiel import nfsp
from nfsp_spiel.core import hardware
from nfsp_spiel.nfsp import networks
from nfsp_spiel.nfsp import population
from nfsp_spiel.nfsp import selfplay

TINY = nfsp.NFSPConfig(best_response=nfsp.DQNConfig(replay_buffer_capacity=2000),
                       reservoir_buffer_capacity=4000, hidden_layers=(16, 16),
                       learn_every=16, batch_size=32, min_buffer_size_to_learn=32,
                       anticipatory_param=0.3)


@pytest.fixture
def units(monkeypatch):
  """Pretends the machine has bfloat16 units (on one without, TensorFlow
  emulates the products: slower, the same numbers)."""
  monkeypatch.setattr(hardware, "bfloat16_units", lambda device=None: True)


@pytest.mark.parametrize("learner", ["dqn", "arm"])
def test_bfloat16_learning_stays_close_to_float32(units, learner):
  """Two seeded runs that only acted (acting is float32 numpy in both, so
  their memories and random streams are equal) then make the same learning
  calls on the same batches, one in each precision: losses and weights stay
  within bfloat16's rounding (2^-8 relative per product operand)."""
  del units
  game = pyspiel.load_game("kuhn_poker")
  config = TINY.replace(best_response=learner)
  runs = {}
  for precision in ("float32", "bfloat16"):
    agents = nfsp.agents_for(game, config.replace(precision=precision),
                             seed=3)
    selfplay.SelfPlay(game, agents, num_games=8, seed=4,
                      learn=False).play(400)
    losses = []
    for _ in range(5):
      for agent in agents:
        agent.learn(1)
        losses.append(dict(agent.losses))
    runs[precision] = agents, losses
  (single, single_losses), (mixed, mixed_losses) = runs.values()
  finite = 0
  for exact, rounded in zip(single_losses, mixed_losses):
    for name, loss in exact.items():
      if np.isfinite(loss):
        finite += 1
        assert rounded[name] == pytest.approx(loss, rel=3e-2, abs=1e-3)
  assert finite >= 10  # both networks of both players learned
  differing = 0
  for a, b in zip(single, mixed):
    for x, y in zip([*a.best_response_learner.weights,
                     *a.average_policy.weights],
                    [*b.best_response_learner.weights,
                     *b.average_policy.weights]):
      differing += not np.array_equal(x, y)
      np.testing.assert_allclose(x, y, atol=2e-3)
  assert differing  # the products were rounded


def test_bfloat16_products_round_like_bfloat16():
  """`networks.outputs` in bfloat16 is the float32 network with its
  products' operands rounded to bfloat16 (8 bits of mantissa)."""
  rng = np.random.default_rng(0)
  weights = [w for fan_in, fan_out in ((5, 7), (7, 3)) for w in
             networks.initial_layer(fan_in, fan_out, "torch", rng)]
  inputs = rng.standard_normal((4, 5)).astype(np.float32)
  exact = networks.outputs(weights, inputs).numpy()
  mixed = networks.outputs(weights, inputs, "bfloat16").numpy()
  assert not np.array_equal(exact, mixed)
  np.testing.assert_allclose(mixed, exact, rtol=3e-2, atol=3e-2)


def test_bfloat16_is_refused_where_it_would_be_emulated(monkeypatch):
  monkeypatch.setattr(hardware, "_cpu_flags", lambda: frozenset({"avx2"}))
  game = pyspiel.load_game("kuhn_poker")
  with pytest.raises(ValueError, match="precision='bfloat16': no bfloat16 "
                     "units on device='/CPU:0'.*use precision='float32'"):
    nfsp.agents_for(game, TINY.replace(precision="bfloat16",
                                       device="/CPU:0"))
  with pytest.raises(ValueError, match="precision='float16'"):
    TINY.replace(precision="float16")


def test_cpu_flags_decide_without_a_gpu(monkeypatch):
  monkeypatch.setattr(hardware, "_cpu_flags",
                      lambda: frozenset({"avx512f", "avx512_bf16"}))
  assert hardware.bfloat16_units("/CPU:0")
  assert hardware.bfloat16_units("/GPU:0")
  monkeypatch.setattr(hardware, "_cpu_flags", lambda: frozenset({"avx512f"}))
  assert not hardware.bfloat16_units("/CPU:0")


def test_bfloat16_populations_learn_within_rounding(units):
  """A population's stacked learning call in bfloat16 (compiled without XLA,
  like a single run's) against the same population in float32: both act in
  float32 numpy, so they gather the same records until their weights part;
  after the first calls the acting weights differ by bfloat16's rounding
  only, and both moved from where they started."""
  del units
  game = pyspiel.load_game("kuhn_poker")
  start = [agent.acting_weights()
           for agent in nfsp.agents_for(game, TINY, seed=0)]
  weights = {}
  for precision in ("float32", "bfloat16"):
    members = population.Population(game, TINY.replace(precision=precision),
                                    [0, 2], num_games=8)
    members.play(60)
    weights[precision] = [agent.acting_weights()
                          for member in members.members
                          for agent in member.agents]
  differing = moved = 0
  for k, (exact, rounded) in enumerate(zip(weights["float32"],
                                           weights["bfloat16"])):
    for net_exact, net_rounded, net_start in zip(exact, rounded,
                                                 start[k % 2]):
      for x, y, s in zip(net_exact, net_rounded, net_start):
        differing += not np.array_equal(x, y)
        moved += k < 2 and not np.array_equal(x, s)
        np.testing.assert_allclose(x, y, atol=2e-3)
  assert differing and moved


def test_lhe_preset_picks_bfloat16_where_the_units_are(monkeypatch):
  """NFSPConfig.lhe(): bfloat16 on a device with the units,
  float32 elsewhere, for the device it is given; an explicit precision wins;
  the small-network presets stay float32."""
  monkeypatch.setattr(hardware, "_cpu_flags",
                      lambda: frozenset({"avx512f", "amx_bf16"}))
  assert nfsp.NFSPConfig.lhe(device="/CPU:0").precision == "bfloat16"
  assert nfsp.NFSPConfig.lhe(device="/CPU:0",
                             precision="float32").precision == "float32"
  assert nfsp.NFSPConfig.leduc().precision == "float32"
  monkeypatch.setattr(hardware, "_cpu_flags", lambda: frozenset({"avx512f"}))
  assert nfsp.NFSPConfig.lhe(device="/CPU:0").precision == "float32"
  assert nfsp.NFSPConfig.lhe(device="/GPU:0").precision == "bfloat16"
