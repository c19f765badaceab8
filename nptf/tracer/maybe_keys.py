"""Dicts whose keys the data choose: ``best = {"gain": 0.0}`` before a loop, then
``best = {"gain": g, "feature": j, "threshold": t}`` under an `if` on the data.

After such an `if` (or a graph loop around it) the dict holds every key some path gives,
and for each key not every path gives a bool the graph computes: whether the key is
there on this call. Reading a key that may be missing checks, when the graph runs, that
it is there (where it is not, the call runs with NumPy, which raises Python's KeyError
or takes the path the graph cannot follow); ``in`` follows the data; ``len``, iteration
and the views check that every key is there; a returned dict holds the keys the call
found there, in Python's order."""
from __future__ import annotations

import sys

import numpy as np

from ..errors import UnsupportedError, in_user_code, unsupported, user_location
from .tracer import Tracer, emit

_ABSENT_WHAT = "a dict whose keys the data choose"
# How control flow chooses between two values as the data say (``if_exp``), given by the
# module that defines it.
_CHOOSE = []


def choosing_with(if_exp):
    _CHOOSE[:] = [if_exp]


class MaybeKeys:
    """A dict some of whose keys (``flags``: key -> a traced bool, or a Python bool once
    known) are there only where the data say; ``vals`` holds every key's value, in the
    order Python's dict gives them where all are there (an absent key's value is never
    read)."""

    __slots__ = ("vals", "flags")

    def __init__(self, values, flags):
        self.vals, self.flags = dict(values), dict(flags)

    @property
    def __class__(self):
        """What the user's code sees as its class (``isinstance(d, dict)``)."""
        if not in_user_code(sys._getframe(1).f_code.co_filename):
            return type(self)
        return dict

    # ------------------------------------------------------------- tree
    def nptf_children(self):
        return (*self.vals.values(), *self.flags.values())

    def nptf_spec(self):
        return _Spec(tuple(self.vals), tuple(self.flags))

    # ----------------------------------------------------------- checks
    def _present(self, key):
        """Whether ``key`` is there: True, False, or a traced bool."""
        if key not in self.vals:
            return False
        flag = self.flags.get(key, True)
        return flag if isinstance(flag, Tracer) else bool(flag)

    def _checked(self, flags, what):
        """Checks when the graph runs that every flag in ``flags`` is true."""
        traced = [f for f in flags if isinstance(f, Tracer)]
        if not traced:
            return
        ok = traced[0]
        for f in traced[1:]:
            ok = np.logical_and(ok, f)
        emit("check", [ok, ok], {"error": "OutsideTheGraph",
                                 "message": f"{what} a dict a key of which is missing on this "
                                            f"call, at {user_location()}"}, scalar=True)

    def _all_present(self, what):
        self._checked(self.flags.values(), what)
        return {k: v for k, v in self.vals.items() if self._present(k) is not False}

    # ----------------------------------------------------------- reads
    def __getitem__(self, key):
        present = self._present(key)
        if present is False:
            raise KeyError(key)
        self._checked([present], f"reading [{key!r}] of")
        return self.vals[key]

    def get(self, key, default=None):
        present = self._present(key)
        if present is False:
            return default
        if present is True:
            return self.vals[key]
        value = self.vals[key]
        if _CHOOSE and (isinstance(default, (Tracer, bool, int, float)) or default is None):
            try:
                # The value where the key is there, else the default, as an `if` on the
                # data gives it (a number of the path's own kind).
                return _CHOOSE[0](present, lambda: value, lambda: default)
            except UnsupportedError:
                pass
        self._checked([present], f".get({key!r}) of")
        return value

    def contains(self, key):
        """``key in d``: a traced bool where the data decide."""
        try:
            return self._present(key)
        except TypeError:       # an unhashable key: Python's error
            return key in self.vals

    def __contains__(self, key):
        present = self._present(key)
        if isinstance(present, Tracer):
            raise unsupported(f"`in` of {_ABSENT_WHAT} outside an `if` or a condition",
                              fix="Test `key in d` in an `if` or assign it first.")
        return present

    def __len__(self):
        return len(self._all_present("len() of"))

    def __iter__(self):
        return iter(self._all_present("iterating"))

    def keys(self):
        return self._all_present(".keys() of").keys()

    def values(self):
        return self._all_present(".values() of").values()

    def items(self):
        return self._all_present(".items() of").items()

    def copy(self):
        return MaybeKeys(self.vals, self.flags)

    def __bool__(self):
        present = [self._present(k) for k in self.vals]
        if any(p is True for p in present) or not present:
            return bool(present)
        raise unsupported(f"the truth of {_ABSENT_WHAT}", fix="Test `len(d)` or a key.")

    def __eq__(self, other):
        if not in_user_code(sys._getframe(1).f_code.co_filename):
            return self is other
        return self._all_present("comparing") == other

    __hash__ = None

    def __or__(self, other):
        return self._all_present("`|` of") | other

    def __ror__(self, other):
        return other | self._all_present("`|` of")

    def __ior__(self, other):
        self.update(other)
        return self

    def __repr__(self):
        return repr(self._all_present("repr() of"))

    # ---------------------------------------------------------- writes
    def __setitem__(self, key, value):
        present = self._present(key)
        if isinstance(present, Tracer) and list(self.vals)[-1] != key:
            # Python puts a key it did not have last: the order would follow the data.
            self._checked([present], f"writing [{key!r}] of")
        if key not in self.vals:
            self.vals[key] = value
            return
        self.vals[key] = value
        if key in self.flags:
            self.flags[key] = True

    def update(self, other=(), **kwargs):
        for k, v in dict(other, **kwargs).items():
            self[k] = v

    def _whole(self, what):
        """Becomes the plain dict it is where every key is there (checked)."""
        return dict(self._all_present(what))

    def pop(self, key, *default):
        whole = self._whole(".pop() of")
        value = whole.pop(key, *default)
        self.vals, self.flags = whole, {}
        return value

    def setdefault(self, key, default=None):
        if self._present(key) is not False:
            return self[key]
        self[key] = default
        return default

    def __delitem__(self, key):
        self.pop(key)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise unsupported(f"`.{name}` of {_ABSENT_WHAT}",
                          fix="Give every key a value before the `if` or loop.")



class _Spec:
    """The static facts of a ``MaybeKeys``: its keys in order, and which may be absent."""

    __slots__ = ("keys", "maybe")
    nptf_what = _ABSENT_WHAT
    nptf_export_fix = ("Give every key a value before the `if` or loop, so that the dict has "
                       "the same keys on every path.")

    def __init__(self, keys, maybe):
        self.keys, self.maybe = keys, maybe

    def __eq__(self, other):
        return isinstance(other, _Spec) and (self.keys, self.maybe) == (other.keys, other.maybe)

    def __hash__(self):
        return hash((self.keys, self.maybe))

    def __repr__(self):
        return f"MaybeKeys{self.keys}?{self.maybe}"

    def nptf_rebuilt(self, children):
        values = dict(zip(self.keys, children[:len(self.keys)]))
        flags = dict(zip(self.maybe, children[len(self.keys):]))
        if any(isinstance(f, Tracer) for f in flags.values()):
            return MaybeKeys(values, flags)
        # Known (the call's outputs): the dict Python has.
        return {k: v for k, v in values.items() if bool(flags.get(k, True))}


def _order(orders):
    """One order of keys of which every one of ``orders`` is a subsequence, else None."""
    longest = max(orders, key=len)
    for order in orders:
        it = iter(longest)
        if not all(k in it for k in order):
            return None
    return list(longest)


def maybe_keys_within(vals, absent):
    """The values a variable has on the paths of an `if` (plain dicts or ``MaybeKeys``),
    made ``MaybeKeys`` of one structure where the dicts differ in their keys (one path's
    keys, in order, within another's); else ``vals`` itself. ``absent(key)`` is the value
    of a key on a path without it."""
    if len(vals) < 2 or not all(type(v) is dict or isinstance(v, MaybeKeys) for v in vals):
        return vals
    dicts = vals
    orders = [list(v.vals) if isinstance(v, MaybeKeys) else list(v) for v in dicts]
    maybe = {k for v in dicts if isinstance(v, MaybeKeys) for k in v.flags}
    if not maybe and all(o == orders[0] for o in orders):
        return vals
    order = _order(orders)
    if order is None:
        return vals
    maybe |= {k for k in order if not all(k in o for o in orders)}
    maybe = [k for k in order if k in maybe]
    out = []
    for v in vals:
        have = v.vals if isinstance(v, MaybeKeys) else v
        flags = v.flags if isinstance(v, MaybeKeys) else {}
        out.append(MaybeKeys({k: have[k] if k in have else absent(k) for k in order},
                             {k: flags.get(k, k in have) for k in maybe}))
    return out


def widened(before, after, zero_like):
    """The value a loop carries from ``before`` (a dict, or a ``MaybeKeys``) where its
    body gives ``after`` (a ``MaybeKeys``): every key of both, each absent until the body
    gives it (``zero_like`` gives the value it holds meanwhile); None where the keys'
    orders disagree."""
    have = before.vals if isinstance(before, MaybeKeys) else before
    flags = before.flags if isinstance(before, MaybeKeys) else {}
    order = _order([list(have), list(after.vals)])
    if order is None:
        return None
    maybe = [k for k in order if k in after.flags or k in flags or k not in have or
             k not in after.vals]
    return MaybeKeys({k: have[k] if k in have else zero_like(after.vals[k]) for k in order},
                     {k: flags.get(k, k in have) for k in maybe})
