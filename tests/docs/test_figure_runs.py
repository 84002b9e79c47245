"""docs/figures/figure_runs.py: a run's curve reaches the committed data only
when it goes further, so a restarted or shorter run never replaces it."""

FIGURE_SCRIPT = "figure_runs"


def _write(path, steps):
  path.parent.mkdir(parents=True, exist_ok=True)
  path.write_text("step,seconds,exploitability\n" + "".join(
      f"{step},{step / 10},{1 / (1 + step)}\n" for step in steps))


def test_a_curve_is_copied_only_where_it_goes_further(figure_script,
                                                      tmp_path):
  run, data = tmp_path / "run" / "curve.csv", tmp_path / "data" / "curve.csv"
  _write(run, [0, 100, 200])
  assert figure_script.copy_curve_further(str(run), str(data))
  assert data.read_text() == run.read_text()
  _write(run, [0, 100])  # a restarted run, shorter than the committed one
  assert not figure_script.copy_curve_further(str(run), str(data))
  assert data.read_text().splitlines()[-1].startswith("200,")
  _write(run, [0, 100, 200])  # as far, not further
  assert not figure_script.copy_curve_further(str(run), str(data))
  _write(run, [0, 100, 200, 300])
  assert figure_script.copy_curve_further(str(run), str(data))
  assert data.read_text().splitlines()[-1].startswith("300,")
  assert not figure_script.copy_curve_further(str(tmp_path / "none.csv"),
                                              str(data))


def test_a_run_folder_brings_its_branch_record(figure_script, tmp_path):
  run, data = tmp_path / "run", tmp_path / "data"
  _write(run / "curve.csv", [0, 50])
  (run / figure_script.BRANCH_NAME).write_text('{"step": 50}')
  figure_script.copy_further(str(run), str(data))
  assert (data / figure_script.BRANCH_NAME).read_text() == '{"step": 50}'
