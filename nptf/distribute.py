"""``nptf.distribute``: compiled functions across the replicas of a ``tf.distribute`` strategy.

``map_batches(f, data, strategy, batch_size=...)`` cuts ``data`` (an array, a tuple of
arrays, or a ``tf.data.Dataset`` of examples) into batches of ``batch_size`` rows, splits
each batch over the strategy's replicas in row order, runs ``f`` on every replica inside
``strategy.run`` and gathers the replicas' results back in row order, as NumPy arrays (or
adds them up: ``reduce="sum"``). ``multi_worker_strategy(timeout=...)`` makes a
``tf.distribute.MultiWorkerMirroredStrategy`` whose wait for its workers and whose
collective operations end with ``ClusterTimeoutError`` instead of waiting for ever.
docs/scaling-out.md describes both.
"""
from __future__ import annotations

import re
import weakref

import numpy as np
import tensorflow as tf

from .errors import ClusterTimeoutError, DistributeError, user_location
from .graph_ir.ops_checks import ERRORS
from .runtime.compiled import Compiled
from .runtime.entry import compiled_of

_SUM = tf.distribute.ReduceOp.SUM
# Each compiled function's twin for strategy.run: its results are tensors, which a graph
# can hold (NumPy arrays cannot), and what does not compile raises nptf's error naming
# it, since NumPy cannot run inside the graph instead.
_GRAPH_TWINS = weakref.WeakKeyDictionary()
# Per strategy, the tf.functions map_batches runs a batch with (see _step).
_STEPS = weakref.WeakKeyDictionary()


def map_batches(f, data, strategy=None, *, batch_size, reduce=None, timeout=None):
    """``f`` over ``data`` in batches of ``batch_size`` rows, each batch split over the
    replicas of ``strategy``; the results in row order, as NumPy arrays.

    ``f`` is a function compiled with ``nptf.compile`` (its ``output`` option does not
    matter: inside ``strategy.run`` it returns tensors, and the results come back as NumPy
    arrays). ``data`` is an array (``f(batch)``), a tuple of arrays with one row per
    example each (``f(*batches)``), or a ``tf.data.Dataset`` of single examples, tensors
    or tuples of tensors (not batched: ``map_batches`` batches it). ``strategy`` defaults
    to ``tf.distribute.get_strategy()``: the strategy whose ``scope()`` is open, else
    TensorFlow's default one-device strategy, so the same code runs with one device.

    ``batch_size`` is the global batch, a multiple of ``strategy.num_replicas_in_sync``:
    replica ``r`` of ``n`` takes the ``r``-th ``n``-th of each batch, in order; the last
    batch may be shorter, and is split as evenly as its rows allow (a replica may get
    none: ``f`` then runs on zero rows). With ``reduce=None`` every result of ``f`` must
    have a leading axis, along which the replicas' and the batches' results are
    concatenated in row order: for a function that works row by row, NumPy's result on
    the whole of ``data``. ``reduce="sum"`` adds the results of all batches instead (``f``
    returns a batch's partial sum). Under ``MultiWorkerMirroredStrategy`` every worker
    passes the same ``data`` and gets the whole result. ``timeout`` (seconds) bounds each
    collective operation (gather, all-reduce): a worker that stops answering raises
    ``ClusterTimeoutError`` instead of leaving the others waiting. TensorFlow has aborted
    the cluster's collectives by then, and may end the process soon after: restart it.
    """
    where = user_location()
    twin = _graph_twin(f, where)
    if not tf.executing_eagerly() or (tf.distribute.has_strategy()
                                      and tf.distribute.get_replica_context() is not None):
        raise DistributeError(
            "map_batches runs the batches itself and returns NumPy arrays, so it is called "
            "eagerly, outside tf.function and strategy.run: call it at the top level of the "
            f"program (f runs inside strategy.run there)\n  at {where}")
    strategy = tf.distribute.get_strategy() if strategy is None else strategy
    if not isinstance(strategy, tf.distribute.Strategy):
        raise DistributeError(f"strategy must be a tf.distribute strategy or None (the "
                              f"current one), got {strategy!r}\n  at {where}")
    replicas = strategy.num_replicas_in_sync
    _check_batch_size(batch_size, replicas, where)
    if reduce is not None and reduce != "sum" and reduce is not _SUM:
        raise DistributeError(f"reduce must be None (the results of the batches "
                              f"concatenated) or 'sum' (added up), got {reduce!r}\n"
                              f"  at {where}")
    _check_timeout(timeout, where)
    step = _step(strategy, twin, reduce is not None, timeout)
    total = None
    results = []
    for batch in _global_batches(data, batch_size, where):
        shares = strategy.experimental_distribute_values_from_function(
            lambda ctx, batch=batch: _share(batch, ctx))
        try:
            out = step.get_concrete_function(_any_rows(shares))(shares)
        except DistributeError as e:        # raised as the step is traced
            raise DistributeError(f"{e}\n  at {where}") from None
        except (tf.errors.DeadlineExceededError, tf.errors.UnavailableError) as e:
            raise ClusterTimeoutError(
                f"map_batches: a collective operation across the replicas did not complete "
                f"({_reason(e)}): a worker stopped or cannot be reached. Check every "
                f"worker of the cluster runs the same map_batches call on the same data, "
                f"or allow a longer timeout\n  at {where}") from e
        except tf.errors.InvalidArgumentError as e:
            failed = _failed_check(e)
            if failed is None:
                raise
            raise failed from None
        out = tf.nest.map_structure(_to_numpy, out)
        if reduce is None:
            results.append(out)
        else:
            total = out if total is None else tf.nest.map_structure(np.add, total, out)
    if reduce is not None:
        return total
    if len(results) == 1:
        return results[0]
    columns = zip(*(tf.nest.flatten(r) for r in results))
    return tf.nest.pack_sequence_as(results[0],
                                    [np.concatenate(c, axis=0) for c in columns])


def multi_worker_strategy(timeout=300.0, *, cluster_resolver=None,
                          communication_options=None):
    """A ``tf.distribute.MultiWorkerMirroredStrategy`` for the cluster that ``TF_CONFIG``
    (or ``cluster_resolver``) names, which waits at most ``timeout`` seconds for its
    workers to start and for each collective operation.

    TensorFlow's own strategy waits up to an hour for every worker named in the cluster
    (its coordination service's default), and its collectives wait without limit, so a
    worker that never starts or stops answering leaves the others hanging. Here a worker
    that has not joined after ``timeout`` seconds raises ``ClusterTimeoutError`` naming
    it, and a collective (``strategy.reduce``, a gather, ``map_batches``) waits at most
    ``timeout`` seconds (``communication_options`` without a ``timeout_seconds`` of their
    own get this one). Without a cluster (no ``TF_CONFIG``) it is the one-worker strategy
    over this machine's devices. Like TensorFlow's, it must be made before TensorFlow
    runs anything (the cluster is configured at start-up): early in the program.
    """
    where = user_location()
    _check_timeout(timeout, where)
    resolver = cluster_resolver or tf.distribute.cluster_resolver.TFConfigClusterResolver()
    if resolver.cluster_spec().jobs and timeout is not None:
        _bound_cluster_wait(resolver, timeout, where)
    try:
        return tf.distribute.MultiWorkerMirroredStrategy(
            cluster_resolver=resolver,
            communication_options=_communication_options(communication_options, timeout))
    except (tf.errors.DeadlineExceededError, tf.errors.UnavailableError) as e:
        raise ClusterTimeoutError(_missing_workers(e, resolver, timeout, where)) from e


# ----------------------------------------------------------------------------- helpers
def _graph_twin(f, where):
    compiled = compiled_of(f)
    if compiled is None:
        raise DistributeError(
            f"map_batches takes a function compiled with nptf.compile, got {f!r}: decorate "
            f"the NumPy function with @nptf.compile\n  at {where}")
    if compiled.output == "tensor" and compiled.fallback == "raise":
        return compiled
    twin = _GRAPH_TWINS.get(compiled)
    if twin is None:
        options = dict(compiled._options, output="tensor", fallback="raise", adaptive=False)
        twin = _GRAPH_TWINS.setdefault(compiled, Compiled(compiled.fn, **options))
    return twin


def _check_batch_size(batch_size, replicas, where):
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or \
            batch_size < 1:
        raise DistributeError(
            f"batch_size must be a positive integer, the rows of each global batch (split "
            f"over the strategy's {replicas} replica{'s' * (replicas > 1)}), got "
            f"{batch_size!r}\n  at {where}")
    if batch_size % replicas:
        below = batch_size // replicas * replicas
        choices = f"{below} or {below + replicas}" if below else f"{replicas}"
        raise DistributeError(
            f"batch_size={batch_size} does not split evenly over the strategy's {replicas} "
            f"replicas: pass a multiple of {replicas} ({choices}); each replica takes "
            f"batch_size // {replicas} rows of every batch\n  at {where}")


def _check_timeout(timeout, where):
    if timeout is not None and (isinstance(timeout, bool) or
                                not isinstance(timeout, (int, float)) or not timeout > 0):
        raise DistributeError(f"timeout must be a positive number of seconds or None, got "
                              f"{timeout!r}\n  at {where}")


def _communication_options(options, timeout):
    if options is None:
        if timeout is None:
            return None
        options = tf.distribute.experimental.CommunicationOptions()
    if options.timeout_seconds is None and timeout is not None:
        options = tf.distribute.experimental.CommunicationOptions(
            bytes_per_pack=options.bytes_per_pack, timeout_seconds=timeout,
            implementation=options.implementation)
    return options


def _global_batches(data, batch_size, where):
    """Each global batch of ``data``: a tuple of arrays (or tensors), one per argument."""
    if isinstance(data, tf.data.Dataset):
        yield from _dataset_batches(data, batch_size, where)
        return
    arrays = _arrays(data, where)
    rows = len(arrays[0])
    # Data without rows is one empty batch: f's result on it has the dtype and shape NumPy's
    # would have on the whole.
    for start in range(0, max(rows, 1), batch_size):
        yield tuple(a[start:start + batch_size] for a in arrays)


def _arrays(data, where):
    several = isinstance(data, tuple)
    arrays = [np.asarray(a) for a in (data if several else (data,))]
    if not arrays:
        raise DistributeError(f"data is an empty tuple: pass an array, or a tuple of arrays "
                              f"(one per argument of f)\n  at {where}")
    for i, a in enumerate(arrays):
        what = f"data[{i}]" if several else "data"
        if a.ndim == 0:
            raise DistributeError(
                f"{what} is a scalar ({a!r}), which has no rows to cut into batches: pass an "
                f"array with one row per example along its first axis (np.atleast_1d for a "
                f"single one)\n  at {where}")
        if a.dtype.kind not in "biufc":
            raise DistributeError(
                f"{what} has dtype {a.dtype}, which a TensorFlow graph does not take: pass "
                f"arrays of numbers or booleans\n  at {where}")
    if len({len(a) for a in arrays}) > 1:
        raise DistributeError(
            f"the arrays of data have different numbers of rows "
            f"({', '.join(str(len(a)) for a in arrays)}): map_batches passes row i of each "
            f"of them together, so they need one length\n  at {where}")
    return arrays


def _dataset_batches(dataset, batch_size, where):
    spec = dataset.element_spec
    several = isinstance(spec, tuple)
    parts = spec if several else (spec,)
    if not parts or not all(isinstance(s, tf.TensorSpec) for s in parts):
        raise DistributeError(
            f"map_batches takes a dataset whose elements are tensors or tuples of tensors "
            f"(one per argument of f), got elements {spec}: map it to tuples first "
            f"(dataset.map(lambda d: (d['x'], d['y'])))\n  at {where}")
    seen = False
    for batch in dataset.batch(batch_size):
        seen = True
        yield tuple(batch) if several else (batch,)
    if not seen:
        yield tuple(tf.zeros([0] + [d or 0 for d in s.shape.as_list()], s.dtype)
                    for s in parts)


def _share(batch, ctx):
    """Replica ``r``'s rows of ``batch``: the ``r``-th ``n``-th, contiguous, so the
    replicas' results in replica order are the batch's in row order (in every worker of a
    cluster, which each take the rows of their own replicas)."""
    rows = int(batch[0].shape[0])
    r, n = ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync
    lo, hi = r * rows // n, (r + 1) * rows // n
    return tuple(tf.convert_to_tensor(b[lo:hi]) for b in batch)


def _step(strategy, twin, reduce, timeout):
    """The ``tf.function`` that runs one batch: ``twin`` on every replica's rows, then the
    replicas' results gathered (or added up) across all replicas, as the first local
    replica holds them. One per strategy, function and way of combining: its traces (one
    per dtype and trailing shape of the rows) serve the calls that follow. It holds its
    strategy weakly: the cache keeps no strategy alive."""
    steps = _STEPS.setdefault(strategy, {})
    key = (twin, reduce, timeout)
    if key in steps:
        return steps[key]
    options = _communication_options(None, timeout)
    strategy_ref = weakref.ref(strategy)

    def replica(*rows):
        out = tf.nest.map_structure(tf.convert_to_tensor, twin(*rows))
        ctx = tf.distribute.get_replica_context()
        if reduce:
            return ctx.all_reduce(_SUM, out, options=options)
        if any(t.shape.rank == 0 for t in tf.nest.flatten(out)):
            raise DistributeError(
                f"map_batches concatenates the results of {twin.name} along their first "
                f"axis, and it returns a scalar for a batch: return one row per example, "
                f"or pass reduce='sum' to add the batches' results")
        return ctx.all_gather(out, axis=0, options=options)

    def step(shares):
        strategy = strategy_ref()
        out = strategy.run(replica, args=shares)
        return tf.nest.map_structure(lambda v: strategy.experimental_local_results(v)[0], out)
    return steps.setdefault(key, tf.function(step, autograph=False))


def _any_rows(shares):
    """The signature ``shares`` (one batch's rows on each replica) calls the step with: any
    number of rows, so that one trace serves every batch, the shorter last one and a
    replica's empty share of it."""
    if isinstance(shares, tuple):
        return tuple(_any_rows(s) for s in shares)
    if isinstance(shares, tf.Tensor):       # one replica (the default strategy)
        return tf.TensorSpec([None] + shares.shape.as_list()[1:], shares.dtype)
    return type(shares._type_spec)(*[_any_rows(v) for v in shares.values])


def _to_numpy(value):
    return value.numpy() if hasattr(value, "numpy") else np.asarray(value)


def _failed_check(error):
    """NumPy's exception for a compiled function's run-time check that failed inside the
    step (an assertion there, whose message is the error's name and NumPy's message), or
    None for any other error."""
    for line in (getattr(error, "message", None) or str(error)).splitlines():
        if "assertion failed: [" in line:
            name, _, text = line.split("assertion failed: [", 1)[1].rstrip()[:-1].partition(": ")
            if name in ERRORS:
                return ERRORS[name](text.replace("\\n", "\n"))
    return None


def _reason(error):
    """TensorFlow's reason for ``error``: the first line of its message past the header
    and the traceback of a graph's error, without the names of functions and ops."""
    text = getattr(error, "message", None) or str(error)
    text = re.sub(r"\{\{function_node [^}]*\}\}\s*|\s*\[Op:[^\]]*\].*", "", text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        if not line.startswith(("Graph execution error", "Detected at node", "File ", "[[")):
            return line
    return lines[0] if lines else type(error).__name__


def _bound_cluster_wait(resolver, timeout, where):
    """Has the coordination service TensorFlow starts for a cluster give up on workers that
    have not registered after ``timeout`` seconds. Its registration barrier is what applies
    the limit: without it, registration returns at once and TensorFlow's next wait (for
    the devices of every worker) lasts an hour. The rest of the configuration is what
    ``MultiWorkerMirroredStrategy`` itself sets, which it leaves alone once set."""
    from tensorflow.python.distribute import multi_worker_util
    from tensorflow.python.eager import context
    ctx = context.context()
    if ctx.coordination_service is not None or resolver.task_type not in ("chief", "worker"):
        return
    if ctx._context_handle is not None:     # noqa: SLF001
        raise DistributeError(
            "multi_worker_strategy must be made before TensorFlow runs anything: TensorFlow "
            "joins a cluster only as it starts. Make the strategy early in the program, "
            f"before any tensor, dataset or tf.function runs\n  at {where}")
    cluster = multi_worker_util.normalize_cluster_spec(resolver.cluster_spec())
    ctx.configure_coordination_service(
        service_type="standalone",
        service_leader=multi_worker_util.coordination_leader(cluster),
        cluster_register_timeout_in_ms=int(timeout * 1000))
    config = ctx.coordination_service
    for job in ("chief", "worker"):
        if job in cluster.jobs:
            config.coordinated_job_list.add(name=job, num_tasks=cluster.num_tasks(job))
    config.cluster_register_with_barrier = True


_TASK = re.compile(r"^/job:(\w+)/replica:\d+/task:(\d+)$")


def _missing_workers(error, resolver, timeout, where):
    """ClusterTimeoutError's message: the tasks that did not join, as the coordination
    service lists them after its registration barrier (on the task that leads the
    cluster), or else the leader, which the other tasks wait to reach."""
    from tensorflow.python.distribute import multi_worker_util
    cluster = multi_worker_util.normalize_cluster_spec(resolver.cluster_spec())
    message = getattr(error, "message", None) or str(error)
    tasks = []
    if "timed out task names:" in message:
        for line in message.split("timed out task names:", 1)[1].strip().splitlines():
            found = _TASK.match(line.strip())
            if found is None:
                break
            tasks.append(found.groups())
    me = f"{resolver.task_type} {resolver.task_id}"
    if tasks:
        who = ", ".join(_named(cluster, job, task) for job, task in tasks)
        what = f"{who} did not join the cluster within {timeout:g} s"
    else:
        leader = _TASK.match(multi_worker_util.coordination_leader(cluster))
        what = (f"{_named(cluster, *leader.groups())}, which leads the cluster, did not "
                f"answer {me} within {timeout:g} s" if leader else
                f"the cluster did not form within {timeout:g} s")
    return (f"{what} (TensorFlow: {_reason(error)}). Start every task the cluster "
            f"names (TF_CONFIG), each with its own task index, check that their addresses "
            f"and ports are reachable from here, or pass a longer timeout to "
            f"multi_worker_strategy\n  at {where}")


def _named(cluster, job, task):
    try:
        return f"{job} {task} ({cluster.task_address(job, int(task))})"
    except (ValueError, KeyError):
        return f"{job} {task}"


__all__ = ["map_batches", "multi_worker_strategy"]
