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
* folding, the one action whose value is known exactly (a fold loses the
  chips the folder has put in): Q(fold)'s error there per betting round
  (`q_fold_error_<round>_<p>`, chips, mean over the decisions where fold is
  legal) and the share of those decisions where the exact fold value beats
  Q of every other legal action (`fold_if_exact_<round>_<p>`): how often
  the greedy policy would fold if only its fold output were right, beside
  how often it folds;
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
# Decisions per player and betting round whose Q-values are measured: enough
# for a mean to three digits, a small cost beside the matches.
Q_SAMPLE = 1024


class DecisionRecorder:
  """A `BatchedPolicy` that passes `policy`'s answers through, summing the
  probabilities per betting round and keeping, per player and round, a
  uniform sample of up to `Q_SAMPLE` of the decisions asked (the matches
  ask all games' first decisions at once, so the first ones asked would
  all be one betting node): `decisions(player)`."""

  def __init__(self, policy, seed=0):
    self.policy = policy
    self.sums = np.zeros((len(ROUNDS), batched_matches.NUM_ACTIONS))
    self.counts = np.zeros(len(ROUNDS))
    self._rng = np.random.default_rng(seed)
    # (player, round) -> (sort keys, tensors, legal masks, chips put in):
    # the decisions with the Q_SAMPLE smallest uniform keys so far.
    self._kept = {}

  def batch_action_probabilities(self, decisions):
    probs = self.policy.batch_action_probabilities(decisions)
    np.add.at(self.sums, decisions.round, probs)
    np.add.at(self.counts, decisions.round, 1.0)
    keys = self._rng.random(len(decisions))
    for player in (0, 1):
      for r in range(len(ROUNDS)):
        kept = self._kept.get((player, r))
        cut = 1.0 if kept is None or len(kept[0]) < Q_SAMPLE else (
            kept[0].max())
        rows = np.flatnonzero((decisions.player == player)
                              & (decisions.round == r) & (keys < cut))
        if rows.size:
          self._keep(player, r, keys[rows], decisions.rows(rows))
    return probs

  def _keep(self, player, round_, keys, decisions):
    new = (keys, decisions.information_state_tensors(), decisions.legal,
           decisions.contributions()[np.arange(len(keys)), decisions.player])
    kept = self._kept.get((player, round_))
    if kept is not None:
      new = tuple(np.concatenate(pair) for pair in zip(kept, new))
    smallest = np.argsort(new[0], kind="stable")[:Q_SAMPLE]
    self._kept[(player, round_)] = tuple(part[smallest] for part in new)

  def decisions(self, player):
    """(tensors, legal, chips put in, betting round) of the kept decisions
    of `player`; None if there are none."""
    parts = [(*kept[1:], np.full(len(kept[0]), r))
             for (p, r), kept in sorted(self._kept.items()) if p == player]
    if not parts:
      return None
    return tuple(np.concatenate(part) for part in zip(*parts))

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
                  q_diagnostics(agent, player, recorder).items()})
  return metrics


def has_q_values(agent):
  """Whether `agent`'s best-response learner has Q-values (DQN; ARM has
  not)."""
  return callable(getattr(agent.best_response_learner, "q_values", None))


def q_in_chips(agent, states):
  """`agent`'s Q-values at information-state tensors `states`, in chips
  (float64; Q is learnt in chips times `reward_scale`)."""
  return np.asarray(agent.best_response_learner.q_values(states),
                    np.float64) / agent.config.reward_scale


def q_diagnostics(agent, player, recorder):
  """What `agent`'s Q says at the decisions of `player` that `recorder`
  kept, in chips: over all of them `q_abs` (mean |Q| over legal actions)
  and `q_spread` (mean max - min over them); per betting round where fold
  is legal, `q_fold_error_<round>` (mean Q(fold) minus the exact value of
  folding, minus the chips put in) and `fold_if_exact_<round>` (the share
  where that exact value beats Q of every other legal action); nan where
  no such decision was kept, {} for a learner without Q-values."""
  if not has_q_values(agent):
    return {}
  metrics = dict.fromkeys(
      ["q_abs", "q_spread"] + [f"{kind}_{name}" for name in ROUNDS for kind
                               in ("q_fold_error", "fold_if_exact")], np.nan)
  kept = recorder.decisions(player)
  if kept is None:
    return metrics
  states, legal, put_in, rounds = kept
  q = q_in_chips(agent, states)
  inside = np.where(legal, q, np.nan)
  metrics["q_abs"] = float(np.nanmean(np.abs(inside)))
  metrics["q_spread"] = float(np.mean(np.nanmax(inside, axis=1)
                                      - np.nanmin(inside, axis=1)))
  exact = -put_in  # folding loses what the folder has put in
  others = np.where(legal, q, -np.inf)
  others[:, poker.FOLD] = -np.inf
  for r, name in enumerate(ROUNDS):
    rows = (rounds == r) & legal[:, poker.FOLD]
    if rows.any():
      metrics[f"q_fold_error_{name}"] = float(np.mean(
          q[rows, poker.FOLD] - exact[rows]))
      metrics[f"fold_if_exact_{name}"] = float(np.mean(
          exact[rows] > others[rows].max(axis=1)))
  return metrics


def weight_norm(network):
  """The global L2 norm of a network's weights and biases."""
  return float(np.sqrt(sum(np.sum(np.square(w, dtype=np.float64))
                           for w in network.numpy_weights())))
