"""Everyday NumPy functions, tenth collection: utility modules, data-engineering
helpers and everyday scripts, the kind found in a ``utils.py`` on GitHub, a
StackOverflow answer or a Jupyter cell. Run-length encoding and decoding; bit
twiddling (``np.packbits``/``np.unpackbits``, bitwise and/or/xor and shifts,
popcount by loop and by a 256-entry table, Gray code); checksums written by hand
(CRC-32 with a module-level table, Adler-32, FNV-1a over uint8 arrays with explicit
uint32/uint64 wraparound); int8/int16/uint8 arithmetic that overflows on purpose or
is clipped (image brightness, wraparound counters); float16/float32 inputs; complex
phasors and a DFT by matrix; set-like operations (``isin``, ``setdiff1d``,
``intersect1d``, ``union1d``, ``unique`` with counts, index and inverse);
``nonzero``/``argwhere``/``flatnonzero`` driving Python loops and one-argument
``np.where``; group-by through ``unique`` + loops, ``np.add.at`` and ``bincount``;
pivot tables by hand; sliding windows; calendar arithmetic on integer day counts;
normalisers with ``axis``/``keepdims`` defaults; argument validation raising
``ValueError``; ``*args``/``**kwargs`` wrappers and ``functools.wraps`` decorators;
classes (Welford accumulator, ring buffer, matrix stack), dataclasses, recursion
(binary search, merging sorted arrays, permutations), generators, ``Counter`` and
``defaultdict`` keyed by ``int(x)``; strings built from numbers; functions that
mutate their arguments in place; ``np.errstate``; ``clip``/``round``/
``floor_divide``/``mod`` with negatives; ``searchsorted``/``digitize`` binning;
``lexsort`` and stable ``argsort``; cumulative-sum tricks; ``diff``/``ediff1d``;
``repeat``/``tile``; ``meshgrid``/``indices``/``ogrid``; ``einsum``;
``linalg.norm`` with ``ord``/``axis``; ``percentile``/``quantile`` methods;
``histogram`` with explicit edges; ``nan*`` reductions; boolean masks and
fancy-index assignment with repeated indices. Each entry of CASES is
(name, function, make_args, opts); make_args() returns the arguments; opts
{"rand": True} marks a function that draws random numbers inside (compared by
type, dtype and shape only)."""
import bisect
import dataclasses
import functools
import itertools
import math
import operator
from collections import Counter, defaultdict, deque

import numpy as np


# ----------------------------------------------------------------------------
# Module-level tables and constants
# ----------------------------------------------------------------------------

def _make_crc_table():
    table = np.zeros(256, dtype=np.uint32)
    for n in range(256):
        c = n
        for _ in range(8):
            if c & 1:
                c = 0xEDB88320 ^ (c >> 1)
            else:
                c = c >> 1
        table[n] = c
    return table


CRC_TABLE = _make_crc_table()
POPCOUNT_TABLE = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)
FNV32_OFFSET = 0x811C9DC5
FNV32_PRIME = 0x01000193
FNV64_OFFSET = np.uint64(0xCBF29CE484222325)
FNV64_PRIME = np.uint64(0x100000001B3)
MOD_ADLER = 65521
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
DAYS_IN_MONTH = np.array([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
EPS = 1e-12
HEX_DIGITS = "0123456789abcdef"


# ----------------------------------------------------------------------------
# Run-length encoding
# ----------------------------------------------------------------------------

def rle_encode(arr):
    """Classic SO answer: run starts, lengths and values."""
    arr = np.asarray(arr)
    n = arr.size
    if n == 0:
        return np.array([], dtype=int), np.array([], dtype=int), arr
    y = arr[1:] != arr[:-1]
    i = np.append(np.where(y), n - 1)
    z = np.diff(np.append(-1, i))
    p = np.cumsum(np.append(0, z))[:-1]
    return z, p, arr[i]


def rle_roundtrip(arr):
    lengths, starts, values = rle_encode(arr)
    decoded = np.repeat(values, lengths)
    return bool(np.array_equal(decoded, arr)), lengths, values


def rle_string(codes):
    # codes are uint8 ascii, build "3a1b2c" style
    out = []
    run_val = codes[0]
    run_len = 1
    for c in codes[1:]:
        if c == run_val:
            run_len += 1
        else:
            out.append(f"{run_len}{chr(int(run_val))}")
            run_val = c
            run_len = 1
    out.append(f"{run_len}{chr(int(run_val))}")
    return "".join(out)


def rle_decode_pairs(pairs):
    """pairs is an (n, 2) array of (value, count)."""
    vals = pairs[:, 0]
    counts = pairs[:, 1]
    total = counts.sum()
    out = np.empty(total, dtype=pairs.dtype)
    pos = 0
    for v, c in pairs:
        out[pos:pos + c] = v
        pos += c
    return out


def longest_run_of_true(mask):
    m = np.concatenate(([False], mask.astype(bool), [False]))
    d = np.diff(m.astype(np.int8))
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    if starts.size == 0:
        return 0, -1
    lens = ends - starts
    k = np.argmax(lens)
    return int(lens[k]), int(starts[k])


# ----------------------------------------------------------------------------
# Bits
# ----------------------------------------------------------------------------

def popcount_table(a):
    a = np.asarray(a, dtype=np.uint32)
    total = np.zeros(a.shape, dtype=np.int64)
    for shift in (0, 8, 16, 24):
        total += POPCOUNT_TABLE[(a >> shift) & 0xFF]
    return total


def popcount_loop(x):
    x = x.astype(np.uint64).copy()
    count = np.zeros_like(x)
    while np.any(x):
        count += x & np.uint64(1)
        x >>= np.uint64(1)
    return count


def gray_code_roundtrip(n_bits=6):
    n = np.arange(2 ** n_bits, dtype=np.int64)
    g = n ^ (n >> 1)
    # decode
    b = g.copy()
    shift = 1
    while shift < n_bits:
        b ^= b >> shift
        shift <<= 1
    ok = np.array_equal(b, n)
    # consecutive gray codes differ by exactly one bit
    diffs = popcount_table((g[1:] ^ g[:-1]).astype(np.uint32))
    return g, ok, bool(np.all(diffs == 1))


def pack_bool_mask(mask):
    packed = np.packbits(mask, axis=-1)
    unpacked = np.unpackbits(packed, axis=-1, count=mask.shape[-1]).astype(bool)
    return packed, bool((unpacked == mask).all()), packed.nbytes


def hamming_distance_matrix(codes):
    codes = np.asarray(codes, dtype=np.uint8)
    x = codes[:, None, :] ^ codes[None, :, :]
    return np.unpackbits(x, axis=-1).sum(axis=-1)


def bitfield_flags(flags, names=("read", "write", "exec", "hidden", "system")):
    out = {}
    for i, name in enumerate(names):
        out[name] = int(np.count_nonzero(flags & (1 << i)))
    set_all = np.bitwise_and.reduce(flags)
    any_set = np.bitwise_or.reduce(flags)
    return out, int(set_all), int(any_set)


def xor_cipher(data, key):
    key = np.frombuffer(key.encode("ascii"), dtype=np.uint8)
    k = np.resize(key, data.shape)
    enc = np.bitwise_xor(data, k)
    dec = enc ^ k
    return enc, "".join(chr(c) for c in dec)


# ----------------------------------------------------------------------------
# Checksums and hashes by hand
# ----------------------------------------------------------------------------

def crc32_table(data):
    crc = np.uint32(0xFFFFFFFF)
    for byte in data:
        idx = (crc ^ np.uint32(byte)) & np.uint32(0xFF)
        crc = CRC_TABLE[idx] ^ (crc >> np.uint32(8))
    return int(crc ^ np.uint32(0xFFFFFFFF))


def adler32(data):
    a, b = 1, 0
    for byte in data:
        a = (a + int(byte)) % MOD_ADLER
        b = (b + a) % MOD_ADLER
    return (b << 16) | a


def fnv1a_32(data):
    h = np.uint32(FNV32_OFFSET)
    prime = np.uint32(FNV32_PRIME)
    with np.errstate(over="ignore"):
        for byte in data:
            h = np.uint32(h ^ np.uint32(byte))
            h = np.uint32(h * prime)
    return int(h)


def fnv1a_64_rows(rows):
    """Hash every row of a uint8 matrix at once."""
    h = np.full(rows.shape[0], FNV64_OFFSET, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(rows.shape[1]):
            h ^= rows[:, j].astype(np.uint64)
            h *= FNV64_PRIME
    return h


# ----------------------------------------------------------------------------
# Overflow-prone integer arithmetic
# ----------------------------------------------------------------------------

def brighten_uint8(img, delta=40):
    wrapped = img + np.uint8(delta)  # wraps on purpose
    clipped = np.clip(img.astype(np.int16) + delta, 0, 255).astype(np.uint8)
    n_wrapped = int(np.count_nonzero(wrapped < img))
    return wrapped, clipped, n_wrapped


def int8_accumulate(samples):
    # naive int8 sum overflows; compare with widened sum
    acc = np.int8(0)
    with np.errstate(over="ignore"):
        for s in samples:
            acc = np.int8(acc + s)
    wide = int(samples.astype(np.int64).sum())
    return int(acc), wide, int(np.sum(samples, dtype=np.int8))


def int16_audio_mix(a, b, gain=1.5):
    mixed = (a.astype(np.int32) + b.astype(np.int32)) * gain
    info = np.iinfo(np.int16)
    clipped = np.clip(mixed, info.min, info.max).astype(np.int16)
    naive = (a + b)  # int16 wraparound
    return clipped, naive, int(np.count_nonzero(clipped != naive))


def uint8_diff_abs(a, b):
    wrong = a - b
    right = np.where(a > b, a - b, b - a)
    also_right = np.abs(a.astype(np.int16) - b.astype(np.int16)).astype(np.uint8)
    return wrong, right, bool(np.array_equal(right, also_right))


def counter_wraparound(increments, bits=16):
    dtype = {8: np.uint8, 16: np.uint16, 32: np.uint32}[bits]
    counter = np.cumsum(increments, dtype=dtype)
    true_total = np.cumsum(increments.astype(np.int64))
    wraps = np.flatnonzero(np.diff(counter.astype(np.int64)) < 0)
    return counter, true_total % (1 << bits), wraps


def floor_mod_negatives(a, b):
    q1 = np.floor_divide(a, b)
    r1 = np.mod(a, b)
    q2 = np.trunc(a / b).astype(a.dtype)
    r2 = np.fmod(a, b)
    ok = np.all(q1 * b + r1 == a)
    return q1, r1, q2, r2, bool(ok), np.divmod(a, b)


def round_half_even_demo(x):
    return np.round(x), np.round(x, 1), np.floor(x + 0.5), np.rint(x), np.around(x * 100) / 100


# ----------------------------------------------------------------------------
# float16 / float32 / complex
# ----------------------------------------------------------------------------

def float16_sum_drift(x):
    acc16 = np.float16(0)
    for v in x:
        acc16 = np.float16(acc16 + v)
    acc32 = x.astype(np.float32).sum()
    return acc16, acc32, float(x.astype(np.float64).sum()), x.sum(dtype=np.float64)


def float32_normalize_inplace(x, axis=-1):
    norms = np.linalg.norm(x, axis=axis, keepdims=True)
    norms[norms == 0] = 1.0
    x /= norms
    return None


def float32_normalize_driver(x):
    y = x.copy()
    r = float32_normalize_inplace(y)
    return r, y, y.dtype


def phasor_sum(amps, phases_deg, freq=50.0, t=0.001):
    phasors = amps * np.exp(1j * np.deg2rad(phases_deg))
    total = phasors.sum()
    inst = np.real(total * np.exp(2j * np.pi * freq * t))
    return total, abs(total), np.angle(total, deg=True), inst


def dft_matrix(x):
    n = x.shape[0]
    k = np.arange(n)
    W = np.exp(-2j * np.pi * np.outer(k, k) / n)
    X = W @ x
    return X, np.allclose(X, np.fft.fft(x))


# ----------------------------------------------------------------------------
# Set-like operations and unique
# ----------------------------------------------------------------------------

def set_ops_report(a, b):
    return {
        "only_a": np.setdiff1d(a, b),
        "only_b": np.setdiff1d(b, a),
        "both": np.intersect1d(a, b),
        "either": np.union1d(a, b),
        "xor": np.setxor1d(a, b),
        "a_in_b": np.isin(a, b),
    }


def dedupe_keep_first(values):
    uniq, first_idx = np.unique(values, return_index=True)
    order = np.sort(first_idx)
    return values[order]


def value_counts(values, normalize=False):
    uniq, inv, counts = np.unique(values, return_inverse=True, return_counts=True)
    order = np.argsort(-counts, kind="stable")
    counts = counts[order]
    if normalize:
        counts = counts / counts.sum()
    return uniq[order], counts, inv


def filter_by_whitelist(ids, scores, whitelist):
    mask = np.isin(ids, whitelist)
    blacklisted = np.isin(ids, whitelist, invert=True)
    return ids[mask], scores[mask].mean(), int(blacklisted.sum())


# ----------------------------------------------------------------------------
# nonzero / argwhere / where-one-arg driving loops
# ----------------------------------------------------------------------------

def neighbours_of_ones(grid):
    result = {}
    for r, c in np.argwhere(grid == 1):
        r0, r1 = max(r - 1, 0), min(r + 2, grid.shape[0])
        c0, c1 = max(c - 1, 0), min(c + 2, grid.shape[1])
        result[(int(r), int(c))] = int(grid[r0:r1, c0:c1].sum()) - 1
    return result


def sparse_triplets(m):
    rows, cols = np.nonzero(m)
    trip = [(int(r), int(c), float(m[r, c])) for r, c in zip(rows, cols)]
    return trip, len(trip) / m.size


def first_crossings(x, level=0.0):
    idx = np.where((x[:-1] < level) & (x[1:] >= level))[0]
    out = []
    for i in idx:
        frac = (level - x[i]) / (x[i + 1] - x[i])
        out.append(i + frac)
    return np.array(out)


def flat_positions_fix(a, bad=-999):
    a = a.copy()
    for i in np.flatnonzero(a == bad):
        left = a[i - 1] if i > 0 else 0
        right = a[i + 1] if i + 1 < a.size and a[i + 1] != bad else left
        a[i] = (left + right) // 2
    return a


# ----------------------------------------------------------------------------
# Group-by and pivots
# ----------------------------------------------------------------------------

def groupby_unique_loop(keys, values):
    out = {}
    for k in np.unique(keys):
        sel = values[keys == k]
        out[int(k)] = (sel.size, float(sel.mean()), float(sel.max()))
    return out


def groupby_add_at(keys, values, n_groups=None):
    if n_groups is None:
        n_groups = keys.max() + 1
    sums = np.zeros(n_groups)
    counts = np.zeros(n_groups, dtype=np.int64)
    np.add.at(sums, keys, values)
    np.add.at(counts, keys, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts
    return sums, counts, means


def groupby_bincount(keys, values):
    sums = np.bincount(keys, weights=values)
    counts = np.bincount(keys)
    sq = np.bincount(keys, weights=values * values)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sums / counts
        var = sq / counts - mean ** 2
    return mean, np.sqrt(np.maximum(var, 0))


def pivot_table(rows, cols, values, fill=0.0, aggfunc="sum"):
    r_labels, r_idx = np.unique(rows, return_inverse=True)
    c_labels, c_idx = np.unique(cols, return_inverse=True)
    table = np.zeros((r_labels.size, c_labels.size))
    counts = np.zeros_like(table)
    np.add.at(table, (r_idx, c_idx), values)
    np.add.at(counts, (r_idx, c_idx), 1)
    if aggfunc == "mean":
        with np.errstate(invalid="ignore"):
            table = table / counts
    table[counts == 0] = fill
    return r_labels, c_labels, table


def pivot_driver(seed_rows, seed_cols, vals):
    a = pivot_table(seed_rows, seed_cols, vals)
    b = pivot_table(seed_rows, seed_cols, vals, fill=np.nan, aggfunc="mean")
    return a[2], b[2]


def defaultdict_lists(labels, values):
    groups = defaultdict(list)
    for lab, v in zip(labels, values):
        groups[int(lab)].append(float(v))
    return {k: (len(v), round(sum(v) / len(v), 6)) for k, v in sorted(groups.items())}


def counter_top_k(codes, k=3):
    c = Counter(int(x) for x in codes)
    top = c.most_common(k)
    return top, sum(c.values()), len(c)


# ----------------------------------------------------------------------------
# Sliding windows, cumsum tricks, diffs
# ----------------------------------------------------------------------------

def rolling_mean_cumsum(x, w=5):
    c = np.cumsum(np.insert(x, 0, 0.0))
    return (c[w:] - c[:-w]) / w


def rolling_max_strided(x, w=4):
    windows = np.lib.stride_tricks.sliding_window_view(x, w)
    return windows.max(axis=1), windows.argmax(axis=1) + np.arange(windows.shape[0])


def segment_ids_from_flags(flags):
    seg = np.cumsum(flags) - flags[0]
    return seg, np.bincount(seg)


def resetting_cumsum(values, reset):
    """Cumulative sum that restarts at every True in reset (SO classic)."""
    c = np.cumsum(values)
    idx = np.flatnonzero(reset)
    base = np.concatenate(([0], np.where(idx > 0, c[np.maximum(idx - 1, 0)], 0)))
    seg = np.cumsum(reset.astype(int))
    return c - base[seg]


def resetting_cumsum_loop(values, reset):
    out = np.empty_like(values)
    running = 0
    for i, (v, r) in enumerate(zip(values, reset)):
        if r:
            running = 0
        running += v
        out[i] = running
    return out


def cumsum_reset_check(values, reset):
    a = resetting_cumsum(values, reset)
    b = resetting_cumsum_loop(values, reset)
    return a, bool(np.allclose(a, b))


def ediff_gaps(ts, max_gap=3):
    d = np.ediff1d(ts, to_begin=0)
    gaps = np.flatnonzero(d > max_gap)
    d2 = np.diff(ts, n=2)
    return d, gaps, d2, np.diff(ts, prepend=ts[0], append=ts[-1])


def tile_repeat_grid(levels, reps=3):
    a = np.repeat(levels, reps)
    b = np.tile(levels, reps)
    c = np.tile(levels, (2, 1))
    counts = np.arange(1, len(levels) + 1)
    d = np.repeat(levels, counts)
    return a, b, c, d


# ----------------------------------------------------------------------------
# Dates as integer day counts
# ----------------------------------------------------------------------------

def is_leap_year(years):
    years = np.asarray(years)
    return (years % 4 == 0) & ((years % 100 != 0) | (years % 400 == 0))


def day_of_week(days_since_epoch):
    # 1970-01-01 was a Thursday (index 3 with Monday=0)
    dow = (days_since_epoch + 3) % 7
    names = [WEEKDAYS[int(d)] for d in dow]
    return dow, names, np.bincount(dow, minlength=7)


def civil_from_days(z):
    """Howard Hinnant's algorithm, vectorised on int64 days since 1970-01-01."""
    z = z.astype(np.int64) + 719468
    era = np.floor_divide(z, 146097)
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = np.where(mp < 10, mp + 3, mp - 9)
    y = y + (m <= 2)
    return y, m, d


def iso_date_strings(z):
    y, m, d = civil_from_days(z)
    check = (np.array(z, dtype="datetime64[D]").astype(str))
    strs = [f"{yy:04d}-{mm:02d}-{dd:02d}" for yy, mm, dd in zip(y, m, d)]
    return strs, all(a == b for a, b in zip(strs, check))


def days_in_month_vec(years, months):
    base = DAYS_IN_MONTH[months - 1]
    return base + ((months == 2) & is_leap_year(years))


def business_days_between(start, end, holidays=()):
    days = np.arange(start, end)
    dow = (days + 3) % 7
    mask = dow < 5
    if len(holidays):
        mask &= ~np.isin(days, holidays)
    return int(mask.sum()), days[mask][:5]


# ----------------------------------------------------------------------------
# Normalisation utilities, validation, wrappers, decorators
# ----------------------------------------------------------------------------

def zscore(x, axis=0, keepdims=False, ddof=0):
    x = np.asarray(x, dtype=float)
    mu = x.mean(axis=axis, keepdims=True)
    sd = x.std(axis=axis, ddof=ddof, keepdims=True)
    sd = np.where(sd == 0, 1.0, sd)
    z = (x - mu) / sd
    if not keepdims and axis is None:
        return z.ravel()
    return z


def minmax_scale(x, feature_range=(0, 1), axis=0):
    if not isinstance(feature_range, (tuple, list)) or len(feature_range) != 2:
        raise ValueError("feature_range must be a pair")
    lo, hi = feature_range
    if lo >= hi:
        raise ValueError("min must be < max")
    xmin = np.min(x, axis=axis, keepdims=True)
    xmax = np.max(x, axis=axis, keepdims=True)
    rng = np.where(xmax > xmin, xmax - xmin, 1)
    return lo + (x - xmin) / rng * (hi - lo)


def normalize_driver(x):
    return (zscore(x), zscore(x, axis=1), zscore(x, axis=None), minmax_scale(x),
            minmax_scale(x, feature_range=[-1, 1], axis=1))


def validate_and_bin(values, n_bins=5, lo=None, hi=None):
    if not isinstance(values, np.ndarray):
        values = np.asarray(values, dtype=float)
    if values.ndim != 1:
        raise ValueError(f"expected 1-D input, got shape {values.shape}")
    if not isinstance(n_bins, int) or n_bins < 1:
        raise ValueError("n_bins must be a positive int")
    if np.isnan(values).any():
        raise ValueError("NaN in input")
    lo = values.min() if lo is None else lo
    hi = values.max() if hi is None else hi
    edges = np.linspace(lo, hi, n_bins + 1)
    idx = np.digitize(values, edges[1:-1], right=False)
    return idx, np.bincount(idx, minlength=n_bins)


def safe_call(func, *args, default=None, **kwargs):
    try:
        return func(*args, **kwargs)
    except (ValueError, FloatingPointError, ZeroDivisionError):
        return default


def wrapper_args_kwargs(x):
    a = safe_call(np.percentile, x, 90)
    b = safe_call(np.quantile, x, [0.1, 0.5], method="nearest")
    c = safe_call(minmax_scale, x, feature_range=(1, 0), default="bad-range")
    with np.errstate(all="raise"):
        d = safe_call(np.log, x - x.max(), default=-1.0)
    return a, b, c, d


def as_float64(func):
    @functools.wraps(func)
    def inner(*arrays, **kwargs):
        arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
        return func(*arrays, **kwargs)
    return inner


def count_calls(func):
    @functools.wraps(func)
    def inner(*args, **kwargs):
        inner.calls += 1
        return func(*args, **kwargs)
    inner.calls = 0
    return inner


@count_calls
@as_float64
def weighted_mean(x, w, axis=None):
    """Weighted mean that accepts ints, lists, float16."""
    return (x * w).sum(axis=axis) / w.sum(axis=axis)


def decorated_helpers(x16, w_list):
    r1 = weighted_mean(x16, w_list)
    r2 = weighted_mean(x16.reshape(2, -1), np.ones((2, x16.size // 2)), axis=1)
    return r1, r2, weighted_mean.__name__, weighted_mean.__doc__.split()[0]


# ----------------------------------------------------------------------------
# Classes and dataclasses
# ----------------------------------------------------------------------------

class RunningStats:
    """Welford's online mean / variance."""

    def __init__(self, shape=()):
        self.n = 0
        self.mean = np.zeros(shape)
        self.m2 = np.zeros(shape)

    def push(self, x):
        self.n += 1
        delta = x - self.mean
        self.mean = self.mean + delta / self.n
        self.m2 = self.m2 + delta * (x - self.mean)

    @property
    def variance(self):
        return self.m2 / (self.n - 1) if self.n > 1 else np.zeros_like(self.m2)

    def std(self):
        return np.sqrt(self.variance)


def welford_rows(data):
    rs = RunningStats(shape=data.shape[1])
    for row in data:
        rs.push(row)
    return rs.mean, rs.std(), np.allclose(rs.variance, data.var(axis=0, ddof=1))


class RingBuffer:
    def __init__(self, capacity, dtype=float):
        self.data = np.zeros(capacity, dtype=dtype)
        self.capacity = capacity
        self.head = 0
        self.full = False

    def append(self, value):
        self.data[self.head] = value
        self.head = (self.head + 1) % self.capacity
        if self.head == 0:
            self.full = True

    def extend(self, values):
        for v in values:
            self.append(v)

    def get(self):
        if not self.full:
            return self.data[: self.head]
        return np.roll(self.data, -self.head)

    def __len__(self):
        return self.capacity if self.full else self.head


def ring_buffer_means(stream, capacity=8):
    rb = RingBuffer(capacity, dtype=stream.dtype)
    means = []
    for i, v in enumerate(stream):
        rb.append(v)
        if i % 5 == 4:
            means.append(float(rb.get().mean()))
    return np.array(means), rb.get(), len(rb)


class MatrixStack:
    def __init__(self, dim=3):
        self.stack = [np.eye(dim)]

    def push(self, m=None):
        self.stack.append(self.stack[-1].copy() if m is None else self.stack[-1] @ m)

    def pop(self):
        if len(self.stack) == 1:
            raise ValueError("cannot pop identity")
        return self.stack.pop()

    def top(self):
        return self.stack[-1]

    def apply(self, pts):
        h = np.hstack([pts, np.ones((pts.shape[0], 1))])
        return (h @ self.top().T)[:, :2]


def _rot(theta):
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _trans(tx, ty):
    m = np.eye(3)
    m[:2, 2] = tx, ty
    return m


def matrix_stack_transform(pts):
    ms = MatrixStack()
    ms.push(_trans(1.0, 2.0))
    a = ms.apply(pts)
    ms.push(_rot(math.pi / 6))
    b = ms.apply(pts)
    ms.pop()
    ms.push(np.diag([2.0, 0.5, 1.0]))
    c = ms.apply(pts)
    return a, b, c, len(ms.stack)


@dataclasses.dataclass
class Histogram:
    edges: np.ndarray
    counts: np.ndarray = None
    label: str = "hist"

    def __post_init__(self):
        if self.counts is None:
            self.counts = np.zeros(len(self.edges) - 1, dtype=np.int64)

    def fill(self, values):
        c, _ = np.histogram(values, bins=self.edges)
        self.counts += c
        return self

    @property
    def centers(self):
        return 0.5 * (self.edges[1:] + self.edges[:-1])

    def mean(self):
        return float((self.centers * self.counts).sum() / max(self.counts.sum(), 1))


def dataclass_histogram(batches):
    h = Histogram(edges=np.array([-3.0, -1.5, -0.5, 0.0, 0.5, 1.5, 3.0]), label="normal")
    for b in batches:
        h.fill(b)
    d = dataclasses.asdict(h)
    return h.counts, h.mean(), sorted(d.keys()), h.label


@dataclasses.dataclass(frozen=True)
class BBox:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def area(self):
        return max(0.0, self.x1 - self.x0) * max(0.0, self.y1 - self.y0)

    def iou(self, other):
        ix0, iy0 = max(self.x0, other.x0), max(self.y0, other.y0)
        ix1, iy1 = min(self.x1, other.x1), min(self.y1, other.y1)
        inter = BBox(ix0, iy0, ix1, iy1).area
        return inter / (self.area + other.area - inter + EPS)


def bbox_nms(boxes, scores, thresh=0.4):
    objs = [BBox(*map(float, b)) for b in boxes]
    order = np.argsort(-scores, kind="stable")
    keep = []
    for i in order:
        if all(objs[i].iou(objs[j]) < thresh for j in keep):
            keep.append(int(i))
    return keep


# ----------------------------------------------------------------------------
# Recursion and generators
# ----------------------------------------------------------------------------

def binary_search_recursive(arr, target, lo=0, hi=None):
    if hi is None:
        hi = len(arr) - 1
    if lo > hi:
        return -(lo + 1)
    mid = (lo + hi) // 2
    if arr[mid] == target:
        return mid
    if arr[mid] < target:
        return binary_search_recursive(arr, target, mid + 1, hi)
    return binary_search_recursive(arr, target, lo, mid - 1)


def binary_search_many(arr, targets):
    arr = np.sort(arr)
    res = [binary_search_recursive(arr, t) for t in targets]
    ss = np.searchsorted(arr, targets)
    bi = [bisect.bisect_left(list(arr), t) for t in targets]
    return res, ss, bi


def merge_sorted(a, b):
    if a.size == 0:
        return b.copy()
    if b.size == 0:
        return a.copy()
    if a[0] <= b[0]:
        return np.concatenate(([a[0]], merge_sorted(a[1:], b)))
    return np.concatenate(([b[0]], merge_sorted(a, b[1:])))


def merge_k_sorted(arrays):
    out = arrays[0]
    for arr in arrays[1:]:
        out = merge_sorted(out, arr)
    return out, bool(np.all(np.diff(out) >= 0))


def permutations_recursive(arr):
    if arr.size <= 1:
        return [arr.copy()]
    out = []
    for i in range(arr.size):
        rest = np.delete(arr, i)
        for p in permutations_recursive(rest):
            out.append(np.concatenate(([arr[i]], p)))
    return out


def best_permutation_cost(cost):
    n = cost.shape[0]
    perms = np.array(permutations_recursive(np.arange(n)))
    totals = cost[np.arange(n), perms].sum(axis=1)
    k = int(np.argmin(totals))
    same = len(perms) == math.factorial(n)
    return perms[k], totals[k], same


def chunked(arr, size):
    for i in range(0, len(arr), size):
        yield arr[i:i + size]


def generator_chunk_stats(x, size=7):
    sums = list(map(float, (c.sum() for c in chunked(x, size))))
    total = sum(c.sum() for c in chunked(x, size))
    lens = [len(c) for c in chunked(x, size)]
    return sums, total, lens


# ----------------------------------------------------------------------------
# Strings built from numbers
# ----------------------------------------------------------------------------

def to_hex_string(data):
    hi = data >> 4
    lo = data & 0x0F
    return "".join(HEX_DIGITS[h] + HEX_DIGITS[l] for h, l in zip(hi, lo))


def base_n_digits(values, base=36):
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = []
    for v in values:
        v = int(v)
        if v == 0:
            out.append("0")
            continue
        sign = "-" if v < 0 else ""
        v = abs(v)
        digits = []
        while v:
            v, r = divmod(v, base)
            digits.append(alphabet[r])
        out.append(sign + "".join(reversed(digits)))
    return out


def table_to_text(mat, row_names=None, precision=2):
    if row_names is None:
        row_names = [f"r{i}" for i in range(mat.shape[0])]
    width = max(len(f"{v:.{precision}f}") for v in mat.ravel()) + 1
    lines = []
    for name, row in zip(row_names, mat):
        cells = "".join(f"{v:>{width}.{precision}f}" for v in row)
        lines.append(f"{name:<4}|{cells}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------
# In-place mutation, views
# ----------------------------------------------------------------------------

def swap_rows_inplace(m, i, j):
    m[[i, j]] = m[[j, i]]


def gauss_partial_pivot(a, b):
    a = a.astype(float)
    b = b.astype(float)
    n = a.shape[0]
    for k in range(n):
        p = k + int(np.argmax(np.abs(a[k:, k])))
        if p != k:
            swap_rows_inplace(a, k, p)
            b[[k, p]] = b[[p, k]]
        for i in range(k + 1, n):
            f = a[i, k] / a[k, k]
            a[i, k:] -= f * a[k, k:]
            b[i] -= f * b[k]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - a[i, i + 1:] @ x[i + 1:]) / a[i, i]
    return x


def fill_nan_inplace(x, method="mean"):
    mask = np.isnan(x)
    if method == "mean":
        x[mask] = np.nanmean(x)
    elif method == "ffill":
        idx = np.where(~mask, np.arange(x.size), 0)
        np.maximum.accumulate(idx, out=idx)
        x[:] = x[idx]
    else:
        raise ValueError(method)
    return x


def fill_nan_driver(x):
    a = x.copy()
    r = fill_nan_inplace(a)
    b = x.copy()
    fill_nan_inplace(b, method="ffill")
    return a, b, r is a


def upper_triangle_view(m):
    v = m[np.triu_indices_from(m, k=1)]  # copy
    view = m[::2, 1::2]  # a view
    view *= -1
    return v, view, np.shares_memory(view, m), m


def nan_reductions(x):
    return (np.nansum(x, axis=0), np.nanmean(x, axis=1), np.nanstd(x),
            np.nanmax(x, axis=0), np.nanargmin(x, axis=1), np.nanmedian(x),
            np.nanpercentile(x, 75, axis=0), np.count_nonzero(np.isnan(x), axis=1))


# ----------------------------------------------------------------------------
# Sorting, binning, quantiles, histograms
# ----------------------------------------------------------------------------

def lexsort_records(last, first, age):
    order = np.lexsort((age, first, last))  # primary last, then first, then age
    order2 = np.argsort(age, kind="stable")
    order2 = order2[np.argsort(last[order2], kind="stable")]
    return order, order2, last[order]


def rank_with_ties(x):
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty_like(order)
    ranks[order] = np.arange(len(x))
    # average ranks for ties
    uniq, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
    sums = np.bincount(inv, weights=ranks)
    avg = sums / counts
    return ranks, avg[inv] + 1


def grade_letters(scores, cutoffs=(60, 70, 80, 90), letters="FDCBA"):
    idx = np.searchsorted(cutoffs, scores, side="right")
    grades = [letters[i] for i in idx]
    d = np.digitize(scores, cutoffs)
    return "".join(grades), bool((idx == d).all()), Counter(grades)


def quantile_methods(x):
    methods = ["linear", "lower", "higher", "nearest", "midpoint", "median_unbiased", "hazen"]
    return {m: np.quantile(x, [0.1, 0.25, 0.5, 0.9], method=m) for m in methods}


def histogram_edges(x, w):
    edges = np.array([0.0, 0.5, 1.0, 2.0, 4.0, 8.0])
    c, e = np.histogram(x, bins=edges)
    d, _ = np.histogram(x, bins=edges, density=True)
    ww, _ = np.histogram(x, bins=edges, weights=w)
    h2, xe, ye = np.histogram2d(x, w, bins=[edges, np.linspace(0, 1, 5)])
    return c, d, ww, h2


def norm_variants(m, v):
    return (np.linalg.norm(v), np.linalg.norm(v, 1), np.linalg.norm(v, np.inf),
            np.linalg.norm(v, -np.inf), np.linalg.norm(v, 0), np.linalg.norm(m, "fro"),
            np.linalg.norm(m, "nuc"), np.linalg.norm(m, 2), np.linalg.norm(m, 1),
            np.linalg.norm(m, axis=0), np.linalg.norm(m, ord=1, axis=1, keepdims=True))


# ----------------------------------------------------------------------------
# Grids, einsum, fancy indexing
# ----------------------------------------------------------------------------

def grid_distance_maps(h=6, w=8):
    yy, xx = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    cy, cx = (h - 1) / 2, (w - 1) / 2
    d1 = np.hypot(yy - cy, xx - cx)
    iy, ix = np.indices((h, w))
    d2 = np.abs(iy - cy) + np.abs(ix - cx)
    oy, ox = np.ogrid[:h, :w]
    d3 = np.maximum(np.abs(oy - cy), np.abs(ox - cx))
    return d1, d2, d3, np.array_equal(yy, iy)


def einsum_tricks(a, b, v):
    tr = np.einsum("ii->", a)
    diag = np.einsum("ii->i", a)
    mm = np.einsum("ij,jk->ik", a, b)
    outer = np.einsum("i,j->ij", v, v)
    quad = np.einsum("i,ij,j->", v, a, v)
    batch = np.einsum("bij,bjk->bik", np.stack([a, b]), np.stack([b, a]))
    rowdot = np.einsum("ij,ij->i", a, b)
    return tr, diag, mm, outer, quad, batch, rowdot


def fancy_assign_repeated(n, idx, vals):
    a = np.zeros(n)
    a[idx] = vals  # last write wins
    b = np.zeros(n)
    b[idx] += vals  # buffered, repeats counted once
    c = np.zeros(n)
    np.add.at(c, idx, vals)  # unbuffered
    d = np.zeros(n, dtype=np.int32)
    d[idx] += 1
    return a, b, c, d


def mask_select_update(x, lo=-0.5, hi=0.5):
    m = (x > lo) & (x < hi)
    inner = x[m]
    y = x.copy()
    y[~m] = np.sign(y[~m]) * hi
    y[x.argmax()] = np.inf
    fin = np.isfinite(y)
    return inner, y, int(fin.sum()), x[m | (x < -1.0)]


def where_one_arg_report(a):
    coords = np.where(a > a.mean())
    pairs = list(zip(*(c.tolist() for c in coords)))
    empty = np.where(np.zeros(3, dtype=bool))
    return pairs[:10], len(pairs), empty


# ----------------------------------------------------------------------------
# Miscellaneous scripting
# ----------------------------------------------------------------------------

def bootstrap_mean_ci(x, n_boot=200, alpha=0.05):
    rng = np.random.default_rng()
    idx = rng.integers(0, x.size, size=(n_boot, x.size))
    means = x[idx].mean(axis=1)
    return np.quantile(means, [alpha / 2, 1 - alpha / 2])


def shuffle_split(x, y, frac=0.25):
    perm = np.random.permutation(len(x))
    n_test = int(round(len(x) * frac))
    test, train = perm[:n_test], perm[n_test:]
    return x[train], y[train], x[test], y[test]


def moving_window_itertools(x, n=3):
    it = iter(x)
    win = deque(itertools.islice(it, n), maxlen=n)
    out = [sum(win) / n]
    for v in it:
        win.append(v)
        out.append(sum(win) / n)
    return np.array(out), list(itertools.accumulate(x, operator.mul))[-1]


# ----------------------------------------------------------------------------
# Argument builders
# ----------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def _codes(s):
    return np.frombuffer(s.encode("ascii"), dtype=np.uint8).copy()


def _runs(seed, n=40):
    r = _rng(seed)
    return np.repeat(r.integers(0, 4, n // 3), r.integers(1, 5, n // 3))


def _nan_matrix(seed, shape=(6, 5)):
    x = _rng(seed).normal(size=shape)
    x[_rng(seed + 1).random(shape) < 0.2] = np.nan
    x[:, 0] = np.where(np.isnan(x[:, 0]), 0.0, x[:, 0])
    return x


def _nan_vector(seed, n=20):
    x = _rng(seed).normal(size=n)
    x[[0, 3, 4, 10, 17]] = np.nan
    x[0] = 1.5
    return x


CASES = [
    # run-length encoding
    ("rle_roundtrip", rle_roundtrip, lambda: (_runs(1),), {}),
    ("rle_string", rle_string, lambda: (_codes("aaabccddddeffffffg"),), {}),
    ("rle_decode_pairs", rle_decode_pairs,
     lambda: (np.array([[5, 3], [2, 1], [7, 4], [5, 2]], dtype=np.int32),), {}),
    ("longest_run_of_true", longest_run_of_true, lambda: (_rng(2).random(60) > 0.3,), {}),
    # bits
    ("popcount_table", popcount_table, lambda: (_rng(3).integers(0, 2 ** 31, 50),), {}),
    ("popcount_loop", popcount_loop, lambda: (_rng(4).integers(0, 2 ** 20, 40, dtype=np.int32),), {}),
    ("gray_code_roundtrip", gray_code_roundtrip, lambda: (6,), {}),
    ("pack_bool_mask", pack_bool_mask, lambda: (_rng(5).random((4, 21)) > 0.5,), {}),
    ("hamming_distance_matrix", hamming_distance_matrix,
     lambda: (_rng(7).integers(0, 256, (6, 4), dtype=np.uint8),), {}),
    ("bitfield_flags", bitfield_flags, lambda: (_rng(8).integers(0, 32, 30, dtype=np.int32),), {}),
    ("xor_cipher", xor_cipher, lambda: (_codes("attack at dawn, bring snacks"), "k3y"), {}),
    # checksums
    ("crc32_table", crc32_table, lambda: (_codes("The quick brown fox jumps over the lazy dog"),), {}),
    ("adler32", adler32, lambda: (_codes("Wikipedia"),), {}),
    ("fnv1a_32", fnv1a_32, lambda: (_codes("hello world, fnv"),), {}),
    ("fnv1a_64_rows", fnv1a_64_rows, lambda: (_rng(10).integers(0, 256, (10, 16), dtype=np.uint8),), {}),
    # integer overflow
    ("brighten_uint8", brighten_uint8, lambda: (_rng(11).integers(0, 256, (8, 8), dtype=np.uint8), 60), {}),
    ("int8_accumulate", int8_accumulate, lambda: (_rng(13).integers(-100, 120, 40, dtype=np.int8),), {}),
    ("int16_audio_mix", int16_audio_mix,
     lambda: (_rng(14).integers(-20000, 20000, 64, dtype=np.int16),
              _rng(15).integers(-20000, 20000, 64, dtype=np.int16)), {}),
    ("uint8_diff_abs", uint8_diff_abs,
     lambda: (_rng(16).integers(0, 256, 30, dtype=np.uint8), _rng(17).integers(0, 256, 30, dtype=np.uint8)), {}),
    ("counter_wraparound", counter_wraparound, lambda: (_rng(18).integers(0, 5000, 50), 16), {}),
    ("floor_mod_negatives", floor_mod_negatives,
     lambda: (np.array([-7, -5, -1, 0, 3, 7, 10, -12], dtype=np.int32),
              np.array([3, -3, 2, 5, -2, 4, -3, 5], dtype=np.int32)), {}),
    ("round_half_even_demo", round_half_even_demo,
     lambda: (np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.125, 2.675, -0.35]),), {}),
    # float16 / float32 / complex
    ("float16_sum_drift", float16_sum_drift, lambda: (_rng(19).random(200).astype(np.float16),), {}),
    ("float32_normalize_driver", float32_normalize_driver,
     lambda: (np.vstack([_rng(20).normal(size=(5, 4)), np.zeros((1, 4))]).astype(np.float32),), {}),
    ("phasor_sum", phasor_sum,
     lambda: (np.array([230.0, 230.0, 230.0]), np.array([0.0, -120.0, 120.0]) + _rng(21).normal(0, 2, 3)), {}),
    ("dft_matrix", dft_matrix, lambda: (_rng(22).normal(size=32) + 1j * _rng(23).normal(size=32),), {}),
    # set ops
    ("set_ops_report", set_ops_report,
     lambda: (_rng(25).integers(0, 30, 20), _rng(26).integers(10, 40, 15)), {}),
    ("dedupe_keep_first", dedupe_keep_first, lambda: (_rng(27).integers(0, 12, 30),), {}),
    ("value_counts", value_counts, lambda: (_rng(28).integers(-3, 5, 50, dtype=np.int8), True), {}),
    ("filter_by_whitelist", filter_by_whitelist,
     lambda: (np.arange(100, 130), _rng(29).random(30).astype(np.float32), [101, 105, 110, 111, 129, 200]), {}),
    # nonzero / argwhere
    ("neighbours_of_ones", neighbours_of_ones, lambda: ((_rng(32).random((7, 7)) > 0.6).astype(np.int64),), {}),
    ("sparse_triplets", sparse_triplets,
     lambda: (np.where(_rng(33).random((6, 8)) > 0.75, _rng(34).normal(size=(6, 8)), 0.0),), {}),
    ("first_crossings", first_crossings, lambda: (np.sin(np.linspace(0, 12, 80)) + 0.1, 0.0), {}),
    ("flat_positions_fix", flat_positions_fix,
     lambda: (np.array([3, 5, -999, 9, 10, -999, -999, 4, 2, -999]),), {}),
    ("where_one_arg_report", where_one_arg_report, lambda: (_rng(35).normal(size=(5, 6)),), {}),
    # group-by and pivots
    ("groupby_unique_loop", groupby_unique_loop,
     lambda: (_rng(36).integers(0, 6, 60), _rng(37).normal(size=60)), {}),
    ("groupby_add_at", groupby_add_at, lambda: (_rng(38).integers(0, 7, 80), _rng(39).random(80), 9), {}),
    ("groupby_bincount", groupby_bincount,
     lambda: (_rng(40).integers(0, 5, 70), _rng(41).normal(2.0, 1.0, 70)), {}),
    ("pivot_driver", pivot_driver,
     lambda: (_rng(42).integers(2019, 2023, 40), _rng(43).integers(1, 5, 40), _rng(44).random(40) * 100), {}),
    ("defaultdict_lists", defaultdict_lists,
     lambda: (_rng(45).integers(0, 5, 40, dtype=np.int32), _rng(46).random(40).astype(np.float32)), {}),
    ("counter_top_k", counter_top_k, lambda: (_rng(47).integers(0, 10, 100, dtype=np.uint8), 4), {}),
    # windows, cumsum, diff
    ("rolling_mean_cumsum", rolling_mean_cumsum, lambda: (_rng(50).normal(size=50), 7), {}),
    ("rolling_max_strided", rolling_max_strided, lambda: (_rng(51).integers(0, 100, 30), 5), {}),
    ("segment_ids_from_flags", segment_ids_from_flags, lambda: (_rng(53).random(40) < 0.2,), {}),
    ("cumsum_reset_check", cumsum_reset_check,
     lambda: (_rng(54).integers(1, 10, 30).astype(float), _rng(55).random(30) < 0.25), {}),
    ("ediff_gaps", ediff_gaps, lambda: (np.cumsum(_rng(56).integers(1, 6, 25)),), {}),
    ("tile_repeat_grid", tile_repeat_grid, lambda: (np.array([1.5, -2.0, 3.25]), 3), {}),
    # dates
    ("day_of_week", day_of_week, lambda: (_rng(57).integers(0, 20000, 30),), {}),
    ("iso_date_strings", iso_date_strings, lambda: (_rng(58).integers(-5000, 25000, 25),), {}),
    ("days_in_month_vec", days_in_month_vec,
     lambda: (np.array([1900, 2000, 2004, 2023, 2024, 2100, 2400, 1996]),
              np.array([2, 2, 2, 2, 2, 2, 2, 11])), {}),
    ("business_days_between", business_days_between, lambda: (19358, 19450, [19360, 19404, 19405]), {}),
    # normalisation, validation, wrappers
    ("normalize_driver", normalize_driver, lambda: (_rng(59).normal(5, 2, (6, 4)),), {}),
    ("validate_and_bin", validate_and_bin, lambda: ([float(v) for v in _rng(60).normal(size=40)], 6), {}),
    ("wrapper_args_kwargs", wrapper_args_kwargs, lambda: (_rng(61).random(25) * 10,), {}),
    ("decorated_helpers", decorated_helpers,
     lambda: (_rng(62).random(8).astype(np.float16), [1, 2, 3, 4, 4, 3, 2, 1]), {}),
    # classes
    ("welford_rows", welford_rows, lambda: (_rng(63).normal(3.0, 2.0, (50, 3)),), {}),
    ("ring_buffer_means", ring_buffer_means, lambda: (_rng(64).random(37).astype(np.float32), 8), {}),
    ("matrix_stack_transform", matrix_stack_transform, lambda: (_rng(65).random((6, 2)),), {}),
    ("dataclass_histogram", dataclass_histogram,
     lambda: ([_rng(66 + i).normal(size=30) for i in range(4)],), {}),
    ("bbox_nms", bbox_nms,
     lambda: (np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [21, 19, 29, 31],
                        [5, 5, 15, 15], [50, 50, 52, 52]], dtype=np.int32),
              np.array([0.9, 0.8, 0.75, 0.95, 0.6, 0.3])), {}),
    # recursion, generators
    ("binary_search_many", binary_search_many,
     lambda: (_rng(70).choice(200, 40, replace=False), np.array([3, 50, 101, 150, 199, 0])), {}),
    ("merge_k_sorted", merge_k_sorted,
     lambda: ([np.sort(_rng(71 + i).integers(0, 100, 12)) for i in range(3)],), {}),
    ("best_permutation_cost", best_permutation_cost, lambda: (_rng(74).integers(1, 20, (5, 5)),), {}),
    ("generator_chunk_stats", generator_chunk_stats, lambda: (_rng(75).normal(size=45), 7), {}),
    # strings
    ("to_hex_string", to_hex_string, lambda: (_rng(76).integers(0, 256, 16, dtype=np.uint8),), {}),
    ("base_n_digits", base_n_digits, lambda: (np.array([0, 35, 36, -1295, 1296, 123456789]), 36), {}),
    ("table_to_text", table_to_text, lambda: (_rng(77).normal(0, 100, (4, 5)), None, 1), {}),
    # in-place, views, nan
    ("gauss_partial_pivot", gauss_partial_pivot,
     lambda: (_rng(80).integers(-5, 6, (5, 5)) + 8 * np.eye(5, dtype=np.int64), _rng(81).integers(0, 10, 5)), {}),
    ("fill_nan_driver", fill_nan_driver, lambda: (_nan_vector(82),), {}),
    ("upper_triangle_view", upper_triangle_view, lambda: (np.arange(36, dtype=np.float64).reshape(6, 6),), {}),
    ("nan_reductions", nan_reductions, lambda: (_nan_matrix(83),), {}),
    # sorting, binning, quantiles
    ("lexsort_records", lexsort_records,
     lambda: (np.array([3, 1, 2, 1, 3, 2, 1]), np.array([5, 2, 2, 1, 5, 0, 2]), np.array([30, 25, 41, 19, 22, 35, 24])), {}),
    ("rank_with_ties", rank_with_ties, lambda: (_rng(85).integers(0, 8, 20).astype(np.float32),), {}),
    ("grade_letters", grade_letters, lambda: (_rng(86).integers(40, 101, 25),), {}),
    ("quantile_methods", quantile_methods, lambda: (_rng(87).exponential(2.0, 33),), {}),
    ("histogram_edges", histogram_edges, lambda: (_rng(88).exponential(1.5, 60), _rng(89).random(60)), {}),
    ("norm_variants", norm_variants,
     lambda: (_rng(90).normal(size=(4, 3)), np.array([3.0, -4.0, 0.0, 1.0, -2.0])), {}),
    # grids, einsum, fancy indexing
    ("grid_distance_maps", grid_distance_maps, lambda: (6, 8), {}),
    ("einsum_tricks", einsum_tricks,
     lambda: (_rng(91).normal(size=(4, 4)), _rng(92).normal(size=(4, 4)), _rng(93).normal(size=4)), {}),
    ("fancy_assign_repeated", fancy_assign_repeated,
     lambda: (8, np.array([0, 2, 2, 5, 5, 5, 7]), np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])), {}),
    ("mask_select_update", mask_select_update, lambda: (_rng(94).normal(size=30),), {}),
    # misc scripting
    ("bootstrap_mean_ci", bootstrap_mean_ci, lambda: (_rng(95).normal(10, 3, 40),), {"rand": True}),
    ("shuffle_split", shuffle_split,
     lambda: (_rng(96).normal(size=(20, 3)), _rng(97).integers(0, 2, 20)), {"rand": True}),
    ("moving_window_itertools", moving_window_itertools, lambda: (list(_rng(99).integers(1, 5, 12)), 3), {}),
]
