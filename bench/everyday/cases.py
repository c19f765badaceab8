"""Inputs for every function: name -> (fn, args, kwargs, random_flag)."""
import numpy as np
from . import funcs_a as A
from . import funcs_b as B
from . import funcs_c as C
from . import funcs_d as D
from . import funcs_e as E
from . import funcs_f as F
from . import funcs_g as G
from . import funcs_h as H
from . import funcs_i as I
from . import funcs_j as J
from . import funcs_k as K
from . import funcs_l as L
from . import funcs_m as M
from . import funcs_n as N
from . import funcs_o as O
from . import funcs_p as P
from . import funcs_q as Q
from . import funcs_r as R
from . import funcs_s as S
from . import funcs_t as T
from . import funcs_u as U
from . import funcs_v as V

r = np.random.RandomState(0)
X8 = r.randn(8, 3)
y_reg = X8 @ np.array([1.0, -2.0, 0.5]) + 0.3
y_bin = (X8[:, 0] + X8[:, 1] > 0).astype(float)
X_tr = r.randn(10, 2)
y_tr = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 1])
X_te = r.randn(4, 2)
Xpca = r.randn(12, 4) @ np.diag([3.0, 2.0, 1.0, 0.5])
Xkm = np.vstack([r.randn(6, 2), r.randn(6, 2) + 5])
logits = r.randn(5, 4)
labels = np.array([0, 3, 1, 2, 3])
params = {"W1": r.randn(3, 5) * 0.5, "b1": np.zeros(5), "W2": r.randn(5, 3) * 0.5, "b2": np.zeros(3)}
Xsep = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -2.0], [-2.0, -1.0], [1.5, 0.5], [-0.5, -1.5]])
ysep = np.array([1, 1, -1, -1, 1, -1])
img = r.rand(7, 6)
rgb = (r.rand(4, 5, 3) * 255).astype(np.uint8)
Z = np.zeros((8, 8), dtype=int)
Z[1, 2] = Z[2, 3] = Z[3, 1] = Z[3, 2] = Z[3, 3] = 1
u0 = np.sin(np.linspace(0, np.pi, 11))
U2 = np.zeros((6, 6)); U2[2:4, 2:4] = 1.0
grid = np.zeros((6, 6)); grid[0, :] = 1.0
sig = np.sin(2 * np.pi * 5 * np.arange(64) / 64) + 0.5 * np.sin(2 * np.pi * 20 * np.arange(64) / 64)
pos = r.randn(5, 2)
mass = r.rand(5) + 0.5
data = r.randn(30)
Xnan = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, np.nan], [7.0, 8.0, 9.0], [np.nan, 2.0, 1.0]])
t = np.arange(8.0)
v = np.array([1.0, 2.0, -1.0, 4.0, 5.0, -3.0, 7.0, 12.0])
prices = np.array([100.0, 102.0, 101.0, 98.0, 97.0, 103.0, 105.0, 99.0, 104.0])
xt = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0])


def cases():
    """Every function's inputs; the second collection's names start with ``e_``, the
    third's with ``f_``, the fourth's with ``g_``, the later ones with ``h_``,
    ``i_`` to ``v_``."""
    return {**_first(),
            **{f"e_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in E.CASES},
            **{f"f_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in F.CASES},
            **{f"g_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in G.CASES},
            **{f"h_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in H.CASES},
            **{f"i_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in I.CASES},
            **{f"j_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in J.CASES},
            **{f"k_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in K.CASES},
            **{f"l_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in L.CASES},
            **{f"m_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in M.CASES},
            **{f"n_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in N.CASES},
            **{f"o_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in O.CASES},
            **{f"p_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in P.CASES},
            **{f"q_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in Q.CASES},
            **{f"r_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in R.CASES},
            **{f"s_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in S.CASES},
            **{f"t_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in T.CASES},
            **{f"u_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in U.CASES},
            **{f"v_{name}": (fn, make(), {}, bool(opts.get("rand")))
               for name, fn, make, opts in V.CASES}}


def _first():
    return {
        "linreg_gd": (A.linreg_gd, (X8, y_reg), {}, False),
        "logreg_train": (A.logreg_train, (X8, y_bin), {}, False),
        "knn_predict": (A.knn_predict, (X_tr, y_tr, X_te), {}, False),
        "pca_eigh": (A.pca_eigh, (Xpca,), {}, False),
        "pca_svd": (A.pca_svd, (Xpca,), {}, False),
        "kmeans": (A.kmeans, (Xkm, Xkm[[0, 7]]), {}, False),
        "cross_entropy": (A.cross_entropy, (logits, labels), {}, False),
        "accuracy_onehot": (A.accuracy_onehot, (A.softmax(logits), labels), {}, False),
        "mlp_step": (A.mlp_step, (X8, np.array([0, 1, 2, 0, 1, 2, 0, 1]), params), {}, False),
        "perceptron": (A.perceptron, (Xsep, ysep), {}, False),
        "ridge": (A.ridge, (X8, y_reg), {"alpha": 0.5}, False),
        "minibatch_sgd": (A.minibatch_sgd, (X8[:7], y_reg[:7]), {}, False),
        "gaussian_nb": (A.gaussian_nb, (X_tr, y_tr, X_te), {}, False),
        "confusion_matrix": (A.confusion_matrix, (np.array([0, 1, 2, 2, 1, 0, 1]), np.array([0, 2, 2, 1, 1, 0, 0]), 3), {}, False),
        "standardize_inplace": (A.standardize_inplace, (np.c_[X8, np.ones(8)],), {}, False),
        "conv2d_naive": (B.conv2d_naive, (img, np.array([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]])), {}, False),
        "box_blur": (B.box_blur, (img,), {}, False),
        "sobel": (B.sobel, (img,), {}, False),
        "to_gray_threshold": (B.to_gray_threshold, (rgb,), {}, False),
        "life_run": (B.life_run, (Z,), {}, False),
        "life_roll": (B.life_roll, (Z,), {}, False),
        "mandelbrot": (B.mandelbrot, (-2.0, 1.0, -1.5, 1.5, 12, 10), {}, False),
        "mandel_point": (B.mandel_point, (np.linspace(-2, 0.5, 7), np.linspace(-1, 1, 7)), {}, False),
        "random_walk": (B.random_walk, (), {"n_steps": 50}, True),
        "mc_pi": (B.mc_pi, (), {}, True),
        "heat_1d": (B.heat_1d, (u0,), {}, False),
        "heat_2d": (B.heat_2d, (U2,), {}, False),
        "wave_1d": (B.wave_1d, (u0,), {}, False),
        "jacobi_laplace": (B.jacobi_laplace, (grid,), {}, False),
        "moving_average": (B.moving_average, (xt,), {}, False),
        "moving_average_cumsum": (B.moving_average_cumsum, (np.arange(10),), {}, False),
        "fft_lowpass": (B.fft_lowpass, (sig, 1 / 64, 10.0), {}, False),
        "dominant_freq": (B.dominant_freq, (sig, 64.0), {}, False),
        "ema": (B.ema, (xt,), {}, False),
        "damped_oscillator": (B.damped_oscillator, (np.float64(1.0), np.float64(0.0)), {}, False),
        "accelerations": (B.accelerations, (pos, mass), {}, False),
        "newton_sqrt": (B.newton_sqrt, (np.array([2.0, 9.0, 10.0]),), {}, False),
        "integrate": (B.integrate, (np.sin(np.linspace(0, 1, 9)), np.linspace(0, 1, 9)), {}, False),
        "zscore_outliers": (C.zscore_outliers, (np.r_[data, 6.0],), {}, False),
        "hist_stats": (C.hist_stats, (data,), {}, False),
        "class_weights": (C.class_weights, (np.array([0, 1, 1, 2, 2, 2, 4]), 5), {}, False),
        "iqr_filter": (C.iqr_filter, (np.r_[data, 10.0],), {}, False),
        "fill_nan_with_col_mean": (C.fill_nan_with_col_mean, (Xnan,), {}, False),
        "drop_nan_rows": (C.drop_nan_rows, (Xnan,), {}, False),
        "clean_sensor": (C.clean_sensor, (t, v), {}, False),
        "ranks": (C.ranks, (xt,), {}, False),
        "rank_avg_ties": (C.rank_avg_ties, (xt,), {}, False),
        "distance_matrix": (C.distance_matrix, (X_tr, X_te), {}, False),
        "pairwise_sq": (C.pairwise_sq, (X_te,), {}, False),
        "max_drawdown": (C.max_drawdown, (prices,), {}, False),
        "bucketize": (C.bucketize, (xt, np.array([2.0, 4.0, 6.0])), {}, False),
        "run_lengths": (C.run_lengths, (np.array([1, 1, 2, 2, 2, 3, 1, 1]),), {}, False),
        "exercises_misc": (C.exercises_misc, (r.rand(5, 5),), {}, False),
        "exercises_more": (C.exercises_more, (xt, 4.4), {}, False),
        "rolling_std": (C.rolling_std, (xt,), {}, False),
        "bootstrap_ci": (C.bootstrap_ci, (data,), {"n_boot": 50}, True),
        "top_corr_pair": (C.top_corr_pair, (Xpca,), {}, False),
        "groupby_mean": (C.groupby_mean, (np.array([3, 1, 3, 2, 1, 3]), np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])), {}, False),
        "polyfit_resid": (C.polyfit_resid, (t, 0.5 * t ** 2 - t + np.sin(t)), {}, False),
        "minmax_cols": (C.minmax_cols, (X8,), {}, False),
        "returns_summary": (C.returns_summary, (prices,), {}, False),
        "bubble_sort": (C.bubble_sort, (xt,), {}, False),
        "binary_search": (C.binary_search, (np.array([1, 3, 5, 7, 9, 11, 13]), 9), {}, False),
        "sieve": (C.sieve, (), {"n": 50}, False),
        "nan_weighted_avg": (C.nan_weighted_avg, (np.array([1.0, np.nan, 3.0, 4.0, np.nan]), np.array([1.0, 2.0, 3.0, 1.0, 1.0])), {}, False),
        "floyd_warshall": (D.floyd_warshall, (np.array([[0, 3, np.inf, 7], [8, 0, 2, np.inf], [5, np.inf, 0, 1], [2, np.inf, np.inf, 0.0]]),), {}, False),
        "prefix_sum_inplace": (D.prefix_sum_inplace, (np.arange(12),), {}, False),
        "hist_equalize": (D.hist_equalize, ((np.arange(30).reshape(5, 6) * 7 % 200).astype(np.uint8),), {}, False),
        "logistic_map": (D.logistic_map, (np.float64(3.7),), {}, False),
        "train_early_stop": (D.train_early_stop, (X8, y_reg), {}, False),
        "power_iteration": (D.power_iteration, (np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]),), {}, False),
        "gram_schmidt": (D.gram_schmidt, (np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]),), {}, False),
        "lu_decompose": (D.lu_decompose, (np.array([[4.0, 3.0, 2.0], [2.0, 1.0, 3.0], [3.0, 2.0, 1.0]]),), {}, False),
        "simpson": (D.simpson, (np.sin(np.linspace(0, np.pi, 11)), np.pi / 10), {}, False),
        "first_exceed": (D.first_exceed, (np.ones(12), 9.5), {}, False),
        "count_leading_positive": (D.count_leading_positive, (np.array([1.0, 2.0, 3.0]),), {}, False),
        "winsorize_inplace": (D.winsorize_inplace, (np.r_[data[:10], 8.0],), {}, False),
        "rosenbrock_gd": (D.rosenbrock_gd, (np.array([-0.5, 0.5]),), {}, False),
    }
