"""Calling a concrete TensorFlow function with as little Python in between as possible.

* ``tf.function`` spends most of a small call binding and checking arguments;
  the concrete function's atomic function runs the same graph directly.
* TensorFlow runs an eagerly called function on a thread of its inter-op pool
  while the caller waits; waking that thread costs tens of microseconds on a
  virtual machine. A graph without control flow is called instead through the
  ``StatefulPartitionedCall`` op, whose kernel runs the graph on the calling
  thread (``bench/executors.py``).
* NumPy inputs reach TensorFlow through DLPack without a copy when their data
  is aligned as TensorFlow's kernels require (64 bytes; 16 for a graph that
  runs under XLA); otherwise they are copied once into an aligned buffer. The
  caller keeps its input tensors alive during the call, so TensorFlow never
  forwards (writes into) them.
* Outputs become NumPy arrays over TensorFlow's buffers without a copy,
  except where that buffer could be shared with an input, a constant or
  another output: then they are copied, so results never alias what NumPy
  would not alias.
"""
from __future__ import annotations

import ctypes
import itertools
import math
import os
import threading
import weakref

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import attr_value_pb2 as _attr_value_pb2
from tensorflow.core.protobuf import config_pb2 as _config_pb2
from tensorflow.core.protobuf import rewriter_config_pb2 as _rewriter_config_pb2
from tensorflow.python import pywrap_tfe as _pywrap_tfe
from tensorflow.python.eager import cancellation as _cancellation
from tensorflow.python.eager import context as _context
from tensorflow.python.eager import core as _core

_ALIGN = TF_ALIGN = 64
# TensorFlow's own kernels CHECK-fail (abort the process) on data aligned below 64
# bytes, and XLA's CPU code assumes its parameters aligned too: the kernel it emits for
# a small matmul (8x3 @ 3x30000) loads them with aligned vector moves and crashes the
# process (SIGSEGV) on data 16 bytes past a 32-byte boundary, where NumPy puts large
# arrays. So both get data aligned to 64 bytes, copied where NumPy's is not.
XLA_ALIGN = 64
_from_dlpack = getattr(getattr(tf.experimental, "dlpack", None), "from_dlpack", None)


def _aligned_empty(shape, dtype):
    dtype = np.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    buf = np.empty(nbytes + _ALIGN, np.uint8)
    offset = (-buf.ctypes.data) % _ALIGN
    return buf[offset:offset + nbytes].view(dtype).reshape(shape)


# The dtypes whose NumPy arrays TensorFlow's DLPack import takes, probed at the first
# conversion, not at import: the probe starts TensorFlow's runtime, after which
# TensorFlow refuses to configure logical devices or a multi-worker cluster
# (``MultiWorkerMirroredStrategy``), which programs do after their imports.
_DLPACK_OK = set()
_dlpack_probed = False
_dlpack_lock = threading.Lock()


def _probe_dlpack():
    global _dlpack_probed
    with _dlpack_lock:
        if not _dlpack_probed:
            _DLPACK_OK.update(_dlpack_dtypes())
            _dlpack_probed = True


def _dlpack_dtypes():
    ok = set()
    if _from_dlpack is None:
        return ok
    for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128", "bool"):
        try:
            probe = _aligned_empty((2,), name)
            probe[...] = 1
            t = _from_dlpack(probe.__dlpack__())
            if t.dtype == tf.as_dtype(name) and bool(np.all(t.numpy() == probe)):
                ok.add(np.dtype(name))
        except Exception:  # noqa: BLE001  (a dtype TensorFlow's DLPack import lacks)
            pass
    return ok


# TensorFlow's Grappler passes a graph nptf marks with ``guard_rewrites`` must not run.
# Its arithmetic optimizer rewrites ``l = l - (c + (b + b))`` inside a while loop into a
# function whose outputs are empty float32 tensors (TensorFlow 2.21, any dtype): loops go
# without it. nptf simplifies arithmetic in its own passes before lowering.
LOOP_REWRITES_OFF = ("arithmetic_optimization",)


def guard_rewrites(concrete, rewrites):
    """Have every caller nptf makes for ``concrete`` run it with Grappler's ``rewrites``
    (RewriterConfig field names) turned off."""
    concrete._nptf_rewrites_off = tuple(rewrites)    # noqa: SLF001
    return concrete


def _rewrites_off(concrete):
    return getattr(concrete, "_nptf_rewrites_off", ())


def _config_without(serialized, rewrites):
    """The serialized ConfigProto ``serialized`` with the Grappler ``rewrites`` off."""
    config = _config_pb2.ConfigProto()
    config.ParseFromString(serialized or b"")
    for name in rewrites:
        setattr(config.graph_options.rewrite_options, name,
                _rewriter_config_pb2.RewriterConfig.OFF)
    return config


def unexpected_output(concrete, outs, always=False):
    """A description of the first of ``outs`` whose dtype or shape is not what ``concrete``
    declares, or None. TensorFlow can hand back such tensors from a graph its optimizers
    broke (empty float32 ones): they must not reach the user as results. Checked on every
    call of a guarded graph, else only when ``always``."""
    if not always and not _rewrites_off(concrete):
        return None
    specs = getattr(concrete, "_nptf_output_specs", None)
    if specs is None:
        specs = [(t.dtype, t.shape.as_list()) for t in tf.nest.flatten(concrete.structured_outputs)]
        concrete._nptf_output_specs = specs     # noqa: SLF001
    if len(outs) != len(specs):
        return f"{len(outs)} outputs where the graph has {len(specs)}"
    for i, ((dtype, shape), out) in enumerate(zip(specs, outs)):
        got = out._shape_tuple() if hasattr(out, "_shape_tuple") else tuple(out.shape)  # noqa: SLF001
        if out.dtype != dtype or len(got) != len(shape) or \
                any(d is not None and d != g for d, g in zip(shape, got)):
            return (f"output {i} came back as {out.dtype.name}{list(got)} where the graph "
                    f"computes {dtype.name}{shape}")
    return None


def _public_caller(concrete, call):
    """``call`` (TensorFlow's own path) with ``concrete``'s guarded rewrites off: function
    call options are the calling thread's, set around the call."""
    rewrites = _rewrites_off(concrete)
    if not rewrites:
        return call

    made = {}   # the thread's serialized config -> that config with the rewrites off

    def guarded(*tensors):
        ctx = _context.context()
        previous = ctx.function_call_options
        serialized = previous.config_proto_serialized
        config = made.get(serialized)
        if config is None:
            config = made[serialized] = _config_without(serialized, rewrites)
        ctx.function_call_options = _context.FunctionCallOptions(
            executor_type=previous.executor_type, config_proto=config)
        try:
            return call(*tensors)
        finally:
            ctx.function_call_options = previous
    return guarded


def fast_caller(concrete):
    """A callable ``(*tensors) -> list of tensors`` for ``concrete``.

    Runs the graph's function op directly, as ``AtomicFunction.call_flat`` does
    in eager mode, minus its per-call argument checks, control-dependency and
    tape-pausing scopes (about half of a small call's cost; like ``call_flat``
    it records nothing on gradient tapes). Inside a graph or a cancellation
    scope it takes the public path.
    """
    atomic = getattr(concrete, "_inference_function", None)
    call_flat = getattr(atomic, "call_flat", None)
    if call_flat is None or concrete.captured_inputs:
        return _public_caller(concrete, lambda *xs: concrete(*xs))
    call_flat = _public_caller(concrete, call_flat)
    rewrites = _rewrites_off(concrete)
    inline = runs_inline(concrete)
    direct = _direct_executor(atomic, inline=inline, in_caller=inline and _CALLER_THREAD_OK,
                              rewrites_off=rewrites)
    if direct is None:
        return call_flat

    def call(*tensors):
        nonlocal direct, inline
        if not _context.executing_eagerly() or _cancellation.context() is not None:
            return call_flat(*tensors)
        try:
            return direct(tensors)
        except tf.errors.OpError as e:
            # Grappler may rewrite the graph into what the single-threaded executor
            # refuses (reference-typed temporaries for a large AddN); it refuses while
            # setting up, before any op has run, so the call can be made again.
            if not inline or "ingle-threaded executor" not in str(e):
                raise
            inline = False
            direct = _direct_executor(atomic, in_caller=_CALLER_THREAD_OK, rewrites_off=rewrites)
            return direct(tensors)
    call.runs_in_caller = inline and _CALLER_THREAD_OK
    return call


def _per_thread_parallelism():
    """TensorFlow's per-thread cap on how many threads an op's kernel may split its
    work over ((set, get) from its framework library; None where they cannot be found)."""
    try:
        path = os.path.join(os.path.dirname(tf.__file__), "libtensorflow_framework.so.2")
        lib = ctypes.CDLL(path)
        setter = lib._ZN10tensorflow26SetPerThreadMaxParallelismEi     # noqa: SLF001
        getter = lib._ZN10tensorflow26GetPerThreadMaxParallelismEv     # noqa: SLF001
        setter.argtypes, setter.restype, getter.restype = [ctypes.c_int], None, ctypes.c_int
        return setter, getter
    except (OSError, AttributeError):
        return None


_PARALLELISM = _per_thread_parallelism()


def one_thread_caller(caller):
    """``caller`` with each op's kernel kept to the calling thread, or None where that
    cannot be done. Only for a caller that runs the graph's ops on the calling thread
    (``runs_in_caller``): the cap is the thread's own. On two cores, kernels of a few
    hundred KiB to a few MiB often run faster without splitting their work (attention
    over 512 rows: 1.25 -> 0.75 ms on the plain executor, by hand); the XLA policy
    times it as a third way to run a graph."""
    if _PARALLELISM is None or not getattr(caller, "runs_in_caller", False):
        return None
    set_cap, get_cap = _PARALLELISM

    def call(*tensors):
        previous = get_cap()
        set_cap(1)
        try:
            return caller(*tensors)
        finally:
            set_cap(previous)
    return call


# Ops TensorFlow's single-threaded executor refuses (functional ones are lowered to the rest).
_CONTROL_FLOW_OPS = {"While", "StatelessWhile", "If", "StatelessIf", "Case", "StatelessCase",
                     "Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond"}


def runs_inline(concrete):
    """Whether ``concrete`` runs on TensorFlow's single-threaded executor, which runs the ops
    one after another on one thread (the calling thread, through the call op), where the
    default executor hands each op to a pool of threads that fall asleep between calls.
    Ops still use every core inside their kernels; graphs of large arrays measured the
    same or faster this way (independent ops no longer overlap, but each one already
    fills both cores; ``bench/executors.py``). Not for graphs with control flow (the
    executor refuses it) nor under XLA (one op: nothing to schedule)."""
    try:
        if concrete.function_def.attr["_XlaMustCompile"].b:
            return False
        graph = concrete.graph.as_graph_def()
    except Exception:  # noqa: BLE001  (another TensorFlow version: keep its default)
        return False
    ops = {n.op for n in graph.node}
    ops.update(n.op for f in graph.library.function for n in f.node_def)
    return not ops & _CONTROL_FLOW_OPS


def bounded_caller(concrete):
    """A callable ``(tensors, seconds) -> list of tensors``, or None once the graph has run
    ``seconds`` and was cancelled. None where this TensorFlow offers no direct call."""
    atomic = getattr(concrete, "_inference_function", None)
    if atomic is None or concrete.captured_inputs:
        return None
    return _direct_executor(atomic, cancelable=True, rewrites_off=_rewrites_off(concrete))


# The call op runs in the calling thread on CPU; with a GPU the function runtime places
# and copies across devices, which stays TensorFlow's own function call.
CPU_ONLY = not tf.config.list_physical_devices("GPU")
_CALLER_THREAD_OK = CPU_ONLY


def _direct_executor(atomic, cancelable=False, inline=False, in_caller=False, rewrites_off=()):
    """Runs ``atomic``'s graph: on TensorFlow's single-threaded executor if ``inline``, and
    through the call op on the calling thread if ``in_caller`` (else as a function call,
    on a thread of TensorFlow's pool); Grappler's ``rewrites_off`` turned off."""
    try:
        ctx = atomic._bound_context  # noqa: SLF001  (the context the function is registered in)
        name = atomic.name.decode() if isinstance(atomic.name, bytes) else atomic.name
        outputs = atomic.function_type.flat_outputs
        num_outputs = len(outputs)
        if any(out.dtype._handle_data for out in outputs):  # noqa: SLF001
            return None  # resource outputs need their handle data attached
        options = dict(ctx.function_call_options.as_attrs())
        if rewrites_off:
            options["config_proto"] = _config_without(
                options.get("config_proto"), rewrites_off).SerializeToString(deterministic=True)
        if inline and not options.get("executor_type"):
            options["executor_type"] = "SINGLE_THREADED_EXECUTOR"
        if in_caller:
            options = {"Tin": [t.dtype.as_datatype_enum for t in atomic.function_type.flat_inputs],
                       "Tout": [t.dtype.as_datatype_enum for t in outputs],
                       "f": _attr_value_pb2.NameAttrList(name=name), "config": "",
                       "config_proto": options.get("config_proto", b""),
                       "executor_type": options.get("executor_type", "")}
            name = "StatefulPartitionedCall"    # stateful: random ops may be inside
        attrs = tuple(itertools.chain(*options.items()))
    except Exception:  # noqa: BLE001  (another TensorFlow version: use the public path)
        return None

    def run(tensors):
        ctx.ensure_initialized()
        try:
            outputs = _pywrap_tfe.TFE_Py_Execute(ctx._handle, ctx.device_name, name,  # noqa: SLF001
                                                 list(tensors), attrs, num_outputs)
        except _core._NotOkStatusException as e:  # noqa: SLF001
            raise _core._status_to_exception(e) from None  # noqa: SLF001
        return outputs or []

    def run_bounded(tensors, seconds):
        ctx.ensure_initialized()
        manager = _cancellation.CancellationManager()
        timer = threading.Timer(seconds, manager.start_cancel)
        timer.daemon = True
        timer.start()
        try:
            outputs = _pywrap_tfe.TFE_Py_ExecuteCancelable(
                ctx._handle, ctx.device_name, name, list(tensors), attrs,  # noqa: SLF001
                manager._impl, num_outputs)  # noqa: SLF001
        except _core._NotOkStatusException as e:  # noqa: SLF001
            if manager.is_cancelled:
                return None
            raise _core._status_to_exception(e) from None  # noqa: SLF001
        except tf.errors.CancelledError:
            if manager.is_cancelled:
                return None
            raise
        finally:
            timer.cancel()
        return outputs or []
    return run_bounded if cancelable else run


def to_tensor(value, dtype, align=_ALIGN):
    if isinstance(value, tf.Tensor):
        return value if value.dtype == dtype else tf.cast(value, dtype)
    if not _dlpack_probed:
        _probe_dlpack()
    arr = np.asarray(value)
    if arr.dtype in _DLPACK_OK and arr.size and arr.dtype == dtype.as_numpy_dtype:
        if arr.ctypes.data % align or not arr.flags.c_contiguous:
            copy = _aligned_empty(arr.shape, arr.dtype)
            np.copyto(copy, arr)
            arr = copy
        return _from_dlpack(arr.__dlpack__())
    return tf.convert_to_tensor(arr, dtype)


def copied_tensor(value, dtype):
    """A tensor of a copy of ``value`` (an array or a tensor), in aligned memory: one copy,
    where ``to_tensor(np.array(value))`` makes two of a misaligned large array (each
    page-faulting through fresh memory: 8 MB took 10-25 ms beside a compile)."""
    if isinstance(value, tf.Tensor):
        view = numpy_view(value)
        value = value.numpy() if view is None else view
    if not _dlpack_probed:
        _probe_dlpack()
    arr = np.asarray(value)
    if arr.dtype in _DLPACK_OK and arr.size and arr.dtype == dtype.as_numpy_dtype:
        copy = _aligned_empty(arr.shape, arr.dtype)
        np.copyto(copy, arr)
        return _from_dlpack(copy.__dlpack__())
    return tf.convert_to_tensor(np.array(arr), dtype)


def to_tensors(values, dtypes):
    return [to_tensor(v, dt) for v, dt in zip(values, dtypes)]


_STAGE_MAX_BYTES = 1 << 18
# Inputs that need a copy anyway (misaligned for TensorFlow's kernels, or strided)
# reuse their buffer up to this size: a fresh one costs a page fault per 4 KiB
# touched (about 1-2 µs each on small VMs), more than the copy itself. Such buffers
# stay with their graph, so all of them together are held to a total; past it,
# copies go to fresh memory.
_RESTAGE_MAX_BYTES = 1 << 26
_RESTAGE_TOTAL_BYTES = 1 << 28
_restaged = {"bytes": 0}
_restaged_lock = threading.Lock()


def _reserve_restage(nbytes):
    with _restaged_lock:
        if _restaged["bytes"] + nbytes > _RESTAGE_TOTAL_BYTES:
            return False
        _restaged["bytes"] += nbytes
        return True


def _release_restage(nbytes):
    with _restaged_lock:
        _restaged["bytes"] -= nbytes


class InputStager:
    """Inputs through buffers that live as long as the concrete function.

    Executing a function on a tensor object TensorFlow has not seen before costs
    some 25-40 µs more than on one it has, whatever the size: more than the rest
    of a small call. So each thread keeps, per argument, one aligned buffer of the
    last size seen (a graph serving many sizes still holds one per argument) and
    the tensor over it, copies the caller's data in (a few microseconds up to the
    256 KiB limit, where the copy starts to cost what it saves) and passes the
    same tensor every time. Larger inputs pass without a copy when aligned and
    contiguous; otherwise they need a copy anyway, and it goes to the reused
    buffer (up to 64 MiB, and 256 MiB for all graphs together) rather than to fresh
    memory. Outputs that could share
    memory with a buffer are copied (``to_numpy`` is given the buffers); calls are
    synchronous, so the next copy never races a running graph.
    """

    def __init__(self, dtypes):
        if not _dlpack_probed:
            _probe_dlpack()
        self._dtypes = [np.dtype(dt.as_numpy_dtype) for dt in dtypes]
        self._dlpack = [d in _DLPACK_OK for d in self._dtypes]
        self._local = threading.local()

    def tensors(self, values, dtypes, align=_ALIGN):
        """(tensors, the staging arrays they read) for one call. Few steps on the way
        for large inputs: after a graph that streamed megabytes, each one runs from
        cold caches."""
        tensors, staged = [], []
        for i, v in enumerate(values):
            if type(v) is np.ndarray and self._dlpack[i] and v.dtype == self._dtypes[i]:
                nbytes = v.nbytes
                if nbytes > _STAGE_MAX_BYTES and v.flags.c_contiguous \
                        and not v.ctypes.data % align:
                    tensors.append(_from_dlpack(v.__dlpack__()))
                    continue
                if 0 < nbytes <= _RESTAGE_MAX_BYTES:
                    slot = self._slot(i, v)
                    if slot is not None:
                        slot[0][...] = v
                        tensors.append(slot[1])
                        staged.append(slot[0])
                        continue
            tensors.append(to_tensor(v, dtypes[i], align))
        return tensors, staged

    def _slot(self, i, v):
        """(buffer, tensor over it) for argument ``i``, or None once large buffers
        would hold more than their total."""
        slots = getattr(self._local, "slots", None)
        if slots is None:
            slots = self._local.slots = {}
        slot = slots.get(i)
        if slot is None or slot[0].shape != v.shape:   # one buffer per argument
            slots.pop(i, None)
            nbytes = v.nbytes
            if nbytes > _STAGE_MAX_BYTES and not _reserve_restage(nbytes):
                return None
            buf = _aligned_empty(v.shape, v.dtype)
            if nbytes > _STAGE_MAX_BYTES:
                weakref.finalize(buf, _release_restage, nbytes)
            slot = slots[i] = (buf, _from_dlpack(buf.__dlpack__()))
        return slot


def to_numpy(tensors, fresh, inputs):
    """NumPy arrays of output tensors; ``fresh[i]`` is False where the IR says output i may
    be a constant or an input itself. Plain loops, no generators: this runs on every call."""
    others = [x for x in inputs if isinstance(x, np.ndarray)]
    arrays = []
    for t, is_fresh in zip(tensors, fresh):
        arr = numpy_view(t) if is_fresh else None
        if arr is not None:
            for other in arrays:
                if np.may_share_memory(arr, other):
                    arr = None
                    break
        if arr is not None:
            for other in others:
                if np.may_share_memory(arr, other):
                    arr = None
                    break
        arrays.append(t.numpy() if arr is None else arr)
    return arrays


def numpy_view(t):
    view = getattr(t, "_numpy", None)
    if view is None:
        return None
    arr = view()
    return arr if isinstance(arr, np.ndarray) and arr.flags.writeable else None
