"""``python -m bench``: run the benchmark suite (see bench/run.py)."""
from .run import main

main()
