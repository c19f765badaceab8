"""Exported models answer TensorFlow Serving's REST requests.

TF Serving is not needed: ``parse_predict_request`` reads a request body as TF
Serving's REST front end does (tensorflow_serving/util/json_tensor.cc) against
the SignatureDef written in saved_model.pb, and ``predict_response`` writes
the answer as it does. The signature is then the one a server would call.
"""
from __future__ import annotations

import json
import os

import numpy as np
import pytest
import tensorflow as tf
from tensorflow.core.protobuf import saved_model_pb2

import nptf
from nptf import Spec


# ------------------------------------------------------- what TF Serving does
class BadRequest(ValueError):
    """What TF Serving answers with HTTP 400."""


def signature_defs(model_dir):
    """The SignatureDefs TF Serving reads: name -> {input name: (shape, np dtype)}."""
    saved = saved_model_pb2.SavedModel()
    with open(os.path.join(model_dir, "saved_model.pb"), "rb") as f:
        saved.ParseFromString(f.read())
    (graph,) = saved.meta_graphs
    return {name: {key: (tuple(d.size for d in info.tensor_shape.dim),
                         tf.as_dtype(info.dtype).as_numpy_dtype)
                   for key, info in sig.inputs.items()}
            for name, sig in graph.signature_def.items()}


def _value(x, dtype, where):
    """One JSON scalar as TF Serving converts it to ``dtype``."""
    kind = np.dtype(dtype).kind
    ok = isinstance(x, bool) if kind == "b" else \
        isinstance(x, int) and not isinstance(x, bool) if kind in "iu" else \
        isinstance(x, (int, float)) and not isinstance(x, bool)
    if not ok:
        raise BadRequest(f"{where}: JSON value {x!r} is not of expected type {np.dtype(dtype)}")
    return x


def _dense(value, dtype, where):
    """A JSON value as a dense array: lists nest to one depth and size per level."""
    def shape(v):
        return (len(v),) + (shape(v[0]) if v else ()) if isinstance(v, list) else ()

    def check(v, dims):
        if not dims:
            if isinstance(v, list):
                raise BadRequest(f"{where}: list at an unexpected level")
            return _value(v, dtype, where)
        if not isinstance(v, list) or len(v) != dims[0]:
            raise BadRequest(f"{where}: expected a list of {dims[0]} at this level")
        return [check(e, dims[1:]) for e in v]

    dims = shape(value)
    return np.array(check(value, dims), dtype=dtype).reshape(dims)


def parse_predict_request(body, signatures):
    """``(signature name, {input name: array}, "row" or "columnar")`` of a JSON body."""
    request = json.loads(body)
    if not isinstance(request, dict):
        raise BadRequest("the request is not a JSON object")
    name = request.get("signature_name", "serving_default")
    if name not in signatures:
        raise BadRequest(f"no signature {name!r}")
    specs = signatures[name]
    if ("instances" in request) == ("inputs" in request):
        raise BadRequest("expected exactly one of 'instances' or 'inputs'")

    if "inputs" in request:
        value = request["inputs"]
        if not isinstance(value, dict):
            if len(specs) > 1:
                raise BadRequest("inputs is a plain value/list, but the signature has "
                                 f"inputs {sorted(specs)}")
            ((only, (_, dtype)),) = specs.items()
            return name, {only: _dense(value, dtype, only)}, "columnar"
        missing = sorted(set(specs) - set(value))
        if missing:
            raise BadRequest(f"missing named inputs {missing} in 'inputs'")
        return name, {k: _dense(value[k], dtype, k) for k, (_, dtype) in specs.items()}, \
            "columnar"

    instances = request["instances"]
    if not isinstance(instances, list) or not instances:
        raise BadRequest("'instances' must be a non-empty list")
    named = isinstance(instances[0], dict)
    if not named and len(specs) > 1:
        raise BadRequest("instances is a plain list, but the signature has inputs "
                         f"{sorted(specs)}: each instance must be an object of them")
    rows = {k: [] for k in specs} if named else {next(iter(specs)): []}
    for i, instance in enumerate(instances):
        if isinstance(instance, dict) != named:
            raise BadRequest(f"instance {i} mixes objects and plain values")
        items = instance.items() if named else [(next(iter(specs)), instance)]
        if named and set(instance) != set(specs):
            raise BadRequest(f"instance {i} has keys {sorted(instance)}, expected "
                             f"{sorted(specs)}")
        for key, value in items:
            row = _dense(value, specs[key][1], f"instance {i} key {key}")
            if rows[key] and row.shape != rows[key][0].shape:
                raise BadRequest(f"instance {i} key {key}: shape {list(row.shape)}, expected "
                                 f"{list(rows[key][0].shape)}")
            rows[key].append(row)
    return name, {k: np.stack(v) for k, v in rows.items()}, "row"


def predict_response(outputs, form):
    """TF Serving's JSON answer: rows under "predictions", or whole tensors under "outputs"."""
    outputs = {k: np.asarray(v) for k, v in sorted(outputs.items())}
    if form == "columnar":
        body = next(iter(outputs.values())).tolist() if len(outputs) == 1 else \
            {k: v.tolist() for k, v in outputs.items()}
        return json.dumps({"outputs": body})
    sizes = {k: (v.shape[0] if v.ndim else None) for k, v in outputs.items()}
    if None in sizes.values() or len(set(sizes.values())) > 1:
        raise BadRequest(f"outputs of batch sizes {sizes} cannot be written as rows")
    rows = [{k: v[i].tolist() for k, v in outputs.items()} for i in range(sizes.popitem()[1])]
    if len(outputs) == 1:
        rows = [next(iter(row.values())) for row in rows]
    return json.dumps({"predictions": rows})


def serve(model, signatures, body):
    """What a server answers to ``body``: the JSON text."""
    name, inputs, form = parse_predict_request(body, signatures)
    signature = model.signatures[name]
    outputs = signature(**{k: tf.constant(v) for k, v in inputs.items()})
    return predict_response({k: v.numpy() for k, v in outputs.items()}, form)


# ----------------------------------------------------------------- the models
def pair_scores(query, item):
    return {"dot": np.sum(query * item, axis=1),
            "distance": np.sqrt(np.sum((query - item) ** 2, axis=1))}


@nptf.compile(input_signature=[Spec((None, 4), np.float32)])
def softmax(logits):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def affine_tanh(x, w, bias):
    return np.tanh(x @ w + bias)


def parity(n):
    return {"even": n % 2 == 0, "half": n // 2}


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp("serving")
    # TF Serving's layout: <model base path>/<version>/saved_model.pb
    exports = {
        "pairs": (pair_scores, [Spec((None, 3)), Spec((None, 3))]),
        "softmax": (softmax, []),      # its input_signature
        "affine": (affine_tanh, [Spec((None, 3), np.float32), Spec((3, 2), np.float32),
                                 Spec((2,), np.float32)]),
        "parity": (parity, [Spec((None,), np.int64)]),
    }
    loaded = {}
    for name, (fn, specs) in exports.items():
        path = nptf.export(fn, root / name / "1", *specs).path
        loaded[name] = (tf.saved_model.load(path), signature_defs(path))
    return loaded


def _answer(models, name, request):
    model, signatures = models[name]
    return json.loads(serve(model, signatures, json.dumps(request)))


# ------------------------------------------------------------------ the tests
def test_the_signature_takes_the_parameters_by_name_and_any_batch(models):
    _, signatures = models["pairs"]
    assert signatures["serving_default"] == {"query": ((-1, 3), np.float64),
                                             "item": ((-1, 3), np.float64)}
    assert models["affine"][1]["serving_default"] == {
        "x": ((-1, 3), np.float32), "w": ((3, 2), np.float32), "bias": ((2,), np.float32)}


def test_rows_of_named_inputs_and_whole_tensors_give_numpy_answers(models):
    rng = np.random.default_rng(0)
    query, item = rng.standard_normal((5, 3)), rng.standard_normal((5, 3))
    want = pair_scores(query, item)

    rows = _answer(models, "pairs", {
        "signature_name": "serving_default",
        "instances": [{"query": q, "item": i} for q, i in zip(query.tolist(), item.tolist())]})
    assert len(rows["predictions"]) == 5
    for key in ("dot", "distance"):
        np.testing.assert_allclose([row[key] for row in rows["predictions"]], want[key],
                                   rtol=1e-12)

    columns = _answer(models, "pairs", {"inputs": {"query": query.tolist(),
                                                   "item": item.tolist()}})
    for key in ("dot", "distance"):
        np.testing.assert_allclose(columns["outputs"][key], want[key], rtol=1e-12)


def test_one_input_takes_bare_rows_or_a_bare_tensor(models):
    logits = np.random.default_rng(1).standard_normal((7, 4)).astype(np.float32)
    want = softmax.fn(logits)
    rows = _answer(models, "softmax", {"instances": logits.tolist()})
    np.testing.assert_allclose(rows["predictions"], want, rtol=1e-6)
    columns = _answer(models, "softmax", {"inputs": logits.tolist()})
    np.testing.assert_allclose(columns["outputs"], want, rtol=1e-6)
    single = _answer(models, "softmax", {"instances": logits[:1].tolist()})   # a batch of one
    np.testing.assert_allclose(single["predictions"], want[:1], rtol=1e-6)


def test_integer_inputs_and_boolean_outputs(models):
    n = np.array([-3, 0, 7, 10, 2 ** 40])
    rows = _answer(models, "parity", {"instances": n.tolist()})["predictions"]
    assert [row["even"] for row in rows] == (n % 2 == 0).tolist()
    assert [row["half"] for row in rows] == (n // 2).tolist()
    with pytest.raises(BadRequest, match="not of expected type int64"):
        _answer(models, "parity", {"instances": [1.5, 2]})


def test_parameters_without_a_batch_dimension_go_in_columns(models):
    """Rows stack every input on a new first axis: w and bias, which have no batch
    dimension, can only be sent whole."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((6, 3)).astype(np.float32)
    w = rng.standard_normal((3, 2)).astype(np.float32)
    bias = rng.standard_normal(2).astype(np.float32)
    columns = _answer(models, "affine", {"inputs": {"x": x.tolist(), "w": w.tolist(),
                                                    "bias": bias.tolist()}})
    np.testing.assert_allclose(columns["outputs"], affine_tanh(x, w, bias), rtol=1e-5,
                               atol=1e-6)
    rows = [{"x": r, "w": w.tolist(), "bias": bias.tolist()} for r in x.tolist()]
    with pytest.raises(tf.errors.InvalidArgumentError):     # w arrives as float32[6,3,2]
        _answer(models, "affine", {"instances": rows})


def test_requests_that_do_not_fit_the_signature_are_refused(models):
    with pytest.raises(BadRequest, match="object of them"):
        _answer(models, "pairs", {"instances": [[1.0, 2.0, 3.0]]})
    with pytest.raises(BadRequest, match="keys"):
        _answer(models, "pairs", {"instances": [{"query": [1.0, 2.0, 3.0]}]})
    with pytest.raises(BadRequest, match="missing named inputs"):
        _answer(models, "pairs", {"inputs": {"query": [[1.0, 2.0, 3.0]]}})
