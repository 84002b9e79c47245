"""GFLOP/s of the products NFSP's Limit Hold'em networks make: three
chained 1024 x 1024 layers (ReLU between), forward alone and forward with
the weights' gradients, in float32 and with bfloat16 operands, compiled by
XLA or run by TensorFlow's own kernels (oneDNN on a CPU), on `--threads`
intra-op threads. Where XLA's CPU backend leaves the bfloat16 units unused
and oneDNN reaches them (AMX, avx512_bf16) shows here first.

  python benchmarks/matrix_products.py --threads 1
  taskset -c 0,1 python benchmarks/matrix_products.py --threads 2
"""

import time

from absl import app
from absl import flags

from nfsp_spiel.core.quiet_tensorflow import tf

FLAGS = flags.FLAGS
flags.DEFINE_integer("threads", 0, "Intra-op threads (0: TensorFlow's).")
flags.DEFINE_list("batches", ["256", "4096"], "Rows per product.")
flags.DEFINE_float("seconds", 3.0, "Timed seconds per cell.")

_VARIANTS = ((tf.float32, True), (tf.float32, False), (tf.bfloat16, False),
             (tf.bfloat16, True))
_LAYERS, _WIDTH = 3, 1024


def _rate(batch, dtype, xla, gradients):
  """GFLOP/s of one variant."""
  inputs = tf.random.normal((batch, _WIDTH))
  weights = [tf.Variable(tf.random.normal((_WIDTH, _WIDTH)) * 0.03)
             for _ in range(_LAYERS)]

  def forward():
    hidden = inputs
    for w in weights:
      hidden = tf.nn.relu(tf.cast(tf.matmul(tf.cast(hidden, dtype),
                                            tf.cast(w, dtype)), tf.float32))
    return tf.reduce_sum(hidden)

  @tf.function(jit_compile=xla)
  def call():
    if not gradients:
      return forward()
    with tf.GradientTape() as tape:
      loss = forward()
    return tape.gradient(loss, weights)

  call()  # compiled
  calls, started = 0, time.perf_counter()
  while time.perf_counter() - started < FLAGS.seconds:
    call()
    calls += 1
  seconds = (time.perf_counter() - started) / calls
  # A backward pass is two products per layer (inputs' and weights').
  products = _LAYERS * (3 if gradients else 1)
  return 2 * batch * _WIDTH * _WIDTH * products / seconds / 1e9


def main(argv):
  del argv
  if FLAGS.threads:
    tf.config.threading.set_intra_op_parallelism_threads(FLAGS.threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
  names = [f"{d.name}{', XLA' if xla else ''}" for d, xla in _VARIANTS]
  print(f"| pass | rows | {' | '.join(names)} |")
  print("| --- | ---: |" + " ---: |" * len(names))
  for gradients in (False, True):
    for batch in (int(b) for b in FLAGS.batches):
      rates = [_rate(batch, d, xla, gradients) for d, xla in _VARIANTS]
      print(f"| {'forward and gradients' if gradients else 'forward'} | "
            f"{batch} | " + " | ".join(f"{r:.0f}" for r in rates) + " |",
            flush=True)


if __name__ == "__main__":
  app.run(main)
