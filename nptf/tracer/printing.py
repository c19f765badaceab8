"""``print()`` and text of traced values, in converted code.

A ``print`` runs when the graph runs, on every call and on every iteration of a
compiled loop, in the order of the function's other prints: it becomes a ``print``
equation whose inputs are the traced values among its arguments. When it runs, the
arguments are rebuilt as the Python objects NumPy's run has there (arrays, NumPy
scalars, Python numbers, lists; ``outputs.handed_back``) and Python's own ``print``
prints them, so the text is NumPy's. Logging calls, ``warnings.warn`` of such text and
a stream's ``write`` run the same way (``at_run_time``), with the user's file and line
as their caller.

Text made of traced values (an f-string, ``str()``, ``repr()``, ``format()``,
``"...".format()``, ``"..." % x``, ``sep.join()``) is a ``Text``: the Python call that
makes the string, made when the values are known. A ``Text`` can be printed,
concatenated with strings and returned (the caller gets the string); any other use of
it (its length, a comparison, a dict key) needs the string while tracing: the trace
assumes the values it is made of, those of the call being traced, which the graph
checks (``Text.made``), or refuses (``TracerConversionError``) where it cannot.
"""
from __future__ import annotations

import builtins
import contextlib
import functools
import io
import logging
import operator
import os
import sys
import types
import warnings

import numpy as np

from ..errors import TracerConversionError, in_user_code, user_location
from ..tree import flatten, unflatten
from .builder import current_builder
from .outputs import handed_back, output_atoms, output_kinds
from .tracer import Tracer, assumed_value

_NPTF_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_FIX = ("Print it, return it, or format it outside the compiled function; or let the "
        "function run with NumPy (fallback='numpy', the default).")


def refuse(what):
    """Raise nptf's refusal of ``what``, a use of text made of traced values."""
    raise TracerConversionError(
        f"{what} of text made of traced values (an f-string, str(), format()) needs the "
        f"string, which is only known when the compiled graph runs. {_FIX}\n  at "
        f"{user_location()}")


def traced(value):
    """Whether ``value`` (a container, a ``Text``) holds a traced value."""
    if isinstance(value, (str, int, float, complex, type(None))):
        return False
    return any(isinstance(leaf, Tracer) for leaf in flatten(value)[0])


class _Render:
    """A ``Text``'s tree node: its call, made once its children are Python's values."""
    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def nptf_rebuilt(self, children):
        args, kwargs = children
        text = Text(self.fn, tuple(args), kwargs)
        return text if traced(text) else self.fn(*args, **kwargs)


class Text:
    """The string ``fn(*args, **kwargs)``, where ``args`` hold traced values."""
    __slots__ = ("fn", "args", "kwargs")

    def __init__(self, fn, args, kwargs=None):
        self.fn, self.args, self.kwargs = fn, tuple(args), dict(kwargs or {})

    # A node of nptf's pytrees (``tree.flatten``): a print's arguments and the function's
    # results hold the values, and the string is made from them when they are known.
    def nptf_children(self):
        return (self.args, self.kwargs)

    @staticmethod
    def nptf_spec(text):
        return _Render(text.fn)

    def __add__(self, other):
        if isinstance(other, (str, Text)):
            return Text(operator.add, (self, other))
        return NotImplemented

    def choice(self):
        """``(strings, position)`` where the text is one of a static sequence of strings
        (or None) at a traced position (``WEEKDAYS[int(d)]``, ``labels[np.argmax(p)]``, a
        name a traced `if` chose), else None."""
        if self.fn is not operator.getitem or self.kwargs or len(self.args) != 2:
            return None
        seq, k = self.args
        if not (isinstance(k, Tracer) and k.ndim == 0):
            return None
        if isinstance(seq, np.ndarray):
            return (seq.tolist(), k) if seq.ndim == 1 and seq.dtype.kind in "US" else None
        if type(seq) is str or (type(seq) in (list, tuple) and
                                all(type(v) is str or v is None for v in seq)):
            return seq, k
        return None

    def __radd__(self, other):
        if isinstance(other, str):
            return Text(operator.add, (other, self))
        return NotImplemented

    def __mul__(self, n):
        if isinstance(n, int) and not isinstance(n, bool):
            return Text(operator.mul, (self, n))
        return NotImplemented

    __rmul__ = __mul__

    def __mod__(self, values):
        return Text(operator.mod, (self, values))

    def __getattr__(self, name):
        if name in _STR_METHODS:
            method = getattr(str, name)
            return lambda *args, **kwargs: text_call(method, self, *args, **kwargs)
        if name in _BYTES_METHODS:
            method = _BYTES_METHODS[name]
            return lambda *args, **kwargs: text_call(method, self, *args, **kwargs)
        if hasattr(str, name) or hasattr(bytes, name):
            return getattr(self.made(f"str.{name}()"), name)
        raise AttributeError(name)

    def made(self, what):
        """The string, where the trace may assume the values it is made of (their values
        on the call being traced, which the graph checks: ``tracer.assumed_value``); else
        nptf's refusal of ``what``, a use of it that needs the string."""
        return self.fn(*_made(self.args, what), **_made(self.kwargs, what))

    def __str__(self):
        # Wherever it is asked for (a library writing it to a file, a warning's message),
        # but in nptf's own messages: the string is not known yet.
        if not sys._getframe(1).f_code.co_filename.startswith(_NPTF_DIR):
            return str(self.made("str()"))
        return "Text<...>"

    def __repr__(self):
        if in_user_code(sys._getframe(1).f_code.co_filename):
            return repr(self.made("repr()"))
        return "Text<...>"

    def __format__(self, spec):
        return format(self.made("formatting"), spec)

    def __len__(self):
        return len(self.made("len()"))

    def __iter__(self):
        return iter(self.made("iterating over the characters"))

    def __contains__(self, item):
        return _made(item, "`in`") in self.made("`in`")

    def __getitem__(self, index):
        return self.made("indexing")[_made(index, "indexing")]

    def __hash__(self):
        return hash(self.made("hash() (a dict key, a set element)"))

    def __bool__(self):
        return bool(self.made("bool()"))

    def __int__(self):
        return int(self.made("int()"))

    def __float__(self):
        return float(self.made("float()"))

    def __complex__(self):
        return complex(self.made("complex()"))


def _compared(op):
    def compare(self, other):
        return op(self.made("comparing"), _made(other, "comparing"))
    return compare


for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(Text, f"__{_name}__", _compared(getattr(operator, _name)))


def _made(value, what):
    """``value`` with the strings of the ``Text`` and the values of the traced values it
    holds (``Text.made``); nptf's refusal of ``what`` where the trace cannot tell one."""
    if isinstance(value, Text):
        return value.made(what)
    if type(value) is Tracer:
        found = assumed_value(value, what, arrays=True)
        if found is None:
            refuse(what)
        return found
    if type(value) in (list, tuple):
        return type(value)(_made(v, what) for v in value)
    if type(value) is dict:
        return {k: _made(v, what) for k, v in value.items()}
    if isinstance(value, Tracer):
        refuse(what)
    return value


# Methods of str whose result is a string: the same call, made when the text is known.
_STR_METHODS = frozenset("""capitalize casefold center expandtabs format format_map ljust lower
lstrip removeprefix removesuffix replace rjust rstrip strip swapcase title upper zfill""".split())


# Text may also be bytes (``a.tobytes()``, ``s.encode()``): the calls that make a string or
# bytes of them.
_BYTES_METHODS = {"decode": bytes.decode, "hex": bytes.hex, "encode": str.encode}


def holds_text(treedef):
    """Whether a result's tree (``tree.flatten``'s) holds a ``Text``."""
    return (treedef.kind == "node" and isinstance(treedef.meta, _Render)) or \
        any(holds_text(c) for c in treedef.children)


def text_call(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, a call that makes a string: a ``Text`` where the arguments
    hold traced values (or ``Text``), else the string."""
    if traced((args, kwargs)):
        return Text(fn, args, kwargs)
    return fn(*args, **kwargs)


def _converted(value, conversion):
    return {-1: value, 115: str, 114: repr, 97: ascii}[conversion](value) \
        if conversion != -1 else value


def _fstring(*parts):
    return "".join(p if type(p) is str else format(_converted(p[0], p[1]), p[2] or "")
                   for p in parts)


def fstring(*parts):
    """An f-string in converted code: its literal pieces and ``(value, conversion, spec)``
    of each replacement field (``conversion`` as the AST has it: -1, or the code of ``s``,
    ``r``, ``a``)."""
    return text_call(_fstring, *parts)


def percent(template, values):
    """``template % values`` with a string template in converted code."""
    return text_call(operator.mod, template, values)


def _str(*args, **kwargs):
    return text_call(builtins.str, *args, **kwargs)


def _repr(obj):
    return text_call(builtins.repr, obj)


def _format(value, spec=""):
    return text_call(builtins.format, value, spec)


def _join(sep, items):
    return text_call(sep.join, list(items))


def text_builtin(fn):
    """The version of ``fn`` (``str``, ``repr``, ``format``, ``print``, a string's
    ``format`` or ``join``) that takes traced values in converted code, or None."""
    if fn is builtins.print:
        return print_
    logged = logging_or_warning(fn)
    if logged is not None:
        return logged
    if fn is builtins.str:
        return _str
    if fn is builtins.repr:
        return _repr
    if fn is builtins.format:
        return _format
    if fn is builtins.chr:
        return _chr
    if fn is builtins.bytes:
        return lambda *args, **kwargs: text_call(bytes, *args, **kwargs)
    if getattr(fn, "__self__", None).__class__ is str:
        if fn.__name__ == "join":
            return lambda items: _join(fn.__self__, items)
        if fn.__name__ in _STR_METHODS:
            method = getattr(str, fn.__name__)
            return lambda *args, **kwargs: text_call(method, fn.__self__, *args, **kwargs)
    return None


def _chr(i):
    """``chr()`` of a traced integer: the character, made when the graph has run."""
    if isinstance(i, Tracer) and i.dtype.kind in "biu":
        return Text(chr, (i,))
    return chr(i)


def tobytes(array, order="C"):
    """``ndarray.tobytes()`` of a traced array: its bytes, made when the graph has run."""
    return Text(np.ndarray.tobytes, (array, order))


# ------------------------------------------------------------------ print
class _Frozen:
    """An object of the user's among a print's arguments: its text as it was while
    tracing (where it changes, it is a traced value or a loop refuses it)."""
    __slots__ = ("text", "shown")

    def __init__(self, obj):
        try:
            self.text, self.shown = builtins.str(obj), builtins.repr(obj)
        except TypeError as e:
            if "Text" not in str(e):
                raise
            # Its __str__ or __repr__ (converted while the trace is on) formats traced values.
            refuse(f"print() of a {type(obj).__name__} object whose text")

    def __str__(self):
        return self.text

    def __repr__(self):
        return self.shown

    def __format__(self, spec):
        return format(self.text, spec)


_AS_IS = (str, bytes, bool, int, float, complex, type(None), np.generic, np.dtype, type)


def _static(leaf):
    if isinstance(leaf, _AS_IS):
        return leaf
    if isinstance(leaf, np.ndarray):
        return leaf.copy()
    return _Frozen(leaf)


def at_run_time(call, what, args, kwargs=None):
    """``call(*args, **kwargs)`` each time the graph runs, on the Python objects NumPy's
    run has for ``args`` and ``kwargs`` (traced values rebuilt, text made): a ``print``
    equation (``what`` names the call, for messages). Outside a trace, the call now."""
    kwargs = kwargs or {}
    b = current_builder()
    if b is None:
        call(*args, **kwargs)
        return
    leaves, tree = flatten((args, kwargs))
    leaves = [leaf if isinstance(leaf, Tracer) else _static(leaf) for leaf in leaves]
    atoms, infos = output_atoms(leaves, verb="printing",
                                static=lambda leaf: not isinstance(leaf, Tracer))

    def write(values):
        held = HELD.get(write)
        if held is not None:    # values of the run, which TensorFlow may reuse once it returns
            values = [np.array(v) if isinstance(v, np.ndarray) else v for v in values]
        a, k = unflatten(tree, [value if kind == "static" else handed_back(value, kind)
                                for value, kind in output_kinds(infos, values)])
        if held is not None:
            held.append(functools.partial(call, *a, **k))
        else:
            call(*a, **k)

    b.emit("print", atoms, {"write": write, "what": what})


# The run-time calls (``write`` of a print equation) held back while a graph that may hand
# its call to another run is running (``holding``), with the list they go to.
HELD = {}


@contextlib.contextmanager
def holding(writes):
    """Hold back the run-time calls of ``writes`` (print equations' ``write``) while the
    block runs a graph that may hand its call to another run (a failed check of an
    assumption, which a graph of the other one answers, or one NumPy answers): the run
    that answers the call makes them, once. Yields the list of held calls, which the
    caller makes once the graph's answer stands. One graph's calls at a time: the caller
    holds a lock of that graph's own."""
    held = []
    for w in writes:
        HELD[w] = held
    try:
        yield held
    finally:
        for w in writes:
            HELD.pop(w, None)


def print_(*args, sep=" ", end="\n", file=None, flush=False):
    """Python's ``print`` in converted code: when the graph runs (see the module's
    docstring)."""
    if traced((sep, end, file, flush)):
        refuse("print()'s sep=, end=, file= or flush=")
    # The file is the object itself (None: sys.stdout when the graph runs).
    at_run_time(functools.partial(builtins.print, sep=sep, end=end, file=file, flush=flush),
                "print()", args)


# ------------------------------------------------------------ logging, warnings
def _caller():
    """(file, line, function name, module globals) of the user's code calling."""
    frame = sys._getframe(2)
    while frame is not None and not in_user_code(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return "<unknown>", 0, "<unknown>", {}
    name = frame.f_code.co_name
    return frame.f_code.co_filename, frame.f_lineno, name, frame.f_globals


_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
           "warn": logging.WARNING, "error": logging.ERROR, "critical": logging.CRITICAL,
           "fatal": logging.CRITICAL}


def _logged(logger, level, method, module_level):
    """``logger.<method>(msg, *args)`` (``logging.<method>`` where ``module_level``) in
    converted code: the record is made and handled when the graph runs, with the user's
    file and line as the caller (a record made from the graph would name nptf's)."""
    filename, lineno, func, _ = _caller()

    def log(*args, **kwargs):
        if level is None:               # ``logger.log(level, msg, *args)``
            if not args or isinstance(args[0], Tracer):
                refuse("logging.log() with a traced level")
            lvl, args = args[0], args[1:]
        else:
            lvl = level
        if set(kwargs) - {"extra", "stacklevel"}:
            refuse(f"logging's {'/'.join(sorted(set(kwargs) - {'extra', 'stacklevel'}))}=")
        if not args:
            raise TypeError(f"{method}() missing 1 required positional argument: 'msg'")

        def emit(msg, *fmt_args, extra=None):
            if module_level and not logging.root.handlers:
                logging.basicConfig()
            if logger.isEnabledFor(lvl):
                logger.handle(logger.makeRecord(logger.name, lvl, filename, lineno, msg,
                                                fmt_args, None, func, extra))
        at_run_time(emit, f"logging {method}()", args,
                    {"extra": kwargs["extra"]} if "extra" in kwargs else {})
    return log


def _warn(message, category=None, stacklevel=1, source=None, **kwargs):
    """``warnings.warn`` in converted code, with text made of traced values: issued when
    the graph runs, from the user's file and line (so the warnings filters and the
    once-per-location registry see the user's call)."""
    if not traced((message, category)):
        return warnings.warn(message, category, stacklevel + 1, source, **kwargs)
    filename, lineno, _, module_globals = _caller()
    registry = module_globals.setdefault("__warningregistry__", {}) \
        if isinstance(module_globals, dict) else None

    def issue(text):
        if isinstance(text, Warning):
            warnings.warn_explicit(text, type(text), filename, lineno, registry=registry,
                                   module_globals=module_globals)
        else:
            warnings.warn_explicit(str(text), category or UserWarning, filename, lineno,
                                   registry=registry, module_globals=module_globals)
    at_run_time(issue, "warnings.warn()", (message,))


def logging_or_warning(fn):
    """The version of a logging function or ``warnings.warn`` for converted code, or
    None."""
    if fn is warnings.warn:
        return _warn
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, io.TextIOBase) and getattr(fn, "__name__", None) in ("write",
                                                                             "writelines"):
        # ``sys.stdout.write(f"loss {loss:.4f}\n")``, a log file's: when the graph runs
        # (into the sys.stdout or sys.stderr of that time, as print() writes).
        stream = "stdout" if owner is sys.stdout else "stderr" if owner is sys.stderr else None
        method = fn.__name__
        target = fn if stream is None else \
            (lambda *args: getattr(getattr(sys, stream), method)(*args))
        return lambda *args: at_run_time(target, f"{method}()", args) if traced(args) \
            else fn(*args)
    if getattr(fn, "__module__", None) == "logging" and getattr(fn, "__name__", None) in \
            (*_LEVELS, "log") and not isinstance(fn, types.MethodType):
        return _logged(logging.getLogger(), _LEVELS.get(fn.__name__), fn.__name__, True)
    if isinstance(owner, logging.Logger) and fn.__name__ in (*_LEVELS, "log"):
        return _logged(owner, _LEVELS.get(fn.__name__), fn.__name__, False)
    return None
