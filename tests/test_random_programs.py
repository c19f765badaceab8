"""Random NumPy programs against NumPy (``random_programs``), on both executors.

A fixed range of seeds, so a failure names a program that can be run again by hand:
``python tests/random_programs.py --seed N --count 1`` (``--family loops`` for the loop
programs, ``--family effects`` for those that write Python state, ``--family nested`` for loop
programs defining functions and a class inside). ``NPTF_RANDOM_PROGRAMS``,
``NPTF_RANDOM_LOOP_PROGRAMS``, ``NPTF_RANDOM_EFFECTS_PROGRAMS`` and
``NPTF_RANDOM_NESTED_PROGRAMS`` set how many (more finds more; the defaults keep the suite
quick).
"""
from __future__ import annotations

import collections
import os

import numpy as np
import pytest

import random_programs
from random_programs import (compare, effects_program_inputs, effects_program_source,
                             load_programs, loop_program_inputs, loop_program_source,
                             nested_program_source, program_inputs, program_source)

# A program still compiling after 4 s is refused here (by hand, the default budget).
random_programs.COMPILE_BUDGET = 4.0

COUNT = int(os.environ.get("NPTF_RANDOM_PROGRAMS", "120"))
CHUNK = 20
# Loop programs compile several graph loops: one to two seconds each on each executor
# (larger runs by hand: ``python tests/random_programs.py --family loops --count N``;
# each round runs hundreds, bench/RESULTS.md).
LOOP_COUNT = int(os.environ.get("NPTF_RANDOM_LOOP_PROGRAMS", "20"))
LOOP_CHUNK = 10
EFFECTS_COUNT = int(os.environ.get("NPTF_RANDOM_EFFECTS_PROGRAMS", "30"))
NESTED_COUNT = int(os.environ.get("NPTF_RANDOM_NESTED_PROGRAMS", "2"))


@pytest.mark.parametrize("first", range(0, COUNT, CHUNK))
def test_random_programs_match_numpy(first, jit, tmp_path):
    seeds = list(range(first, min(first + CHUNK, COUNT)))
    problems = []
    for seed, fn in zip(seeds, load_programs(seeds, str(tmp_path))):
        problem = compare(fn, program_inputs(seed), jit, program_source(seed), seed)
        if problem:
            problems.append(f"seed {seed}: {problem}\n{program_source(seed)}")
    assert not problems, "\n\n".join(problems)


# Open defects these programs found, each kept failing on purpose until it is fixed:
# (none open)
KNOWN_LOOP_FAILURES = {}


@pytest.mark.parametrize("first", range(0, LOOP_COUNT, LOOP_CHUNK))
def test_random_loop_programs_match_numpy(first, jit, tmp_path):
    """Loops past the unroll limit writing into their arguments (``loop_program_source``);
    nptf refusing one is not a failure."""
    seeds = [s for s in range(first, min(first + LOOP_CHUNK, LOOP_COUNT))
             if s not in KNOWN_LOOP_FAILURES]
    _assert_agree("loops", loop_program_source, loop_program_inputs, seeds, jit, tmp_path)


@pytest.mark.parametrize("first", range(0, EFFECTS_COUNT, 10))
def test_random_effects_programs_match_numpy_or_are_refused(first, jit, tmp_path):
    """Programs that write Python containers, globals and attributes
    (``effects_program_source``), called twice: the state after both calls is NumPy's, or
    nptf refuses the program."""
    seeds = list(range(first, min(first + 10, EFFECTS_COUNT)))
    _assert_agree("effects", effects_program_source, effects_program_inputs, seeds, jit,
                  tmp_path)


@pytest.mark.parametrize("first", range(0, NESTED_COUNT, 10))
def test_random_nested_programs_match_numpy_or_are_refused(first, jit, tmp_path):
    """Loop programs that define functions and a class inside (``nested_program_source``):
    closures, nonlocal, functools wrappers, private methods."""
    seeds = list(range(first, min(first + 10, NESTED_COUNT)))
    _assert_agree("nested", nested_program_source, loop_program_inputs, seeds, jit, tmp_path)


def _assert_agree(family, source_of, inputs_of, seeds, jit, tmp_path):
    problems = []
    for seed, fn in zip(seeds, load_programs(seeds, str(tmp_path), source_of)):
        source = source_of(seed, f"program_{seed}")
        problem = compare(fn, inputs_of(seed), jit, source, seed)
        if problem:
            problems.append(f"seed {seed} (--family {family}): {problem}\n{source}")
    assert not problems, "\n\n".join(problems)


# Loop programs that once went wrong: each must agree with NumPy or be refused.
FIXED_LOOP_FAILURES = (105122,)     # a list's rows after its loop held another count


@pytest.mark.parametrize("seed", FIXED_LOOP_FAILURES)
def test_loop_programs_that_went_wrong(seed, tmp_path):
    fn, = load_programs([seed], str(tmp_path), loop_program_source)
    source = loop_program_source(seed, f"program_{seed}")
    assert compare(fn, loop_program_inputs(seed), False, source, seed) is None


# Nested programs that once went wrong.
FIXED_NESTED_FAILURES = (106041,)   # a closure read a variable its graph loop rebinds


@pytest.mark.parametrize("seed", FIXED_NESTED_FAILURES)
def test_nested_programs_that_went_wrong(seed, tmp_path):
    fn, = load_programs([seed], str(tmp_path), nested_program_source)
    source = nested_program_source(seed, f"program_{seed}")
    assert compare(fn, loop_program_inputs(seed), False, source, seed) is None


@pytest.mark.parametrize("seed", sorted(KNOWN_LOOP_FAILURES))
@pytest.mark.xfail(strict=True, reason="open defect (KNOWN_LOOP_FAILURES)")
def test_known_loop_program_failures(seed, tmp_path):
    fn, = load_programs([seed], str(tmp_path), loop_program_source)
    source = loop_program_source(seed, f"program_{seed}")
    assert compare(fn, loop_program_inputs(seed), False, source, seed) is None


def _saturated_tanh_stored_as_integers(a, c):
    a[::2] = np.tanh(np.expm1(c))       # tanh(19.1) is 1.0 only after rounding: 0 is as right
    return a


def _sum_whose_order_overflows(b):
    return np.nansum(b, axis=-1)        # +-1.8e308 in another order: inf or NaN


def _exact_cosh_stored_as_integers(a, k):
    a[...] = np.cosh(k)                 # cosh(0) is 1.0 exactly, as every kernel gives it
    return a


def _exact_sum_stored_as_integers(a, c):
    a[...] = np.sum(c * 0.5) * 2        # halves of small integers add exactly in any order
    return a


@pytest.mark.parametrize("fn, values, outcome", [
    (_saturated_tanh_stored_as_integers,
     [np.zeros((3, 4), np.uint32), np.array([3, 3, 3, 3], np.int32)],
     "skipped: ill-conditioned"),
    (_sum_whose_order_overflows,
     [np.array([[1.7976931348623157e308, 1.0, -1.7976931348623157e308, 1.7976931348623157e308]])],
     "skipped: ill-conditioned"),
    (_exact_cosh_stored_as_integers, [np.zeros(3, np.int32), np.zeros(3, np.int64)], "agreed"),
    (_exact_sum_stored_as_integers, [np.zeros(3, np.int32), np.arange(5)], "agreed"),
], ids=["tanh", "sum", "exact-cosh", "exact-sum"])
def test_the_comparator_skips_what_another_correct_kernel_may_round_otherwise(
        fn, values, outcome, jit):
    """A result that moves when an approximate function rounds to the other neighbour of
    its exact value, or a sum adds in another order, is ill-conditioned; exact values of
    the same functions are compared."""
    outcomes = collections.Counter()
    assert compare(fn, values, jit, "", 0, outcomes) is None
    assert outcomes == {outcome: 1}
