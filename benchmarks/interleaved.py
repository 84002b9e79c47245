"""Interleaved rounds of benchmark variants, each in its own process.

A script that measures variants side by side re-runs itself with
`--measure <variant>` (plus its own arguments) once per variant and round,
A B C A B C ..., optionally pinned to CPUs with taskset; the child prints
its rate as the last line of its output, and may print a JSON object of
other measurements on the line before (`rounds(..., details=...)`).
"""

import argparse
import json
import os
import subprocess
import sys


def add_arguments(parser, rounds=3):
  """The arguments every such script takes: --rounds, --cpus, --csv and the
  child's --measure."""
  parser.add_argument("--rounds", type=int, default=rounds)
  parser.add_argument("--cpus", default=None,
                      help="pin every process to these CPUs, e.g. 0")
  parser.add_argument("--csv", default=None, help="also write rows here")
  parser.add_argument("--measure", default=None, help=argparse.SUPPRESS)


def rounds(script, variants, arguments, count, cpus=None, unit="episodes/s",
           details=None):
  """{variant: [rate per round]} of `script --measure <variant> arguments`
  (a list of strings), printing each rate as it comes; `details`: a dict
  that gets {variant: [the child's JSON line per round]}."""
  rates = {variant: [] for variant in variants}
  for round_ in range(count):
    for variant in variants:
      command = [sys.executable, script, "--measure", variant, *arguments]
      if cpus:
        command = ["taskset", "-c", cpus] + command
      output = subprocess.run(command, check=True, capture_output=True,
                              text=True,
                              env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
      lines = output.stdout.strip().splitlines()
      rates[variant].append(float(lines[-1]))
      if details is not None:
        details.setdefault(variant, []).append(json.loads(lines[-2]))
      print(f"round {round_ + 1} {variant}: {rates[variant][-1]:,.0f} {unit}",
            flush=True)
  return rates
