"""``python -m bench.dask_scaling``: compiled functions on Dask, serially and on 1 and 2
worker processes (one thread each) of a LocalCluster on this machine.

* simulation: a compiled simulation (an explicit heat-equation run, tens of
  milliseconds) for each of 64 parameter sets, by ``client.map``;
* chunked array: an elementwise chain and a sum over an array of 2 GiB (float64, in
  chunks of 64 MiB made on the workers), by ``map_blocks`` and Dask's reduction.

Each configuration runs once to warm up (workers trace their signatures) and is then
timed over ``--repeat`` runs (the best). Serial: the same compiled functions called
in a loop in this process. Needs the ``dask`` extra.
"""
from __future__ import annotations

import argparse
import logging
import platform
import time

import numpy as np

import nptf

CHUNK = 8 * 2 ** 20             # float64 elements per chunk: 64 MiB
TOTAL = 32 * CHUNK              # 2 GiB


@nptf.compile
def heat_run(alpha, steps=4000):
    u = np.sin(np.linspace(0.0, np.pi, 8192)) * alpha
    for _ in range(steps):
        u[1:-1] += 0.2 * (u[2:] - 2 * u[1:-1] + u[:-2])
    return np.sum(u * u)


@nptf.compile
def chain(x):
    return np.sqrt(np.abs(np.sin(x) * 3.0 - x * x)) + np.exp(-x)


def chunk_of(seed):
    return chain(np.random.default_rng(seed).random(CHUNK)).sum()


def _best(fn, repeat):
    fn()                            # warm-up: traces, compiles, worker start
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    import dask.array as da
    import distributed

    alphas = [np.float64(1.0 + k / 64) for k in range(64)]
    serial = {"simulation": _best(lambda: [heat_run(a) for a in alphas], args.repeat),
              "chunked array": _best(lambda: sum(chunk_of(s) for s in range(TOTAL // CHUNK)),
                                     args.repeat)}
    rows = []
    for workers in (1, 2):
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, host="127.0.0.1",
                                           dashboard_address=None, silence_logs=logging.ERROR)
        client = distributed.Client(cluster)
        try:
            def simulation():
                client.gather(client.map(heat_run, alphas, pure=False))

            def array():
                x = da.random.default_rng(0).random(TOTAL, chunks=CHUNK)
                x.map_blocks(chain, dtype=np.float64).sum().compute()
            rows.append((workers, {"simulation": _best(simulation, args.repeat),
                                   "chunked array": _best(array, args.repeat)}))
            # Whether the workers ran the graphs (or NumPy, after a fallback).
            rows[-1][1]["caches"] = client.run(lambda: (heat_run.cache_info(),
                                                        chain.cache_info()))
        finally:
            client.close()
            cluster.close()
    print(f"Dask scaling, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{platform.machine()}, best of {args.repeat} runs after one warm-up\n")
    print("| workload | serial s | 1 worker s | 2 workers s | speed-up 2 vs 1 | "
          "efficiency (2 workers vs serial) |")
    print("|---|---|---|---|---|---|")
    for workers, result in rows:
        for address, (heat, arr) in result["caches"].items():
            print(f"{workers} worker(s), {address}: heat_run {heat}; chain {arr}")
    print()
    for name, work in (("simulation", "64 runs"), ("chunked array", "2 GiB")):
        one, two = rows[0][1][name], rows[1][1][name]
        print(f"| {name} ({work}) | {serial[name]:.2f} | {one:.2f} | {two:.2f} | "
              f"{one / two:.2f}x | {serial[name] / two / 2:.0%} |")


if __name__ == "__main__":
    main()
