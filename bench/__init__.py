"""nptf's benchmark suite, run by hand (never from the tests).

    python -m bench                 # the suite: kernels x sizes x contenders
    python -m bench.dispatch        # per-call overhead, layer by layer
    python -m bench.sigmoid         # the TensorFlow NumPy guide's sigmoid benchmark

Results from one run are in bench/RESULTS.md.
"""
import os as _os

_os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")   # TensorFlow's start-up chatter
