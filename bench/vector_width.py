"""XLA's vector width: 512-bit registers (nptf's default on AVX-512 CPUs) against 256.

The width is a process-wide XLA flag (``--xla_cpu_prefer_vector_width``); ``bench.xla_flags``
runs each setting in processes of its own, alternating, and times the kernels under XLA.

Run:  python -m bench.vector_width [--sizes medium] [--kernels a,b] [--rounds 3]
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"

from .xla_flags import main as _flags_main  # noqa: E402


def main(argv=None):
    return _flags_main(["--flag", "xla_cpu_prefer_vector_width", "--values", "256,512",
                        *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
