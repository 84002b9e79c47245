"""Local best response speed on Limit Hold'em against the NFSP paper's
network: hands per second, and the minutes 10,000 hands take.

The policy is the average network of `NFSPConfig.lhe()` agents (1024-512-
1024-512, untrained: the cost does not depend on the weights). Rows, in one
run: LBR asking the network for all holdings in one batched call (what
`NFSPPolicy.holding_probabilities` offers), and LBR through OpenSpiel's
generic `Policy.action_probabilities`, one replayed state per holding (what
any OpenSpiel policy gets), on fewer hands; plus the baselines.

  python benchmarks/lbr_speed.py --hands 400 --generic_hands 4
"""

import time

from absl import app
from absl import flags
import pyspiel
from open_spiel.python import policy as policy_lib

import nfsp_spiel  # noqa: F401
from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel.evaluation import baselines

FLAGS = flags.FLAGS
flags.DEFINE_integer("hands", 400, "LBR hands through the batched path.")
flags.DEFINE_integer("generic_hands", 4,
                     "LBR hands through the generic per-holding path.")
flags.DEFINE_integer("baseline_hands", 400, "LBR hands per baseline.")
flags.DEFINE_integer("check_to_round", 1, "LBR's preflop rule.")


class _Generic(policy_lib.Policy):
  """The same network behind OpenSpiel's plain policy interface only."""

  def __init__(self, policy):
    super().__init__(policy.game, [0, 1])
    self._policy = policy

  def action_probabilities(self, state, player_id=None):
    return self._policy.action_probabilities(state, player_id)


def _row(name, game, policy, hands):
  started = time.perf_counter()
  result = evaluation.local_best_response(
      game, policy, num_hands=hands, check_to_round=FLAGS.check_to_round,
      progress=False)
  seconds = time.perf_counter() - started
  rate = hands / seconds
  print(f"{name:34s} {hands:7d} {rate:9.2f} {10000 / rate / 60:12.1f} "
        f"{result.mbb_per_hand:10.0f} {result.mbb_stderr:8.0f}", flush=True)


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_lhe")
  config = nfsp.NFSPConfig.lhe(replay_buffer_capacity=1000,
                               reservoir_buffer_capacity=1000)
  network = nfsp.NFSPPolicy(game, nfsp.agents_for(game, config))
  print(f"{'policy (LBR path)':34s} {'hands':>7s} {'hands/s':>9s} "
        f"{'min/10k':>12s} {'mbb/h':>10s} {'+-':>8s}")
  _row("NFSP network (batched)", game, network, FLAGS.hands)
  _row("NFSP network (generic, replayed)", game, _Generic(network),
       FLAGS.generic_hands)
  for make in (baselines.AlwaysCall, baselines.AlwaysRaise):
    _row(make.__name__, game, make(game), FLAGS.baseline_hands)


if __name__ == "__main__":
  app.run(main)
