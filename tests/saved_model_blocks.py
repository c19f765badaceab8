"""A SavedModel applied to the blocks of a Dask array, with TensorFlow only (no nptf).

The module is what docs/scaling-out.md shows: Dask workers import it by name,
and each worker process loads a model once, however many tasks and threads
use it.
"""
import threading

import tensorflow as tf

_MODELS = {}                # path -> the model loaded in this process
_LOCK = threading.Lock()    # a worker's threads wait for one load instead of each loading
LOADS = []                  # the paths this process loaded, in order


def saved_model(path):
    with _LOCK:
        model = _MODELS.get(path)
        if model is None:
            model = _MODELS[path] = tf.saved_model.load(path)
            LOADS.append(path)
    return model


def apply_saved_model(block, path, signature="serving_default", output="output_0"):
    """The model's one-input ``signature`` on ``block``, as a NumPy array."""
    serve = saved_model(path).signatures[signature]
    (name,) = serve.structured_input_signature[1]
    return serve(**{name: tf.constant(block)})[output].numpy()


def loads():
    return list(LOADS)
