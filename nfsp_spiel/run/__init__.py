"""The infrastructure of a training run, shared by every binary in
`examples/`: the run folder with atomic checkpoints, exact resume and clean
stops (`run_directory`), and the learning curves it keeps consistent with
the checkpoint (CSV, PNG, TensorBoard: `curves`)."""
