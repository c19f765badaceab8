"""Integer scalars as ``root * scale + offset``: what passes and the tracer compare.

Positions of element writes (``a[i]``, ``a[i + 1]``, ``a[n - 1 - i]``) and the bounds of
slices with a traced start (``x[i - 1:i + 2]``) are such affine forms of one root (a
loop counter, say): two of them with the same root and scale differ by a constant.
A position of several roots (``a[i, j]`` in a loop nest: ``i * n + j``) has a ``Terms``
root, the roots with their scales. ``made`` maps each variable to the equation that made
it.
"""
from __future__ import annotations

import numpy as np

from .ir import Literal, Var


def literal_int(atom):
    if isinstance(atom, Literal) and atom.type.dtype.kind in "iu":
        v = np.asarray(atom.value)
        if v.size == 1:
            return int(v.reshape(()))
    return None


class Terms:
    """A sum of roots times scales, as the root of a form of several roots; equal to
    another of the same roots (by identity) and scales."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = tuple(sorted(items, key=lambda rs: rs[0].id))

    def __eq__(self, other):
        return isinstance(other, Terms) and len(self.items) == len(other.items) and all(
            a is b and s == t for (a, s), (b, t) in zip(self.items, other.items))

    def __hash__(self):
        return hash(tuple((r.id, s) for r, s in self.items))


def same_root(a, b):
    return a is b or (isinstance(a, Terms) and a == b)


def _terms(root, scale):
    return dict((r.id, (r, s * scale)) for r, s in root.items) if isinstance(root, Terms) \
        else {root.id: (root, scale)}


def combine(a, b, sign=1):
    """The form of ``a + sign * b`` for forms ``a`` and ``b``."""
    if a[0] is None or b[0] is None or same_root(a[0], b[0]):
        return a[0] if a[0] is not None else b[0], a[1] + sign * b[1], a[2] + sign * b[2]
    terms = _terms(a[0], a[1])
    for key, (r, s) in _terms(b[0], sign * b[1]).items():
        terms[key] = (r, terms[key][1] + s) if key in terms else (r, s)
    items = [(r, s) for r, s in terms.values() if s != 0]
    offset = a[2] + sign * b[2]
    if not items:
        return None, 0, offset
    if len(items) == 1:
        return items[0][0], items[0][1], offset
    return Terms(items), 1, offset


def affine(atom, made, depth=0):
    """``(root, scale, offset)`` with ``atom == root * scale + offset`` (root None for a
    constant), or None."""
    c = literal_int(atom)
    if c is not None:
        return None, 0, c
    if not isinstance(atom, Var) or atom.type.dtype.kind not in "iu" or atom.type.size != 1 \
            or depth > 32:
        return None
    e = made.get(atom)
    name = e.op.name if e is not None else None
    if name in ("reshape", "check") or (name == "concatenate" and len(e.inputs) == 1) or \
            (name == "convert" and e.inputs[0].type.dtype == atom.type.dtype):
        # A check passes its value on; so does a convert to the same dtype (a loop's
        # index made a Python int).
        return affine(e.inputs[0], made, depth + 1)
    if name in ("add", "subtract"):
        a, b = (affine(x, made, depth + 1) for x in e.inputs)
        if a is None or b is None:
            return (atom, 1, 0)
        return combine(a, b, 1 if name == "add" else -1)
    if name == "multiply":
        a, b = (affine(x, made, depth + 1) for x in e.inputs)
        if a is not None and b is not None and (a[0] is None or b[0] is None):
            k, other = (a, b) if a[0] is None else (b, a)
            if k[2] == 0:
                return None, 0, 0
            return other[0], other[1] * k[2], other[2] * k[2]
    if name == "gather_nd" and isinstance(e.inputs[0], Literal):
        table = np.asarray(e.inputs[0].value)
        if table.dtype.kind in "iu" and np.array_equal(table.ravel(), np.arange(table.size)):
            return flat_position(e.inputs[1], table.shape, made, depth + 1) or (atom, 1, 0)
    return atom, 1, 0


def flat_position(index, shape, made, depth=0):
    """The flat C-order position of the multi-index ``index`` (an int vector, one entry per
    dimension of ``shape``) as ``(root, scale, offset)``, or None."""
    if index.type.shape != (len(shape),) or None in shape:
        return None
    e = made.get(index) if isinstance(index, Var) else None
    if len(shape) == 1:
        parts = [index]
    elif e is not None and e.op.name == "concatenate" and \
            all(p.type.shape == (1,) for p in e.inputs) and len(e.inputs) == len(shape):
        parts = list(e.inputs)
    else:
        return None
    strides = np.cumprod((1,) + tuple(shape[:0:-1]))[::-1]
    form = (None, 0, 0)
    for part, stride in zip(parts, strides):
        key = affine(part, made, depth)
        if key is None:
            return None
        form = combine(form, (key[0], key[1] * int(stride), key[2] * int(stride)))
    return form


def compare(p, q):
    """True if the positions are equal, False if distinct, None if unknown."""
    if p is None or q is None or not same_root(p[0], q[0]) or p[1] != q[1]:
        return None
    return p[2] == q[2]


def same_value(a, b, made, depth=0):
    """Whether atoms ``a`` and ``b`` surely hold the same value: one atom, equal literals, or
    the same op with the same parameters on such inputs (``x[k]`` written twice in one
    expression, before common subexpressions are merged). Every IR op is a pure function."""
    if a is b:
        return True
    if isinstance(a, Literal) and isinstance(b, Literal):
        return a.type == b.type and np.array_equal(a.value, b.value)
    ea, eb = made.get(a), made.get(b)
    if ea is None or eb is None or depth > 16 or ea.op is not eb.op or \
            len(ea.inputs) != len(eb.inputs) or ea.outputs.index(a) != eb.outputs.index(b):
        return False
    try:
        if ea.params != eb.params:
            return False
    except (ValueError, TypeError):       # array-valued parameters: not worth comparing
        return False
    return all(same_value(x, y, made, depth + 1) for x, y in zip(ea.inputs, eb.inputs))


__all__ = ["literal_int", "affine", "flat_position", "compare", "same_value", "same_root",
           "combine", "Terms"]
