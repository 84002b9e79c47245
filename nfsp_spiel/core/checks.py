"""Argument checks shared by the algorithms: bad input fails at once with
the parameter's name, its value and what is allowed."""

import numbers


def whole_number(name, value, minimum):
  """`value` as an int if it is a whole number >= `minimum` (30.0 passes,
  30.7 must not become 30), else a ValueError naming it."""
  if (isinstance(value, bool) or not isinstance(value, numbers.Real) or
      not float(value).is_integer() or value < minimum):
    raise ValueError(f"{name}={value!r}: must be a whole number >= {minimum}")
  return int(value)
