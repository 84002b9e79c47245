"""A figure script of docs/figures imported for its rules' tests: the test
module names it in `FIGURE_SCRIPT`."""

import importlib
import os
import sys

import pytest

FIGURES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "docs", "figures")


@pytest.fixture(scope="module")
def figure_script(request):
  sys.path.insert(0, FIGURES)
  try:
    yield importlib.import_module(request.module.FIGURE_SCRIPT)
  finally:
    sys.path.remove(FIGURES)
