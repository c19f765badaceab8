"""The places where a trace assumes what the data decide, and the assumptions' sites.

A trace assumes three kinds of things the data of a call decide, each with a run-time
check in the graph whose failure raises ``AssumptionError`` with the assumption's site;
the runtime then runs a graph traced with other assumptions for those data, keeping up to
a few graphs per signature:

- the kind of a result (``assumptions.assume_kind``: ``np.linalg.eigvals`` of a real
  matrix is real or complex as its eigenvalues are): the other graph is traced with the
  site's assumption flipped (``flipping``);
- the path of an `if` whose paths cannot be one graph's (``assume_path``);
- the Python value of a traced value where Python itself needs one (``assume_value``: a
  dict key, a comparison inside ``heapq``, an `int()` in code nptf does not convert).

The last two take what the data of the call being traced say (``shadow``): the other
graph is traced on the data that failed the check.

A site is a number for one place: the assumption's name, the positions of the calls that
reach it in the user's code (from the traced function in), and how many times the trace
met that place before (an unrolled loop's iterations). So a site keeps its number in the
traces of every other flipping, where places an assumption's kind adds or removes (the
polynomial of eigenvalues, checked only where they are complex) shift no other.
"""
from __future__ import annotations

import contextlib
import contextvars
import sys
import threading

from ..errors import Error, OutsideTheGraphError, in_user_code

# Sites whose assumption the trace flips; one trace's places met so far (``counting_sites``).
_FLIPPED = contextvars.ContextVar("nptf_flipped_assumptions", default=frozenset())
_MET = contextvars.ContextVar("nptf_assumptions_met", default=None)
# Whether the trace may assume an `if`'s path or a value (``assume_path``,
# ``assume_value``), and the list of the places that would have where it may not.
# The third: the places of the loops whose trip count it may assume (``python_loop``);
# the fourth: whether it may assume values (``assume_value``), where it may assume paths.
_PATHS = contextvars.ContextVar("nptf_assume_paths",
                                default=(False, None, frozenset(), False))
# The path each `if`'s site assumes unless flipped: the one the data of the first trace
# that met it took (a flipped site's graph assumes the other, in every trace after).
_USUAL_PATHS = {}
# Each place's number, for the process: a place has one in every trace.
_SITES = {}
# The site of a run TensorFlow failed of a graph that checks assumptions: the data may
# not be those it was traced for (one of ``assume_value``'s sites).
FAILED_RUN = -1
# The sites of ``assume_value``: a graph of other data assumes other values there, not
# the other of two.
_VALUE_SITES = {FAILED_RUN}
_SITES_LOCK = threading.Lock()


class _Met:
    """A trace's count of the times it met each place, and the frame that runs the traced
    function (where a place's positions in the user's code end)."""

    def __init__(self, caller):
        self.caller, self.times = caller, {}
        # What the trace assumed that the data decide (``assume_path``, ``assume_value``),
        # in words: "the path of the `if` at f.py:12".
        self.paths = []


def _place(name, met):
    """``name`` and the position of each frame of the user's code from the innermost to the
    traced function (a call's position in its code: ``f_lasti``)."""
    positions, frame = [], sys._getframe(2)
    while frame is not None and frame is not met.caller:
        code = frame.f_code
        if in_user_code(code.co_filename):
            positions.append((code.co_filename, code.co_firstlineno, code.co_name,
                              frame.f_lasti))
        frame = frame.f_back
    return name, tuple(positions)


def assume(usual, name):
    """``(assumed, site)``: what the trace assumes of a place (``name``, NumPy's function)
    where the data choose between two kinds of result, ``usual`` unless the runtime flipped
    this site; ``site`` goes into the check of it (``check`` param ``assumption``).
    ``(usual, None)`` outside a trace that counts sites (no second graph can follow)."""
    met = _MET.get()
    if met is None:
        return usual, None
    site = _site(name, met)
    return (not usual) if site in _FLIPPED.get() else usual, site


def _site(name, met):
    place = _place(name, met)
    times = met.times.get(place, 0)
    met.times[place] = times + 1
    with _SITES_LOCK:
        return _SITES.setdefault((place, times), len(_SITES))


def assume_path(where, guess):
    """``(taken, site)`` for the `if` at ``where`` whose paths cannot become one graph's:
    the path the trace assumes, or ``(None, None)`` where the trace may not (an export: a
    SavedModel has one graph). A site assumes the path ``guess`` says (the condition on
    the call being traced); where it says nothing (None), the path the first trace that
    met the site took (false where none could tell), or the other where the runtime
    flipped the site."""
    met = _MET.get()
    allowed, declined, _, _ = _PATHS.get()
    if met is None:
        return None, None
    if not allowed:
        if declined is not None:
            declined.append(where)
        return None, None
    site = _site("if", met)
    with _SITES_LOCK:
        usual = _USUAL_PATHS.setdefault(site, bool(guess))
    met.paths.append(f"the path of the `if` at {where} (whose paths give values of "
                     f"different kinds)")
    if guess is not None:
        return bool(guess), site
    return (not usual) if site in _FLIPPED.get() else usual, site


def assume_value(what, where):
    """The site of the assumption that a traced value is the one the data of the call
    being traced give it, where ``what`` (at ``where``) needs its Python value; None where
    the trace may not assume it (an export: a SavedModel has one graph), after noting the
    place where a trace that may would have."""
    met = _MET.get()
    allowed, declined, _, values = _PATHS.get()
    if met is None:
        return None
    if not values:
        return None
    if not allowed:
        if declined is not None:
            declined.append(where)
        return None
    site = _site("value", met)
    with _SITES_LOCK:
        _VALUE_SITES.add(site)
    met.paths.append(f"the value of {what} at {where}")
    return site


def is_value_site(site):
    """Whether ``site`` is one of ``assume_value``'s."""
    return site in _VALUE_SITES


def python_loop(where):
    """Whether the trace runs the loop at ``where`` in Python, assuming its trip count
    (each test of a `while`'s condition, a `for`'s bounds or a comprehension's length:
    ``assume_value``), or takes the path the data take of the `if` there, where a trace
    before found that the graph's form of it cannot do what the function does
    (``decline_loop``)."""
    allowed, _, loops, values = _PATHS.get()
    return allowed and values and where in loops


def decline_loop(where):
    """Note that no graph loop can run the loop at ``where`` (or no graph `if` the `if`
    there, or one array the list a comprehension there makes), whose trip count (or
    condition) the data of the call being traced tell: a trace that may assume it runs
    it in Python (``python_loop``)."""
    _, declined, _, values = _PATHS.get()
    if values and declined is not None and _MET.get() is not None:
        declined.append(("loop", where))


@contextlib.contextmanager
def assuming_paths(allowed, loops=frozenset(), values=False):
    """Let the trace in it assume the path of an `if` (``assume_path``), and with
    ``values`` values (``assume_value``) and the trip counts of the loops at the places
    ``loops`` (``python_loop``), or not; yields the list of the places of the `if`s and
    values that would have, where it may not, and of the loops no graph loop could run
    (``("loop", place)``)."""
    declined = []
    token = _PATHS.set((allowed, declined, frozenset(loops), values))
    try:
        yield declined
    finally:
        _PATHS.reset(token)


@contextlib.contextmanager
def counting_sites():
    """Number the assumption sites of the trace its caller runs.

    Python's own error raised by a trace that assumed the path of an `if` may come from
    the path the data do not take (a leaf's dict read for a split's keys): such a call runs
    with NumPy, which raises it where the data do."""
    met = _Met(sys._getframe(2))
    token = _MET.set(met)
    try:
        yield
    except Exception as e:
        if not met.paths or isinstance(e, Error):
            raise
        raise OutsideTheGraphError(
            f"the trace assumed {met.paths[0]}, and then raised {type(e).__name__}: {e}") from e
    finally:
        _MET.reset(token)


@contextlib.contextmanager
def flipping(sites):
    """Trace with the assumptions at ``sites`` (a frozenset) flipped."""
    token = _FLIPPED.set(frozenset(sites))
    try:
        yield
    finally:
        _FLIPPED.reset(token)
