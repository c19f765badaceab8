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
"""
from __future__ import annotations

import contextlib
import contextvars

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..errors import unsupported, user_location


class Buffer:
    __slots__ = ("atom", "origin", "version", "shape", "written", "readonly", "stand_in",
                 "ambiguous")

    def __init__(self, atom):
        self.atom = atom
        self.origin = atom   # the value the memory held when it got a buffer
        self.version = 0
        self.shape = atom.type.shape
        self.written = False
        self.readonly = False
        # Set (to a description of the statement) when which Python object a name holds
        # depends on the data: a write through it could land in either array.
        self.ambiguous = None
        # Strides of a C-ordered byte array of this shape over one byte of memory:
        # view steps only move strides around, they never touch data.
        if None in self.shape:   # size known only at run time: writes yes, views no
            self.stand_in = None
            return
        strides = tuple(int(np.prod(self.shape[i + 1:], dtype=np.int64)) for i in range(len(self.shape)))
        self.stand_in = as_strided(np.zeros(1, np.uint8), self.shape, strides, writeable=False)


class View:
    __slots__ = ("buffer", "steps", "stand_in", "version", "readonly", "parent")

    def __init__(self, buffer, steps, stand_in, readonly=False, parent=None):
        self.buffer, self.steps, self.stand_in = buffer, steps, stand_in
        self.version = buffer.version
        self.readonly = readonly or buffer.readonly
        # For a view whose size is known only at run time (no stand-in places its
        # elements): the view it was taken of. Writes go through it (indexing.write).
        self.parent = parent

    def current(self, tracer):
        """The tracer's atom, re-derived from the buffer if it was written since."""
        if self.version != self.buffer.version:
            from .tracer import Tracer
            t = Tracer(self.buffer.atom)
            for step in self.steps:
                t = step.apply(t)
            tracer._atom = t._atom
            self.version = self.buffer.version
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
    of a ``getitem`` step)."""
    __slots__ = ("apply", "numpy", "name", "key")

    def __init__(self, name, apply, numpy, key=None):
        self.name, self.apply, self.numpy, self.key = name, apply, numpy, key


def parent_of(view):
    """The array a run-time-sized view was taken of, as it is now, with its own view."""
    from .tracer import Tracer
    p = view.parent
    t = Tracer(p.buffer.atom)
    t._view = View(p.buffer, p.steps, p.stand_in, p.readonly, p.parent)
    t._view.version = -1     # derive its value from the buffer at the first read
    return t


def has_static_shape(t) -> bool:
    return all(d is not None for d in t.shape)


def buffer_of(t) -> View:
    """The tracer's view of its memory, creating a buffer if it owns its memory."""
    if t._view is None:
        buf = Buffer(t._atom)
        t._view = View(buf, (), buf.stand_in)
    return t._view


def make_view(parent, result, step, stand_in_fn):
    """Mark ``result`` (already computed from ``parent``) as a view of ``parent``'s memory,
    if NumPy would make it one; otherwise leave it a fresh array."""
    base = buffer_of(parent)
    if not has_static_shape(parent) or not has_static_shape(result):
        # Sizes known only at run time: the view still re-reads its memory when that is
        # written, and writes through it are written into ``parent``.
        result._view = View(base.buffer, base.steps + (step,), None, readonly=base.readonly,
                            parent=base)
        return result
    try:
        stand_in = stand_in_fn(base.stand_in)
    except ValueError:  # NumPy would have to copy
        return result
    result._view = View(base.buffer, base.steps + (step,), stand_in, readonly=base.readonly)
    return result


def mark_readonly(t):
    view = buffer_of(t)
    if view is not None:
        view.readonly = True
    return t


def check_writeable(t, what):
    if t._view is not None and t._view.readonly:
        raise ValueError(f"assignment destination is read-only ({what})\n  at {user_location()}")
    if t._view is not None and t._view.buffer.ambiguous:
        raise unsupported(
            f"{what} into an array that is, depending on the data, either a new array or the "
            f"same array as before {t._view.buffer.ambiguous}",
            fix="Write into an explicit copy (`x = x.copy()` before the branch) or rebind the "
                "name on every path (`x = x + 1` rather than `x += 1`).")


def defined_in(t, local):
    """Whether the array object ``t`` was made inside the trace whose values are ``local``
    (rather than being an array that existed before it, possibly under another name)."""
    return (t._view.buffer.origin if t._view is not None else t._atom) in local


def mark_ambiguous(t, where):
    """Writes through ``t`` (or the array it may be) cannot be traced: see Buffer.ambiguous."""
    buffer_of(t).buffer.ambiguous = where


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
