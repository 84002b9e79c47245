"""Rule 6 of docs/figures/fig_nfsp_lhe_double_q.py (written before its data):
a branched Limit Hold'em run holds or diverges, and each of its
paper-precision points is judged against its parent's last one."""

import pytest

FIGURE_SCRIPT = "fig_nfsp_lhe_double_q"


@pytest.fixture(name="rules")
def fixture_rules(figure_script):
  return figure_script


def _result(step, policy, mean, se):
  return {"step": str(step), "policy": policy, "mbb_per_hand": str(mean),
          "mbb_stderr": str(se), "deals": "12500"}


PARENT = [_result(0, "always_call", -728, 15),
          _result(1_750_005, "average", -840, 30),
          _result(2_000_007, "average", -832, 30),
          _result(2_000_007, "best_response", -963, 33),
          _result(2_050_018, "average", -924, 30)]


PARENT_ROW = {"step": 2_050_018.0, "q_norm_0": 236.0, "q_norm_1": 212.0}


def _row(step, norm_0=240.0, norm_1=215.0):
  return {"step": float(step), "q_norm_0": norm_0, "q_norm_1": norm_1}


def test_a_branch_holds_once_past_its_parent_by_the_margin(rules):
  rows = [_row(2_100_010), _row(2_300_018)]
  lines = rules.branch_verdict(rows, 2_050_018, None, PARENT, [], PARENT_ROW)
  assert lines[0] == ("holds: 2,300,018 episodes, 250,000 past the branch at "
                      "2,050,018")
  short = rules.branch_verdict(rows[:1], 2_050_018, None, PARENT, [],
                               PARENT_ROW)
  assert short[0].startswith("too short: 49,992 of 250,000 episodes")
  diverged = rules.branch_verdict(rows[:1], 2_050_018, "2,120,000 episodes",
                                  PARENT, [], PARENT_ROW)
  assert diverged[0] == "diverges at 2,120,000 episodes"


def test_rule_7_calls_a_q_network_blow_up_what_rule_6_reports_beside(rules):
  rows = [_row(2_100_010), _row(2_150_009, norm_1=1352.0), _row(2_300_018)]
  rule_6 = rules.branch_verdict(rows, 2_050_018, None, PARENT, [], PARENT_ROW)
  assert rule_6[0].startswith("holds")
  assert rule_6[-1] == ("largest Q-network norm: 6.4 times the parent's "
                        "(player 1, at 2,150,009)")
  rule_7 = rules.branch_verdict(rows, 2_050_018, None, PARENT, [], PARENT_ROW,
                                norm_checked=True)
  assert rule_7[0] == ("blows up at 2,150,009: player 1's Q-network norm 6.4 "
                       "times the parent's")
  calm = [_row(2_100_010), _row(2_300_018, norm_0=470.0)]  # 1.99 x: holds
  assert rules.branch_verdict(calm, 2_050_018, None, PARENT, [], PARENT_ROW,
                              norm_checked=True)[0].startswith("holds")


def test_each_branch_point_is_judged_against_the_parents_last(rules):
  branch = [_result(2_250_010, "average", -700, 30),   # +224: better
            _result(2_500_004, "average", -900, 30),   # +24: no different
            _result(2_750_001, "average", -1_050, 30)]  # -126: worse
  lines = rules.branch_verdict([_row(2_750_001)], 2_050_018, None, PARENT,
                               branch, PARENT_ROW)
  assert [line.split(", ")[1].split(" the")[0] for line in lines[1:4]] == [
      "better than", "no different from", "worse than"]
  assert "the parent's -924 +- 30 at 2,050,018" in lines[1]
  # Rule 4 on the joined points: 2.75M against 2.25M, two spacings earlier.
  assert lines[-2].startswith("at the paper's precision the issue's target is "
                              "not met: -1050 +- 30 mbb/h at 2,750,001")
  assert "-700 +- 30 two evaluations earlier" in lines[-2]


def _curve(values, spacing=50_000):
  """Curve rows evaluated against the profile every `spacing` episodes."""
  return [{"step": float(i * spacing), "mbb_per_hand_vs_smooct": v}
          for i, v in enumerate(values)]


def test_rule_8_reads_a_clipped_run_no_worse_at_the_same_x(rules):
  # Double Q: flat at -1,400 to 300k, then -1,200; the clipped run rises
  # from -1,600 to double Q's level.
  double = _curve([-1400.0 + 10 * (i % 2) for i in range(6)] +
                  [-1200.0 + 10 * (i % 2) for i in range(6)])
  clipped = _curve([-1600.0 + 10 * (i % 2) for i in range(4)] +
                   [-1210.0 + 10 * (i % 2) for i in range(8)])
  line = rules.same_x_verdict("clip1_scratch_seed0", clipped, double)
  assert "at 250,000 episodes clip 1 no different from double Q" in line
  assert "at 500,000 episodes clip 1 no different from double Q" in line
  assert line.endswith("does the clip cost learning: the clip costs no "
                       "learning up to that x")


def test_rule_8_reads_a_clipped_run_behind_at_the_last_x_as_slower(rules):
  double = _curve([-1400.0 + 10 * (i % 2) for i in range(6)] +
                  [-1000.0 + 10 * (i % 2) for i in range(6)])
  clipped = _curve([-1600.0 + 10 * (i % 2) for i in range(4)] +
                   [-1300.0 + 10 * (i % 2) for i in range(8)])
  line = rules.same_x_verdict("clip1_scratch_seed0", clipped, double)
  assert "at 500,000 episodes clip 1 worse than double Q" in line
  assert line.endswith("the clip slows learning")


def test_rule_8_waits_for_a_shared_window_past_the_first_verdict(rules):
  double = _curve([-1400.0] * 12)
  assert rules.same_x_verdict("clip1_scratch_seed0", _curve([-1500.0] * 3),
                              double) == ("does the clip cost learning: no "
                                          "shared window yet")
  # 250k has a shared window, but the verdict waits for an x from 300k on.
  line = rules.same_x_verdict("clip1_scratch_seed0", _curve([-1500.0] * 7),
                              double)
  assert "at 250,000 episodes" in line
  assert line.endswith("does the clip cost learning: too short")


def test_rule_5_keeps_its_reading(rules):
  double = _curve([-1400.0 + 10 * (i % 2) for i in range(12)])
  plain = _curve([-1600.0 + 10 * (i % 2) for i in range(12)])
  line = rules.same_x_verdict("plain_q_rewards_1_10", plain, double)
  assert "at 500,000 episodes plain Q worse than double Q" in line
  assert line.endswith("which change learns: double Q's target is needed too")


def _wobbling(*levels):
  """A curve at each (level, evaluations) of `levels` in turn, wobbling by
  10 mbb/h from one evaluation to the next."""
  return _curve([level + 10 * (i % 2) for level, count in levels
                 for i in range(count)])


CLIP1 = _wobbling((-1400.0, 12))


def test_rule_9_reads_a_looser_clip_against_clip_1(rules):
  faster = _wobbling((-1600.0, 4), (-1100.0, 8))
  line = rules.same_x_verdict("clip10_scratch_seed0", faster, CLIP1)
  assert "at 500,000 episodes clip 10 better than clip 1" in line
  assert line.endswith("does a looser clip keep learning: the looser clip "
                       "learns faster")
  same = _wobbling((-1600.0, 4), (-1390.0, 8))
  assert rules.same_x_verdict("clip10_scratch_seed0", same, CLIP1).endswith(
      "the clip's size does not matter up to that x")
  assert rules.same_x_verdict("clip10_scratch_seed0", faster, CLIP1,
                              diverged=True).endswith(
                                  "the looser clip does not hold")


def test_rule_10_reads_the_equity_run_against_clip_1(rules):
  given = _wobbling((-1600.0, 4), (-900.0, 8))
  line = rules.same_x_verdict("clip1_equity_scratch_seed0", given, CLIP1)
  assert "at 500,000 episodes given the equity better than clip 1" in line
  assert line.endswith("reading hand strength is what holds NFSP's "
                       "self-play back at that x")
  assert rules.same_x_verdict("clip1_equity_scratch_seed0", CLIP1,
                              CLIP1).endswith(
                                  "hand strength given is not enough for "
                                  "self-play to learn faster up to that x")
