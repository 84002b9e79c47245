"""Measures what the README promises in time and disk, on this machine.

Runs the quick-start command and every README snippet as written (full
sizes), one at a time, timing each run's wall clock, and writes the table
with a description of the machine to `benchmarks/results/readme_timings.md`
and into the README between its `timings` markers: the one place the README's
machine-dependent figures live.

  python benchmarks/readme_timings.py            # ~5 minutes on 2 cores
"""

import os
import platform
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
RESULT = os.path.join(ROOT, "benchmarks", "results", "readme_timings.md")
BEGIN, END = "<!-- timings:begin -->", "<!-- timings:end -->"


def snippets():
  """{README section: snippet} for the README's Python snippets."""
  with open(README) as f:
    text = f.read()
  found = {}
  for section, body in re.findall(r"^## (.+?)\n(.*?)(?=^## |\Z)", text,
                                  re.S | re.M):
    for i, code in enumerate(re.findall(r"```python\n(.*?)```", body, re.S)):
      found[section + (f" ({i + 1})" if i else "")] = code
  return found


def machine():
  model = "unknown CPU"
  if os.path.exists("/proc/cpuinfo"):
    with open("/proc/cpuinfo") as f:
      names = re.findall(r"model name\s*:\s*(.+)", f.read())
      model = names[0] if names else model
  import numpy  # pylint: disable=g-import-not-at-top
  return (f"{model}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, numpy {numpy.__version__}")


def timed(command, cwd):
  """(wall seconds, last printed line) of a command run to completion."""
  start = time.perf_counter()
  result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                          check=False)
  seconds = time.perf_counter() - start
  if result.returncode:
    raise RuntimeError(f"{command[:3]} failed:\n{result.stderr[-3000:]}")
  lines = [line for line in result.stdout.splitlines() if line.strip()]
  return seconds, lines


def main():
  rows = []
  with tempfile.TemporaryDirectory() as folder:
    output = os.path.join(folder, "nfsp")
    seconds, lines = timed([sys.executable, os.path.join(
        ROOT, "examples", "nfsp.py"), f"--output_dir={output}"], folder)
    size = os.path.getsize(os.path.join(output, "checkpoint.npz")) / 2**20
    # The curve's last row: "<episodes> <seconds> <exploitability>".
    episodes, _, exploitability = [
        line.split() for line in lines if line.strip()[0].isdigit()][-1]
    rows.append(("Quick start: `python examples/nfsp.py`", seconds,
                 f"exploitability {exploitability} at {episodes} episodes; "
                 f"checkpoint {size:.0f} MB"))
    for section, code in snippets().items():
      seconds, lines = timed([sys.executable, "-c", code], folder)
      rows.append((f"{section} snippet", seconds, lines[0][:60]))
      print(f"{section}: {seconds:.1f} s", flush=True)
  table = "\n".join(
      [f"Measured on {machine()} by `python benchmarks/readme_timings.py` "
       f"({time.strftime('%Y-%m-%d')}), one run at a time:", "",
       "| what | wall time | first printed result |", "| --- | ---: | --- |"]
      + [f"| {what} | {seconds:.1f} s | {result} |"
         for what, seconds, result in rows])
  with open(RESULT, "w") as f:
    f.write(table + "\n")
  with open(README) as f:
    text = f.read()
  if BEGIN in text:
    text = re.sub(f"{re.escape(BEGIN)}.*?{re.escape(END)}",
                  lambda _: f"{BEGIN}\n{table}\n{END}", text, flags=re.S)
    with open(README, "w") as f:
      f.write(text)
  print(table)


if __name__ == "__main__":
  main()
