"""The public trees: their forms against the walked tree (values, states,
XFP on them), the paper's state counts, and their matrix products on one
BLAS thread whatever the machine's default (OpenBLAS's threads made XFP 2.6x
slower on a busy 2-core machine: benchmark figures in
nfsp_spiel/trees/public_tree.py)."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import get_all_states
import threadpoolctl

import nfsp_spiel  # noqa: F401
from nfsp_spiel.fictitious_play import xfp
from nfsp_spiel.trees import public_tree
from nfsp_spiel.trees import sequence_form


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


def test_public_tree_forms_equal_the_walked_tree():
  """nfsp_leduc's public tree x hands gives the walked tree's values, and
  XFP on it follows XFP on OpenSpiel's leduc_poker."""
  game = pyspiel.load_game("nfsp_leduc(ranks=4)")
  walked = sequence_form.SequenceForm(game)
  public = public_tree.public_tree_form(game)
  rng = np.random.default_rng(1)
  for _ in range(3):
    profile = walked.to_tabular([walked.random_strategy(p, rng)
                                 for p in (0, 1)])
    np.testing.assert_allclose(
        public.values(public.strategies_of(profile)),
        walked.values(walked.strategies_of(profile)), atol=1e-12)
  ours = xfp.XFPSolver(pyspiel.load_game("nfsp_leduc"))
  openspiel_game = xfp.XFPSolver(pyspiel.load_game("leduc_poker"))
  assert isinstance(ours.form, public_tree.PublicTreeSequenceForm)
  for _ in range(100):
    ours.iteration()
    openspiel_game.iteration()
  assert ours.exploitability() == pytest.approx(
      openspiel_game.exploitability(), abs=1e-12)


@pytest.mark.parametrize("name,cards", [("nfsp_leduc(ranks=4)", 8),
                                        ("nfsp_leduc", 6)])
def test_public_tree_counts_the_walked_trees_states(name, cards):
  """The states below the deal, from the deal laws, are the walk's states
  but for the deal's chance nodes (the root and one per first card)."""
  game = pyspiel.load_game(name)
  walked = get_all_states.get_all_states(game, include_terminals=True,
                                         include_chance_states=True)
  public = public_tree.public_tree_form(game)
  assert public.num_states + 1 + cards == len(walked)
  assert public.num_information_states == len(
      policy_lib.TabularPolicy(game).state_lookup)


def test_river_poker_has_the_papers_ten_million_states():
  """ICML 2015 sec. 5 / thesis 5.6.2: "about 10 million states"."""
  form = public_tree.public_tree_form(pyspiel.load_game("river_poker"))
  # 1081 holdings x 990 opponent holdings without a shared card, at each of
  # the 9 public nodes (4 decisions, 5 terminals).
  assert form.num_states == 1081 * 990 * 9
