"""The members of a population (`population.Population`) from seeds and sweeps.

`examples/nfsp.py --seeds 0,2 --sweep rl_learning_rate=0.05,0.1 --sweep
eta=0.1,0.5` trains one member per sweep point and seed: the cross product of
the sweeps' values, seeds innermost, each member the run that seed and those
settings make alone. Seeds are comma-separated seeds and inclusive ranges
(`0-7`, `0,2,4`); a sweep is `name=value1,value2,...`, its name a setting of
`NFSPConfig.replace` or the binary's flag for it (`CONFIG_FLAGS`), each value
of the type of the setting's current value (hidden layers: `64x64`).

Refusals are `ValueError`s that start with the setting they refuse
(`seeds=0-x: ...`, `sweep=eta=a: ...`).
"""

import collections
import dataclasses
import itertools

from nfsp_spiel.nfsp import config as config_lib
from nfsp_spiel.nfsp import stacked_learning

# examples/nfsp.py's config flags and their `NFSPConfig.replace` names (a
# sweep takes both; a flag's name wins: sl_memory is M_SL's capacity).
CONFIG_FLAGS = {
    "hidden_layers": "hidden_layers", "rl_memory": "rl_memory_capacity",
    "sl_memory": "sl_memory_capacity", "sl_memory_kind": "sl_memory",
    "eta": "anticipatory",
    **{name: name for name in (
        "rl_learning_rate", "epsilon_start", "epsilon_schedule",
        "epsilon_decay", "learn_every", "target_refit_every",
        "min_memory_to_learn", "reward_scale", "init", "memory_dtype",
        "device", "precision")}}

# What a swept value must be, by the type of the setting's current value.
VALUE_KINDS = {int: "an integer", float: "a number",
               tuple: "layer sizes like 64x64"}

Member = collections.namedtuple("Member", "name group config seed")


def configure(preset, values):
  """`NFSPConfig`'s preset `preset` (leduc, lhe, ...) with `values` ({a
  `CONFIG_FLAGS` name: its value, None for the preset's}). The learner's
  settings keep their flat names (rl_learning_rate, epsilon_start, ...),
  which `NFSPConfig.replace` takes (`LEGACY_FIELDS`) and refuses for a preset
  whose learner has no such setting (ARM has no epsilon)."""
  # The device goes to the preset too: lhe() picks its precision for it.
  device = values.get("device")
  config = getattr(config_lib.NFSPConfig, preset)(
      **({"device": device} if device else {}))
  try:
    return config.replace(**{CONFIG_FLAGS[name]: value
                             for name, value in values.items()
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
  """{sweep name: its `NFSPConfig.replace` name} of what members may vary:
  NFSPConfig's fields and its learner's (flat names), under their flags'
  names too (not the evaluated policy, which names the curve's columns, nor
  the device, which the population's one learning call runs on)."""
  learner = config.best_response
  fields = [f.name for f in dataclasses.fields(config) if f.name not in (
      "best_response", "evaluation_policy", "device")]
  fields += [flat for flat, (kind, _) in config_lib.LEGACY_FIELDS.items()
             if kind == learner.kind]
  return {**{field: field for field in fields},
          **{flag: field for flag, field in CONFIG_FLAGS.items()
             if field in fields}}


def _setting(config, field):
  """`config`'s value of a `NFSPConfig.replace` name."""
  if field in config_lib.LEGACY_FIELDS:
    return getattr(config.best_response, config_lib.LEGACY_FIELDS[field][1])
  return getattr(config, field)


def sweep_axis(config, sweep):
  """(name, replace name, [(value's text, value)]) of one sweep
  `name=value1,value2,...`, each value of the current value's type."""
  name, _, texts = sweep.partition("=")
  names = sweep_names(config)
  if name not in names or not texts:
    raise ValueError(f"sweep={sweep}: give name=value1,value2,... with a "
                     f"name of {', '.join(sorted(names))}")
  field = names[name]
  current = _setting(config, field)
  values = []
  for text in texts.split(","):
    try:
      value = (tuple(int(h) for h in text.split("x"))
               if isinstance(current, tuple) else type(current)(text))
    except ValueError:
      raise ValueError(f"sweep={sweep}: {text!r} is not "
                       f"{VALUE_KINDS[type(current)]}") from None
    try:
      config.replace(**{field: value})
    except ValueError as error:
      raise ValueError(f"sweep={sweep}: {error}") from None
    values.append((text, value))
  if len(set(texts.split(","))) < len(values):
    raise ValueError(f"sweep={sweep}: a value is given twice")
  return name, field, values


def population_members(config, seeds, sweeps=()):
  """The members: the cross product of `sweeps`' points and `seeds`, seeds
  innermost; a member's name is its point's (`rl_learning_rate=0.05,eta=0.1`,
  its group) and its seed's (`seed0`). Members whose settings change a
  shape are refused (`stacked_learning.check_stackable`)."""
  axes = [sweep_axis(config, sweep) for sweep in sweeps]
  fields = [field for _, field, _ in axes]
  for sweep, (k, field) in zip(sweeps, enumerate(fields)):
    if field in fields[:k]:
      raise ValueError(f"sweep={sweep}: {field} is swept twice")
  members = []
  for point in itertools.product(*(values for _, _, values in axes)):
    group = ",".join(f"{name}={text}"
                     for (name, _, _), (text, _) in zip(axes, point))
    try:
      member_config = config.replace(**{
          field: value for field, (_, value) in zip(fields, point)})
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
