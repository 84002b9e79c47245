"""A trained run's average strategy in a file of its own.

NFSP's result is the profile of the players' average networks Pi (thesis eq.
6.3; the NFSP paper evaluates it, sec. 4.3). A run's checkpoint holds far
more (both memories, the Q-networks, the random streams: gigabytes in Limit
Hold'em), so `save` copies each player's average-network weights out of it,
with the run's game, settings and episode count, into a compressed .npz
(about 14 MB for `NFSPConfig.lhe()`'s networks in float32), and `load` gives
them back as an `NFSPPolicy`: an OpenSpiel `policy.Policy` that plays
batched Limit Hold'em matches, answers LBR's range queries and makes
OpenSpiel `PolicyBot`s (`evaluation.baselines.bots`), with no agent, memory
or learning call behind it.
"""

import os

import numpy as np

from nfsp_spiel.core import checkpoints
from nfsp_spiel.nfsp import agent_policies
from nfsp_spiel.nfsp import average_policy
from nfsp_spiel.nfsp import batched_agent
from nfsp_spiel.nfsp import config as config_lib
from nfsp_spiel.nfsp import equity_inputs
from nfsp_spiel.nfsp import networks
from nfsp_spiel.trees import game_tensors

# What a network alone can play: Pi and its argmax (sec. 4.3's
# "greedy-average"); the best response is not saved.
KINDS = ("average", "greedy_average")
# float16 halves the file; acting always computes in float32.
DTYPES = ("float32", "float16")
_WHAT = "an NFSP average profile"
_RUN_ALGORITHMS = ("NFSP", "NFSP population")


class FrozenAverage:
  """One player's Pi as weights only: what `NFSPPolicy` asks of an agent
  (`probabilities`), for the kinds in `KINDS`."""

  def __init__(self, weights):
    self.weights = [np.asarray(w, np.float32) for w in weights]
    self.state_size = self.weights[0].shape[0]

  def probabilities(self, states, legal, policy):
    if policy not in KINDS:
      raise ValueError(f"policy={policy!r}: a saved average network plays "
                       f"one of {KINDS} (the run's best response is not "
                       "saved)")
    legal = np.asarray(legal, np.float32)
    if not isinstance(states, networks.OneHotRows):
      states = np.asarray(states, np.float32)
    probs = average_policy.masked_softmax(
        networks.forward(self.weights, states), legal)
    return (batched_agent.greedy(probs, legal) if policy == "greedy_average"
            else probs)


def _prefix(header, member, path):
  """The key prefix of the saved run's agents in the checkpoint."""
  if header["algorithm"] not in _RUN_ALGORITHMS:
    raise checkpoints.CheckpointError(
        f"checkpoint={path!r} holds a {header['algorithm']} run; an average "
        f"profile is saved from one of {_RUN_ALGORITHMS}")
  if header["algorithm"] == "NFSP":
    if member is not None:
      raise ValueError(f"member={member}: checkpoint={path!r} holds one run, "
                       "not a population; leave member unset")
    return ""
  members = int(header["config"]["members"])
  if member is None or not 0 <= member < members:
    raise ValueError(f"member={member}: checkpoint={path!r} holds a "
                     f"population of {members} runs; choose a member in "
                     f"0..{members - 1}")
  return f"member{member}/"


def _settings(header, prefix):
  """The saved run's own settings (a population member's without its
  prefix)."""
  config = header["config"]
  if not prefix:
    return dict(config)
  return {k[len(prefix):]: v for k, v in config.items()
          if k.startswith(prefix)}


def checkpoint_weights(checkpoint, member=None, network="average_network"):
  """(each player's average-network weights, the run's settings) of the run
  checkpoint at `checkpoint` (an `examples/nfsp.py` run's; `member`: which
  run of a population's); `network` "q_network" reads the best responses'
  Q-networks instead."""
  checkpoint = checkpoints.path_of(checkpoint)
  if not os.path.isfile(checkpoint):
    raise FileNotFoundError(f"checkpoint={checkpoint!r}: no such file")
  header = checkpoints.read_header(checkpoint)
  prefix = _prefix(header, member, checkpoint)
  weights = []
  with np.load(checkpoint, allow_pickle=False) as data:
    while f"{prefix}agent{len(weights)}/{network}_0" in data.files:
      agent = f"{prefix}agent{len(weights)}/{network}_"
      layers = sum(n.startswith(agent) for n in data.files)
      weights.append([data[f"{agent}{i}"] for i in range(layers)])
    # The first agent's (steps, episodes, updates): a self-play run's
    # episodes, also where the agents were saved without their driver.
    episodes = int(data[f"{prefix}agent0/counters"][1])
  return weights, {"game": header["game"], "episodes": episodes,
                   "config": _settings(header, prefix),
                   "source": os.path.basename(os.path.dirname(
                       os.path.abspath(checkpoint)))}


def save(output, checkpoint, member=None, dtype="float32"):
  """Writes the average networks of the run checkpoint at `checkpoint`
  (`checkpoint_weights`) to `output` in `dtype`, with the run's game,
  settings and episodes; returns the path written."""
  if dtype not in DTYPES:
    raise ValueError(f"dtype={dtype!r}: must be one of {DTYPES}")
  folder = os.path.dirname(os.path.abspath(checkpoints.path_of(output)))
  if not os.path.isdir(folder):
    raise FileNotFoundError(f"output={output!r}: no folder {folder!r}")
  weights, settings = checkpoint_weights(checkpoint, member)
  arrays = {f"player{p}_{i}": w.astype(dtype)
            for p, layers in enumerate(weights) for i, w in enumerate(layers)}
  return checkpoints.save_compressed(output, {**settings, "dtype": dtype},
                                     **arrays)


def read(path):
  """(each player's weights, settings) of `save`'s file at `path`."""
  with np.load(checkpoints.path_of(path), allow_pickle=False) as data:
    names = [n for n in data.files if n.startswith("player")]
  # The first player's first layer stands for all in a missing-file error.
  arrays, settings = checkpoints.load_compressed(path, names or ["player0_0"],
                                                 _WHAT)
  players = 1 + max(int(n[len("player"):].split("_")[0]) for n in names)
  weights = [[arrays[f"player{p}_{i}"]
              for i in range(sum(n.startswith(f"player{p}_") for n in names))]
             for p in range(players)]
  return weights, settings


def load(game, path, kind="average"):
  """`save`'s profile at `path` as an `NFSPPolicy` of `kind` (one of
  `KINDS`) over `game`, which must be the run's; its `settings` attribute
  holds the run's game, settings, episodes and source folder."""
  return _policy(game, *read(path), kind, f"path={path!r}")


def from_checkpoint(game, checkpoint, member=None, kind="average"):
  """`load` of what `save` would write from `checkpoint`, without the file:
  the run's average profile read straight from its checkpoint."""
  return _policy(game, *checkpoint_weights(checkpoint, member), kind,
                 f"checkpoint={checkpoint!r}")


# In the package's data folder (setup.py's package_data).
SHIPPED_LHE = os.path.join(os.path.dirname(os.path.dirname(__file__)),
                           "data", "nfsp_lhe_average.npz")


def shipped_lhe(game, kind="average"):
  """The package's trained Limit Hold'em profile: NFSP's average strategy
  after 3,750,001 episodes of the clip-1 run (`NFSPConfig.lhe()` with double
  Q-learning's target, rewards / 10 and the TD error clipped at 1: seed 0
  to 2.05M unclipped, then branched; docs/figures/fig_nfsp_lhe_double_q.py,
  rule 7), the first of its points whose average beats always-call against
  the SmooCT-like profile (rule 4), saved in float16 by
  `examples/save_average_profile.py --checkpoint <that run's kept
  checkpoint> --output nfsp_spiel/data/nfsp_lhe_average.npz --dtype
  float16`; its run's settings and episodes are in `.settings`, its curve in
  docs/figures/data/nfsp_lhe_diagnostics/clip1_seed0/."""
  return load(game, SHIPPED_LHE, kind)


def _policy(game, weights, settings, kind, where):
  if kind not in KINDS:
    raise ValueError(f"kind={kind!r}: must be one of {KINDS}")
  if settings["game"] != str(game):
    raise ValueError(f"{where} holds a profile of {settings['game']}, not "
                     f"of game={game}")
  size = game_tensors.information_state_size(game)
  inputs = settings["config"].get("inputs", config_lib.CARDS)
  if inputs != config_lib.CARDS:
    size += equity_inputs.LEVELS
  if len(weights) != game.num_players() or any(
      w[0].shape[0] != size for w in weights):
    raise ValueError(f"{where} holds {len(weights)} networks of "
                     f"{weights[0][0].shape[0]} inputs; {game} has "
                     f"{game.num_players()} players reading {size} "
                     f"(inputs={inputs!r})")
  policy = agent_policies.NFSPPolicy(game, frozen_players(weights, settings),
                                     kind)
  policy.settings = settings
  return policy


def frozen_players(weights, settings):
  """Each player's network of `weights` as a `FrozenAverage`, reading what
  the run's networks read (`settings`' config: the cards alone, or
  wrapped in `equity_inputs.EquityInputs`)."""
  players = [FrozenAverage(w) for w in weights]
  if settings["config"].get("inputs", config_lib.CARDS) == config_lib.CARDS:
    return players
  return [equity_inputs.EquityInputs(player) for player in players]
