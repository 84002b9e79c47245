#!/bin/bash
# Smooth UCT's Limit Hold'em search on 1..16 threads (two players) and on 1 and
# 16 threads (three players), on a lent many-core machine that has no package
# registry and no TensorFlow (the searches do not need it). Results:
# benchmarks/results/smooth_uct_lhe_16_cores.txt.
#
# Prepared here (both folders ignored through .git/info/exclude, then carried):
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#     --implementation cp --platform manylinux_2_28_x86_64 -d .whl \
#     open_spiel==2.0.2 ml_collections phevaluator==0.6.0
#   mkdir -p .devdata/by_board && cd ~/.cache/nfsp_spiel/ehs2/by_board && \
#     cp SHA256SUMS preflop.npy ../../../../work/main/.devdata/by_board/ && \
#     for f in river turn flop river_boards turn_boards flop_boards; do
#       xz -T2 -6 -c $f.npy > /work/main/.devdata/by_board/$f.npy.xz; done
# (the board tables shrink from 238 MB to 16 MB), then run there:
#   bash benchmarks/device_smooth_uct_threads.sh
set -o pipefail
export PYTHONUNBUFFERED=1
t0=$(date +%s)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD
export NFSP_SPIEL_CACHE=/tmp/cache
d=$NFSP_SPIEL_CACHE/ehs2/by_board; mkdir -p $d
cp .devdata/by_board/SHA256SUMS .devdata/by_board/preflop.npy $d/
for f in .devdata/by_board/*.xz; do b=$(basename $f .xz); xz -dc -T0 $f > $d/$b & done; wait
echo "setup $(( $(date +%s) - t0 )) s"
{ lscpu; nproc; free -g; python3 -c "import numba, numpy; print('numba', numba.__version__, 'numpy', numpy.__version__)"; python3 -c "import tensorflow" 2>&1 | tail -1; } > $OUT/machine.txt 2>&1
grep -E "Model name|^CPU\(s\)|Thread|Socket|NUMA node|L3|Flags" $OUT/machine.txt | cut -c1-200
tail -3 $OUT/machine.txt
python3 benchmarks/smooth_uct_lhe.py --episodes ${EPISODES:-20000000} --threads ${THREADS:-1,2,4,8,12,16} --searches smooth_uct --seconds 2 2>&1 | grep -v "^WARNING\|^I0000\|absl" | tee $OUT/smooth_uct_lhe_threads.txt
echo "2p done $(( $(date +%s) - t0 )) s"
python3 benchmarks/smooth_uct_lhe3.py --episodes ${EPISODES3:-5000000} --threads 1,16 2>&1 | tee $OUT/smooth_uct_lhe3_threads.txt
echo "all done $(( $(date +%s) - t0 )) s"
