"""The rule of docs/figures/fig_nfsp_lhe_frozen_average.py (written before
its data): does a warm-started best response climb against the frozen
average, and does clipping its TD error slow it?"""

import pytest

FIGURE_SCRIPT = "fig_nfsp_lhe_frozen_average"


@pytest.fixture(name="rule")
def fixture_rule(figure_script):
  return figure_script


def _curve(values, se=20.0, spacing=25_000):
  return [{"step": float(i * spacing + (3 if i else 0)), "mbb_per_hand": v,
           "mbb_stderr": se} for i, v in enumerate(values)]


def test_a_run_climbs_falls_or_is_flat_by_the_larger_margin(rule):
  assert rule.climbs(_curve([0.0, 30.0, 80.0, 100.0, 120.0])) == 1
  assert rule.climbs(_curve([0.0, 30.0, 40.0, 50.0, -120.0])) == -1
  # 60 above is past MIN_GAIN but not past twice the combined s.e. of 40s.
  assert rule.climbs(_curve([0.0, 10.0, 20.0, 30.0, 60.0], se=40.0)) == 0
  assert rule.climbs(_curve([0.0, 200.0, 300.0])) is None  # before 100k


def test_the_unclipped_run_ahead_means_the_clip_slows_it(rule):
  lines = rule.verdict({"clip1": _curve([0.0, 10.0, 20.0, 30.0, 40.0]),
                        "clip0": _curve([0.0, 100.0, 200.0, 250.0, 300.0])}, {})
  assert lines[0].startswith("clip1: flat")
  assert lines[1].startswith("clip0: climbs (+300 +- 20 mbb/h at 100,003")
  assert lines[2] == ("does the clip slow the best response: the clip slows "
                      "the best response (at 100,003 episodes: unclipped "
                      "+300, clipped +40)")


def test_neither_climbing_reads_as_nothing_more_found(rule):
  lines = rule.verdict({"clip1": _curve([0.0, 10.0, 20.0, 30.0, 40.0]),
                        "clip0": _curve([0.0, -10.0, 20.0, -30.0, 10.0])}, {})
  assert lines[-1].startswith(
      "does the clip slow the best response: neither climbs: with its target "
      "still, the best response finds no more than it had")


def test_both_climbing_alike_reads_as_the_clip_not_slowing_it(rule):
  lines = rule.verdict({"clip1": _curve([0.0, 100.0, 200.0, 250.0, 300.0]),
                        "clip0": _curve([0.0, 100.0, 180.0, 260.0, 320.0])}, {})
  assert lines[-1].startswith("does the clip slow the best response: the "
                              "clip does not slow it")


def test_runs_of_unequal_length_are_compared_at_the_last_shared_x(rule):
  lines = rule.verdict({"clip1": _curve([0.0, 10.0, 20.0, 30.0, 40.0]),
                        "clip0": _curve([0.0, 100.0, 200.0, 250.0, 300.0,
                                         400.0])}, {})
  assert "(at 100,003 episodes: unclipped +300, clipped +40)" in lines[-1]
  short = rule.verdict({"clip1": _curve([0.0, 10.0]),
                        "clip0": _curve([0.0, 100.0, 200.0, 250.0, 300.0])}, {})
  assert short[-1] == "does the clip slow the best response: too short"


def test_a_diverged_run_is_no_comparison(rule):
  lines = rule.verdict({"clip1": _curve([0.0, 10.0, 20.0, 30.0, 40.0]),
                        "clip0": _curve([0.0])},
                       {"clip0": "training diverged at 734 episodes: ..."})
  assert lines[1] == "clip0: diverges (training diverged at 734 episodes: ...)"
  assert lines[2] == ("does the clip slow the best response: no comparison: "
                      "the unclipped run diverged")


def test_rule_3_reads_a_climb_with_more_updates_as_too_slow(rule):
  flat = _curve([0.0, 10.0, 20.0, 30.0, 40.0])
  lines = rule.verdict({"clip1": flat, "clip1_updates_x4": _curve(
      [0.0, 100.0, 200.0, 250.0, 300.0])}, {})
  assert lines[-1] == ("is the clipped best response too slow: the clipped "
                       "best response is too slow at the paper's update rate "
                       "(at 100,003 episodes: 4x the updates +300, clip 1 +40)")
  lines = rule.verdict({"clip1": flat, "clip1_updates_x4": _curve(
      [0.0, -10.0, 30.0, 20.0, 50.0])}, {})
  assert lines[-1].startswith("is the clipped best response too slow: more "
                              "updates find no more")
  lines = rule.verdict({"clip1": flat, "clip1_updates_x4": _curve([0.0])},
                       {"clip1_updates_x4": "training diverged at 9 episodes"})
  assert lines[-1].endswith("the run with 4x the updates diverged")


def _line(lines, question):
  """The verdict's line that answers `question`."""
  [line] = [line for line in lines if line.startswith(question)]
  return line


def test_rule_4_reads_a_fresh_learner_ahead_as_the_trained_network(rule):
  flat = _curve([0.0, 10.0, 20.0, 30.0, 40.0])
  lines = rule.verdict({"clip1": flat, "cold_clip0": _curve(
      [-300.0, -100.0, 100.0, 250.0, 300.0])}, {})
  assert _line(lines, "is it the trained network") == (
      "is it the trained network: a fresh network finds what the trained one "
      "does not (at 100,003 episodes: fresh networks +300, clip 1 +40)")
  lines = rule.verdict({"clip1": flat, "cold_clip0": _curve(
      [-300.0, -280.0, -250.0, -320.0, -310.0])}, {})
  assert _line(lines, "is it the trained network").startswith(
      "is it the trained network: a fresh learner finds no more either")


def _long(values, se=20.0):
  """A curve evaluated every 100k episodes, to 500k with six values."""
  return _curve(values, se, spacing=100_000)


def test_rule_5_waits_for_both_runs_at_the_long_x(rule):
  trained = _long([0.0, 10.0, 20.0, 30.0, 40.0])  # to 400k
  lines = rule.verdict({"clip1": trained, "cold_clip0": _long(
      [-300.0, -100.0, 100.0, 250.0, 300.0, 400.0])}, {})
  assert lines[-1] == ("does the fresh learner overtake, given time: too "
                       "short")


def test_rule_5_reads_each_order_of_the_fresh_learner(rule):
  trained = _long([0.0, 10.0, 20.0, 30.0, 40.0, 30.0])
  ahead = rule.verdict({"clip1": trained, "cold_clip0": _long(
      [-900.0, -500.0, -300.0, -100.0, 100.0, 200.0])}, {})
  assert ahead[-1] == (
      "does the fresh learner overtake, given time: a fresh network finds "
      "what the trained one does not (at 500,003 episodes: fresh +200 +- 20, "
      "clip 1 +30 +- 20; fresh at 300,003: -100)")
  # Below and flat over the last 200k episodes: 30 above is within the margin.
  level = rule.verdict({"clip1": trained, "cold_clip0": _long(
      [-900.0, -500.0, -300.0, -230.0, -220.0, -200.0])}, {})
  assert level[-1].startswith("does the fresh learner overtake, given time: "
                              "the fresh learner levels off below the "
                              "trained one")
  climbing = rule.verdict({"clip1": trained, "cold_clip0": _long(
      [-900.0, -800.0, -700.0, -400.0, -250.0, -150.0])}, {})
  assert climbing[-1].startswith("does the fresh learner overtake, given "
                                 "time: no verdict: the fresh learner still "
                                 "climbs")
  level_with = rule.verdict({"clip1": trained, "cold_clip0": _long(
      [-900.0, -500.0, -300.0, -100.0, 0.0, 10.0])}, {})
  assert level_with[-1].startswith(
      "does the fresh learner overtake, given time: the fresh learner gets "
      "where the trained one is, not past it")


def test_rule_6_reads_a_climb_at_the_smaller_stepsize_as_the_paper_s(rule):
  flat = _curve([0.0, 10.0, 20.0, 30.0, 40.0])
  question = "is the paper's stepsize what holds it"
  lines = rule.verdict({"clip1": flat, "clip1_rl_0.01": _curve(
      [0.0, 100.0, 200.0, 250.0, 300.0])}, {})
  assert _line(lines, question) == (
      "is the paper's stepsize what holds it: the paper's stepsize holds the "
      "best response back (at 100,003 episodes: RL stepsize 0.01 +300, clip 1 "
      "+40)")
  lines = rule.verdict({"clip1": flat, "clip1_rl_0.01": _curve(
      [0.0, -10.0, 30.0, 20.0, 50.0])}, {})
  assert _line(lines, question).startswith(
      "is the paper's stepsize what holds it: a smaller stepsize finds no "
      "more")


def test_a_diverged_training_is_kept_beside_its_curve(rule, tmp_path,
                                                      monkeypatch):
  """`nfsp_runs.train_fixed_opponent` writes the error where the rules
  read it, and the run's curve keeps its rows."""
  # pylint: disable=g-import-not-at-top
  from nfsp_spiel.nfsp import fixed_opponent
  from nfsp_spiel.nfsp.config import NFSPConfig
  from nfsp_spiel.run import nfsp_training
  # pylint: enable=g-import-not-at-top

  def diverging(run, loop, *unused_args):
    del run
    loop.play(10)
    raise FloatingPointError("NFSP agent 0: training diverged")

  monkeypatch.setattr(nfsp_training, "train", diverging)
  config = NFSPConfig.lhe(hidden_layers=(8,), replay_buffer_capacity=2_000,
                          reservoir_buffer_capacity=2_000,
                          precision="float32")
  setting = fixed_opponent.Against("always_raise", num_deals=20, seed=1,
                                   num_games=4)
  assert rule.nfsp_runs.diverged(str(tmp_path), "run") is None
  rule.nfsp_runs.train_fixed_opponent(str(tmp_path), "run", config, setting,
                                      100, 50, str(tmp_path / "checkpoints"),
                                      600)
  text = rule.nfsp_runs.diverged(str(tmp_path), "run")
  assert text.startswith("training diverged at 1") and text.endswith(
      "NFSP agent 0: training diverged")


def _with_reference(rows, equity_player=650.0):
  return [{**row, "reference_equity_threshold": equity_player} for row in rows]


def test_rule_7_reads_the_equity_input_learner_against_the_fresh_one(rule):
  fresh = _long([-300.0, -100.0, -20.0, 0.0, 10.0, 0.0])  # to 500k
  question = "is it reading hand strength from the cards"
  ahead = _with_reference(_long([-300.0, 0.0, 100.0, 200.0, 300.0, 350.0]))
  assert _line(rule.verdict({"cold_clip0": fresh,
                             "cold_clip0_equity": ahead}, {}), question) == (
      f"{question}: reading hand strength from the raw cards holds the best "
      "response back (at 500,003 episodes: with equity +350 +- 20, cards "
      "alone +0 +- 20; the equity-threshold player +650)")
  level = _with_reference(_long([-300.0, -80.0, 0.0, 20.0, 30.0, 40.0]))
  assert _line(rule.verdict({"cold_clip0": fresh,
                             "cold_clip0_equity": level}, {}),
               question).startswith(
      f"{question}: given its hand strength, the learner finds no more")
  # Before 500k, or diverged.
  assert _line(rule.verdict({"cold_clip0": fresh,
                             "cold_clip0_equity": ahead[:5]}, {}),
               question) == f"{question}: too short"
  assert _line(rule.verdict(
      {"cold_clip0": fresh, "cold_clip0_equity": ahead[:1]},
      {"cold_clip0_equity": "training diverged at 9 episodes"}),
               question) == f"{question}: diverges"
