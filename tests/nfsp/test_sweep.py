"""A population's members from seeds and sweeps (`nfsp.sweep`), and the
preset a binary's config flags make."""

import pytest

from nfsp_spiel.nfsp import sweep
from nfsp_spiel.nfsp.config import NFSPConfig


def test_seeds_are_seeds_and_inclusive_ranges():
  assert sweep.parse_seeds("0-3, 7") == [0, 1, 2, 3, 7]
  assert sweep.parse_seeds("4") == [4]


@pytest.mark.parametrize("text, error", [
    ("0-x", "seeds=0-x: '0-x' is neither a seed nor a range a-b"),
    ("0,1,0", "seeds=0,1,0: give distinct seeds"),
    ("3-1", "seeds=3-1: give distinct seeds, at least one")])
def test_bad_seeds_are_refused(text, error):
  with pytest.raises(ValueError, match=f"^{error}"):
    sweep.parse_seeds(text)


def test_members_are_the_sweeps_cross_product_seeds_innermost():
  members = sweep.population_members(
      NFSPConfig.leduc(), [0, 2],
      ["rl_learning_rate=0.05,0.1", "anticipatory_param=0.1,0.5"])
  assert [m.name for m in members][:3] == [
      "rl_learning_rate=0.05,anticipatory_param=0.1,seed0",
      "rl_learning_rate=0.05,anticipatory_param=0.1,seed2",
      "rl_learning_rate=0.05,anticipatory_param=0.5,seed0"]
  assert len(members) == 8 and [m.seed for m in members] == [0, 2] * 4
  settings = {m.group: (m.config.best_response.learning_rate,
                        m.config.anticipatory_param) for m in members}
  assert settings == {"rl_learning_rate=0.05,anticipatory_param=0.1": (0.05, 0.1),
                      "rl_learning_rate=0.05,anticipatory_param=0.5": (0.05, 0.5),
                      "rl_learning_rate=0.1,anticipatory_param=0.1": (0.1, 0.1),
                      "rl_learning_rate=0.1,anticipatory_param=0.5": (0.1, 0.5)}


def test_without_a_sweep_a_member_is_its_seeds_run():
  config = NFSPConfig.leduc()
  members = sweep.population_members(config, [0, 2])
  assert [(m.name, m.group, m.config, m.seed) for m in members] == [
      ("seed0", "", config, 0), ("seed2", "", config, 2)]


def test_a_value_takes_the_settings_type():
  name, values = sweep.sweep_axis(NFSPConfig.leduc(),
                                  "reservoir_buffer_capacity=1000,2000")
  assert name == "reservoir_buffer_capacity"
  assert values == [("1000", 1000), ("2000", 2000)]
  _, values = sweep.sweep_axis(NFSPConfig.leduc(), "hidden_layers=64x64,32")
  assert [value for _, value in values] == [(64, 64), (32,)]
  # bool("False") is True: the words are read, not cast.
  _, values = sweep.sweep_axis(NFSPConfig.leduc(), "double_q=False,true")
  assert values == [("False", False), ("true", True)]


@pytest.mark.parametrize("flag, error", [
    ("anticipatory_param=a", "sweep=anticipatory_param=a: 'a' is not a "
     "number"),
    ("anticipatory_param=0.1,0.1", "sweep=anticipatory_param=0.1,0.1: a value "
     "is given twice"),
    ("anticipatory_param=2", "sweep=anticipatory_param=2: "
     "NFSPConfig.anticipatory_param=2.0: must be in "),
    ("replay_buffer_capacity=1.5", "sweep=replay_buffer_capacity=1.5: '1.5' "
     "is not an integer"),
    ("double_q=yes", "sweep=double_q=yes: 'yes' is not True or False")])
def test_bad_values_are_refused(flag, error):
  with pytest.raises(ValueError, match=f"^{error}"):
    sweep.population_members(NFSPConfig.leduc(), [0], [flag])


def test_a_bad_name_lists_the_names():
  with pytest.raises(ValueError) as error:
    sweep.population_members(NFSPConfig.leduc(), [0],
                             ["learning_rat=0.1,0.2"])
  message = str(error.value)
  assert message.startswith("sweep=learning_rat=0.1,0.2: give name=value1,"
                            "value2,... with a name of ")
  assert {"anticipatory_param", "rl_learning_rate"} <= set(
      message.split(" of ")[1].split(", "))


def test_a_learner_without_the_setting_has_no_such_name():
  assert "epsilon_start" in sweep.sweep_names(NFSPConfig.leduc())
  assert "epsilon_start" not in sweep.sweep_names(NFSPConfig.arm())
  # Nor what names the curve's columns or where the one learning call runs.
  assert not {"evaluation_policy", "device"} & set(
      sweep.sweep_names(NFSPConfig.leduc()))


def test_a_setting_swept_twice_is_refused():
  with pytest.raises(ValueError, match="^sweep=anticipatory_param=0.2: "
                     "anticipatory_param is swept twice"):
    sweep.population_members(NFSPConfig.leduc(), [0],
                             ["anticipatory_param=0.1", "anticipatory_param=0.2"])


def test_members_must_share_shapes():
  with pytest.raises(ValueError, match="^sweep=hidden_layers=64,32: "
                     "population member 1 has hidden_layers"):
    sweep.population_members(NFSPConfig.leduc(), [0],
                             ["hidden_layers=64,32"])


def test_close_seeds_get_a_note():
  members = sweep.population_members(NFSPConfig.leduc(), [0, 1, 4])
  assert sweep.seeds_note(members, 2).startswith(
      "seeds [0, 1, 4] are less than 2 apart")
  assert sweep.seeds_note(members[::2], 2) is None


def test_configure_reads_flag_names():
  config = sweep.configure("leduc", {"anticipatory_param": 0.2,
                                     "replay_buffer_capacity": 1000,
                                     "hidden_layers": (32,),
                                     "reservoir_buffer_kind": None})
  assert config == NFSPConfig.leduc().replace(
      anticipatory_param=0.2, replay_buffer_capacity=1000, hidden_layers=(32,))
  with pytest.raises(ValueError, match="^preset=arm: "):
    sweep.configure("arm", {"epsilon_start": 0.1})
