"""Compiled functions on a Dask cluster of two worker processes on 127.0.0.1: pickled to
the workers, traced there once per signature, and matching NumPy on the whole array.
Needs the optional ``dask`` extra (``pip install -e ".[dask]"``)."""
from __future__ import annotations

import logging
import os
import pickle
import sys
import threading

import numpy as np
import pytest

import nptf

from saved_model_blocks import apply_saved_model, loads

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")
cloudpickle = pytest.importorskip("cloudpickle")


@nptf.compile
def standardized_rows(x):
    mu = x.mean(axis=1, keepdims=True)
    return (x - mu) / (x.std(axis=1, keepdims=True) + 1e-12)


@nptf.compile
def sum_of_squares(x, axis=None, keepdims=False):
    return np.sum(x * x, axis=axis, keepdims=keepdims)


@nptf.compile
def summed(x, axis=None, keepdims=False):
    return np.sum(x, axis=axis, keepdims=keepdims)


@nptf.compile
def logistic_orbit(r, steps=400):
    x = np.full_like(r, 0.3)
    for _ in range(steps):          # a graph loop
        x = r * x * (1 - x)
    return x


def worker_cache_info():
    return standardized_rows.cache_info(), logistic_orbit.cache_info()


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True,
                                       host="127.0.0.1", dashboard_address=None,
                                       silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def test_a_compiled_function_pickles_without_its_graphs():
    """By reference (a module's function), or by value as Dask ships a function defined in
    a script or notebook: every copy unpickled in one process is one compiled function."""
    x = np.arange(12.0).reshape(3, 4)
    standardized_rows(x)
    assert pickle.loads(pickle.dumps(standardized_rows)) is standardized_rows
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        copy = pickle.loads(cloudpickle.dumps(standardized_rows))
        assert copy is not standardized_rows and copy.cache_info().traces == 0
        np.testing.assert_allclose(copy(x), standardized_rows.fn(x))
        assert pickle.loads(cloudpickle.dumps(standardized_rows)).compiled is copy.compiled
        # Code pickled by value loses its file name; its loops are still converted to graph
        # loops (not unrolled 400 times past the compile budget).
        orbit = pickle.loads(cloudpickle.dumps(logistic_orbit))
        r = np.linspace(2.5, 3.9, 8)
        assert any(e.op.name == "while" for e in orbit.trace(r).eqns)
        np.testing.assert_allclose(orbit(r), logistic_orbit.fn(r), rtol=1e-9)
        assert orbit.cache_info().fallbacks == 0
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def test_map_blocks_reductions_and_client_map_match_numpy(client):
    rng = np.random.default_rng(0)
    data = rng.standard_normal((4000, 16))
    x = da.from_array(data, chunks=(500, 16))      # 8 chunks over 2 workers
    got = x.map_blocks(standardized_rows, dtype=np.float64).compute()
    np.testing.assert_allclose(got, standardized_rows.fn(data), rtol=1e-10, atol=1e-12)

    total = da.reduction(x, chunk=sum_of_squares, aggregate=summed, dtype=np.float64,
                         axis=0).compute()
    np.testing.assert_allclose(total, np.sum(data * data, axis=0), rtol=1e-12)

    params = [np.linspace(2.5, 3.9, 64) + k * 1e-3 for k in range(6)]
    futures = client.map(logistic_orbit, params)
    for r, orbit in zip(params, client.gather(futures)):
        np.testing.assert_allclose(orbit, logistic_orbit.fn(r), rtol=1e-9)

    # Each worker traced each signature it met once, however many tasks brought it.
    infos = client.run(worker_cache_info)
    assert len(infos) == 2
    for rows, orbit in infos.values():
        assert rows.traces <= 1 and orbit.traces <= 1
    assert sum(rows.traces + rows.hits for rows, _ in infos.values()) >= 8


def _script(tmp_path, name, source):
    """``(path, module)`` of a script written to ``tmp_path`` and imported as ``name``."""
    import importlib.util
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return path, module


def test_code_pickled_by_value_converts_where_its_file_is_missing(tmp_path):
    """A worker on another machine has no copy of the script: the source travels."""
    import linecache
    path, module = _script(tmp_path, "script_on_the_client",
                           "import numpy as np\nimport nptf\n\n\n@nptf.compile\n"
                           "def decay(x):\n    for _ in range(50):\n        x = x * 0.9\n"
                           "    return x\n")
    cloudpickle.register_pickle_by_value(module)
    try:
        payload = cloudpickle.dumps(module.decay)
    finally:
        cloudpickle.unregister_pickle_by_value(module)
        del sys.modules[module.__name__]
    path.unlink()
    linecache.clearcache()
    decay = pickle.loads(payload)
    x = np.ones(3)
    assert any(e.op.name == "while" for e in decay.trace(x).eqns)
    np.testing.assert_allclose(decay(x), 0.9 ** 50 * x)


def test_an_exported_model_runs_on_the_workers_with_tensorflow_only(client, tmp_path):
    """What a worker without nptf does: load the SavedModel once per process and apply it
    to each block it gets."""
    path = str(nptf.export(standardized_rows, tmp_path / "rows", nptf.Spec((None, 16))).path)
    data = np.random.default_rng(1).standard_normal((4100, 16))
    x = da.from_array(data, chunks=(500, 16))      # 9 chunks, the last one smaller
    got = client.compute(x.map_blocks(apply_saved_model, path=path, dtype=np.float64))
    np.testing.assert_allclose(got.result(timeout=60), standardized_rows.fn(data),
                               rtol=1e-10, atol=1e-12)
    loaded = [paths.count(path) for paths in client.run(loads).values()]
    assert max(loaded) == 1 and sum(loaded) >= 1


def _compiled_closing_over(obj):
    @nptf.compile
    def scaled(x):
        with obj:
            return x * 2.0
    return scaled


def _causes(error):
    while error is not None:
        yield error
        error = error.__cause__ or error.__context__


def test_what_cannot_be_pickled_is_named_with_the_fix(tmp_path):
    scaled = _compiled_closing_over(threading.Lock())
    with pytest.raises(nptf.PicklingError) as caught:
        cloudpickle.dumps(scaled)
    message = str(caught.value)
    assert "_compiled_closing_over.<locals>.scaled" in message
    assert f"{__file__}:{_compiled_closing_over.__code__.co_firstlineno + 1}" in message
    assert "closes over 'obj', a _thread.lock" in message
    assert "inside the function" in message and "module the workers import" in message
    assert isinstance(caught.value, pickle.PicklingError)
    # What can be pickled by value still is.
    factor = 3.0

    @nptf.compile
    def times(x):
        return x * factor
    np.testing.assert_allclose(pickle.loads(cloudpickle.dumps(times))(np.ones(2)), [3.0, 3.0])


def test_a_script_reading_an_open_file_is_named_and_plain_pickle_still_goes_by_name(tmp_path):
    """A script's function travels by value under cloudpickle, with the globals it reads;
    plain pickle sends it by name and each process has its own module."""
    path, module = _script(
        tmp_path, "script_with_a_log",
        "import numpy as np\nimport nptf\n\nlog = open(__file__ + '.log', 'w')\n\n\n"
        "@nptf.compile\ndef logged(x):\n    log.write('called')\n    return x + 1\n\n\n"
        "@nptf.compile\ndef itself(x):\n    return itself\n")
    try:
        assert pickle.loads(pickle.dumps(module.logged)) is module.logged
        cloudpickle.register_pickle_by_value(module)
        try:
            with pytest.raises(nptf.PicklingError,
                               match=r"logged \(defined at .*script_with_a_log.py:7\): it reads "
                                     r"the global 'log', a _io.TextIOWrapper"):
                cloudpickle.dumps(module.logged)
            pickle.loads(cloudpickle.dumps(module.itself))     # refers to itself: no loop
        finally:
            cloudpickle.unregister_pickle_by_value(module)
    finally:
        del sys.modules[module.__name__]
        module.log.close()


def test_dask_reports_what_cannot_be_sent_to_its_workers(client):
    scaled = _compiled_closing_over(threading.Lock())
    with pytest.raises(Exception) as caught:
        client.submit(scaled, np.ones(3)).result(timeout=30)
    named = [e for e in _causes(caught.value) if isinstance(e, nptf.PicklingError)]
    assert named and "closes over 'obj', a _thread.lock" in str(named[0])


def rows_dying_once(block, marker, block_info=None):
    """``standardized_rows``, except that the first worker to run block 3 dies there: the
    marker file, created atomically, says whether one has."""
    if block_info[0]["chunk-location"][0] == 3:
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            pass
        else:
            os._exit(1)
    return standardized_rows(block)


def test_a_worker_dying_mid_map_blocks_costs_a_retry_not_the_result(client, tmp_path):
    """Dask runs the dead worker's tasks again on the other worker, which compiles the
    function for itself; the nanny starts a new worker in its place."""
    client.wait_for_workers(2, timeout=60)
    before = set(client.scheduler_info()["workers"])
    marker = tmp_path / "died"
    data = np.random.default_rng(2).standard_normal((4000, 16))
    x = da.from_array(data, chunks=(500, 16))
    got = client.compute(x.map_blocks(rows_dying_once, marker=str(marker), dtype=np.float64))
    np.testing.assert_allclose(got.result(timeout=60), standardized_rows.fn(data),
                               rtol=1e-10, atol=1e-12)
    assert marker.exists()
    client.wait_for_workers(2, timeout=60)
    after = set(client.scheduler_info()["workers"])
    assert len(after) == 2 and len(after - before) == 1
