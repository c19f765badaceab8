"""TF_RULE for ``print``: the tracer's ``write`` called from the graph
(``tf.py_function``), which TensorFlow runs in program order with the graph's other
stateful ops, each time the loop body or branch holding it runs."""
from __future__ import annotations

import tensorflow as tf

from .rules import rule


@rule("print")
def _print(ctx, *xs, write, what="print()"):
    if ctx.xla:
        raise NotImplementedError("XLA cannot call Python")   # an XLA obstacle: never reached
    if ctx.portable:
        raise NotImplementedError(f"{what} of values the graph computes needs Python, which "
                                  f"a SavedModel runs without; take it out of the exported "
                                  f"function")
    # NumPy arrays in (no eager tensors made): a run costs about half of py_function's.
    tf.numpy_function(lambda *arrays: write(arrays) or [], list(xs), [], stateful=True)
    return ()
