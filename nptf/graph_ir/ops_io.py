"""``print``: Python's ``print`` of values the graph computes, each time the equation runs.

``params["write"]`` is the tracer's callable ``write(values)``: it rebuilds the Python
objects NumPy's run would print (arrays, NumPy scalars, Python numbers, lists, the text
of f-strings) from the NumPy values of the equation's inputs and prints them. The
equation has no outputs; it acts whenever it runs (``effects``), every time it runs
(``each_run``: an equal equation, an unrolled loop's copy, is not merged with it), and
only where Python runs (an XLA obstacle; a SavedModel refuses it).
"""
from __future__ import annotations

from .evaluate import EVAL_RULES
from .ops import declare, register


@register("print")
def _print(ts, params):
    return []


def _eval_print(p, *xs):
    p["write"](xs)
    return ()


EVAL_RULES["print"] = _eval_print

declare("print", effects=lambda params: True, each_run=True, numpy_name="print()",
        xla_obstacle=lambda in_types, params: "XLA cannot call Python (a print())")
