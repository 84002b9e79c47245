"""Builds the E[HS^2] bucket tables of Limit Hold'em into the cache.

Builds (a few minutes on one core) and writes the four tables of
`nfsp_spiel.poker.card_abstraction`, then prints each round's build time, index
size, bucket count and file size, and the SHA-256 sums stored beside them;
then derives their arrangement by board that Smooth UCT's simulator reads
(`nfsp_spiel.poker.board_buckets`, under `by_board/`, about half a minute).
A cache that is already complete is only verified.

  python examples/build_ehs2_tables.py --cache_dir /tmp/ehs2
"""

import pathlib

from absl import app
from absl import flags

from nfsp_spiel.poker import board_buckets
from nfsp_spiel.poker import card_abstraction
import run_flags  # examples/run_flags.py

FLAGS = flags.FLAGS
flags.DEFINE_string("cache_dir", None, "Table directory (default: "
                    "$NFSP_SPIEL_CACHE/ehs2 or ~/.cache/nfsp_spiel/ehs2).")


def build(cache_dir):
  """Builds and writes the tables; they are freed on return, before the
  check below loads them again."""
  built, seconds = card_abstraction.build_tables(log=print)
  card_abstraction.save_tables(cache_dir, built._asdict())
  print(f"built in {sum(seconds.values()):.1f} s")


def main(argv):
  if len(argv) > 1:
    raise app.UsageError(f"unexpected arguments: {argv[1:]}")
  cache_dir = pathlib.Path(FLAGS.cache_dir or
                           card_abstraction.default_cache_dir())
  if card_abstraction.load_tables(cache_dir) is None:
    build(cache_dir)
  else:
    print(f"{cache_dir}: already built; checksums verified")
  card_abstraction.tables(cache_dir)  # checks shapes and types
  for name, size, buckets in zip(card_abstraction.ROUND_NAMES,
                                 card_abstraction.INDEX_SIZES,
                                 card_abstraction.NUM_BUCKETS):
    path = cache_dir / f"{name}.npy"
    print(f"{name:8s} {size:>12,d} indices {buckets:5d} buckets "
          f"{path.stat().st_size / 2**20:8.1f} MiB  {path}")
  print((cache_dir / "SHA256SUMS").read_text(), end="")
  by_board = board_buckets.tables(cache_dir)  # derived on first use
  size = sum(table.nbytes for table in by_board) / 2**20
  print(f"by board: {size:.1f} MiB in {cache_dir / 'by_board'}")


if __name__ == "__main__":
  run_flags.run(main)
