"""Whether a Python container the trace stands in for (a dict keyed by traced values, a
list of lists the data append to) is also reachable under another name: a change made
through one name must then show through the others, which the stand-in cannot follow."""
from __future__ import annotations

from ..errors import in_user_code

# Containers followed at most this many items deep into the user's variables; past it
# the answer is "held elsewhere", the safe one.
_BUDGET = 20_000


def held_elsewhere(name, frame, is_it):
    """Whether the value of variable ``name`` is an argument of the user's function
    running in (or around) ``frame``, or another variable of it (or a container one
    holds) holds it or a part of it; ``is_it(v)`` says whether ``v`` is that."""
    f = frame
    while f is not None:
        code = f.f_code
        if in_user_code(code.co_filename):
            # (Not the converted code's own slots for the variable: its value coming into
            # a branch or loop body, and the one it puts back in the closure cell.)
            own = (name, f"_nptf__arg_{name}", f"_nptf__was_{name}")
            if _reaches(is_it, [v for n, v in f.f_locals.items() if n not in own]):
                return True
            if not code.co_name.startswith("_nptf__"):
                n_args = code.co_argcount + code.co_kwonlyargcount + \
                    bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
                return name in code.co_varnames[:n_args]
        f = f.f_back
    return True


def _reaches(is_it, values):
    seen, pending, budget = set(), list(values), _BUDGET
    while pending and budget > 0:
        v = pending.pop()
        budget -= 1
        if is_it(v):
            return True
        if type(v) in (list, tuple, set, dict) and id(v) not in seen:
            seen.add(id(v))
            pending += list(v.values()) if type(v) is dict else list(v)
    return budget <= 0
