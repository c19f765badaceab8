"""Compiled functions under ``tf.distribute``: ``output="tensor"`` inside
``MirroredStrategy.run`` over two logical CPU devices and across the two worker processes of
a ``MultiWorkerMirroredStrategy`` cluster, and ``nptf.distribute.map_batches`` over both,
over a one-device strategy, and refusing bad input. Devices and clusters are configured
before TensorFlow starts, so those checks run in fresh processes (one per configuration)."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
import tensorflow as tf

import nptf
from nptf.distribute import map_batches

SCRIPT = textwrap.dedent("""
    import numpy as np
    import nptf
    from nptf.distribute import map_batches
    import tensorflow as tf
    # Importing nptf leaves TensorFlow's runtime unstarted: devices can still be configured.
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * 2)

    @nptf.compile(output="tensor")
    def loss(x):
        return np.sum(np.tanh(x) ** 2)

    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    data = np.arange(32.0).reshape(16, 2) / 10
    batches = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices(data).batch(8))

    @tf.function
    def step(batch):
        per_replica = strategy.run(loss, args=(batch,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    eager = sum(float(strategy.reduce(tf.distribute.ReduceOp.SUM,
                                      strategy.run(loss, args=(b,)), axis=None))
                for b in batches)
    graph = sum(float(step(b)) for b in batches)
    expected = float(np.sum(np.tanh(data) ** 2))
    assert abs(eager - expected) < 1e-9 * expected, (eager, expected)
    assert abs(graph - expected) < 1e-9 * expected, (graph, expected)
    print("replicas", strategy.num_replicas_in_sync)

    @nptf.compile                       # NumPy out by default: map_batches converts
    def scaled_cumsum(x):
        return np.cumsum(x, axis=1) * 2.0

    @nptf.compile
    def products(x, y):
        return x * y, np.sum(x, axis=1)

    @nptf.compile
    def squares_summed(x):
        return np.sum(x * x, axis=0)

    rows = np.arange(45.0).reshape(15, 3)       # every row differs: any reordering shows
    # Last batches of 3 rows (split 1 + 2), of 1 (an empty share), and a single batch.
    for size in (4, 14, 30):
        out = map_batches(scaled_cumsum, rows, strategy, batch_size=size)
        assert type(out) is np.ndarray and np.array_equal(out, np.cumsum(rows, axis=1) * 2), \\
            (size, out)
    for data in ((rows, rows + 1), tf.data.Dataset.from_tensor_slices((rows, rows + 1))):
        a, b = map_batches(products, data, strategy, batch_size=4)
        assert np.array_equal(a, rows * (rows + 1)) and np.array_equal(b, rows.sum(axis=1))
    total = map_batches(squares_summed, rows, strategy, batch_size=4, reduce="sum")
    assert np.array_equal(total, np.sum(rows * rows, axis=0)), total
    with strategy.scope():              # strategy=None: the one in scope
        assert np.array_equal(map_batches(scaled_cumsum, rows, batch_size=6),
                              np.cumsum(rows, axis=1) * 2)
    try:
        map_batches(scaled_cumsum, rows, strategy, batch_size=5)
    except nptf.DistributeError as e:
        print(e)

    @nptf.compile
    def column_max(x):
        return np.max(x, axis=0, keepdims=True)

    try:        # the last batch is one row: replica 0's share is empty
        map_batches(column_max, rows[:5], strategy, batch_size=4)
    except ValueError as e:             # NumPy's error, from the check inside the step
        assert "zero-size array" in str(e), e
    else:
        raise AssertionError("np.max of an empty share did not raise")
    print("map_batches ok")
""")


def test_mirrored_strategy_over_two_logical_cpus(tmp_path):
    script = tmp_path / "mirrored.py"
    script.write_text(SCRIPT)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "replicas 2" in run.stdout and "map_batches ok" in run.stdout
    assert "pass a multiple of 2 (4 or 6)" in run.stdout
    assert "Unable to locate the source code" not in run.stderr   # AutoGraph leaves it be


# One script for every process of the cluster test: with TF_CONFIG naming two workers it
# is one of them; without TF_CONFIG, the one-worker strategy over this machine's CPU.
WORKER = textwrap.dedent("""
    import os
    import sys
    import numpy as np
    import nptf
    import tensorflow as tf

    try:
        strategy = nptf.distribute.multi_worker_strategy(timeout=float(os.environ["WAIT"]))
    except nptf.ClusterTimeoutError as e:
        print("ClusterTimeoutError:", e)
        sys.exit(3)

    @nptf.compile(output="tensor")
    def loss(x):
        return np.sum(np.tanh(x) ** 2)

    @nptf.compile
    def scaled_cumsum(x):
        return np.cumsum(x, axis=1) * 2.0

    data = np.arange(40.0).reshape(20, 2) / 10
    batches = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices(data).batch(6))

    @tf.function
    def step(batch):
        per_replica = strategy.run(loss, args=(batch,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    total = sum(float(step(b)) for b in batches)
    rows = nptf.distribute.map_batches(scaled_cumsum, data, strategy, batch_size=6)
    assert np.array_equal(rows, np.cumsum(data, axis=1) * 2.0), rows
    print("replicas", strategy.num_replicas_in_sync, "total", repr(total), flush=True)
""")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tf_config(ports, index):
    return json.dumps({"cluster": {"worker": [f"127.0.0.1:{p}" for p in ports]},
                       "task": {"type": "worker", "index": index}})


def test_multi_worker_mirrored_strategy_on_two_processes(tmp_path):
    """Two workers on this machine each print the all-reduced total of a compiled function
    over the whole data, and map_batches' rows in order. The same script without a cluster runs on
    one device; with a cluster whose other worker never starts it raises
    ClusterTimeoutError naming that worker instead of waiting (an hour, TensorFlow's
    default). All four processes run at once, each bounded."""
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    ports, dead = [_free_port(), _free_port()], [_free_port(), _free_port()]
    base = {k: v for k, v in os.environ.items() if k != "TF_CONFIG"}
    runs = {"worker 0": dict(TF_CONFIG=_tf_config(ports, 0), WAIT="60"),
            "worker 1": dict(TF_CONFIG=_tf_config(ports, 1), WAIT="60"),
            "one device": dict(WAIT="60"),
            "missing worker": dict(TF_CONFIG=_tf_config(dead, 0), WAIT="3")}
    procs = {name: subprocess.Popen([sys.executable, str(script)], env={**base, **env},
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name, env in runs.items()}
    deadline = time.monotonic() + 120
    outs = {}
    try:
        for name, proc in procs.items():
            out, err = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
            outs[name] = (proc.returncode, out, err)
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    expected = float(np.sum(np.tanh(np.arange(40.0).reshape(20, 2) / 10) ** 2))
    for name, replicas in (("worker 0", 2), ("worker 1", 2), ("one device", 1)):
        code, out, err = outs[name]
        assert code == 0, (name, out, err[-3000:])
        words = out.split()
        assert words[words.index("replicas") + 1] == str(replicas), (name, out)
        total = float(words[words.index("total") + 1])
        assert abs(total - expected) < 1e-9 * expected, (name, total, expected)
    code, out, err = outs["missing worker"]
    assert code == 3, (out, err[-3000:])
    assert f"worker 1 (127.0.0.1:{dead[1]}) did not join the cluster within 3 s" in out, out


# ------------------------------------------------------------- map_batches, one device
@nptf.compile
def scaled_cumsum(x):
    return np.cumsum(x, axis=1) * 2.0


@nptf.compile
def products(x, y):
    return x * y, np.sum(x, axis=1)


@nptf.compile(output="tensor")
def squares_summed(x):
    return np.sum(x * x, axis=0)


def test_map_batches_with_the_default_strategy(rng):
    x = rng.standard_normal((103, 3))
    expected = np.cumsum(x, axis=1) * 2.0
    out = map_batches(scaled_cumsum, x, batch_size=10)      # a last batch of 3 rows
    assert type(out) is np.ndarray and out.dtype == np.float64
    np.testing.assert_allclose(out, expected, rtol=1e-12)
    a, b = map_batches(products, tf.data.Dataset.from_tensor_slices((x, x + 1)), batch_size=16)
    np.testing.assert_allclose(a, x * (x + 1), rtol=1e-12)
    np.testing.assert_allclose(b, x.sum(axis=1), rtol=1e-12)
    total = map_batches(squares_summed, x, batch_size=8, reduce="sum")
    np.testing.assert_allclose(total, np.sum(x * x, axis=0), rtol=1e-12)
    assert map_batches(scaled_cumsum, x[:0], batch_size=4).shape == (0, 3)
    # One trace serves every batch size: the step takes any number of rows.
    twin = nptf.distribute._GRAPH_TWINS[scaled_cumsum.compiled]
    assert twin.cache_info().traces == 1


def test_map_batches_refuses_bad_input_naming_the_fix(rng):
    x = rng.standard_normal((12, 3))
    here = r"\n  at .*test_distribute\.py:\d+"
    cases = [
        (lambda: map_batches(scaled_cumsum.fn, x, batch_size=4),
         "takes a function compiled with nptf.compile.*decorate"),
        (lambda: map_batches(scaled_cumsum, 3.0, batch_size=4),
         r"data is a scalar.*no rows.*np\.atleast_1d"),
        (lambda: map_batches(scaled_cumsum, np.array(["a", "b"]), batch_size=4),
         "dtype <U1.*numbers or booleans"),
        (lambda: map_batches(products, (x, x[:5]), batch_size=4),
         r"different numbers of rows \(12, 5\)"),
        (lambda: map_batches(scaled_cumsum, x, batch_size=0), "positive integer"),
        (lambda: map_batches(scaled_cumsum, x, batch_size=4, reduce="max"),
         "reduce must be None.*or 'sum'"),
        (lambda: map_batches(scaled_cumsum, x, batch_size=4, timeout=-1),
         "positive number of seconds"),
        (lambda: map_batches(nptf.compile(lambda b: np.sum(b)), x, batch_size=4),
         "returns a scalar for a batch.*reduce='sum'"),
        (lambda: map_batches(scaled_cumsum, tf.data.Dataset.from_tensor_slices({"x": x}),
                             batch_size=4), "tuples of tensors"),
    ]
    for call, message in cases:
        with pytest.raises(nptf.DistributeError, match=message + "(.|\n)*" + here):
            call()
    with pytest.raises(nptf.DistributeError, match="outside tf.function"):
        tf.function(lambda: map_batches(scaled_cumsum, x, batch_size=4), autograph=False)()
    # A cluster is configured only as TensorFlow starts, which it has in this process.
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
        tf.train.ClusterSpec({"worker": ["127.0.0.1:1", "127.0.0.1:2"]}),
        task_type="worker", task_id=0)
    with pytest.raises(nptf.DistributeError, match="before TensorFlow runs anything"):
        nptf.distribute.multi_worker_strategy(cluster_resolver=resolver)
