"""Thesis sec. 6.7's picture of what NFSP's average network learned in Limit
Hold'em: a t-SNE map of its last hidden layer on sampled information states,
coloured by hand strength and by the pot.

The states come from self-play of the trained average policy (both seats),
`--states` of them; hand strength is the acting player's check-down equity
against a random holding (`evaluation.baselines.equity_against_uniform`:
exact from the flop on), the pot is in big blinds. t-SNE is scikit-learn's
(`pip install ".[figures]"`), perplexity 30, PCA start, seed 0. The agents
are the checkpoint of an `examples/nfsp.py --game nfsp_lhe --preset lhe`
run, restored with that binary's defaults (128 games, seed 0).

  python docs/figures/fig_nfsp_lhe_tsne.py --checkpoint runs/nfsp_lhe/checkpoint.npz
"""

import argparse
import os

import numpy as np

import figure_runs
import nfsp_runs


def sample_states(game, policy, count, seed):
  """(tensors, equities, pots in big blinds) of `count` decision points."""
  from nfsp_spiel.evaluation import baselines  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.evaluation import matches  # pylint: disable=g-import-not-at-top
  rng = np.random.default_rng(seed)
  tensors, equities, pots = [], [], []
  while len(tensors) < count:
    state = game.new_initial_state()
    while not state.is_terminal():
      if state.is_chance_node():
        state.apply_action(matches.chance_action(state, rng.random()))
        continue
      player = state.current_player()
      tensors.append(state.information_state_tensor(player))
      equities.append(baselines.equity_against_uniform(
          state.hole_cards(player), state.board_cards()))
      pots.append(sum(state.contributions()) / matches.big_blind(game))
      probs = policy.action_probabilities(state, player)
      actions = list(probs)
      weights = np.array(list(probs.values()))
      state.apply_action(actions[rng.choice(len(actions),
                                            p=weights / weights.sum())])
  return (np.array(tensors[:count], np.float32), np.array(equities[:count]),
          np.array(pots[:count]))


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--checkpoint", default=os.path.join(
      nfsp_runs.ROOT, "runs", "nfsp_lhe", "checkpoint.npz"))
  parser.add_argument("--states", type=int, default=3000)
  parser.add_argument("--seed", type=int, default=0)
  args = parser.parse_args()
  import matplotlib  # pylint: disable=g-import-not-at-top
  matplotlib.use("Agg")
  import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top
  import pyspiel  # pylint: disable=g-import-not-at-top
  from sklearn.manifold import TSNE  # pylint: disable=g-import-not-at-top
  import nfsp_spiel  # noqa: F401  pylint: disable=g-import-not-at-top,unused-import
  from nfsp_spiel import nfsp  # pylint: disable=g-import-not-at-top
  from nfsp_spiel import selfplay  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import networks  # pylint: disable=g-import-not-at-top
  game = pyspiel.load_game("nfsp_lhe")
  agents = nfsp.agents_for(game, nfsp.NFSPConfig.lhe())
  driver = selfplay.SelfPlay.restore(game, args.checkpoint, agents,
                                     num_games=128, seed=0)
  policy = nfsp.NFSPPolicy(game, agents)
  tensors, equities, pots = sample_states(game, policy, args.states,
                                          args.seed)
  # Both seats' networks see the same encoding; the map uses player 0's.
  hidden = networks.last_hidden(agents[0].average_network.numpy_weights(),
                                tensors)
  points = TSNE(n_components=2, perplexity=30, init="pca",
                random_state=args.seed).fit_transform(hidden)
  figure, axes = plt.subplots(1, 2, figsize=(12, 5.2))
  for ax, values, label, cmap in (
      (axes[0], equities, "hand strength (equity against a random holding)",
       "viridis"),
      (axes[1], np.log2(pots), "pot (log2 big blinds)", "magma")):
    shown = ax.scatter(points[:, 0], points[:, 1], c=values, s=4, cmap=cmap)
    figure.colorbar(shown, ax=ax, label=label)
    ax.set_xticks([])
    ax.set_yticks([])
  figure.suptitle(f"t-SNE of NFSP's average network (last hidden layer), "
                  f"{args.states} LHE states, {driver.episodes:,} episodes")
  path = os.path.join(figure_runs.HERE, "fig_nfsp_lhe_tsne.png")
  figure.savefig(path, dpi=110, bbox_inches="tight")
  print(f"wrote {path}")


if __name__ == "__main__":
  main()
