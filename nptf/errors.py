"""Every exception nptf raises for the user, and where in *their* code it happened.

Errors that NumPy itself would raise (a bad shape, a dtype without a loop, an
out-of-range axis) keep NumPy's exception type and message, with the user's
``file:line`` appended, so ``except ValueError`` code keeps working.
"""
from __future__ import annotations

import os
import pickle
import sys
import warnings

_NPTF_DIR = os.path.dirname(os.path.abspath(__file__))
_SKIP_DIRS = (_NPTF_DIR, os.path.dirname(os.path.abspath(__import__("numpy").__file__)))


class Error(Exception):
    """Base class of every error nptf raises of its own (``except nptf.Error`` catches
    them all; NumPy's own errors keep NumPy's types)."""


NptfError = Error


class UnsupportedError(Error, NotImplementedError):
    """A NumPy function, argument form or dtype that nptf cannot compile.

    Example: ``np.histogram2d(x, y)`` inside a compiled function, or any NumPy function
    docs/coverage.md lists as not compiled. Fix: compute it outside the compiled
    function and pass it in as an argument, or use ``nptf.compile(..., fallback="numpy")``.
    """


class TracerConversionError(UnsupportedError, TypeError):
    """A traced array was used where Python needs a concrete value.

    Example: ``x.tolist()`` or ``if x.sum() > 0:`` in a lambda (which is not converted);
    the value is only known when the graph runs. Fix: use ``np.where`` for
    data-dependent choices, or pass the value as a static argument
    (``static_argnames=...``).
    """


class UnsupportedAttributeError(UnsupportedError, AttributeError):
    """An ``ndarray`` attribute nptf does not trace, such as ``.strides`` or ``.ctypes``.

    It is an ``AttributeError`` too, so ``hasattr(x, "strides")`` and ``getattr`` with
    a default see the attribute as missing. Fix: compute what needs it outside the
    compiled function and pass the result in, or use ``fallback="numpy"``.
    """


class ArgumentError(UnsupportedError, TypeError):
    """An argument the graph cannot take: an object of the user's own class, a ragged
    list, an array of strings or objects.

    With ``fallback="numpy"`` (the default) the call runs with NumPy, with one warning;
    with ``fallback="raise"`` this error names the argument. Fix: pass the arrays the
    function uses (``f(obj.w, x)``), or mark the argument static with ``static_argnames``
    (then it must be hashable, and its arrays are frozen into the graph).
    """


class DynamicShapeError(UnsupportedError):
    """Code that needs the concrete size of a dimension traced as unknown (``None``).

    Example: ``np.zeros(len(x))`` when ``x`` was declared ``nptf.Spec((None,), ...)``.
    Fix: declare that dimension with a fixed size, or write the code in terms of
    the array (``np.zeros_like(x)``). Automatic shape relaxation retraces such
    functions with concrete sizes instead.
    """


class OutsideTheGraphError(UnsupportedError):
    """A call whose result NumPy gives in a form the compiled graph cannot have.

    Example: ``x[i:i + 4]`` near the end of ``x``, where NumPy returns fewer than four
    elements; the graph was built for four. Found when the graph runs: with
    ``fallback="numpy"`` (the default) that call runs with NumPy instead, with a
    warning; with ``fallback="raise"`` this error is raised. Fix: keep such slices
    inside the array (pad it), or let the call fall back.
    """


class AssumptionError(OutsideTheGraphError):
    """A run-time check of an assumption the trace made where the data choose the kind of
    a result (``np.linalg.eigvals`` of a real matrix is real or complex as its eigenvalues
    are) failed: the runtime traces the function again with the other assumption
    (``site``: the assumption's place, in the order the trace met them; ``sites``: those
    of all the assumptions that failed in the run)."""

    def __init__(self, message, site):
        super().__init__(message)
        self.site = site
        self.sites = frozenset({site})


class BackendError(UnsupportedError):
    """TensorFlow could not build, compile or run the graph nptf made of a function.

    Example: a loop whose arrays change shape on every iteration, which XLA cannot
    compile. With ``fallback="numpy"`` (the default) the function runs with NumPy
    instead, with one warning; with ``fallback="raise"`` this error names the function
    and TensorFlow's reason. Fix: restructure the named code (preallocate arrays whose
    shape changes in a loop), or let it fall back.
    """


class PicklingError(Error, pickle.PicklingError):
    """A compiled function that cannot be sent to another process.

    Example: a compiled function that closes over a lock or an open file, sent to
    Dask's workers: cloudpickle (with which Dask sends a function defined in a
    script, a notebook or another function) pickles the function with what it
    refers to. Fix: create such an object inside the function, pass the data it
    holds as an argument, or define the function in a module the workers import.
    """


class SpecError(Error, ValueError):
    """An input specification (``nptf.Spec`` or a spec string) is malformed."""


class DistributeError(Error, ValueError):
    """An argument ``nptf.distribute`` cannot take: a function not compiled with
    ``nptf.compile``, data without a leading (row) axis, a batch size that does not split
    evenly over the strategy's replicas. The message names the argument and the fix."""


class ClusterTimeoutError(Error, TimeoutError):
    """Workers of a ``tf.distribute`` cluster that did not answer in time: a worker named
    in ``TF_CONFIG`` that never started or cannot be reached, or one that stopped taking
    part in a collective operation (an all-reduce, a gather). The message names them.
    Fix: start every worker the cluster names, each with its own task index, check that
    their addresses are reachable, or allow a longer ``timeout``.
    """


_USER_FILES = {}     # code filename -> whether it is the user's (asked once per file)


def in_user_code(filename: str) -> bool:
    """Whether code of ``filename`` is the user's (not nptf's, NumPy's or Python's own)."""
    known = _USER_FILES.get(filename)
    if known is None:
        known = _USER_FILES[filename] = not os.path.abspath(filename).startswith(_SKIP_DIRS) \
            and not filename.startswith(("<frozen", "<nptf entry point"))
    return known


def warn_user(message, category=RuntimeWarning):
    """``warnings.warn`` attributed to the innermost frame of the user's code: the line that
    called the compiled function (or, while tracing, the line being traced), whichever
    way the call came through nptf."""
    frame, level = sys._getframe(1), 1
    while frame is not None and not _users(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level + 1 if frame is not None else 2)


def _users(filename):
    return in_user_code(filename) and not filename.startswith("<nptf ")


def user_location() -> str:
    """``file:line`` of the innermost frame outside nptf and NumPy."""
    frame = sys._getframe(1)
    while frame is not None:
        if in_user_code(frame.f_code.co_filename):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>"


_PUBLIC_BASES = (IndexError, OverflowError, ZeroDivisionError, ValueError, TypeError,
                 ArithmeticError, RuntimeError)


def with_location(exc: BaseException, where: str) -> BaseException:
    """The same kind of exception, its message ending with ``at file:line``."""
    if getattr(exc, "_nptf_located", False) or not where:
        return exc
    message = f"{exc}\n  at {where}"
    new = None
    try:
        new = type(exc)(message)
        if str(new) != message:
            new = None
    except Exception:  # noqa: BLE001  (exception types with custom constructors)
        new = None
    if new is None and hasattr(exc, "add_note"):
        # Types whose message is computed (NumPy's UFuncTypeError): keep the exact type.
        exc.add_note(f"  at {where}")
        new = exc
    if new is None:
        base = next((b for b in _PUBLIC_BASES if isinstance(exc, b)), NptfError)
        new = base(message)
    new._nptf_located = True
    return new


def unsupported(what: str, where: str | None = None, fix: str | None = None,
                kind: type = UnsupportedError) -> UnsupportedError:
    fix = fix or ("Compute it outside the compiled function and pass the result in, or use "
                  "nptf.compile(..., fallback='numpy') to run the function with NumPy instead.")
    err = kind(f"{what} is not supported by nptf. {fix}\n  at {where or user_location()}")
    err._nptf_located = True
    return err


def unsupported_size(what: str) -> DynamicShapeError:
    """``unsupported`` of a function that needs sizes known when tracing: a
    ``DynamicShapeError``, so that a loop of a known trip count whose index makes the size
    (``lstsq(X[k:, :k + 1], y[k:])``) runs unrolled, where each size is known."""
    return unsupported(what, kind=DynamicShapeError)
