"""Random NumPy programs against NumPy (``random_programs``), on both executors.

A fixed range of seeds, so a failure names a program that can be run again by hand:
``python tests/random_programs.py --seed N --count 1``. ``NPTF_RANDOM_PROGRAMS`` sets
how many (more finds more; the default keeps the suite quick).
"""
from __future__ import annotations

import os

import pytest

from random_programs import compare, load_programs, program_inputs, program_source

COUNT = int(os.environ.get("NPTF_RANDOM_PROGRAMS", "300"))
CHUNK = 20


@pytest.mark.parametrize("first", range(0, COUNT, CHUNK))
def test_random_programs_match_numpy(first, jit, tmp_path):
    seeds = list(range(first, min(first + CHUNK, COUNT)))
    problems = []
    for seed, fn in zip(seeds, load_programs(seeds, str(tmp_path))):
        problem = compare(fn, program_inputs(seed), jit, program_source(seed), seed)
        if problem:
            problems.append(f"seed {seed}: {problem}\n{program_source(seed)}")
    assert not problems, "\n\n".join(problems)
