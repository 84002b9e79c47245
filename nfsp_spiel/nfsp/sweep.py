"""The members of a population (`population.Population`) from seeds and sweeps.

`examples/nfsp.py --seeds 0,2 --sweep rl_learning_rate=0.05,0.1 --sweep
anticipatory_param=0.1,0.5` trains one member per sweep point and seed: the
cross product of the sweeps' values, seeds innermost, each member the run
that seed and those settings make alone. Seeds are comma-separated seeds and
inclusive ranges (`0-7`, `0,2,4`); a sweep is `name=value1,value2,...`,
its name a setting of `NFSPConfig.replace` (its fields and its learner's
flat names, which are also the binary's flags: `CONFIG_FLAGS`), each value
of the type of the setting's current value (hidden layers: `64x64`).

Refusals are `ValueError`s that start with the setting they refuse
(`seeds=0-x: ...`, `sweep=anticipatory_param=a: ...`).
"""

import collections
import dataclasses
import itertools

from nfsp_spiel.nfsp import config as config_lib
from nfsp_spiel.nfsp import stacked_learning

# examples/nfsp.py's config flags: each is named as `NFSPConfig.replace`
# names its setting.
CONFIG_FLAGS = (
    "hidden_layers", "replay_buffer_capacity", "reservoir_buffer_capacity",
    "reservoir_buffer_kind", "anticipatory_param", "rl_learning_rate",
    "sl_learning_rate",
    "epsilon_start", "epsilon_schedule", "epsilon_decay", "learn_every",
    "target_refit_every", "double_q", "td_error_clip",
    "min_buffer_size_to_learn",
    "reward_scale", "init",
    "memory_dtype", "device", "precision", "inputs")

# What a swept value must be, by the type of the setting's current value.
VALUE_KINDS = {int: "an integer", float: "a number",
               tuple: "layer sizes like 64x64", bool: "True or False"}
# bool("False") is True, so flags' words are read explicitly.
_BOOLS = {"true": True, "false": False}

Member = collections.namedtuple("Member", "name group config seed")


def configure(preset, values):
  """`NFSPConfig`'s preset `preset` (leduc, lhe, ...) with `values` ({a
  `CONFIG_FLAGS` name: its value, None for the preset's}). The learner's
  settings go by their flat names (rl_learning_rate, epsilon_start, ...),
  which `NFSPConfig.replace` takes (`LEARNER_FIELDS`) and refuses for a preset
  whose learner has no such setting (ARM has no epsilon)."""
  # The device goes to the preset too: lhe() picks its precision for it.
  device = values.get("device")
  config = getattr(config_lib.NFSPConfig, preset)(
      **({"device": device} if device else {}))
  try:
    return config.replace(**{name: value for name, value in values.items()
                             if value is not None})
  except ValueError as error:
    raise ValueError(f"preset={preset}: {error}") from None


def parse_seeds(text):
  """The seeds of `text`: comma-separated seeds and ranges a-b (inclusive),
  distinct, at least one."""
  seeds = []
  for part in text.split(","):
    low, dash, high = part.strip().partition("-")
    try:
      seeds += range(int(low), int(high) + 1) if dash else [int(low)]
    except ValueError:
      raise ValueError(f"seeds={text}: {part!r} is neither a seed nor a "
                       "range a-b; give e.g. 0-7 or 0,2,4") from None
  if not seeds or len(set(seeds)) < len(seeds):
    raise ValueError(f"seeds={text}: give distinct seeds, at least one "
                     "(e.g. 0-7 or 0,2,4)")
  return seeds


def sweep_names(config):
  """The `NFSPConfig.replace` names of what members may vary: NFSPConfig's
  fields and its learner's (flat names), not the evaluated policy, which
  names the curve's columns, nor the device, which the population's one
  learning call runs on."""
  learner = config.best_response
  names = [f.name for f in dataclasses.fields(config) if f.name not in (
      "best_response", "evaluation_policy", "device")]
  return names + [flat for flat, (kind, _) in
                  config_lib.LEARNER_FIELDS.items() if kind == learner.kind]


def _setting(config, name):
  """`config`'s value of a `NFSPConfig.replace` name."""
  if name in config_lib.LEARNER_FIELDS:
    return getattr(config.best_response, config_lib.LEARNER_FIELDS[name][1])
  return getattr(config, name)


def sweep_axis(config, sweep):
  """(name, [(value's text, value)]) of one sweep `name=value1,value2,...`,
  each value of the current value's type."""
  name, _, texts = sweep.partition("=")
  names = sweep_names(config)
  if name not in names or not texts:
    raise ValueError(f"sweep={sweep}: give name=value1,value2,... with a "
                     f"name of {', '.join(sorted(names))}")
  current = _setting(config, name)
  values = []
  for text in texts.split(","):
    try:
      value = _value(current, text)
    except (KeyError, ValueError):
      raise ValueError(f"sweep={sweep}: {text!r} is not "
                       f"{VALUE_KINDS[type(current)]}") from None
    try:
      config.replace(**{name: value})
    except ValueError as error:
      raise ValueError(f"sweep={sweep}: {error}") from None
    values.append((text, value))
  if len(set(texts.split(","))) < len(values):
    raise ValueError(f"sweep={sweep}: a value is given twice")
  return name, values


def _value(current, text):
  """`text` read as a value of `current`'s type."""
  if isinstance(current, bool):
    return _BOOLS[text.lower()]
  if isinstance(current, tuple):
    return tuple(int(h) for h in text.split("x"))
  return type(current)(text)


def population_members(config, seeds, sweeps=()):
  """The members: the cross product of `sweeps`' points and `seeds`, seeds
  innermost; a member's name is its point's
  (`rl_learning_rate=0.05,anticipatory_param=0.1`, its group) and its seed's
  (`seed0`). Members whose settings change a shape are refused
  (`stacked_learning.check_stackable`)."""
  axes = [sweep_axis(config, sweep) for sweep in sweeps]
  names = [name for name, _ in axes]
  for sweep, (k, name) in zip(sweeps, enumerate(names)):
    if name in names[:k]:
      raise ValueError(f"sweep={sweep}: {name} is swept twice")
  members = []
  for point in itertools.product(*(values for _, values in axes)):
    group = ",".join(f"{name}={text}" for name, (text, _) in zip(names, point))
    try:
      member_config = config.replace(**{
          name: value for name, (_, value) in zip(names, point)})
    except ValueError as error:  # values fine alone, not together
      raise ValueError(f"sweep point {group}: {error}") from None
    members += [Member(",".join(filter(None, (group, f"seed{seed}"))), group,
                       member_config, seed) for seed in seeds]
  try:
    stacked_learning.check_stackable([member.config for member in members])
  except ValueError as error:
    raise ValueError(f"sweep={'; '.join(sweeps)}: {error}") from None
  return members


def seeds_note(members, players):
  """A note where the members' seeds are too close for independent runs,
  else None."""
  seeds = sorted({member.seed for member in members})
  if any(b - a < players for a, b in zip(seeds, seeds[1:])):
    return (f"seeds {seeds} are less than {players} apart: their runs share "
            "random streams (agents_for seeds player p with seed + p); seeds "
            f"{players} apart (0,{players},{2 * players},...) give "
            "independent runs")
  return None
