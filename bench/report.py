"""Presenting results: a progress bar, text or markdown tables, the machine, a plot."""
from __future__ import annotations

import datetime
import os
import platform
import sys
import time

import numpy as np
import tensorflow as tf


class ProgressBar:
    """A one-line progress bar on stderr (redrawn in place with a carriage return)."""

    def __init__(self, total, width=30, stream=sys.stderr):
        self.total, self.width, self.stream = max(total, 1), width, stream
        self.done = 0
        self.start = time.perf_counter()

    def step(self, label):
        filled = self.width * self.done // self.total
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = time.perf_counter() - self.start
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} {elapsed:5.0f}s {label[:40]:<40}")
        self.stream.flush()
        self.done += 1

    def close(self):
        self.done = self.total
        self.step("done")
        self.stream.write("\n")
        self.stream.flush()


def format_seconds(s):
    if s is None:
        return "-"
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def _cell_time(rec):
    if rec is None:
        return ""
    if rec["status"] != "ok":
        return rec["status"]
    if rec["variant"] == "numpy":
        return format_seconds(rec["seconds"])
    return f"{format_seconds(rec['seconds'])} ({rec['speedup']:.2f}x)"


def _cell_first(rec):
    if rec is None or rec["variant"] == "numpy":
        return ""
    if rec["first_call_s"] is None:
        return rec["status"]
    suffix = "" if rec["status"] == "ok" else f" {rec['status']}"
    return f"{rec['first_call_s']:.2f} s{suffix}"


def _cell_bandwidth(rec):
    if rec is None or "gbps" not in rec:
        return "" if rec is None or rec["status"] == "ok" else rec["status"]
    share = f" ({rec['copy_fraction']:.0%})" if "copy_fraction" in rec else ""
    return f"{rec['gbps']:.1f} GB/s{share}"


def _grid(results, variants, cell, keep_row=lambda rows: True):
    """Rows (kernel, size) x columns variants, in the order the suite ran them."""
    rows = {}
    for rec in results:
        rows.setdefault((rec["kernel"], rec["size"]), {})[rec["variant"]] = rec
    header = ["kernel", "size"] + variants
    body = [[k, s] + [cell(recs.get(v)) for v in variants]
            for (k, s), recs in rows.items() if keep_row(recs)]
    return header, body


def table(header, body, markdown=False):
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join([fmt.format(*header), fmt.format(*("-" * w for w in widths))] +
                     [fmt.format(*row) for row in body])


def used_variants(results):
    seen = []
    for rec in results:
        if rec["variant"] not in seen:
            seen.append(rec["variant"])
    return seen


def results_tables(results, markdown=False):
    """The three tables as (title, text) pairs."""
    variants = used_variants(results)
    compiled = [v for v in variants if v != "numpy"]
    out = [("Median time per call (speed-up over NumPy = NumPy time / time)",
            table(*_grid(results, variants, _cell_time), markdown=markdown)),
           ("First call on a fresh object (trace + compile + run)",
            table(*_grid(results, compiled, _cell_first), markdown=markdown))]
    memory_bound = _grid(results, variants, _cell_bandwidth,
                         keep_row=lambda recs: any("gbps" in r for r in recs.values()))
    if memory_bound[1]:
        out.append(("Memory-bound kernels: bytes read + written per second "
                    "(share of the copy ceiling)", table(*memory_bound, markdown=markdown)))
    return out


def notes(results):
    """One line per result that is not a plain timing: why it is WRONG, failed, fell back."""
    lines = []
    for rec in results:
        if rec["status"] != "ok" or rec.get("note"):
            lines.append(f"{rec['kernel']} {rec['size']} {rec['variant']}: {rec['status']}"
                         + (f": {rec['note']}" if rec.get("note") else ""))
    return lines


def machine_info():
    model, mem = "unknown", "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")),
                         model)
        with open("/proc/meminfo") as f:
            kib = int(next(ln.split()[1] for ln in f if ln.startswith("MemTotal")))
            mem = f"{kib / 2 ** 20:.1f} GiB"
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "memory": mem,
            "python": platform.python_version(), "numpy": np.__version__,
            "tensorflow": tf.__version__, "date": datetime.datetime.now().astimezone().isoformat(
                timespec="seconds")}


def machine_line():
    """One line naming the machine, the date, the libraries and OPENBLAS_NUM_THREADS."""
    info = machine_info()
    return (f"{info['cpu']}, {info['cores']} cores, {info['date']}, NumPy {info['numpy']}, "
            f"TensorFlow {info['tensorflow']}, OPENBLAS_NUM_THREADS="
            f"{os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")


def plot_speedups(results, path):
    """Grouped bars: speed-up over NumPy per kernel, one panel per size."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sizes = list(dict.fromkeys(r["size"] for r in results))
    kernels = list(dict.fromkeys(r["kernel"] for r in results))
    variants = [v for v in used_variants(results) if v != "numpy"]
    fig, axes = plt.subplots(len(sizes), 1, figsize=(max(8, len(kernels) * 0.7), 3.5 * len(sizes)),
                             squeeze=False)
    width = 0.8 / len(variants)
    for ax, size in zip(axes[:, 0], sizes):
        for i, variant in enumerate(variants):
            speed = {r["kernel"]: r["speedup"] for r in results
                     if r["size"] == size and r["variant"] == variant and r["speedup"]}
            xs = [j + i * width for j, k in enumerate(kernels) if k in speed]
            ax.bar(xs, [speed[k] for k in kernels if k in speed], width, label=variant)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_ylabel(f"speed-up over NumPy ({size})")
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(kernels))])
        ax.set_xticklabels(kernels, rotation=45, ha="right")
    axes[0, 0].legend(fontsize="small", ncol=len(variants))
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def have_matplotlib():
    import importlib.util
    return importlib.util.find_spec("matplotlib") is not None
