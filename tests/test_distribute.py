"""A compiled function with ``output="tensor"`` inside ``tf.distribute.MirroredStrategy``
over two logical CPU devices: per-replica batches and an all-reduce of its results,
eagerly and inside a ``tf.function``. The devices must be made before TensorFlow starts
(which importing nptf does not do), so the check runs in a fresh process."""
from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import numpy as np
    import nptf
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
""")


def test_mirrored_strategy_over_two_logical_cpus(tmp_path):
    script = tmp_path / "mirrored.py"
    script.write_text(SCRIPT)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "replicas 2" in run.stdout
    assert "Unable to locate the source code" not in run.stderr   # AutoGraph leaves it be
