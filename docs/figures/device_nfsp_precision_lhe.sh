#!/bin/bash
# Issue 30 item 1 on Limit Hold'em: NFSP (NFSPConfig.lhe()) in float32 and in
# bfloat16 products, seeds 0, 2 and 4 each, six runs of examples/nfsp.py side
# by side on a lent machine whose CPU has bfloat16 units (avx512_bf16,
# amx_bf16): float32 runs on 3 cores each, bfloat16 runs on 2 (15 of 16).
# The curves come back as $OUT/<precision>_seed<seed>.csv and are drawn by
# docs/figures/fig_nfsp_precision_lhe.py.
#
# The machine has no TensorFlow and no package registry, so everything travels
# in ignored folders (each call carries at most 64 MiB):
#   .whl      open_spiel, ml_collections, phevaluator and TensorFlow's missing
#             dependencies as cp312 wheels (see device_smooth_uct_threads.sh);
#   .devdata  the E[HS^2] board tables and the E[HS] tables, xz-compressed
#             (by_board/, ehs/), which the SmooCT-like profile and the equity
#             player read;
#   .tf1-.tf3 tensorflow-cpu 2.20 without include/, as one xz tarball in three
#             parts.
# Calls, in a row (the machine stays warm 30 s between them):
#   bash docs/figures/device_nfsp_precision_lhe.sh parts   # carry .whl .devdata
#   bash docs/figures/device_nfsp_precision_lhe.sh parts   # carry .tf1
#   bash docs/figures/device_nfsp_precision_lhe.sh parts   # carry .tf2
#   bash docs/figures/device_nfsp_precision_lhe.sh run     # carry .tf3
set -o pipefail
export PYTHONUNBUFFERED=1
t0=$(date +%s)
mkdir -p /tmp/tfparts /tmp/carried
for d in .tf1 .tf2 .tf3; do [ -d "$d" ] && cp $d/tf.part* /tmp/tfparts/; done
for d in .whl .devdata; do [ -d "$d" ] && cp -r $d /tmp/carried/; done
ls /tmp/tfparts /tmp/carried
[ "$1" = run ] || exit 0

if [ ! -f /tmp/tfsite/tensorflow/__init__.py ]; then
  mkdir -p /tmp/tfsite && cat /tmp/tfparts/tf.part* | xz -dc -T0 | tar -x -C /tmp/tfsite || exit 1
fi
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site /tmp/carried/.whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:/tmp/tfsite:$PWD
export NFSP_SPIEL_CACHE=/tmp/cache
data=/tmp/carried/.devdata
mkdir -p $NFSP_SPIEL_CACHE/ehs2/by_board $NFSP_SPIEL_CACHE/ehs
cp $data/by_board/SHA256SUMS $data/by_board/preflop.npy $NFSP_SPIEL_CACHE/ehs2/by_board/
cp $data/ehs/SHA256SUMS $NFSP_SPIEL_CACHE/ehs/
for f in $data/by_board/*.xz; do xz -dc -T0 $f > $NFSP_SPIEL_CACHE/ehs2/by_board/$(basename $f .xz) & done
for f in $data/ehs/*.xz; do xz -dc -T0 $f > $NFSP_SPIEL_CACHE/ehs/$(basename $f .xz) & done
wait
echo "setup $(( $(date +%s) - t0 )) s"
grep -o 'amx_bf16\|avx512_bf16' /proc/cpuinfo | sort -u | tr '\n' ' '; nproc
python3 -c "from nfsp_spiel.nfsp import networks; print('bf16 units', networks.bfloat16_units())" 2>&1 | tail -1

train() {  # precision seed cpus
  taskset -c $3 timeout -k 20 ${LIMIT:-500} python3 examples/nfsp.py \
    --game nfsp_lhe --preset lhe --precision $1 --seed $2 \
    --episodes ${EPISODES:-30000} --eval_every ${EVERY:-10000} \
    --checkpoint_every ${EVERY:-10000} --eval_deals ${DEALS:-2500} \
    --smooct_deals ${DEALS:-2500} --lbr_hands 0 --eval_policies average \
    --output_dir /tmp/runs/$1_$2 > /tmp/logs/$1_seed$2.log 2>&1
  echo "$1 seed $2: rc $? after $(( $(date +%s) - t0 )) s"
  cp /tmp/runs/$1_$2/curve.csv $OUT/$1_seed$2.csv
}
mkdir -p /tmp/logs
train float32 0 0-2 & train float32 2 3-5 & train float32 4 6-8 &
train bfloat16 0 9,10 & train bfloat16 2 11,12 & train bfloat16 4 13,14 &
wait
# $OUT brings back 8 files at most: the six curves and one log.
tail -n 30 /tmp/logs/*.log | grep -v "^WARNING\|I0000\|W0000" > $OUT/logs.txt
grep -h "rc \|episodes/s" $OUT/logs.txt | tail -n 20
echo "all done $(( $(date +%s) - t0 )) s"
