"""``print``: a Python call on values the graph computes (``print()``, a logging call,
``warnings.warn``), each time the equation runs.

``params["write"]`` is the tracer's callable ``write(values)``: it rebuilds the Python
objects NumPy's run would pass (arrays, NumPy scalars, Python numbers, lists, the text
of f-strings) from the NumPy values of the equation's inputs and makes the call;
``params["what"]`` names it for messages. The
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

declare("print", effects=lambda params: True, each_run=True,
        numpy_name=lambda params: params.get("what", "print()"),
        xla_obstacle=lambda in_types, params: f"XLA cannot call Python (a "
                                              f"{params.get('what', 'print()')})")
declare("print", fp_flags=False)
