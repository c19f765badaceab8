"""Python lists of lists appended to at positions the data choose (``clusters[j].append(i)``
in a loop: k-means assignment, grouping by label, adjacency lists): carried as one array
of items and the row of each, rows read whole as lists of run-time length. Rows that are
one list (``[[]] * n``) are Python's lists of the data's positions. Checked against NumPy
through the public API."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def group_means(X, labels):
    groups = [[] for _ in range(3)]
    before = np.zeros(len(labels), dtype=int)
    for i, label in enumerate(labels):
        before[i] = len(groups[label])      # a row read before the loop's first append
        groups[label].append(i)
    means = [np.mean(X[g], axis=0) for g in groups]     # an empty group: NaN, as NumPy
    sizes = [len(g) for g in groups]
    order = np.zeros(len(labels))
    for c, g in enumerate(groups):
        for i in g:
            order[i] = c
    return means, sizes, order, groups, before, isinstance(groups[2], list), type(groups) is list


def largest_per_bucket(x):
    buckets = [[] for _ in range(3)]
    for i in range(x.shape[0]):
        if x[i] > 0:
            buckets[int(x[i] * 10) % 3].append(float(x[i]))
        else:
            buckets[0].append(0.0)      # a Python int position, on one path of the `if`
    return [max(b) if b else -1.0 for b in buckets], max(buckets[1])


def positives(x):
    out = []
    for i in range(x.shape[0]):
        if x[i] > 0:
            out.append(x[i])
    return isinstance(out, list), out


def append_through_a_chosen_row(x):
    rows = [[] for _ in range(2)]
    for i in range(x.shape[0]):
        rows[int(x[i] > 0)].append(i)
    row = rows[0] if x.sum() > 0 else rows[1]
    row.append(7)       # Python appends to the list's own row
    return rows


def aliased_rows(x):
    rows = [[]] * 3
    for i in range(x.shape[0]):
        rows[int(x[i] > 0)].append(i)
    return rows


def kmeans_with_helpers(X, centroids, k, iterations):
    # As ML-from-scratch code writes it: the buckets made by a nested helper, each pass.
    def create_clusters(centroids, X):
        clusters = [[] for _ in range(k)]
        for sample_i, sample in enumerate(X):
            clusters[np.argmin(((centroids - sample) ** 2).sum(axis=1))].append(sample_i)
        return clusters

    def calculate_centroids(clusters, X):
        centroids = np.zeros((k, X.shape[1]))
        for i, cluster in enumerate(clusters):
            centroids[i] = np.mean(X[cluster], axis=0)
        return centroids

    for _ in range(iterations):
        clusters = create_clusters(centroids, X)
        prev_centroids = centroids
        centroids = calculate_centroids(clusters, X)
        if not (centroids - prev_centroids).any():
            break
    return centroids, clusters


LABELS = np.array([0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0])     # group 2 stays empty


def test_rows_appended_where_the_data_say():
    X = np.random.RandomState(0).randn(12, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_against_numpy(group_means, X, LABELS)
        check_against_numpy(largest_per_bucket, X[:, 0])
        # max() of a row the data leave empty: Python's ValueError
        check_against_numpy(largest_per_bucket, -np.abs(X[:, 0]))
        check_against_numpy(positives, X[:, 0])
        blobs = np.concatenate([X[:4], X[4:8] + 4, X[8:] + 8])
        check_against_numpy(kmeans_with_helpers, blobs, blobs[[0, 4, 8]], 3, 4)


def test_rows_that_are_one_list_or_held_elsewhere_are_python_s(tmp_path):
    """Rows that are one list, or a row a traced `if` chooses and a name holds: Python's
    own lists, the data's positions and path taken (a graph for each); one graph for all
    data cannot have them."""
    x = np.linspace(-1, 1, 12)
    for fn, match in ((aliased_rows, "rows are one list"),
                      (append_through_a_chosen_row, "row read into a variable")):
        for v in (x, -x, np.abs(x) + 0.1, x):
            check_against_numpy(fn, v)
        with pytest.raises(nptf.UnsupportedError, match=match):
            nptf.export(fn, tmp_path / fn.__name__, nptf.Spec((12,), np.float64))


def test_rows_a_traced_if_appends_to_are_one_graph_for_all_data():
    """A path that appends to a row of a list of lists: the trace runs again with the list
    as a table, one graph for every call, rather than assume which path the data take
    (an assumed path would hold for the first call's data only)."""
    compiled = nptf.compile(largest_per_bucket, fallback="raise")
    rng = np.random.default_rng(5)
    for _ in range(3):
        x = rng.normal(size=12)
        got, expected = compiled(x), largest_per_bucket(x)
        assert got == expected
    assert compiled.cache_info().traces == 1
