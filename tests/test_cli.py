"""The ``nptf`` command line, run as ``python -m nptf`` in real subprocesses.

Each subprocess imports TensorFlow (seconds), so a few representative runs
start together and the tests read their results; the remaining cases call
``nptf.cli.main`` in this process, which is the same code once the interpreter
has started.
"""
from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tensorflow as tf

from nptf import cli

USER_MODULE = textwrap.dedent("""
    import numpy as np


    def predict(x, w, bias):
        return np.tanh(x @ w + bias)


    def blocks(x, n=2):
        return x.reshape(n, -1).sum(axis=1)


    def branchy(x):
        # A string of a value known only when the graph runs needs Python: only NumPy
        # can run this.
        return x * len(str(x.max()))
""")

PREDICT_SPECS = ["--spec", "x=float32[None,3]", "--spec", "w=float32[3,2]",
                 "--spec", "bias=float32[2]"]

COMMANDS = {
    "export": ["export", "usermodel.py:predict", *PREDICT_SPECS, "-o", "exported"],
    "explain": ["explain", "usermodel:blocks", "--spec", "float64[6]", "--static", "n=3",
                "--logdir", "logs"],
    "bench": ["bench", "usermodel:predict", *PREDICT_SPECS, "--repeat", "3", "--size", "64"],
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every command above, run as ``python -m nptf ...`` in the same working directory."""
    workdir = tmp_path_factory.mktemp("cli")
    (workdir / "usermodel.py").write_text(USER_MODULE)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    results, running = {}, []
    for name, args in COMMANDS.items():
        # Two at a time: each one is mostly TensorFlow's import, on few cores.
        if len(running) == 2:
            _collect(*running.pop(0), results)
        process = subprocess.Popen([sys.executable, "-m", "nptf", *args], cwd=workdir, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        running.append((name, process))
    for name, process in running:
        _collect(name, process, results)
    results["workdir"] = workdir
    return results


def _collect(name, process, results):
    out, err = process.communicate(timeout=300)
    results[name] = subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_help_of_every_subcommand(capsys):
    # In this process: the same code as ``python -m nptf ... --help`` (a real process runs
    # the program's help in test_tensorflows_start_up_lines_stay_quiet_unless_asked_for).
    helps = {}
    for command in ("export", "explain", "bench"):
        with pytest.raises(SystemExit) as exit_info:
            cli.main([command, "--help"])
        assert exit_info.value.code == 0
        helps[command] = capsys.readouterr().out
    assert "--spec" in helps["export"] and "--force" in helps["export"]
    assert "x=float32[None,3]" in helps["export"]
    assert "--logdir" in helps["explain"]
    assert "--repeat" in helps["bench"] and "--size" in helps["bench"]


def test_export_writes_a_savedmodel_that_matches_numpy(runs):
    run = runs["export"]
    assert run.returncode == 0, run.stderr
    assert "serving_default(x: float32[None,3], w: float32[3,2], bias: float32[2])" in run.stdout
    model = tf.saved_model.load(str(runs["workdir"] / "exported"))
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((6, 3), np.float32), rng.standard_normal((3, 2), np.float32)
    bias = rng.standard_normal(2, np.float32)
    got = model.signatures["serving_default"](x=x, w=w, bias=bias)["output_0"].numpy()
    want = np.tanh(x @ w + bias)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_explain_prints_both_irs_the_report_and_writes_the_graph(runs):
    run = runs["explain"]
    assert run.returncode == 0, run.stderr
    assert "traced IR:" in run.stdout and "after the passes:" in run.stdout
    assert "reshape[shape=(3, 2)]" in run.stdout
    assert "TensorFlow ops" in run.stdout and "fallback: none" in run.stdout
    logs = os.listdir(runs["workdir"] / "logs")
    assert "graph.pbtxt" in logs and any(f.startswith("events.out.tfevents") for f in logs)


def test_bench_prints_a_table_after_checking_the_result(runs):
    run = runs["bench"]
    assert run.returncode == 0, run.stderr
    assert "results match NumPy" in run.stdout and "x=float32[64, 3]" in run.stdout
    header, numpy_row, nptf_row, warm_up = run.stdout.strip().splitlines()[-4:]
    assert header.split() == ["median", "first", "call", "speedup"]
    assert numpy_row.startswith("NumPy") and numpy_row.endswith("1.00x")
    assert nptf_row.startswith("nptf") and nptf_row.endswith("x")
    # the calls until the way to run them is chosen, apart from the first and the rest
    assert warm_up.startswith("warm-up: calls 2-") and "chosen after them" in warm_up


def test_a_usage_error_is_one_line_with_status_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(cli.main(["export", "usermodel:predict", "--spec", "x=float32[None,3",
                                   "-o", "out"]))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert err.startswith("nptf export: error: argument --spec: cannot parse spec "
                          "'x=float32[None,3'; expected NAME=DTYPE[DIM,...]")


# ------------------------------------------------- the same code, in-process
@pytest.fixture
def in_workdir(runs, monkeypatch):
    monkeypatch.chdir(runs["workdir"])
    monkeypatch.setattr(sys, "path", list(sys.path))
    return runs["workdir"]


@pytest.mark.parametrize("args, message", [
    (["export", "usermodel.py:predict", "--spec", "x=flot32[3]", "-o", "o"],
     "unknown dtype 'flot32' in spec 'x=flot32[3]'"),
    (["export", "usermodel.py:predict", "--spec", "x=float32[-1]", "-o", "o"],
     "negative dimension -1 in spec 'x=float32[-1]'"),
    (["explain", "usermodel.py:nothing", "--spec", "float32[3]"],
     "usermodel.py has no 'nothing'; it defines: blocks, branchy, predict"),
    (["explain", "missing.py:f"], "no such file 'missing.py'"),
    (["bench", "no_such_module:predict", "--spec", "x=float32[3]"],
     "nptf bench: error: no module named 'no_such_module'"),
    (["explain", "usermodel.py"], "expected MODULE:FUNCTION"),
    (["export", "usermodel.py:predict", "--spec", "z=float32[3]", "-o", "o"],
     "--spec z=float32[3] names no parameter of usermodel.py:predict; its parameters are "
     "x, w, bias"),
    (["export", "usermodel.py:blocks", "--static", "n=three", "-o", "o"], "not a Python literal"),
])
def test_more_usage_errors(in_workdir, capsys, args, message):
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(cli.main(args))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err


def test_export_of_a_fallback_only_function_fails_with_the_reason(in_workdir, capsys):
    assert cli.main(["export", "usermodel.py:branchy", "--spec", "x=float32[None]",
                     "-o", "branchy"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("nptf export: error: cannot export branchy")
    assert f"{in_workdir / 'usermodel.py'}:16" in err
    assert not (in_workdir / "branchy").exists()


def test_explain_reports_the_fallback(in_workdir, capsys):
    assert cli.main(["explain", "usermodel.py:branchy", "--spec", "x=float32[None]"]) == 0
    out = capsys.readouterr().out
    assert "falls back to NumPy: len() of text made of traced values" in out and "not exportable" in out


def test_export_refuses_an_existing_directory_without_force(in_workdir, capsys):
    args = ["export", "usermodel.py:blocks", "--spec", "float64[None]", "-o", "twice"]
    assert cli.main(args) == 0
    assert cli.main(args) == 1
    assert "already exists; pass force=True (nptf export --force)" in capsys.readouterr().err
    assert cli.main([*args, "--force"]) == 0


def test_export_force_refuses_a_directory_that_is_not_a_saved_model(in_workdir, capsys):
    (in_workdir / "mine").mkdir()
    (in_workdir / "mine" / "notes.txt").write_text("keep")
    args = ["export", "usermodel.py:blocks", "--spec", "float64[None]", "-o", "mine", "--force"]
    assert cli.main(args) == 1
    err = capsys.readouterr().err
    assert "is a directory that is not a SavedModel (no saved_model.pb); it holds notes.txt" in err
    assert "even with force=True (nptf export --force)" in err
    assert (in_workdir / "mine" / "notes.txt").read_text() == "keep"


def test_bench_refuses_to_time_a_wrong_result(in_workdir, capsys, monkeypatch):
    from nptf.runtime.compiled import Compiled
    monkeypatch.setattr(Compiled, "__call__", lambda self, *a, **k: np.zeros(3))
    assert cli.main(["bench", "usermodel.py:predict", *PREDICT_SPECS, "--size", "3"]) == 1
    captured = capsys.readouterr()
    assert "differs from NumPy's, so no time is reported" in captured.err
    assert "median" not in captured.out


def test_program_help_lists_the_subcommands(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert all(command in out for command in ("export", "explain", "bench", "--traceback"))


def test_progress_bar_draws_only_when_enabled():
    stream = io.StringIO()
    bar = cli.ProgressBar(4, "timing", stream=stream, enabled=True, delay=0)
    for _ in range(4):
        bar.update()
    bar.close()
    assert stream.getvalue().rstrip().endswith("timing [" + "#" * 30 + "] 4/4")
    quiet = io.StringIO()
    bar = cli.ProgressBar(4, stream=quiet)          # StringIO is not a terminal
    bar.update(4)
    bar.close()
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("args", [["-c", "import nptf"], ["-m", "nptf", "--help"]],
                         ids=["import", "help"])
def test_tensorflows_start_up_lines_stay_quiet_unless_asked_for(args):
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    quiet = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                           timeout=300)
    assert quiet.returncode == 0 and quiet.stderr == ""
    if args[0] != "-c":
        return
    # A level the user sets is theirs: nptf leaves TensorFlow's logging to it.
    env["TF_CPP_MIN_LOG_LEVEL"] = "0"
    asked = subprocess.run([sys.executable, "-c", "import nptf, os; "
                            "print(os.environ['TF_CPP_MIN_LOG_LEVEL'])"],
                           env=env, capture_output=True, text=True, timeout=300)
    assert asked.returncode == 0 and asked.stdout.strip() == "0"
