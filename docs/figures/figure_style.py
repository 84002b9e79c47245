"""The figures' shared style: one colour per method, fonts and line widths,
the papers' reference levels, standard-error bands, axis labels, legends
outside the data, and saving without clipping.

Every figure script in this folder draws through this module, so that a
method has the same colour in every figure and a paper's number is read
from one place, its ledger item's `[item.paper]` table
(docs/reproduction/ledger.toml).
"""

import colorsys
import functools
import os
import re
import textwrap
import tomllib

import matplotlib
matplotlib.use("Agg")
from matplotlib import colors as mcolors  # pylint: disable=g-import-not-at-top
import matplotlib.pyplot as plt  # pylint: disable=g-import-not-at-top

from nfsp_spiel.run import curves as run_curves

HERE = os.path.dirname(os.path.abspath(__file__))
LEDGER = os.path.join(os.path.dirname(HERE), "reproduction", "ledger.toml")

plt.rcParams.update({
    "font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9,
    "legend.fontsize": 8, "xtick.labelsize": 8, "ytick.labelsize": 8,
    "lines.linewidth": 1.5, "figure.dpi": 100, "savefig.dpi": 150,
})

# One colour per method, in every figure. The first pattern a legend label
# matches names its method: the longer names come before the names they
# contain (NFSP-ARM before NFSP and ARM, Smooth UCT before UCT).
METHODS = (
    ("NFSP baseline", r"NFSP as the NFSP-ARM authors|NFSP-baseline",
     "#66a61e"),
    ("NFSP-ARM", r"NFSP-ARM", "#e7298a"),
    ("ARM", r"\bARM\b", "#8c564b"),
    ("DQN", r"\bDQN\b", "#e6ab02"),
    ("NFSP", r"\bNFSP\b", "#1f4e99"),
    # NFSP's ablations (NFSP paper fig. 1b), each a method of its own there.
    ("sliding window", r"sliding window", "#a6761d"),
    ("eta 0.5", r"eta 0\.5", "#6a3d9a"),
    ("exponential reservoir", r"exp(\.|onential) reservoir", "#1b9e77"),
    ("Smooth UCT", r"Smooth UCT", "#17becf"),
    ("UCT", r"\bUCT\b", "#ff7f0e"),
    ("OS-MCCFR", r"OS-MCCFR|outcome sampling", "#7f7f7f"),
    ("CFR", r"\bCFR\b", "#9467bd"),
    ("GFP", r"\bGFP\b", "#2ca02c"),
    ("XFP", r"\bXFP\b|lambda2", "#1f77b4"),
    ("FSP", r"\bFSP\b", "#d62728"),
    ("Hendon", r"Hendon|lambda1", "#bcbd22"),
    ("baseline", r"always-call|always-raise|equity-threshold|random",
     "#4d4d4d"),
)
COLOURS = {method: colour for method, _, colour in METHODS}
# A strategy that is not the method's average (greedy, a best response) is
# drawn dashed in the method's colour.
GREEDY = r"greedy|best response|best-response"
REFERENCE = "black"  # a paper's level with no method of its own

EXPLOITABILITY = "exploitability (chips per hand, mean over players)"
PAYOFF_EXPLOITABILITY = "exploitability (payoff per game, mean over players)"
# The ICML 2015 paper's delta sums the players' best-response values
# (NashConv), twice the mean drawn here.
ICML_SUM = "summed over players"
BAND = "shaded: \u00b11 standard error"


@functools.cache
def _ledger():
  with open(LEDGER, "rb") as f:
    return {item["id"]: item for item in tomllib.load(f)["item"]}


def paper(item):
  """The `[item.paper]` table of ledger item `item` (e.g. "thesis-fig3.3"):
  the paper's own numbers, the one place they are written."""
  return _ledger()[item]["paper"]


def sci(value):
  """A large count as a legend writes it: 5e8, 1.3e10 (not 5e+08)."""
  text = f"{value:.2g}"
  if "e" not in text:
    return text
  mantissa, exponent = text.split("e")
  return f"{mantissa}e{int(exponent)}"


def method(label):
  """The method a legend label names, or None."""
  return next((name for name, pattern, _ in METHODS
               if re.search(pattern, label, re.IGNORECASE)), None)


def colour(label):
  """The colour of the method `label` names (None: none named)."""
  name = method(label)
  return COLOURS[name] if name else None


def line_style(label, shade=None):
  """Line properties of a run labelled `label`: its method's colour (or
  `shade`), dashed for a greedy or best-response strategy."""
  style = {}
  if shade or colour(label):
    style["color"] = shade or colour(label)
  if re.search(GREEDY, label, re.IGNORECASE):
    style["linestyle"] = "--"
  return style


def styles(labels):
  """{label: line properties} of runs labelled `labels`, by method."""
  return {label: line_style(label) for label in labels}


# A setting of the game or the run (a deck, the beliefs), one style each in
# the order named: lines of one method then differ in style, not colour.
SETTING_STYLES = ("-", "-.", ":")


def settings(labels, names):
  """{label: line properties} of `labels`: each in its method's colour,
  in the line style of the one of the settings `names` it names."""
  return {label: {**line_style(label), "linestyle": next(
      (style for name, style in zip(names, SETTING_STYLES) if name in label),
      "-")} for label in labels}


def shades(name, labels):
  """{label: line properties}: variants of one method (`labels`, in the
  order of the parameter they vary) in shades of its colour, light to
  dark, so that the order reads off the colour."""
  hue, lightness, saturation = colorsys.rgb_to_hls(
      *mcolors.to_rgb(COLOURS[name]))
  count = len(labels)
  return {label: line_style(label, mcolors.to_hex(colorsys.hls_to_rgb(
      hue, 0.74 - 0.56 * (k / (count - 1) if count > 1 else 0.5),
      max(saturation, 0.5))))
          for k, label in enumerate(labels)}


def hidden_units(size):
  """The legend label of NFSP with one hidden layer of `size` units (NFSP
  paper fig. 1a's network sizes), in words rather than as a list."""
  return f"NFSP, {size} hidden units"


def reference_level(axes, y, label, colour_of=REFERENCE, at=None):
  """A paper's level `y` as a dashed horizontal line, named `label` in the
  legend (which `finish` puts outside the data); `at` (an x) marks where
  the paper reached it."""
  axes.axhline(y, color=colour_of, linestyle=(0, (5, 3)), linewidth=1,
               label=label)
  if at is not None:
    axes.plot([at], [y], marker="*", markersize=10, color=colour_of,
              markeredgecolor="black", markeredgewidth=0.5, linestyle="none")


def reference_point(axes, x, y, label, colour_of=REFERENCE, marker="*"):
  """A paper's value `y` at `x` (a level reached by a time) as a star (or
  `marker`), named `label` in the legend."""
  axes.plot([x], [y], marker=marker, markersize=10, color=colour_of,
            markeredgecolor="black", markeredgewidth=0.5, linestyle="none",
            label=label)


def log_axes(axes, x=True, y=True):
  """Log scales, with plain tick numbers where an axis spans under two
  decades (`nfsp_spiel.run.curves.readable_log_ticks`)."""
  if x:
    axes.set_xscale("log")
  if y:
    axes.set_yscale("log")
  run_curves.readable_log_ticks(axes)


def band(axes, xs, lows, highs, colour_of):
  """A band of +-1 standard error (`lows`, `highs`) behind a curve."""
  axes.fill_between(xs, lows, highs, color=colour_of, alpha=0.2, linewidth=0)


def legend_outside(axes, below=False, **kwargs):
  """The legend of `axes` to the right of it (`below`: under it, where a
  panel stands to its right), where it covers no data; the entries of one
  run's seeds ('label #k') once, long labels wrapped."""
  entries = {}
  for handle, label in zip(*axes.get_legend_handles_labels()):
    entries.setdefault("\n".join(textwrap.wrap(
        re.sub(r" #\d+$", "", label), 56)), handle)
  if entries:
    place = (dict(loc="upper center", bbox_to_anchor=(0.5, -0.2)) if below
             else dict(loc="upper left", bbox_to_anchor=(1.02, 1)))
    axes.legend(entries.values(), entries.keys(), borderaxespad=0,
                **place, **kwargs)


def wrap_label(label, width=44):
  """An axis label's lines: the quantity, then its unit in parentheses on
  a line of its own where the two do not fit on one."""
  quantity, bracket, unit = label.partition(" (")
  if len(label) <= width or not bracket:
    return textwrap.wrap(label, width)
  return textwrap.wrap(quantity, width) + textwrap.wrap("(" + unit, width)


BEST_RESPONSE_GAP = "best-response gap (chips per hand, mean over the seeds)"


def gap_panels():
  """A figure of two panels over one episodes axis for NFSP's seeds: the
  average policy's exploitability (or NashConv) with its band above, each
  player's best-response gap below (`finish_gap_panels` labels them)."""
  return plt.subplots(2, 1, figsize=(7.2, 7.4), sharex=True)


def finish_gap_panels(top, bottom, ylabel, title):
  """Labels `gap_panels`' panels once drawn: `ylabel` and the band's
  meaning on a log axis above, the gap below, legends outside, `title`."""
  top.set_ylabel("\n".join(wrap_label(ylabel) + [BAND]))
  log_axes(top, x=False)
  top.grid(True, alpha=0.3, which="both")
  bottom.set_ylabel("\n".join(wrap_label(BEST_RESPONSE_GAP)))
  bottom.set_xlabel("episodes")
  bottom.grid(True, alpha=0.3)
  for axes in (top, bottom):
    legend_outside(axes)
  top.set_title(title)


def finish(figure, ylabel=None, references=(), points=()):
  """A curve figure (`nfsp_spiel.run.curves.curve_figure`) made ready to
  print: `ylabel` in words with its unit on the first panel (its band's
  meaning kept), `references` ((level, label, colour, at) each) and
  `points` ((x, y, label, colour, marker) each) drawn there, and every
  legend outside the axes."""
  panels = figure.axes  # an inset is its panel's child, not in this list
  top = panels[0]
  if ylabel:
    shaded = BAND in top.get_ylabel()
    top.set_ylabel("\n".join(wrap_label(ylabel) + ([BAND] if shaded else [])))
  for level, label, colour_of, at in references:
    reference_level(top, level, label, colour_of or REFERENCE, at)
  for x, y, label, colour_of, marker in points:
    reference_point(top, x, y, label, colour_of or REFERENCE, marker)
  for axes in panels:
    legend_outside(axes)
  return figure


def save(figure, path):
  """`figure` as a PNG at `path`, nothing clipped; closes it."""
  figure.savefig(path, bbox_inches="tight")
  plt.close(figure)
  print(f"wrote {path}")
  return path
