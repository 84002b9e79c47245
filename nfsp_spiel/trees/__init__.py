"""Games compiled into arrays: one compiled game tree (`game_tree`, the
sentinels CHANCE and TERMINAL defined once) under the sequence form
(`sequence_form`), the batched games of self-play (`batched_games`), and the
public-state trees of River poker and Leduc (`public_tree`), heads-up Limit
Hold'em's betting tree (`betting_tree`) and three-player Limit Hold'em's
betting rules on arrays (`three_player_betting`; its tree would have 23.9M
nodes); `game_tensors`: what the networks read from a game. No TensorFlow."""
