"""Games compiled into arrays: one compiled game tree (`game_tree`, the
sentinels CHANCE and TERMINAL defined once) under the sequence form
(`sequence_form`), the batched games of self-play (`batched_games`), and the
public-state trees of River poker and Leduc (`public_tree`); `game_tensors`:
what the networks read from a game. No TensorFlow."""
