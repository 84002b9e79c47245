"""The public trees' matrix products run on one BLAS thread whatever the
machine's default (OpenBLAS's threads made XFP 2.6x slower on a busy 2-core
machine: benchmark figures in nfsp_spiel/trees/public_tree.py)."""

import pyspiel
import threadpoolctl

import nfsp_spiel  # noqa: F401
from nfsp_spiel.trees import public_tree
from nfsp_spiel.fictitious_play import xfp


def test_public_tree_products_use_one_blas_thread(monkeypatch):
  game = pyspiel.load_game("river_poker(min_rank=11,board=JcQdKhAsJd)")
  solver = xfp.XFPSolver(game)
  assert isinstance(solver.form, public_tree.PublicTreeSequenceForm)
  seen = []
  products = type(solver.form.tree).terminal_values

  def counting(self, *args):
    seen.extend(lib["num_threads"] for lib in
                threadpoolctl.threadpool_info() if lib["user_api"] == "blas")
    return products(self, *args)

  monkeypatch.setattr(type(solver.form.tree), "terminal_values", counting)
  with threadpoolctl.threadpool_limits(2, user_api="blas"):
    solver.iteration()
    solver.exploitability()
    outside = [lib["num_threads"] for lib in threadpoolctl.threadpool_info()
               if lib["user_api"] == "blas"]
  assert seen and set(seen) == {1}
  assert outside and set(outside) == {2}  # the caller's setting is restored
