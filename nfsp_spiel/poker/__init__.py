"""Hold'em card machinery the Limit Hold'em algorithms and evaluators share:
hand ranks (`hand_ranks`), the E[HS^2] card abstraction (`card_abstraction`)
and its board-bucket tables (`board_buckets`), and prefetch hints for the
compiled look-ups (`cache_hints`). Algorithms import it; games do not."""
