"""TF_RULE for ``check``: NumPy's data-dependent errors, raised after the graph runs.

The condition is reduced to one boolean and handed to the lowering context;
the graph returns all of them as an extra output and the runtime raises
NumPy's exception when one is false. Unlike ``tf.debugging.Assert``, this
survives XLA compilation.
"""
from __future__ import annotations

import tensorflow as tf

from ..graph_ir.ops_checks import error_name
from .rules import rule


@rule("check")
def _check(ctx, x, ok, message, error, when_read=False, assumption=None):
    ctx.checks.append((tf.reduce_all(ok), error_name({"error": error, "assumption": assumption}),
                       message))
    return x
