"""What every algorithm shares: argument checks (`checks`), the checkpoint
file format with its checked headers (`checkpoints`) and TensorFlow imported
quietly (`quiet_tensorflow`). Imports nothing else of the package."""
