"""Smooth UCT and extensive-form UCT (Heinrich's thesis ch. 3): the search on
a compiled game tree (`search`, for games whose tree fits in memory) and on
heads-up Limit Hold'em with the E[HS^2] abstraction (`lhe`). The search's
names are this package's interface (`smooth_uct.SmoothUCT`, ...)."""

from nfsp_spiel.smooth_uct.search import SmoothUCT
from nfsp_spiel.smooth_uct.search import SmoothUCTConfig
from nfsp_spiel.smooth_uct.search import TableSearch
from nfsp_spiel.smooth_uct.search import all_cores
from nfsp_spiel.smooth_uct.search import backup
from nfsp_spiel.smooth_uct.search import exploration_schedule
from nfsp_spiel.smooth_uct.search import select
