"""NumPy's floating-point error state (``np.errstate``, ``np.seterr``) where it raises.

Under the default state NumPy warns and goes on; where a category is set to ``"raise"``
(or ``"call"``, ``"print"``, ``"log"``) a division by zero, an overflow, an invalid
operation or an underflow changes what the function does: a ``FloatingPointError`` its
caller may catch. The graph sets no such flags, so while the tracer sees such a state
(the caller's, or a ``with np.errstate(...)`` in the function) each result that may
set a flag of a raising category is checked at run time; where the data would set one,
the call runs with NumPy (or raises nptf's error under ``fallback="raise"``), which
raises or goes on exactly as NumPy does. Reading the state costs a context-variable
lookup while the state is NumPy's default.
"""
from __future__ import annotations

import numpy as np

# NumPy keeps the state in a context variable, a new object each time it changes (read
# where NumPy has it; else np.geterr() each time).
_STATE = getattr(getattr(getattr(np, "_core", None), "umath", None), "_extobj_contextvar",
                 None)
_QUIET = frozenset({"ignore", "warn"})
_last = [None, frozenset()]


def raising() -> frozenset:
    """The categories (``"divide"``, ``"over"``, ``"under"``, ``"invalid"``) whose flag
    changes what NumPy does (not ``"ignore"`` or ``"warn"``) in the current state."""
    state = _STATE.get() if _STATE is not None else None
    if state is not None and state is _last[0]:
        return _last[1]
    found = frozenset(k for k, v in np.geterr().items() if v not in _QUIET)
    if state is not None:
        _last[0], _last[1] = state, found
    return found


def _state_items():
    return tuple(np.geterr().items())


# ``state_token()``: an object that changes whenever the state may have, compared by
# identity on each call of a compiled function.
state_token = _STATE.get if _STATE is not None else _state_items


def describe(categories) -> str:
    """``np.errstate(divide='raise', ...)`` as the user set it, for messages."""
    modes = np.geterr()
    return "np.errstate(" + ", ".join(f"{k}={modes[k]!r}" for k in sorted(categories)) + ")"


__all__ = ["describe", "raising", "state_token"]
