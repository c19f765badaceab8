"""``check``: a run-time condition NumPy would raise on, attached to a value.

Some NumPy errors depend on the data (an all-NaN slice in ``nanargmax``, bins
that are not monotonic). The graph cannot raise at trace time, so ``check``
passes ``x`` through unchanged; the lowering returns ``all(ok)`` as an extra
graph output and the runtime raises NumPy's exception type (``ERRORS``) with
NumPy's message when it is false, with or without XLA.
"""
from __future__ import annotations

import numpy as np

from ..errors import AssumptionError, OutsideTheGraphError
from .evaluate import EVAL_RULES
from .ops import declare, register


# NumPy's (and Python's) exception types, by the name a ``check`` records;
# "OutsideTheGraph" where NumPy would not raise but return what the graph cannot, or
# raises an error of the user's own (the runtime may then run NumPy).
ERRORS = {"ValueError": ValueError, "IndexError": IndexError, "ZeroDivisionError": ZeroDivisionError,
          "OverflowError": OverflowError, "UnboundLocalError": UnboundLocalError,
          "TypeError": TypeError, "RuntimeError": RuntimeError, "AssertionError": AssertionError,
          "ArithmeticError": ArithmeticError, "FloatingPointError": FloatingPointError,
          "KeyError": KeyError, "NotImplementedError": NotImplementedError,
          "LinAlgError": np.linalg.LinAlgError, "OutsideTheGraph": OutsideTheGraphError}


# Errors a check raises only when its value is read, as Python raises them (a variable
# only a loop that runs sets); other checks raise whether or not the value is used, but
# for those with the param ``when_read`` (a use of a value that may be None). A check
# whose ``when_read`` is False raises either way (``x is None`` of a variable no path the
# data took assigned reads no value, and raises in Python).
RAISED_WHEN_READ = frozenset({"UnboundLocalError"})


@register("check", lambda ts, p: [ts[0].dtype, np.bool_])
def _check(ts, params):
    # weak: the checked value is a Python number and stays one.
    return [ts[0] if params.get("weak") else ts[0].strong()]


# The error name a check with the param ``assumption`` (the trace's ``assume``) reports:
# "Assumption:<site>".
ASSUMPTION = "Assumption:"


def error_name(params):
    """The name of the error a check's lowering reports (``check_error`` makes it)."""
    site = params.get("assumption")
    return params["error"] if site is None else f"{ASSUMPTION}{site}"


def error_label(error):
    """The name a failed check's error goes by where no runtime reads it (a SavedModel's
    assertion, a graph called inside another): an assumption's is OutsideTheGraph."""
    return "OutsideTheGraph" if error.startswith(ASSUMPTION) else error


def assumption_site(error):
    """The site of the assumption a check of this error name checks, else None."""
    return int(error[len(ASSUMPTION):]) if error.startswith(ASSUMPTION) else None


def check_error(error, message):
    """The exception a failed check raises, by the error name its lowering reported."""
    if error.startswith(ASSUMPTION):
        return AssumptionError(message, assumption_site(error))
    return ERRORS.get(error, ValueError)(message)


def hands_over(error):
    """Whether a failed check of this error name hands the call to another run (NumPy's,
    or a graph traced with another assumption) rather than raising the user's error."""
    return error == "OutsideTheGraph" or error.startswith(ASSUMPTION)


def _eval_check(p, x, ok):
    if not np.all(ok):
        raise check_error(error_name(p), p["message"])
    return x


EVAL_RULES["check"] = _eval_check


# A check whose value nobody uses still raises NumPy's error, but for RAISED_WHEN_READ;
# ``when_read`` given says either way (False: a use of a variable that reads no value,
# ``x is None``, still raises Python's UnboundLocalError).
declare("check", effects=lambda params: not params.get(
    "when_read", params.get("error") in RAISED_WHEN_READ))
declare("check", fp_flags=False)
declare("check", shape_of_first=True)


def assumptions_read(graph):
    """For each assumption site of ``graph``'s checks, the sites whose checked values its
    check reads (data flow; in a sub-graph, conservatively, all that its equation reads
    and the sites before it there). A failed check that reads a failed one may fail only
    because the graph computed that one's value under the wrong assumption."""
    from .ir import Graph, Var
    from .walk import all_eqns
    reads = {}

    def sub_graphs(e):
        return [g for v in e.params.values() for g in (v if isinstance(v, tuple) else (v,))
                if isinstance(g, Graph)]

    def flow(graph):
        sites = {}
        for e in graph.eqns:
            read = frozenset().union(*(sites.get(v, ()) for v in e.inputs if isinstance(v, Var)))
            site = e.params.get("assumption") if e.op.name == "check" else None
            if site is not None:
                reads[site] = read
                read = read | {site}
            inner = [x.params["assumption"] for g in sub_graphs(e) for x in all_eqns(g)
                     if x.op.name == "check" and x.params.get("assumption") is not None]
            for i, s in enumerate(inner):
                reads[s] = read | frozenset(inner[:i])
            read = read | frozenset(inner)
            for v in e.outputs:
                sites[v] = read

    flow(graph)
    return reads
