"""Mutable arrays on top of a pure IR: buffers, views and functionalised writes.

Every array that is written to, or that a view is taken of, gets a
``Buffer``: the IR value of its memory *now*. A view remembers its buffer and
the chain of view steps (basic indexing, reshape, transpose) that maps the
buffer to it. A write becomes a ``scatter`` that defines a new value of the
whole buffer; views re-derive their value from the buffer when next read.

Which operations give views is decided by NumPy itself: every view step is
replayed on a stand-in array of the buffer's shape that owns no memory, and
a step NumPy cannot do without copying (``reshape`` of a transposed array)
yields a copy, as in NumPy. Where each view element lives in its buffer
(its flat position) is read off ``np.arange(size)`` pushed through the same
steps, so writes land exactly where NumPy's would.

Whether a reshape is a view depends on the memory layout, so a buffer's
stand-in has its array's real layout: an argument's own strides, C order for
arrays nptf makes from C-ordered arrays. An array computed from a
non-C-ordered one (``a.T * 2``) is laid out by NumPy's ``order="K"`` rules,
which nptf does not replay: its buffer gets one stand-in per axis order it
may have, and a step those disagree on (a view for some, a copy for others)
makes writes through either name unsupported rather than guessed.
"""
from __future__ import annotations

import contextlib
import contextvars
import itertools

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..errors import unsupported, user_location
from .builder import current_builder
from .layouts import UNKNOWN
from .tracer import Tracer


class Buffer:
    __slots__ = ("atom", "origin", "version", "shape", "written", "readonly", "stand_ins",
                 "ambiguous")

    def __init__(self, atom, layout=None):
        self.atom = atom
        self.origin = atom   # the value the memory held when it got a buffer
        self.version = 0
        self.shape = atom.type.shape
        self.written = False
        self.readonly = False
        # Set (to a sentence saying why) when nptf cannot tell which memory a write
        # through this buffer's names lands in: writes are refused.
        self.ambiguous = None
        # Byte arrays of this shape and layout over one byte of memory: view steps
        # only move strides around, they never touch data. ``None``: the size is known
        # only at run time (writes yes, views through ``View.parent``).
        self.stand_ins = stand_ins(self.shape, layout)


_MAX_ORDERS_NDIM = 5    # up to 5! axis orders are tried; beyond, like a run-time size


def stand_ins(shape, layout=None):
    """Stand-ins for an array of ``shape``: ``layout`` ``None`` (C order), ``UNKNOWN``
    (contiguous in some axis order) or a tuple of strides in elements."""
    if None in shape:
        return None
    byte = np.zeros(1, np.uint8)
    if layout is None or len(shape) < 2:
        layouts = [_contiguous_strides(shape, range(len(shape)))]
    elif layout == UNKNOWN:
        if len(shape) > _MAX_ORDERS_NDIM:
            return None
        layouts = [_contiguous_strides(shape, order)
                   for order in itertools.permutations(range(len(shape)))]
    else:
        layouts = [tuple(layout)]
    return tuple(as_strided(byte, shape, strides, writeable=False) for strides in layouts)


def _contiguous_strides(shape, order):
    """Strides of a contiguous array whose axes, from outermost to innermost, are ``order``."""
    strides, step = [0] * len(shape), 1
    for axis in reversed(tuple(order)):
        strides[axis] = step
        step *= max(int(shape[axis]), 1)
    return tuple(strides)


def is_c_ordered(t) -> bool:
    """Whether NumPy's array for tracer ``t`` is certainly C-contiguous."""
    view = t._view
    if view is None:
        return t._layout is None or t._atom.type.ndim < 2
    return view.c_ordered


class View:
    __slots__ = ("buffer", "steps", "stand_ins", "version", "readonly", "parent", "c_ordered",
                 "built_in", "unwritable")

    def __init__(self, buffer, steps, stand_ins, readonly=False, parent=None):
        self.buffer, self.steps, self.stand_ins = buffer, steps, stand_ins
        # Set (to a sentence saying why) for a view whose elements nptf cannot place in
        # its buffer: it re-reads the buffer, but writes through it are refused.
        self.unwritable = None
        self.version = buffer.version
        # The graph builder the view's value was last derived in.
        self.built_in = current_builder()
        self.readonly = readonly or buffer.readonly
        # For a view whose size is known only at run time (no stand-in places its
        # elements): the view it was taken of. Writes go through it (indexing.write).
        self.parent = parent
        self.c_ordered = stand_ins is not None and all(s.flags.c_contiguous for s in stand_ins)

    def current(self, tracer):
        """The tracer's atom, re-derived from the buffer if it was written since."""
        builder = current_builder()
        # A value derived inside a branch or loop body exists only in that graph: outside
        # it (or in the other branch) the view derives its value again.
        if self.version != self.buffer.version or \
                (builder is not None and not builder.sees(self.built_in)):
            t = Tracer(self.buffer.atom)
            for step in self.steps:
                t = step.apply(t)
            tracer._atom = t._atom
            self.version, self.built_in = self.buffer.version, builder
        return tracer._atom

    def positions(self):
        """Flat position in the buffer of every element of this view (a NumPy int array)."""
        out = np.arange(int(np.prod(self.buffer.shape, dtype=np.int64)), dtype=np.intp)
        out = out.reshape(self.buffer.shape)
        for step in self.steps:
            out = step.numpy(out)
        return out


class Step:
    """One view step: how to apply it to a tracer, and to a NumPy array (``key``: the index
    of a ``getitem`` step; ``put_back(parent, value)``: the parent's new value where the
    view's is ``value``, of a view computed from its parent, the real part of complex
    numbers)."""
    __slots__ = ("apply", "numpy", "name", "key", "put_back")

    def __init__(self, name, apply, numpy, key=None, put_back=None):
        self.name, self.apply, self.numpy, self.key = name, apply, numpy, key
        self.put_back = put_back


def parent_of(view):
    """The array a run-time-sized view was taken of, as it is now, with its own view."""
    p = view.parent
    t = Tracer(p.buffer.atom)
    t._view = View(p.buffer, p.steps, p.stand_ins, p.readonly, p.parent)
    t._view.unwritable = p.unwritable
    t._view.version = -1     # derive its value from the buffer at the first read
    return t


def has_static_shape(t) -> bool:
    return all(d is not None for d in t.shape)


def buffer_of(t, checked=True) -> View:
    """The tracer's view of its memory, creating a buffer if it owns its memory."""
    if t.choice is not None:
        t.choice.refuse()
    if t._view is None:
        # A value that may be None: its memory is the checked value (see Tracer.atom),
        # but where only a mark is set (``checked`` false): the check, made in the graph
        # being built, would not exist in the graph that defines the value.
        buf = Buffer(t.atom if t.kinds and checked else t._atom, t._layout)
        t._view = View(buf, (), buf.stand_ins)
    return t._view


def make_view(parent, result, step, stand_in_fn):
    """Mark ``result`` (already computed from ``parent``) as a view of ``parent``'s memory,
    if NumPy would make it one; otherwise leave it a fresh array."""
    base = buffer_of(parent)
    if base.stand_ins is None or not has_static_shape(result):
        # Sizes known only at run time: the view still re-reads its memory when that is
        # written, and writes through it are written into ``parent``.
        result._view = View(base.buffer, base.steps + (step,), None, readonly=base.readonly,
                            parent=base)
        if step.name == "reshape" and not _moves_no_data(parent.shape, result.shape):
            # Whether NumPy copies depends on strides known only at run time.
            mark_ambiguous(result, "a reshape of an array whose size or memory layout is "
                                   "known only at run time is a view or a copy depending on it")
        return result
    views = []
    for s in base.stand_ins:
        try:
            views.append(stand_in_fn(s))
        except ValueError:  # NumPy would have to copy
            pass
    if not views:
        if step.name == "reshape":
            result._layout = None    # NumPy's copy is C-ordered
        return result
    result._view = View(base.buffer, base.steps + (step,), tuple(views), readonly=base.readonly)
    if len(views) != len(base.stand_ins):
        mark_ambiguous(result, f"`{step.name}` of an array computed from a transposed or "
                               f"non-C-ordered one is a view or a copy depending on the memory "
                               f"layout NumPy gives it")
    return result


def _moves_no_data(shape, new_shape):
    """A reshape that only adds or drops axes of length 1 (a view whatever the strides)."""
    return [d for d in shape if d != 1] == [d for d in new_shape if d != 1]


def mark_readonly(t):
    view = buffer_of(t)
    if view is not None:
        view.readonly = True
    return t


# For one trace: the graph values of arrays whose memory writes cannot be placed in
# (``hold``), {Var id: why}. Control flow hands a branch or a loop body the same value
# as another array object, which shares no buffer with the one marked.
HELD = contextvars.ContextVar("nptf_held_values", default=None)


def hold(t, why):
    """``t``'s memory (and its value, wherever another array object holds it) cannot
    take writes the graph would follow: ``why`` says what holds it."""
    mark_ambiguous(t, why)
    held = HELD.get()
    if held is not None:
        for atom in (t._atom, t._view.buffer.atom if t._view is not None else None):
            if hasattr(atom, "id"):     # a graph value (a constant is no one's memory)
                held[atom.id] = why


def held_why(t):
    """Why ``t``'s value is memory writes cannot be placed in (``hold``), or None."""
    if t._view is not None and t._view.buffer.ambiguous:
        return t._view.buffer.ambiguous
    held = HELD.get()
    if not held:
        return None
    for atom in (t._atom, t._view.buffer.atom if t._view is not None else None):
        why = held.get(getattr(atom, "id", None))
        if why is not None:
            return why
    return None


def check_writeable(t, what):
    why = held_why(t) if t._view is None or not t._view.buffer.ambiguous else None
    if why is not None:
        raise unsupported(f"{what} into an array whose memory nptf cannot place: {why}",
                          fix="Write into an explicit copy (`y = x.copy()`).")
    if t._view is not None and t._view.readonly:
        raise ValueError(f"assignment destination is read-only ({what})\n  at {user_location()}")
    if t._view is not None and t._view.unwritable:
        raise unsupported(f"{what} into an array whose memory nptf cannot place: "
                          f"{t._view.unwritable}",
                          fix="Write into an explicit copy (`y = x.copy()`).")
    if t._view is not None and t._view.buffer.ambiguous:
        raise unsupported(f"{what} into an array whose memory nptf cannot place: "
                          f"{t._view.buffer.ambiguous}",
                          fix="Write into an explicit copy (`y = x.copy()`), or rebind the name "
                              "(`x = x + 1` rather than `x += 1`).")


def defined_in(t, local):
    """Whether the array object ``t`` was made inside the trace whose values are ``local``
    (rather than being an array that existed before it, possibly under another name)."""
    return (t._view.buffer.origin if t._view is not None else t._atom) in local


def derived_view(parent, result, derive, what, put_back=None):
    """Mark ``result`` (``derive(parent)``) as NumPy's view of ``parent`` that nptf computes
    rather than places (the real part of complex numbers, a trimmed run of elements): a
    read after a write into ``parent`` derives it again. A write through it stores
    ``put_back(parent, its new value)`` into ``parent`` where given; else, as nptf cannot
    place it in ``parent``'s memory, it is refused."""
    base = buffer_of(parent)
    if put_back is not None:
        result._view = View(base.buffer, base.steps + (Step(what, derive, None,
                                                              put_back=put_back),),
                            None, readonly=base.readonly, parent=base)
        result._view.unwritable = base.unwritable
        return result

    def positions(_):
        raise unsupported(f"a write through {what}")
    result._view = View(base.buffer, base.steps + (Step(what, derive, positions),), None,
                        readonly=base.readonly)
    result._view.unwritable = (f"{what} is a view of its argument in NumPy, whose elements "
                               f"nptf does not place (at {user_location()})")
    return result


def traced_index_view(parent, result, key, derive):
    """Mark ``result`` (``parent[key]``, ``key`` holding traced ints and slices) as NumPy's
    view of ``parent``: a read after a write into ``parent`` derives it again, and a write
    through it writes the view's new value back into ``parent[key]``, as for a view whose
    size is known only at run time (its elements have no place known at trace time)."""
    base = buffer_of(parent)
    result._view = View(base.buffer, base.steps + (Step("getitem", derive, None, key),), None,
                        readonly=base.readonly, parent=base)
    result._view.unwritable = base.unwritable
    if base.stand_ins:
        # The strides do not depend on the ints' values: ask a stand-in at position 0.
        probe = tuple(0 if isinstance(k, Tracer) else k for k in key)
        result._view.c_ordered = all(s[probe].flags.c_contiguous for s in base.stand_ins)
    return result


def mark_ambiguous(t, where):
    """Writes through ``t`` (or the array it may be) cannot be traced: see Buffer.ambiguous."""
    buffer_of(t, checked=False).buffer.ambiguous = where


# Control flow traces a branch or a loop body, then needs to know which buffers it
# wrote and to put them back as they were: writes are logged per frame.
_frames = contextvars.ContextVar("nptf_write_frames", default=())


def set_buffer(buffer, atom):
    """Give ``buffer`` a new value (every write ends here)."""
    frames = _frames.get()
    if frames:
        frames[-1].setdefault(buffer, (buffer.atom, buffer.version, buffer.written))
    buffer.atom = atom
    buffer.version += 1
    buffer.written = True


@contextlib.contextmanager
def write_frame():
    """Log the buffers written inside the block: ``{buffer: state before}``."""
    frame = {}
    token = _frames.set(_frames.get() + (frame,))
    try:
        yield frame
    finally:
        _frames.reset(token)


def restore(frame):
    """Undo the writes logged in ``frame`` (the version moves on, so views re-read)."""
    for buffer, (atom, version, written) in frame.items():
        buffer.atom, buffer.written = atom, written
        buffer.version = max(buffer.version, version) + 1
