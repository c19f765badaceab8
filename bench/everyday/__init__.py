"""Everyday NumPy functions written the way tutorials, exercise collections,
ML-from-scratch code and scientific scripts write them (``funcs_*.py``, inputs in
``cases.py``), compiled with ``fallback="raise"`` on both executors and compared with
NumPy: ``python -m bench.everyday`` (add case names to run some)."""
