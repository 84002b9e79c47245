"""Fictitious play in extensive form: XFP, full-width on the sequence form
(`xfp`), and FSP, its sample-based version (`fsp`), on two-player games and,
through `n_player`'s arrays, on games of more players; Heinrich's thesis ch. 4
and 5, Heinrich, Lanctot & Silver (ICML 2015)."""
