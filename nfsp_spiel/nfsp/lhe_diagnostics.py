"""What tells an NFSP run on heads-up Limit Hold'em learning from not.

Limit Hold'em has no exact best response, so a run's curve against fixed
opponents cannot say on its own why it moves: fictitious play's early
average is a mix of best responses to near-random play (a maniac), which
loses to a good player whether or not learning works. `lhe_diagnostics`
logs, from batched matches on `nfsp_lhe` (`evaluation.batched_matches`),
what separates the two:

* the average strategy's action frequencies per betting round in self-play
  (`average_<round>_<action>`: the mean probability of fold, call and raise
  at the decisions its self-play reaches);
* its results in mbb/h against the fixed baselines always-call and
  always-raise (`mbb_per_hand_vs_always_call`, `..._vs_always_raise`);
* the best response's edge (`br_edge_<p>`, with `br_edge_stderr_<p>`):
  player p's greedy Q policy against the other player's current average
  strategy, minus p's own average strategy in the same seat against it, in
  mbb/h, on the same cards and decision uniforms (common random numbers).
  The Limit Hold'em counterpart of the exact best-response gap on Leduc: a
  best response that learns beats what it responds to (a positive edge),
  and the sum of both edges is a lower bound on how far the average is from
  a best response to itself;
* the learner's scale: mean |Q| over legal actions and the mean spread
  (max - min) of Q over them (`q_abs_<p>`, `q_spread_<p>`), in chips (Q is
  in reward units, chips times `reward_scale`), at the decisions p reaches
  in the average's self-play;
* the networks' global L2 weight norms (`q_norm_<p>`, `average_norm_<p>`)
  and each player's last losses (`rl_loss_<p>`, `sl_loss_<p>`).
"""

import numpy as np

from nfsp_spiel import evaluation
from nfsp_spiel.evaluation import baselines
from nfsp_spiel.evaluation import batched_matches
from nfsp_spiel.games import poker
from nfsp_spiel.nfsp.agent_policies import NFSPPolicy

ROUNDS = ("preflop", "flop", "turn", "river")
ACTIONS = {poker.FOLD: "fold", poker.CALL: "call", poker.RAISE: "raise"}
# Decisions per player whose Q-values are measured: enough for a mean to
# three digits, a small cost beside the matches.
Q_SAMPLE = 4096


class DecisionRecorder:
  """A `BatchedPolicy` that passes `policy`'s answers through, summing the
  probabilities per betting round and keeping up to `Q_SAMPLE` decisions'
  information-state tensors and legal masks per player."""

  def __init__(self, policy):
    self.policy = policy
    self.sums = np.zeros((len(ROUNDS), batched_matches.NUM_ACTIONS))
    self.counts = np.zeros(len(ROUNDS))
    self.states = {0: [], 1: []}
    self.legal = {0: [], 1: []}

  def batch_action_probabilities(self, decisions):
    probs = self.policy.batch_action_probabilities(decisions)
    np.add.at(self.sums, decisions.round, probs)
    np.add.at(self.counts, decisions.round, 1.0)
    for player, states in self.states.items():
      kept = sum(len(s) for s in states)
      rows = np.flatnonzero(decisions.player == player)[:Q_SAMPLE - kept]
      if rows.size:
        states.append(decisions.rows(rows).information_state_tensors())
        self.legal[player].append(decisions.legal[rows])
    return probs

  def frequencies(self, prefix="average"):
    """{<prefix>_<round>_<action>: mean probability}, nan for a round the
    matches never reached."""
    with np.errstate(invalid="ignore", divide="ignore"):
      means = self.sums / self.counts[:, None]
    return {f"{prefix}_{name}_{ACTIONS[a]}": float(means[r, a])
            for r, name in enumerate(ROUNDS) for a in ACTIONS}


def lhe_diagnostics(game, agents, num_deals=2000, seed=0):
  """The diagnostics above for the two NFSP `agents` of `nfsp_lhe` `game`,
  from matches of `num_deals` deals seeded with `seed` (the edges play each
  deal once per profile; the baselines' matches are duplicate)."""
  if game.get_type().short_name != "nfsp_lhe":
    raise ValueError(f"lhe_diagnostics: game={game} must be nfsp_lhe (the "
                     "batched matches play heads-up Limit Hold'em)")
  if num_deals < 2:
    raise ValueError(f"lhe_diagnostics: num_deals={num_deals} must be at "
                     "least 2 (an edge's standard error needs two deals)")
  average = NFSPPolicy(game, agents)
  greedy = NFSPPolicy(game, agents, "best_response")
  recorder = DecisionRecorder(average)
  unit = 1000.0 / evaluation.big_blind(game)  # chips -> mbb
  # Player 0's chips with both players on the average (recorded) and with
  # player p on its greedy Q policy, on the same deals and uniforms.
  both = batched_matches.play_profile((recorder, recorder), num_deals, seed)
  metrics = recorder.frequencies()
  for p in range(2):
    seats = [average, average]
    seats[p] = greedy
    gain = (batched_matches.play_profile(seats, num_deals, seed) - both) * (
        1 - 2 * p)  # player p's chips: player 0's, or their negative
    metrics[f"br_edge_{p}"] = unit * float(gain.mean())
    metrics[f"br_edge_stderr_{p}"] = unit * float(
        gain.std(ddof=1) / np.sqrt(num_deals))
  for name, baseline in (("always_call", baselines.AlwaysCall(game)),
                         ("always_raise", baselines.AlwaysRaise(game))):
    metrics[f"mbb_per_hand_vs_{name}"] = evaluation.head_to_head(
        game, average, baseline, num_deals, seed=seed).mbb_per_hand
  for p, agent in enumerate(agents):
    metrics.update(_learner_scale(agent, p, recorder))
  return metrics


def _learner_scale(agent, player, recorder):
  """Q's scale at the recorded decisions, the weight norms and the losses
  of `agent`, player `player` (Q's only for a learner with Q-values)."""
  metrics = {f"{name}_{player}": float(value)
             for name, value in agent.losses.items()}
  networks = agent.networks()
  metrics[f"average_norm_{player}"] = weight_norm(networks["average_network"])
  if "q_network" in networks:
    metrics[f"q_norm_{player}"] = weight_norm(networks["q_network"])
  metrics.update({f"{name}_{player}": value for name, value in
                  q_scale(agent, player, recorder).items()})
  return metrics


def q_scale(agent, player, recorder):
  """{"q_abs": mean |Q|, "q_spread": mean max - min of Q} over the legal
  actions of the decisions of `player` that `recorder` kept, in chips; {}
  for a learner without Q-values or where no decision was kept."""
  q_values = getattr(agent.best_response_learner, "q_values", None)
  if q_values is None or not recorder.states[player]:
    return {}
  legal = np.concatenate(recorder.legal[player])
  q = np.asarray(q_values(np.concatenate(recorder.states[player])),
                 np.float64) / agent.config.reward_scale
  inside = np.where(legal, q, np.nan)
  return {"q_abs": float(np.nanmean(np.abs(inside))),
          "q_spread": float(np.mean(np.nanmax(inside, axis=1)
                                    - np.nanmin(inside, axis=1)))}


def weight_norm(network):
  """The global L2 norm of a network's weights and biases."""
  return float(np.sqrt(sum(np.sum(np.square(w, dtype=np.float64))
                           for w in network.numpy_weights())))
