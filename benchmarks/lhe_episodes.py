"""NFSP training episodes/s on Limit Hold'em with the paper's settings
(`NFSPConfig.lhe()`: 1024-512-1024-512 networks, batch 256): the batched
driver (`selfplay.SelfPlay`, 128 games at once, OpenSpiel states) against
OpenSpiel's RL loop (`rl_environment`, one game at a time), same agents,
side by side in one run, and where the batched driver's time goes
(cProfile). Each driver warms up past the 1000 records learning waits for
(both networks train in the timed window) and is timed for `--seconds`.
Use `--device /GPU:0` on a machine with a GPU (same code).

  python benchmarks/lhe_episodes.py --seconds 60
"""

import cProfile
import pstats
import time

from absl import app
from absl import flags
from open_spiel.python import rl_environment
import pyspiel

import nfsp_spiel  # noqa: F401
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import rl_loop
from nfsp_spiel.nfsp import selfplay

FLAGS = flags.FLAGS
flags.DEFINE_integer("seconds", 60, "Timed seconds per driver.")
flags.DEFINE_integer("warmup", 3000, "Episodes before timing.")
flags.DEFINE_string("device", None, "TensorFlow device (None: TF's choice).")


class _RLLoop:
  """OpenSpiel's ordinary loop: `step` per agent, one game at a time."""

  def __init__(self, game, agents):
    self.env = rl_environment.Environment(game)
    self.agents = agents
    self.episodes = 0

  def play(self, episodes):
    self.episodes += rl_loop.play_episodes(self.env, self.agents, episodes)


def _agents(game):
  config = nfsp.NFSPConfig.lhe(device=FLAGS.device)
  return nfsp.agents_for(game, config)


def _rate(driver, chunk):
  driver.play(FLAGS.warmup)
  started, before = time.perf_counter(), driver.episodes
  while time.perf_counter() - started < FLAGS.seconds:
    driver.play(chunk)
  return (driver.episodes - before) / (time.perf_counter() - started)


def main(argv):
  del argv
  game = pyspiel.load_game("nfsp_lhe")
  batched = selfplay.SelfPlay(game, _agents(game), num_games=128, seed=0)
  rates = {"batched (128 games)": _rate(batched, 500),
           "rl_environment (1 game)": _rate(_RLLoop(game, _agents(game)), 50)}
  print(f"{'driver':26s} {'episodes/s':>10s}")
  for name, rate in rates.items():
    print(f"{name:26s} {rate:10.1f}")
  print(f"batched / rl_environment: {rates['batched (128 games)'] / rates['rl_environment (1 game)']:.1f}x")
  profile = cProfile.Profile()
  profile.runcall(batched.play, 2000)
  print("\nwhere the batched driver's time goes (2000 episodes, cumulative):")
  pstats.Stats(profile).sort_stats("cumulative").print_stats(12)


if __name__ == "__main__":
  app.run(main)
