"""``nptf.export``: SavedModels that run without nptf, checked against NumPy.

The round trip loads every exported model in one fresh Python process that
never imports nptf (NumPy is only a data source there), so the models are
known to stand alone; one process for all of them keeps the TensorFlow import
cost to once.
"""
from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tensorflow as tf

import nptf
from nptf import Spec


# ------------------------------------------------------------ the functions
def affine_tanh(x, w, bias):
    return np.tanh(x @ w + bias)


def summary(x):
    return x.mean(axis=0), np.argmax(x, axis=1), 7


def moments(x):
    return {"mean": x.mean(axis=-1), "var": x.var(axis=-1)}


def mixed_dtypes(a, k):
    return a * k, a // 2, a > k


@nptf.compile(static_argnames=["n"])
def blocks(x, n):
    return x.reshape(n, -1).sum(axis=1)


def data_dependent_branch(x):
    return x * len(str(x.max()))   # a string of a run-time value needs Python


def matrix_product(x):
    return x @ x.T


def returns_none(x):
    return x * 2, None


F32_AFFINE = [Spec((None, 3), np.float32), Spec((3, 2), np.float32), Spec((2,), np.float32)]


def _inputs(rng, rows):
    """Inputs per (model, signature), two sizes of every dynamic dimension."""
    return {
        ("affine", "serving_default"): [
            dict(x=rng.standard_normal((r, 3)).astype(np.float32),
                 w=rng.standard_normal((3, 2)).astype(np.float32),
                 bias=rng.standard_normal(2).astype(np.float32)) for r in rows],
        ("affine", "moments"): [dict(x=rng.standard_normal((r, r + 2))) for r in rows],
        ("affine_xla", "serving_default"): [
            dict(x=rng.standard_normal((r, 3)).astype(np.float32),
                 w=rng.standard_normal((3, 2)).astype(np.float32),
                 bias=rng.standard_normal(2).astype(np.float32)) for r in rows],
        ("summary", "serving_default"): [dict(x=rng.standard_normal((r, 4))) for r in rows],
        ("mixed", "serving_default"): [
            dict(a=rng.integers(-50, 50, r).astype(np.int32), scale=np.int64(3)) for r in rows],
        ("blocks", "serving_default"): [dict(x=rng.standard_normal(2 * r)) for r in rows],
    }


PYTHON_FUNCTIONS = {
    ("affine", "serving_default"): lambda d: affine_tanh(d["x"], d["w"], d["bias"]),
    ("affine", "moments"): lambda d: moments(d["x"]),
    ("affine_xla", "serving_default"): lambda d: affine_tanh(d["x"], d["w"], d["bias"]),
    ("summary", "serving_default"): lambda d: summary(d["x"]),
    ("mixed", "serving_default"): lambda d: mixed_dtypes(d["a"], d["scale"]),
    ("blocks", "serving_default"): lambda d: blocks.fn(d["x"], 2),
}

LOADER = textwrap.dedent("""
    import json, sys
    import numpy as np
    import tensorflow as tf

    cases = json.load(open(sys.argv[1]))
    loaded, report = {}, []
    for case in cases:
        if case["dir"] not in loaded:
            loaded[case["dir"]] = tf.saved_model.load(case["dir"])
        signature = loaded[case["dir"]].signatures[case["signature"]]
        inputs = dict(np.load(case["inputs"]))
        outputs = signature(**{k: tf.constant(v) for k, v in inputs.items()})
        np.savez(case["outputs"], **{k: v.numpy() for k, v in outputs.items()})
        _, input_specs = signature.structured_input_signature
        report.append({"inputs": sorted(input_specs), "outputs": sorted(outputs)})
    report.append({"nptf_imported": any(m == "nptf" or m.startswith("nptf.") for m in sys.modules)})
    json.dump(report, open(sys.argv[2], "w"))
""")


def _run_python(*args, **kwargs):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    return subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def _saved_model_cli(model_dir):
    exe = os.path.join(os.path.dirname(sys.executable), "saved_model_cli")
    command = [exe] if os.path.exists(exe) else \
        [sys.executable, "-m", "tensorflow.python.tools.saved_model_cli"]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    return subprocess.Popen([*command, "show", "--all", "--dir", model_dir], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory):
    """Export every model, reload them all in one process without nptf, return what it saw."""
    root = tmp_path_factory.mktemp("export")
    models = {
        "affine": nptf.export(affine_tanh, root / "affine", *F32_AFFINE,
                              signatures={"moments": (moments, [Spec((None, None))])}),
        "affine_xla": nptf.export(affine_tanh, root / "affine_xla", *F32_AFFINE, jit_compile=True),
        "summary": nptf.export(summary, root / "summary", Spec((None, 4))),
        "mixed": nptf.export(mixed_dtypes, root / "mixed", Spec((None,), np.int32),
                             Spec((), np.int64, name="scale")),
        "blocks": nptf.export(blocks, root / "blocks", Spec((None,)), static_args={"n": 2}),
    }
    inputs = _inputs(np.random.default_rng(0), rows=(5, 17))
    cases = []
    for (model, signature), input_sets in inputs.items():
        for i, values in enumerate(input_sets):
            stem = root / f"{model}-{signature}-{i}"
            np.savez(f"{stem}-in.npz", **values)
            cases.append(dict(dir=str(root / model), signature=signature, key=[model, signature],
                              inputs=f"{stem}-in.npz", outputs=f"{stem}-out.npz", values=i))
    (root / "cases.json").write_text(json.dumps(cases))
    (root / "load.py").write_text(LOADER)
    loader = _run_python(str(root / "load.py"), str(root / "cases.json"),
                         str(root / "report.json"), cwd=str(root))
    cli = _saved_model_cli(str(root / "affine"))
    loader_out, loader_err = loader.communicate(timeout=300)
    cli_out, cli_err = cli.communicate(timeout=300)
    assert loader.returncode == 0, loader_err[-3000:]
    assert cli.returncode == 0, cli_err[-3000:]
    report = json.loads((root / "report.json").read_text())
    return dict(models=models, inputs=inputs, cases=cases, report=report, cli=cli_out)


def _leaves(result):
    if isinstance(result, dict):
        return result
    result = result if isinstance(result, tuple) else (result,)
    return {f"output_{i}": v for i, v in enumerate(result)}


def test_loaded_models_match_numpy_in_dtype_shape_and_value(round_trip):
    for case in round_trip["cases"]:
        key = tuple(case["key"])
        values = round_trip["inputs"][key][case["values"]]
        expected = _leaves(PYTHON_FUNCTIONS[key](values))
        got = dict(np.load(case["outputs"]))
        assert sorted(got) == sorted(expected), key
        for name, want in expected.items():
            want = np.asarray(want)
            assert got[name].dtype == want.dtype, (key, name, got[name].dtype, want.dtype)
            assert got[name].shape == want.shape, (key, name, got[name].shape, want.shape)
            np.testing.assert_allclose(got[name], want, rtol=1e-5, atol=1e-6, err_msg=str(key))


def test_every_dynamic_dimension_took_two_sizes(round_trip):
    for key, input_sets in round_trip["inputs"].items():
        shapes = [tuple(v.shape for v in values.values()) for values in input_sets]
        assert shapes[0] != shapes[1], key


def test_the_loading_process_never_imported_nptf(round_trip):
    assert round_trip["report"][-1] == {"nptf_imported": False}


def test_signature_names_inputs_after_parameters_and_outputs_in_order(round_trip):
    seen = {tuple(case["key"]): entry for case, entry in zip(round_trip["cases"],
                                                                round_trip["report"])}
    assert seen[("affine", "serving_default")] == {"inputs": ["bias", "w", "x"],
                                                   "outputs": ["output_0"]}
    assert seen[("summary", "serving_default")]["outputs"] == ["output_0", "output_1", "output_2"]
    assert seen[("mixed", "serving_default")]["inputs"] == ["a", "scale"]   # Spec name overrides
    assert seen[("affine", "moments")] == {"inputs": ["x"], "outputs": ["mean", "var"]}


def test_exported_describes_its_signatures(round_trip):
    text = str(round_trip["models"]["affine"])
    assert "serving_default(x: float32[None,3], w: float32[3,2], bias: float32[2])" in text
    assert "-> (output_0: float32[None,2])" in text
    assert "moments(x: float64[None,None]) -> (" in text
    summary_outputs = round_trip["models"]["summary"].signatures["serving_default"].outputs
    assert summary_outputs["output_2"].dtype == tf.int64      # the static 7, as a constant


def test_saved_model_cli_lists_the_signatures(round_trip):
    out = round_trip["cli"]
    assert "signature_def['serving_default']" in out
    assert "signature_def['moments']" in out
    assert "inputs['x'] tensor_info:" in out and "shape: (-1, 3)" in out
    assert "outputs['output_0'] tensor_info:" in out


@pytest.mark.filterwarnings("ignore::UserWarning")      # tf.lite.Interpreter's deprecation notice
def test_tflite_runs_the_exported_float32_function(round_trip, tmp_path):
    converter = tf.lite.TFLiteConverter.from_saved_model(round_trip["models"]["affine"].path,
                                                         signature_keys=["serving_default"])
    interpreter = tf.lite.Interpreter(model_content=converter.convert())
    runner = interpreter.get_signature_runner("serving_default")
    rng = np.random.default_rng(1)
    for rows in (4, 11):
        x = rng.standard_normal((rows, 3)).astype(np.float32)
        w = rng.standard_normal((3, 2)).astype(np.float32)
        bias = rng.standard_normal(2).astype(np.float32)
        got = runner(x=x, w=w, bias=bias)["output_0"]
        want = affine_tanh(x, w, bias)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


# --------------------------------------------------------- refusals, safety
def _leftovers(directory):
    return sorted(p for p in os.listdir(directory) if p.startswith("."))


def test_existing_path_is_refused_unless_forced(tmp_path):
    target = tmp_path / "model"
    nptf.export(matrix_product, target, Spec((None, 3)))
    with pytest.raises(FileExistsError) as info:
        nptf.export(moments, target, Spec((None, 3)))
    assert str(target) in str(info.value) and "force=True" in str(info.value)
    assert list(tf.saved_model.load(str(target)).signatures["serving_default"]
                .structured_outputs) == ["output_0"]            # untouched

    nptf.export(moments, target, Spec((None, 3)), force=True)
    outputs = tf.saved_model.load(str(target)).signatures["serving_default"].structured_outputs
    assert sorted(outputs) == ["mean", "var"]
    assert _leftovers(tmp_path) == []


def test_force_replaces_an_empty_directory(tmp_path):
    target = tmp_path / "model"
    target.mkdir()
    with pytest.raises(FileExistsError, match="already exists; pass force=True"):
        nptf.export(matrix_product, target, Spec((None, 3)))
    nptf.export(matrix_product, target, Spec((None, 3)), force=True)
    assert (target / "saved_model.pb").is_file()
    assert _leftovers(tmp_path) == []


def _refused_even_with_force(target):
    """Both with and without force: FileExistsError, and nothing written or removed."""
    for force in (False, True):
        with pytest.raises(FileExistsError) as info:
            nptf.export(matrix_product, target, Spec((None, 3)), force=force)
        message = str(info.value)
        assert str(target) in message and "even with force=True" in message
        assert "SavedModel directory (one holding saved_model.pb) or an empty directory" \
            in message
        assert _leftovers(target.parent) == []
    return message


def test_force_refuses_a_directory_that_is_not_a_saved_model(tmp_path):
    target = tmp_path / "project"
    target.mkdir()
    for name in ("notes.txt", "a.py", "b.py", "c.py", "d.py"):
        (target / name).write_text(name)
    (target / "data").mkdir()
    (target / "data" / "saved_model.pb").write_text("deeper down does not count")
    message = _refused_even_with_force(target)
    assert "not a SavedModel (no saved_model.pb)" in message
    assert "holds a.py, b.py, c.py, d.py and 2 more" in message
    assert sorted(os.listdir(target)) == ["a.py", "b.py", "c.py", "d.py", "data", "notes.txt"]
    assert (target / "notes.txt").read_text() == "notes.txt"

    (target / "notes.txt").unlink()
    for name in ("b.py", "c.py", "d.py"):
        (target / name).unlink()
    assert "it holds a.py, data/;" in _refused_even_with_force(target)


def test_force_refuses_a_file_and_a_symbolic_link(tmp_path):
    target = tmp_path / "model"
    target.write_text("not mine to delete")
    assert "is a file, not a directory" in _refused_even_with_force(target)
    assert target.read_text() == "not mine to delete"

    model = tmp_path / "real_model"
    nptf.export(matrix_product, model, Spec((None, 3)))
    link = tmp_path / "latest"
    link.symlink_to(model, target_is_directory=True)
    assert f"is a symbolic link (to {model})" in _refused_even_with_force(link)
    assert link.is_symlink() and (model / "saved_model.pb").is_file()


def test_a_saved_model_written_by_tensorflow_is_replaced_with_force(tmp_path):
    target = tmp_path / "model"
    module = tf.Module()
    module.f = tf.function(lambda x: x + 1, input_signature=[tf.TensorSpec([], tf.float32)])
    tf.saved_model.save(module, str(target))
    nptf.export(matrix_product, target, Spec((None, 3)), force=True)
    loaded = tf.saved_model.load(str(target)).signatures["serving_default"]
    assert list(loaded.structured_outputs) == ["output_0"]
    assert _leftovers(tmp_path) == []


def test_a_failing_save_leaves_nothing_behind(tmp_path, monkeypatch):
    real_save = tf.saved_model.save

    def save_then_crash(module, directory, signatures=None):
        real_save(module, directory, signatures=signatures)    # a complete model, then...
        raise OSError("disk full")

    monkeypatch.setattr(tf.saved_model, "save", save_then_crash)
    with pytest.raises(OSError, match="disk full"):
        nptf.export(matrix_product, tmp_path / "fresh", Spec((None, 3)))
    assert not (tmp_path / "fresh").exists()
    assert _leftovers(tmp_path) == []

    monkeypatch.setattr(tf.saved_model, "save", real_save)
    nptf.export(matrix_product, tmp_path / "kept", Spec((None, 3)))
    before = sorted(os.listdir(tmp_path / "kept"))
    monkeypatch.setattr(tf.saved_model, "save", save_then_crash)
    with pytest.raises(OSError, match="disk full"):
        nptf.export(moments, tmp_path / "kept", Spec((None, 3)), force=True)
    assert sorted(os.listdir(tmp_path / "kept")) == before     # the old model is intact
    assert _leftovers(tmp_path) == []


def test_a_function_that_needs_the_numpy_fallback_is_refused_with_its_reason(tmp_path):
    with pytest.raises(nptf.TracerConversionError) as info:
        nptf.export(data_dependent_branch, tmp_path / "model", Spec((None,)))
    message = str(info.value)
    assert "cannot export data_dependent_branch" in message
    assert "SavedModel cannot call Python" in message
    branch_line = inspect.getsourcelines(data_dependent_branch)[1] + 1
    assert f"{__file__}:{branch_line}" in message
    assert not (tmp_path / "model").exists() and _leftovers(tmp_path) == []


def test_a_spec_of_the_wrong_rank_fails_at_export(tmp_path):
    with pytest.raises(ValueError, match="matmul") as info:
        nptf.export(matrix_product, tmp_path / "model", Spec((), np.float32))
    assert f"{__file__}:" in str(info.value)
    assert any("float32[]" in note for note in info.value.__notes__)
    assert not (tmp_path / "model").exists()


def test_a_static_none_output_is_refused(tmp_path):
    with pytest.raises(TypeError, match="returns None as output 'output_1'"):
        nptf.export(returns_none, tmp_path / "model", Spec((3,)))


def test_specs_bind_by_name_and_example_arrays_are_specs(tmp_path):
    # y named first: it still binds parameter y; the example array gives a fixed shape.
    exported = nptf.export(lambda x, y: x - y, tmp_path / "model",
                           Spec((None,), np.float32, name="y"), np.zeros(4, np.float32))
    inputs = exported.signatures["serving_default"].inputs
    assert list(inputs) == ["x", "y"]
    assert inputs["x"].shape == (4,) and inputs["y"].shape == (None,)


@pytest.mark.parametrize("call, message", [
    (lambda p: nptf.export(affine_tanh, p, Spec((None, 3))), "'w' of affine_tanh"),
    (lambda p: nptf.export(matrix_product, p, Spec((3, 3)), Spec((3,))), "got 2 specs"),
    (lambda p: nptf.export(blocks, p, Spec((6,))), "static argument 'n'"),
    (lambda p: nptf.export(matrix_product, p, Spec((3, 3)), static_args={"k": 1}),
     "static_args \\['k'\\]"),
    (lambda p: nptf.export(matrix_product, p, Spec((3, 3), name="_x")), "valid TensorFlow name"),
    (lambda p: nptf.export(matrix_product, p, Spec((3, 3)),
                           signatures={"serving_default": (moments, [Spec((3,))])}), "clashes"),
])
def test_mistakes_are_named_with_their_fix(tmp_path, call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call(tmp_path / "model")
    assert not (tmp_path / "model").exists()


def test_an_xla_obstacle_is_refused_under_jit_compile(tmp_path, monkeypatch):
    from nptf.runtime import export as export_module
    monkeypatch.setattr(export_module, "xla_obstacles", lambda graph: ["XLA cannot compile matmul at here"])
    with pytest.raises(ValueError, match="XLA cannot compile matmul at here"):
        nptf.export(matrix_product, tmp_path / "model", Spec((3, 3)), jit_compile=True)


def normalise_in_place(x, scale):
    x -= x.mean()
    x *= scale
    return x.sum()


def test_written_arguments_are_exported_as_extra_outputs(tmp_path):
    nptf.export(normalise_in_place, tmp_path / "model", Spec((None,), np.float64),
                Spec((), np.float64))
    serve = tf.saved_model.load(str(tmp_path / "model")).signatures["serving_default"]
    x = np.array([1.0, 2.0, 6.0])
    out = serve(x=tf.constant(x), scale=tf.constant(2.0, tf.float64))
    expected_x = x.copy()
    expected_sum = normalise_in_place(expected_x, 2.0)
    np.testing.assert_allclose(out["x_out"].numpy(), expected_x)
    np.testing.assert_allclose(out["output_0"].numpy(), expected_sum, atol=1e-12)


def pick(x, i):
    return x[i] * 2.0


def test_numpy_run_time_errors_fail_the_signature(tmp_path):
    # NumPy raises IndexError for an index out of bounds; the loaded signature must not
    # return garbage instead, with or without XLA.
    for xla in (False, True):
        exported = nptf.export(pick, tmp_path / f"pick-{xla}", Spec((4,)), Spec((None,), np.int64),
                               jit_compile=xla)
        serve = tf.saved_model.load(exported.path).signatures["serving_default"]
        x = tf.constant([1.0, 2.0, 3.0, 4.0], tf.float64)
        got = serve(x=x, i=tf.constant([3, -4], tf.int64))["output_0"].numpy()
        np.testing.assert_array_equal(got, pick(x.numpy(), np.array([3, -4])))
        with pytest.raises(tf.errors.InvalidArgumentError, match="IndexError: index out of bounds"):
            serve(x=x, i=tf.constant([0, 4], tf.int64))


def positives(x):
    return x[x > 0]


def test_a_data_dependent_output_shape_is_a_none_dimension(tmp_path):
    exported = nptf.export(positives, tmp_path / "model", Spec((5,)))
    assert exported.signatures["serving_default"].outputs["output_0"].shape.as_list() == [None]
    serve = tf.saved_model.load(exported.path).signatures["serving_default"]
    x = np.array([1.0, -2.0, 3.0, 0.0, 4.0])
    np.testing.assert_array_equal(serve(x=tf.constant(x))["output_0"].numpy(), positives(x))


def test_missing_parent_directories_are_created(tmp_path):
    shutil.rmtree(tmp_path, ignore_errors=True)          # the parent is created as needed
    exported = nptf.export(matrix_product, tmp_path / "nested" / "model", Spec((None, 2)))
    assert os.path.isfile(os.path.join(exported.path, "saved_model.pb"))


def solved(A, b):
    return np.linalg.solve(A, b)


def test_an_exported_solve_calls_a_matrix_near_singular_singular(tmp_path):
    """A SavedModel runs without Python, so it cannot ask NumPy's LAPACK about a matrix
    near singular (docs/differences-from-numpy.md): it raises NumPy's error for one, and
    solves a regular one."""
    nptf.export(solved, tmp_path / "model", Spec((3, 3)), Spec((3,)))
    graph = tf.saved_model.load(str(tmp_path / "model")).signatures["serving_default"]
    ops = {n.op for n in graph.graph.as_graph_def().node} | {
        n.op for f in graph.graph.as_graph_def().library.function for n in f.node_def}
    assert not ops & {"PyFunc", "PyFuncStateless", "EagerPyFunc"}
    A, b = np.array([[2.0, 1, 0], [1, 3, 1], [0, 1, 4]]), np.ones(3)
    np.testing.assert_allclose(graph(A=tf.constant(A), b=tf.constant(b))["output_0"].numpy(),
                               np.linalg.solve(A, b), rtol=1e-12)
    for singular in (np.arange(1.0, 10.0).reshape(3, 3),
                     np.array([[1.0, 2, 0], [2, 4, 0], [0, 0, 1]])):
        with pytest.raises(tf.errors.InvalidArgumentError, match="LinAlgError: Singular"):
            graph(A=tf.constant(singular), b=tf.constant(b))
