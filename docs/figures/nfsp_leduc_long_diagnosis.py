"""Where the long Leduc runs' learned best responses lose (the defaults,
`NFSPConfig.leduc()`, at their last checkpoint).

Seed 1 reached 0.063 at 52M episodes and then broke down: its player 0's
best-response gap rose from about 0.09 to 0.33 at 1e8 while player 1's
stayed small (`fig_nfsp_leduc_long.py`). For each run given, this loads the
checkpoint and prints, per player, the information states that hold most of
the gap (`evaluation.best_response_gap_by_state`: the terms add up to the
gap), with the exact action values against the opponent's average strategy
(each action followed by a best response), the Q-network's values (in
chips: divided by the reward scale), the average strategy there, and how
many transitions of each action M_RL holds for the state. Written to
`data/nfsp_leduc_long/diagnosis.txt`.

`--continue_episodes N` then trains each run on from its checkpoint (in
memory; the checkpoint is not touched) and prints its exploitability and
gaps every `--every` episodes, with the paper's schedule
(`data/nfsp_leduc_long/continued.txt`) or, with `--hold_epsilon X`, with
every player's exploration held at X (`continued_epsilon_X.txt`): the test
of whether more exploration finds what the learned best response misses.

  python docs/figures/nfsp_leduc_long_diagnosis.py \\
      runs/nfsp_leduc_long/faithful_seed1:1 runs/nfsp_leduc_long/faithful_seed2:2
  python docs/figures/nfsp_leduc_long_diagnosis.py \\
      runs/nfsp_leduc_long/faithful_seed3:3 --output diagnosis_seed3.txt
  python docs/figures/nfsp_leduc_long_diagnosis.py \\
      runs/nfsp_leduc_long/faithful_seed1:1 --continue_episodes 5000000
  python docs/figures/nfsp_leduc_long_diagnosis.py \\
      runs/nfsp_leduc_long/faithful_seed1:1 --continue_episodes 5000000 \\
      --hold_epsilon 0.06
"""

import argparse
import dataclasses
import os

import numpy as np
import pyspiel

import figure_runs
import nfsp_spiel  # noqa: F401  (registers the games)
from nfsp_spiel import evaluation
from nfsp_spiel import nfsp
from nfsp_spiel.nfsp import agent_policies
from nfsp_spiel.nfsp import selfplay
from nfsp_spiel.nfsp import transitions

OUTPUT = os.path.join(figure_runs.HERE, "data", "nfsp_leduc_long",
                      "diagnosis.txt")


def restore(game, directory, seed):
  """The run's agents at its checkpoint (the binary's default driver)."""
  agents = nfsp.agents_for(game, nfsp.NFSPConfig.leduc(), seed=seed)
  loop = selfplay.SelfPlay.restore(
      game, os.path.join(directory, "checkpoint.npz"), agents, num_games=128,
      seed=seed)
  return loop, agents


def memory_actions(agent, tensor):
  """Per action, how many of M_RL's transitions start at `tensor`."""
  memory = agent.best_response_learner.memory
  rows = memory.fields["record"][:len(memory)]
  columns = transitions.record_columns(agent.state_size, agent.num_actions)
  start, stop = columns["state"]
  here = (rows[:, start:stop] == tensor).all(axis=1)
  actions = rows[here, columns["action"][0]].astype(np.int64)
  return np.bincount(actions, minlength=agent.num_actions)


def report(game, directory, seed, top, loop=None, agents=None):
  """The run's exploitability, gaps and largest gap terms, at its checkpoint
  or (`loop`, `agents`) where it stands now."""
  if loop is None:
    loop, agents = restore(game, directory, seed)
  average = agent_policies.NFSPPolicy(game, agents).to_tabular()
  greedy = agent_policies.NFSPPolicy(game, agents, "best_response").to_tabular()
  lines = [f"{directory} (seed {seed}) at episode {loop.episodes:,}",
           "  epsilon: " + ", ".join(f"{a.epsilon:.4f}" for a in agents),
           "  exploitability {:.4f}; ".format(
               evaluation.exploitability(game, average)) + "; ".join(
                   f"{k} {v:.4f}" for k, v in agent_policies.diagnostics(
                       game, agents, average, greedy).items())]
  scale = agents[0].config.reward_scale
  for player, agent in enumerate(agents):
    terms = evaluation.best_response_gap_by_state(game, average, greedy,
                                                  player)
    total = sum(t.gap for t in terms)
    lines.append(f"  player {player}: gap {total:.4f}; its {top} largest "
                 f"terms hold {sum(t.gap for t in terms[:top]):.4f}")
    for term in terms[:top]:
      state = _a_state(game, term.information_state, player)
      tensor = np.asarray(state.information_state_tensor(player), np.float32)
      legal = state.legal_actions(player)
      q_values = agent.best_response_learner.q_values(tensor[None])[0]
      lines += [
          f"    {term.information_state}",
          f"      gap {term.gap:.4f}  reach {term.reach:.4f}",
          "      exact action values " + _by_action(term.action_values),
          "      Q-network / scale   " + _by_action(
              {a: q_values[a] / scale for a in legal}),
          "      average strategy    " + _by_action(
              dict(zip(legal, average.policy_for_key(
                  term.information_state)[legal]))),
          "      M_RL transitions    " + _by_action(
              dict(zip(legal, memory_actions(agent, tensor)[legal])), "d")]
  return lines


def _by_action(values, form=".3f"):
  names = {0: "fold", 1: "call", 2: "raise"}
  return "  ".join(f"{names[a]} {v:{form}}" for a, v in sorted(values.items()))


def _a_state(game, key, player):
  """A state of information state `key` (a depth-first search)."""
  stack = [game.new_initial_state()]
  while stack:
    state = stack.pop()
    if state.is_terminal():
      continue
    if (state.current_player() == player and
        state.information_state_string(player) == key):
      return state
    actions = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
               else state.legal_actions())
    stack += [state.child(a) for a in actions]
  raise KeyError(key)


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("runs", nargs="+", help="run directory:seed")
  parser.add_argument("--top", type=int, default=6)
  parser.add_argument("--continue_episodes", type=int, default=0)
  parser.add_argument("--every", type=int, default=1_000_000)
  parser.add_argument("--hold_epsilon", type=float, default=None)
  parser.add_argument("--output", default=os.path.basename(OUTPUT),
                      help="the report's file name under "
                      "data/nfsp_leduc_long/ (without --continue_episodes)")
  args = parser.parse_args()
  game = pyspiel.load_game("nfsp_leduc")
  lines, output = [], os.path.join(os.path.dirname(OUTPUT), args.output)
  for run in args.runs:
    directory, _, seed = run.rpartition(":")
    if args.continue_episodes:
      lines += continue_run(game, directory, int(seed), args.continue_episodes,
                            args.every, args.hold_epsilon, args.top) + [""]
      output = os.path.join(os.path.dirname(OUTPUT), "continued.txt"
                            if args.hold_epsilon is None else
                            f"continued_epsilon_{args.hold_epsilon}.txt")
    else:
      lines += report(game, directory, int(seed), args.top) + [""]
  os.makedirs(os.path.dirname(output), exist_ok=True)
  with open(output, "w") as out:
    out.write("\n".join(lines))
  if not args.continue_episodes:
    print("\n".join(lines))


def continue_run(game, directory, seed, episodes, every, hold_epsilon, top):
  """The run trained on for `episodes` from its checkpoint, its
  exploitability and gaps printed every `every` episodes, then `report`'s
  lines; with `hold_epsilon`, each player's exploration held there."""
  loop, agents = restore(game, directory, seed)
  if hold_epsilon is not None:
    for agent in agents:
      learner = agent.best_response_learner
      learner.settings = dataclasses.replace(
          learner.settings, epsilon_schedule="linear",
          epsilon_start=hold_epsilon, epsilon_end=hold_epsilon)
  schedule = ("the defaults' schedule" if hold_epsilon is None else
              f"epsilon held at {hold_epsilon}")
  lines = [f"{directory} (seed {seed}) trained on with {schedule}"]
  start = loop.episodes
  while True:
    average = agent_policies.NFSPPolicy(game, agents).to_tabular()
    diagnostics = agent_policies.diagnostics(game, agents, average)
    lines.append(
        f"  episode {loop.episodes:>12,}  epsilon "
        + ", ".join(f"{a.epsilon:.4f}" for a in agents)
        + f"  exploitability {evaluation.exploitability(game, average):.4f}  "
        + "  ".join(f"{k} {v:.4f}" for k, v in diagnostics.items()))
    print(lines[-1], flush=True)
    if loop.episodes - start >= episodes:
      return lines + report(game, directory, seed, top, loop, agents)
    loop.play(every)


if __name__ == "__main__":
  main()
