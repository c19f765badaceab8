"""Everyday NumPy functions, thirteenth collection: machine learning written from
scratch, the way it appears in "ML-From-Scratch" style GitHub repositories, CS231n
assignment solutions, "neural networks from scratch" blog posts and books, NumPy
ports of Andrew Ng's course exercises and reinforcement-learning tutorials. Data
utilities (seeded shuffles and train/test splits, k-fold sets, one-hot encodings,
polynomial features, standard and min-max scalers as classes); metrics (accuracy,
confusion matrices by loops and ``np.bincount``, per-class precision/recall/F1, ROC
curves and AUC by trapezoids, silhouette scores); linear models (normal equation,
batch gradient descent with a cost history, ridge/lasso/elastic-net regressors as
classes with regularisation objects, coordinate descent with soft thresholding,
logistic regression with early stopping, Newton's method, softmax regression,
perceptron, Adaline, linear SVM by sub-gradient steps, simplified SMO, the CS231n
SVM and softmax losses naive and vectorised); instance-based learning and clustering
(k-NN with ``Counter`` votes and with distance matrices by two, one and no loops,
cross-validated k, k-means as a class and k-means++ with a seeded generator,
Gaussian mixtures by EM, DBSCAN and agglomerative clustering by loops); projections
(PCA by ``eigh`` and by SVD with sign flips, kernel PCA, LDA, Fisher's discriminant,
t-SNE's perplexity binary search and a few gradient steps); probabilistic models
(Gaussian and multinomial naive Bayes, HMM forward/backward, Viterbi with dicts of
dicts and in log space, Baum-Welch); trees and ensembles (recursive trees as nested
dicts and as ``Node`` objects, random forests on bootstrap samples, AdaBoost and
gradient boosting with stumps); neural networks (layer, loss and optimiser classes
updating lists of arrays in place, an nnfs-style spiral classifier, the CS231n
two-layer net with ``self.params``, Andrew Ng's L-layer model with ``parameters["W"
+ str(l)]``, batch norm and dropout forward/backward, numerical gradient checks,
convolution and max pooling by loops, im2col and reshapes, min-char-rnn with dicts
``hs[t]``, an LSTM over time, skip-gram word2vec with negative sampling); and
reinforcement learning (tabular Q-learning on a grid world, value and policy
iteration on small MDPs given as ``P[s][a]`` lists, discounted returns, Karpathy's
policy-gradient update with RMSProp on a dict model, REINFORCE on the short
corridor, epsilon-greedy and UCB bandits), plus ALS collaborative filtering and
apriori itemset counting. Styles vary on purpose: classes with ``fit``/``predict``
and attributes set in ``fit``, helpers calling each other, Python loops over epochs
and samples, recursion, in-place updates, ``np.random.seed``/``RandomState``/
``default_rng`` inside functions, early stopping with ``break``, ``float()``/
``int()``/``.item()``, ``zip``/``enumerate``, comprehensions and f-strings. Each entry
of CASES is (name, function, make_args, opts); make_args() returns the arguments;
opts {"rand": True} marks a function that draws random numbers without a seed
(compared by type, dtype and shape only)."""
import itertools
import math
from collections import Counter, defaultdict
from itertools import combinations_with_replacement

import numpy as np


# ---------------------------------------------------------------------------
# data utilities
# ---------------------------------------------------------------------------

def shuffle_data(X, y, seed=None):
    """ Random shuffle of the samples in X and y """
    if seed:
        np.random.seed(seed)
    idx = np.arange(X.shape[0])
    np.random.shuffle(idx)
    return X[idx], y[idx]


def train_test_split(X, y, test_size=0.5, shuffle=True, seed=None):
    """ Split the data into train and test sets """
    if shuffle:
        X, y = shuffle_data(X, y, seed)
    # Split the training data from test data in the ratio specified in test_size
    split_i = len(y) - int(len(y) // (1 / test_size))
    X_train, X_test = X[:split_i], X[split_i:]
    y_train, y_test = y[:split_i], y[split_i:]
    return X_train, X_test, y_train, y_test


def train_test_split_perm(X, y, test_ratio=0.2, seed=42):
    rng = np.random.RandomState(seed)
    shuffled_indices = rng.permutation(len(X))
    test_set_size = int(len(X) * test_ratio)
    test_indices = shuffled_indices[:test_set_size]
    train_indices = shuffled_indices[test_set_size:]
    return X[train_indices], X[test_indices], y[train_indices], y[test_indices]


def k_fold_cross_validation_sets(X, y, k, shuffle=True, seed=None):
    """ Split the data into k sets of training / test data """
    if shuffle:
        X, y = shuffle_data(X, y, seed)
    n_samples = len(y)
    left_overs = {}
    n_left_overs = (n_samples % k)
    if n_left_overs != 0:
        left_overs["X"] = X[-n_left_overs:]
        left_overs["y"] = y[-n_left_overs:]
        X = X[:-n_left_overs]
        y = y[:-n_left_overs]
    X_split = np.split(X, k)
    y_split = np.split(y, k)
    sets = []
    for i in range(k):
        X_test, y_test = X_split[i], y_split[i]
        X_train = np.concatenate(X_split[:i] + X_split[i + 1:], axis=0)
        y_train = np.concatenate(y_split[:i] + y_split[i + 1:], axis=0)
        sets.append([X_train, X_test, y_train, y_test])
    # Add left over samples to last set as training samples
    if n_left_overs != 0:
        sets[-1][0] = np.append(sets[-1][0], left_overs["X"], axis=0)
        sets[-1][2] = np.append(sets[-1][2], left_overs["y"], axis=0)
    return sets


def to_categorical(x, n_col=None):
    """ One-hot encoding of nominal values """
    if not n_col:
        n_col = np.amax(x) + 1
    one_hot = np.zeros((x.shape[0], n_col))
    one_hot[np.arange(x.shape[0]), x] = 1
    return one_hot


def normalize(X, axis=-1, order=2):
    """ Normalize the dataset X """
    l2 = np.atleast_1d(np.linalg.norm(X, order, axis))
    l2[l2 == 0] = 1
    return X / np.expand_dims(l2, axis)


def polynomial_features(X, degree):
    n_samples, n_features = np.shape(X)

    def index_combinations():
        combs = [combinations_with_replacement(range(n_features), i) for i in range(0, degree + 1)]
        flat_combs = [item for sublist in combs for item in sublist]
        return flat_combs

    combinations = index_combinations()
    n_output_features = len(combinations)
    X_new = np.empty((n_samples, n_output_features))
    for i, index_combs in enumerate(combinations):
        X_new[:, i] = np.prod(X[:, index_combs], axis=1)
    return X_new


def calculate_entropy(y):
    """ Calculate the entropy of label array y """
    log2 = lambda x: math.log(x) / math.log(2)
    unique_labels = np.unique(y)
    entropy = 0
    for label in unique_labels:
        count = len(y[y == label])
        p = count / len(y)
        entropy += -p * log2(p)
    return entropy


def calculate_covariance_matrix(X, Y=None):
    """ Calculate the covariance matrix for the dataset X """
    if Y is None:
        Y = X
    n_samples = np.shape(X)[0]
    covariance_matrix = (1 / (n_samples - 1)) * (X - X.mean(axis=0)).T.dot(Y - Y.mean(axis=0))
    return np.array(covariance_matrix, dtype=float)


def calculate_correlation_matrix(X, Y=None):
    """ Calculate the correlation matrix for the dataset X """
    if Y is None:
        Y = X
    n_samples = np.shape(X)[0]
    covariance = (1 / n_samples) * (X - X.mean(0)).T.dot(Y - Y.mean(0))
    std_dev_X = np.expand_dims(np.std(X, axis=0), 1)
    std_dev_y = np.expand_dims(np.std(Y, axis=0), 1)
    correlation_matrix = np.divide(covariance, std_dev_X.dot(std_dev_y.T))
    return np.array(correlation_matrix, dtype=float)


def euclidean_distance(x1, x2):
    """ Calculates the l2 distance between two vectors """
    distance = 0
    for i in range(len(x1)):
        distance += pow((x1[i] - x2[i]), 2)
    return math.sqrt(distance)


def batch_iterator(X, y=None, batch_size=64):
    """ Simple batch generator """
    n_samples = X.shape[0]
    for i in np.arange(0, n_samples, batch_size):
        begin, end = i, min(i + batch_size, n_samples)
        if y is not None:
            yield X[begin:end], y[begin:end]
        else:
            yield X[begin:end]


class StandardScaler:
    def fit(self, X):
        self.mean_ = np.mean(X, axis=0)
        self.scale_ = np.std(X, axis=0)
        self.scale_[self.scale_ == 0] = 1.0
        return self

    def transform(self, X):
        return (X - self.mean_) / self.scale_

    def fit_transform(self, X):
        return self.fit(X).transform(X)

    def inverse_transform(self, X):
        return X * self.scale_ + self.mean_


class MinMaxScaler:
    def __init__(self, feature_range=(0, 1)):
        self.feature_range = feature_range

    def fit(self, X):
        self.data_min_ = np.min(X, axis=0)
        self.data_max_ = np.max(X, axis=0)
        data_range = self.data_max_ - self.data_min_
        data_range[data_range == 0] = 1
        lo, hi = self.feature_range
        self.scale_ = (hi - lo) / data_range
        self.min_ = lo - self.data_min_ * self.scale_
        return self

    def transform(self, X):
        X = X * self.scale_
        X += self.min_
        return X

    def fit_transform(self, X):
        return self.fit(X).transform(X)


def scale_train_test(X_train, X_test, method="standard", feature_range=(0, 1)):
    if method == "standard":
        scaler = StandardScaler()
    elif method == "minmax":
        scaler = MinMaxScaler(feature_range)
    else:
        raise ValueError(f"unknown scaler {method!r}")
    X_train_s = scaler.fit_transform(X_train)
    X_test_s = scaler.transform(X_test)
    if method == "standard":
        back = scaler.inverse_transform(X_train_s)
        return X_train_s, X_test_s, scaler.mean_, scaler.scale_, bool(np.allclose(back, X_train))
    return X_train_s, X_test_s, scaler.data_min_, scaler.data_max_


# ---------------------------------------------------------------------------
# metrics
# ---------------------------------------------------------------------------

def accuracy_score(y_true, y_pred):
    """ Compare y_true to y_pred and return the accuracy """
    accuracy = np.sum(y_true == y_pred, axis=0) / len(y_true)
    return accuracy


def confusion_matrix(y_true, y_pred, num_classes=None, method="loop"):
    if num_classes is None:
        num_classes = int(max(np.max(y_true), np.max(y_pred))) + 1
    if method == "bincount":
        cm = np.bincount(num_classes * y_true + y_pred, minlength=num_classes ** 2)
        return cm.reshape(num_classes, num_classes)
    cm = np.zeros((num_classes, num_classes), dtype=int)
    for t, p in zip(y_true, y_pred):
        cm[t][p] += 1
    return cm


def precision_recall_f1(y_true, y_pred, average="macro"):
    labels = np.unique(np.concatenate([y_true, y_pred]))
    precisions, recalls, f1s = [], [], []
    for c in labels:
        tp = np.sum((y_pred == c) & (y_true == c))
        fp = np.sum((y_pred == c) & (y_true != c))
        fn = np.sum((y_pred != c) & (y_true == c))
        precision = tp / (tp + fp) if tp + fp > 0 else 0.0
        recall = tp / (tp + fn) if tp + fn > 0 else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        precisions.append(precision)
        recalls.append(recall)
        f1s.append(f1)
    if average == "macro":
        return float(np.mean(precisions)), float(np.mean(recalls)), float(np.mean(f1s))
    if average == "weighted":
        support = np.array([np.sum(y_true == c) for c in labels])
        w = support / support.sum()
        return (float(np.dot(w, precisions)), float(np.dot(w, recalls)),
                float(np.dot(w, f1s)))
    return np.array(precisions), np.array(recalls), np.array(f1s)


def roc_curve(y_true, y_score):
    desc_score_indices = np.argsort(y_score, kind="mergesort")[::-1]
    y_score = y_score[desc_score_indices]
    y_true = y_true[desc_score_indices]
    distinct_value_indices = np.where(np.diff(y_score))[0]
    threshold_idxs = np.r_[distinct_value_indices, y_true.size - 1]
    tps = np.cumsum(y_true)[threshold_idxs]
    fps = 1 + threshold_idxs - tps
    tps = np.r_[0, tps]
    fps = np.r_[0, fps]
    fpr = fps / fps[-1]
    tpr = tps / tps[-1]
    return fpr, tpr, y_score[threshold_idxs]


def roc_auc_score(y_true, y_score):
    fpr, tpr, thresholds = roc_curve(y_true, y_score)
    auc = 0.0
    for i in range(1, len(fpr)):
        auc += (fpr[i] - fpr[i - 1]) * (tpr[i] + tpr[i - 1]) / 2
    return fpr, tpr, thresholds, auc


def regression_report(y_true, y_pred):
    mse = np.mean(np.power(y_true - y_pred, 2))
    ss_res = ((y_true - y_pred) ** 2).sum()
    ss_tot = ((y_true - y_true.mean()) ** 2).sum()
    r2 = 1 - ss_res / ss_tot
    mae = np.mean(np.abs(y_true - y_pred))
    return {"mse": mse, "rmse": np.sqrt(mse), "mae": mae, "r2": r2}


def silhouette_score(X, labels):
    n = len(X)
    D = np.sqrt(((X[:, np.newaxis, :] - X[np.newaxis, :, :]) ** 2).sum(axis=2))
    scores = np.zeros(n)
    clusters = np.unique(labels)
    for i in range(n):
        same = labels == labels[i]
        if same.sum() <= 1:
            scores[i] = 0.0
            continue
        a = D[i, same].sum() / (same.sum() - 1)
        b = min(D[i, labels == c].mean() for c in clusters if c != labels[i])
        scores[i] = (b - a) / max(a, b)
    return float(np.mean(scores)), scores


# ---------------------------------------------------------------------------
# linear regression
# ---------------------------------------------------------------------------

def linear_regression_normal_equation(X, y):
    X_b = np.c_[np.ones((len(X), 1)), X]  # add x0 = 1 to each instance
    theta_best = np.linalg.inv(X_b.T.dot(X_b)).dot(X_b.T).dot(y)
    y_fit = X_b.dot(theta_best)
    return theta_best, y_fit


def computeCost(X, y, theta):
    m = y.size
    J = (1 / (2 * m)) * np.sum(np.square(X.dot(theta) - y))
    return J


def gradientDescent(X, y, theta, alpha, num_iters):
    m = y.shape[0]
    theta = theta.copy()
    J_history = []
    for i in range(num_iters):
        theta = theta - (alpha / m) * (X.dot(theta) - y).dot(X)
        J_history.append(computeCost(X, y, theta))
    return theta, J_history


def featureNormalize(X):
    mu = np.mean(X, axis=0)
    sigma = np.std(X, axis=0, ddof=1)
    X_norm = (X - mu) / sigma
    return X_norm, mu, sigma


def ex1_multi(X, y, x_new, alpha=0.1, num_iters=50):
    X_norm, mu, sigma = featureNormalize(X)
    m = y.size
    X_norm = np.concatenate([np.ones((m, 1)), X_norm], axis=1)
    theta = np.zeros(X_norm.shape[1])
    theta, J_history = gradientDescent(X_norm, y, theta, alpha, num_iters)
    x_new_norm = (np.asarray(x_new, dtype=float) - mu) / sigma
    price = np.dot(np.r_[1.0, x_new_norm], theta)
    return theta, np.array(J_history), mu, sigma, float(price)


class l1_regularization():
    """ Regularization for Lasso Regression """
    def __init__(self, alpha):
        self.alpha = alpha

    def __call__(self, w):
        return self.alpha * np.linalg.norm(w)

    def grad(self, w):
        return self.alpha * np.sign(w)


class l2_regularization():
    """ Regularization for Ridge Regression """
    def __init__(self, alpha):
        self.alpha = alpha

    def __call__(self, w):
        return self.alpha * 0.5 * w.T.dot(w)

    def grad(self, w):
        return self.alpha * w


class l1_l2_regularization():
    """ Regularization for Elastic Net Regression """
    def __init__(self, alpha, l1_ratio=0.5):
        self.alpha = alpha
        self.l1_ratio = l1_ratio

    def __call__(self, w):
        l1_contr = self.l1_ratio * np.linalg.norm(w)
        l2_contr = (1 - self.l1_ratio) * 0.5 * w.T.dot(w)
        return self.alpha * (l1_contr + l2_contr)

    def grad(self, w):
        l1_contr = self.l1_ratio * np.sign(w)
        l2_contr = (1 - self.l1_ratio) * w
        return self.alpha * (l1_contr + l2_contr)


class Regression(object):
    """ Base regression model. Models the relationship between a scalar dependent variable y
    and the independent variables X. """
    def __init__(self, n_iterations, learning_rate, seed=0):
        self.n_iterations = n_iterations
        self.learning_rate = learning_rate
        self.seed = seed

    def initialize_weights(self, n_features):
        """ Initialize weights randomly [-1/N, 1/N] """
        np.random.seed(self.seed)
        limit = 1 / math.sqrt(n_features)
        self.w = np.random.uniform(-limit, limit, (n_features, ))

    def fit(self, X, y):
        # Insert constant ones for bias weights
        X = np.insert(X, 0, 1, axis=1)
        self.training_errors = []
        self.initialize_weights(n_features=X.shape[1])
        for i in range(self.n_iterations):
            y_pred = X.dot(self.w)
            mse = np.mean(0.5 * (y - y_pred) ** 2 + self.regularization(self.w))
            self.training_errors.append(mse)
            grad_w = -(y - y_pred).dot(X) + self.regularization.grad(self.w)
            self.w -= self.learning_rate * grad_w

    def predict(self, X):
        X = np.insert(X, 0, 1, axis=1)
        y_pred = X.dot(self.w)
        return y_pred


class LinearRegression(Regression):
    def __init__(self, n_iterations=100, learning_rate=0.001, gradient_descent=True):
        self.gradient_descent = gradient_descent
        self.regularization = lambda x: 0
        self.regularization.grad = lambda x: 0
        super(LinearRegression, self).__init__(n_iterations=n_iterations,
                                               learning_rate=learning_rate)

    def fit(self, X, y):
        if not self.gradient_descent:
            X = np.insert(X, 0, 1, axis=1)
            # Calculate weights by least squares (using Moore-Penrose pseudoinverse)
            U, S, V = np.linalg.svd(X.T.dot(X))
            S = np.diag(S)
            X_sq_reg_inv = V.dot(np.linalg.pinv(S)).dot(U.T)
            self.w = X_sq_reg_inv.dot(X.T).dot(y)
            self.training_errors = []
        else:
            super(LinearRegression, self).fit(X, y)


class LassoRegression(Regression):
    def __init__(self, degree, reg_factor, n_iterations=300, learning_rate=0.01):
        self.degree = degree
        self.regularization = l1_regularization(alpha=reg_factor)
        super(LassoRegression, self).__init__(n_iterations, learning_rate)

    def fit(self, X, y):
        X = normalize(polynomial_features(X, degree=self.degree))
        super(LassoRegression, self).fit(X, y)

    def predict(self, X):
        X = normalize(polynomial_features(X, degree=self.degree))
        return super(LassoRegression, self).predict(X)


class RidgeRegression(Regression):
    def __init__(self, reg_factor, n_iterations=100, learning_rate=0.001):
        self.regularization = l2_regularization(alpha=reg_factor)
        super(RidgeRegression, self).__init__(n_iterations, learning_rate)


class ElasticNet(Regression):
    def __init__(self, degree=1, reg_factor=0.05, l1_ratio=0.5, n_iterations=300,
                 learning_rate=0.01):
        self.degree = degree
        self.regularization = l1_l2_regularization(alpha=reg_factor, l1_ratio=l1_ratio)
        super(ElasticNet, self).__init__(n_iterations, learning_rate)

    def fit(self, X, y):
        X = normalize(polynomial_features(X, degree=self.degree))
        super(ElasticNet, self).fit(X, y)

    def predict(self, X):
        X = normalize(polynomial_features(X, degree=self.degree))
        return super(ElasticNet, self).predict(X)


def regularized_regression(X_train, y_train, X_test, kind="ridge", reg_factor=0.1, degree=2,
                           n_iterations=100, learning_rate=0.001):
    if kind == "ridge":
        model = RidgeRegression(reg_factor, n_iterations, learning_rate)
    elif kind == "lasso":
        model = LassoRegression(degree, reg_factor, n_iterations, learning_rate)
    elif kind == "elastic":
        model = ElasticNet(degree, reg_factor, 0.5, n_iterations, learning_rate)
    elif kind == "linear":
        model = LinearRegression(n_iterations, learning_rate)
    elif kind == "lstsq":
        model = LinearRegression(gradient_descent=False)
    else:
        raise ValueError(kind)
    model.fit(X_train, y_train)
    y_pred = model.predict(X_test)
    return y_pred, model.w, np.array(model.training_errors)


def ridge_closed_form(X, y, lam=1.0):
    n_samples, n_features = X.shape
    X_b = np.hstack([np.ones((n_samples, 1)), X])
    I = np.eye(n_features + 1)
    I[0, 0] = 0  # don't penalize the intercept
    theta = np.linalg.solve(X_b.T @ X_b + lam * I, X_b.T @ y)
    residuals = y - X_b @ theta
    return theta, float(residuals @ residuals)


def soft_threshold(rho, lamda):
    """Soft threshold function used for normalized data and lasso regression"""
    if rho < - lamda:
        return (rho + lamda)
    elif rho > lamda:
        return (rho - lamda)
    else:
        return 0


def lasso_coordinate_descent(X, y, lamda=0.01, num_iters=100, tol=1e-6, intercept=True):
    m, n = X.shape
    X = X / (np.linalg.norm(X, axis=0))
    if intercept:
        X = np.hstack([np.ones((m, 1)) / np.sqrt(m), X])
    theta = np.zeros(X.shape[1])
    history = []
    for i in range(num_iters):
        theta_old = theta.copy()
        for j in range(X.shape[1]):
            X_j = X[:, j].reshape(-1, 1)
            y_pred = X @ theta
            rho = X_j.T @ (y - y_pred + theta[j] * X_j.ravel())
            if intercept and j == 0:
                theta[j] = rho.item()
            else:
                theta[j] = soft_threshold(rho.item(), lamda)
        history.append(theta.copy())
        if np.max(np.abs(theta - theta_old)) < tol:
            break
    return theta, np.array(history), i + 1


# ---------------------------------------------------------------------------
# logistic regression and linear classifiers
# ---------------------------------------------------------------------------

def sigmoid(z):
    z = np.clip(z, -500, 500)
    return 1.0 / (1.0 + np.exp(-z))


def softmax(z):
    z = z - np.max(z, axis=-1, keepdims=True)
    exp_z = np.exp(z)
    return exp_z / np.sum(exp_z, axis=-1, keepdims=True)


class LogisticRegression:
    def __init__(self, learning_rate=0.1, n_iters=1000, tol=1e-5):
        self.lr = learning_rate
        self.n_iters = n_iters
        self.tol = tol
        self.weights = None
        self.bias = None

    def fit(self, X, y):
        n_samples, n_features = X.shape
        self.weights = np.zeros(n_features)
        self.bias = 0
        self.losses = []
        eps = 1e-15
        for i in range(self.n_iters):
            linear_model = np.dot(X, self.weights) + self.bias
            y_predicted = sigmoid(linear_model)
            dw = (1 / n_samples) * np.dot(X.T, (y_predicted - y))
            db = (1 / n_samples) * np.sum(y_predicted - y)
            self.weights -= self.lr * dw
            self.bias -= self.lr * db
            y_predicted = np.clip(y_predicted, eps, 1 - eps)
            loss = -np.mean(y * np.log(y_predicted) + (1 - y) * np.log(1 - y_predicted))
            if self.losses and abs(self.losses[-1] - loss) < self.tol:
                break
            self.losses.append(loss)
        self.n_iter_ = i + 1
        return self

    def predict_proba(self, X):
        return sigmoid(np.dot(X, self.weights) + self.bias)

    def predict(self, X):
        y_predicted = self.predict_proba(X)
        y_predicted_cls = [1 if i > 0.5 else 0 for i in y_predicted]
        return np.array(y_predicted_cls)


def logistic_regression_fit_predict(X_train, y_train, X_test, lr=0.1, n_iters=300, tol=1e-4):
    clf = LogisticRegression(learning_rate=lr, n_iters=n_iters, tol=tol)
    clf.fit(X_train, y_train)
    predictions = clf.predict(X_test)
    return (predictions, clf.predict_proba(X_test), clf.weights, float(clf.bias), clf.n_iter_,
            np.array(clf.losses))


def softmax_regression(X, y, n_classes, lr=0.5, epochs=100, reg=1e-3):
    m, n = X.shape
    W = np.zeros((n, n_classes))
    b = np.zeros(n_classes)
    Y = np.eye(n_classes)[y]
    losses = []
    for epoch in range(epochs):
        probs = softmax(X @ W + b)
        loss = -np.sum(Y * np.log(probs + 1e-12)) / m + 0.5 * reg * np.sum(W * W)
        losses.append(loss)
        dscores = (probs - Y) / m
        dW = X.T @ dscores + reg * W
        db = dscores.sum(axis=0)
        W -= lr * dW
        b -= lr * db
    y_pred = np.argmax(softmax(X @ W + b), axis=1)
    return W, b, np.array(losses), y_pred


def logistic_newton(X, y, lam=1e-2, max_iter=25, eps=1e-8):
    m, n = X.shape
    X = np.hstack([np.ones((m, 1)), X])
    theta = np.zeros(n + 1)
    reg = lam * np.eye(n + 1)
    reg[0, 0] = 0
    for it in range(max_iter):
        h = sigmoid(X @ theta)
        grad = X.T @ (h - y) / m + reg @ theta
        H = (X.T * (h * (1 - h))) @ X / m + reg
        theta_new = theta - np.linalg.solve(H, grad)
        if np.linalg.norm(theta_new - theta, ord=1) < eps:
            theta = theta_new
            break
        theta = theta_new
    return theta, it + 1


def mapFeature(X1, X2, degree=6):
    out = [np.ones(X1.shape[0])]
    for i in range(1, degree + 1):
        for j in range(i + 1):
            out.append((X1 ** (i - j)) * (X2 ** j))
    return np.stack(out, axis=1)


def costFunctionReg(theta, X, y, lambda_):
    m = y.size
    h = sigmoid(X.dot(theta))
    temp = theta.copy()
    temp[0] = 0
    J = (1 / m) * np.sum(-y.dot(np.log(h)) - (1 - y).dot(np.log(1 - h)))
    J = J + (lambda_ / (2 * m)) * np.sum(np.square(temp))
    grad = (1 / m) * (h - y).dot(X)
    grad = grad + (lambda_ / m) * temp
    return J, grad


def ex2_reg(X, y, lambda_=1.0, alpha=1.0, num_iters=100):
    Xm = mapFeature(X[:, 0], X[:, 1])
    theta = np.zeros(Xm.shape[1])
    cost, grad = costFunctionReg(theta, Xm, y, lambda_)
    J_history = [cost]
    for i in range(num_iters):
        cost, grad = costFunctionReg(theta, Xm, y, lambda_)
        theta -= alpha * grad
        J_history.append(cost)
    p = np.round(sigmoid(Xm.dot(theta)))
    return theta, np.array(J_history), float(np.mean(p == y) * 100)


class Perceptron:
    def __init__(self, learning_rate=0.01, n_iters=1000):
        self.lr = learning_rate
        self.n_iters = n_iters
        self.activation_func = self._unit_step_func
        self.weights = None
        self.bias = None

    def fit(self, X, y):
        n_samples, n_features = X.shape
        self.weights = np.zeros(n_features)
        self.bias = 0
        y_ = np.array([1 if i > 0 else 0 for i in y])
        self.errors_ = []
        for _ in range(self.n_iters):
            errors = 0
            for idx, x_i in enumerate(X):
                linear_output = np.dot(x_i, self.weights) + self.bias
                y_predicted = self.activation_func(linear_output)
                update = self.lr * (y_[idx] - y_predicted)
                self.weights += update * x_i
                self.bias += update
                errors += int(update != 0.0)
            self.errors_.append(errors)
            if errors == 0:
                break

    def predict(self, X):
        linear_output = np.dot(X, self.weights) + self.bias
        y_predicted = self.activation_func(linear_output)
        return y_predicted

    def _unit_step_func(self, x):
        return np.where(x >= 0, 1, 0)


def perceptron_fit_predict(X_train, y_train, X_test, lr=0.01, n_iters=20):
    p = Perceptron(learning_rate=lr, n_iters=n_iters)
    p.fit(X_train, y_train)
    return p.predict(X_test), p.weights, float(p.bias), p.errors_


class AdalineGD(object):
    """ADAptive LInear NEuron classifier."""
    def __init__(self, eta=0.01, n_iter=50, random_state=1):
        self.eta = eta
        self.n_iter = n_iter
        self.random_state = random_state

    def fit(self, X, y):
        rgen = np.random.RandomState(self.random_state)
        self.w_ = rgen.normal(loc=0.0, scale=0.01, size=1 + X.shape[1])
        self.cost_ = []
        for i in range(self.n_iter):
            net_input = self.net_input(X)
            output = self.activation(net_input)
            errors = (y - output)
            self.w_[1:] += self.eta * X.T.dot(errors)
            self.w_[0] += self.eta * errors.sum()
            cost = (errors ** 2).sum() / 2.0
            self.cost_.append(cost)
        return self

    def net_input(self, X):
        return np.dot(X, self.w_[1:]) + self.w_[0]

    def activation(self, X):
        return X

    def predict(self, X):
        return np.where(self.activation(self.net_input(X)) >= 0.0, 1, -1)


def adaline_standardized(X, y, eta=0.01, n_iter=15):
    X_std = np.copy(X)
    for j in range(X.shape[1]):
        X_std[:, j] = (X[:, j] - X[:, j].mean()) / X[:, j].std()
    ada = AdalineGD(n_iter=n_iter, eta=eta, random_state=1).fit(X_std, y)
    return ada.w_, np.array(ada.cost_), ada.predict(X_std)


class SVM:
    def __init__(self, learning_rate=0.001, lambda_param=0.01, n_iters=1000):
        self.lr = learning_rate
        self.lambda_param = lambda_param
        self.n_iters = n_iters
        self.w = None
        self.b = None

    def fit(self, X, y):
        n_samples, n_features = X.shape
        y_ = np.where(y <= 0, -1, 1)
        self.w = np.zeros(n_features)
        self.b = 0
        for _ in range(self.n_iters):
            for idx, x_i in enumerate(X):
                condition = y_[idx] * (np.dot(x_i, self.w) - self.b) >= 1
                if condition:
                    self.w -= self.lr * (2 * self.lambda_param * self.w)
                else:
                    self.w -= self.lr * (2 * self.lambda_param * self.w - np.dot(x_i, y_[idx]))
                    self.b -= self.lr * y_[idx]

    def predict(self, X):
        approx = np.dot(X, self.w) - self.b
        return np.sign(approx)


def linear_svm_subgradient(X_train, y_train, X_test, lr=0.01, lambda_param=0.01, n_iters=25):
    clf = SVM(learning_rate=lr, lambda_param=lambda_param, n_iters=n_iters)
    clf.fit(X_train, y_train)
    margins = y_train * (X_train @ clf.w - clf.b)
    return clf.predict(X_test), clf.w, clf.b, int(np.sum(margins < 1))


def simplified_smo(X, y, C=1.0, tol=1e-3, max_passes=5, max_iter=40, seed=0):
    rng = np.random.RandomState(seed)
    m = X.shape[0]
    alphas = np.zeros(m)
    b = 0.0
    K = X @ X.T
    passes = 0
    it = 0
    while passes < max_passes and it < max_iter:
        it += 1
        num_changed_alphas = 0
        for i in range(m):
            E_i = float(np.sum(alphas * y * K[:, i]) + b - y[i])
            if (y[i] * E_i < -tol and alphas[i] < C) or (y[i] * E_i > tol and alphas[i] > 0):
                j = rng.randint(0, m - 1)
                if j >= i:
                    j += 1
                E_j = float(np.sum(alphas * y * K[:, j]) + b - y[j])
                alpha_i_old, alpha_j_old = alphas[i], alphas[j]
                if y[i] != y[j]:
                    L = max(0, alphas[j] - alphas[i])
                    H = min(C, C + alphas[j] - alphas[i])
                else:
                    L = max(0, alphas[i] + alphas[j] - C)
                    H = min(C, alphas[i] + alphas[j])
                if L == H:
                    continue
                eta = 2 * K[i, j] - K[i, i] - K[j, j]
                if eta >= 0:
                    continue
                alphas[j] -= y[j] * (E_i - E_j) / eta
                alphas[j] = np.clip(alphas[j], L, H)
                if abs(alphas[j] - alpha_j_old) < 1e-5:
                    continue
                alphas[i] += y[i] * y[j] * (alpha_j_old - alphas[j])
                b1 = (b - E_i - y[i] * (alphas[i] - alpha_i_old) * K[i, i]
                      - y[j] * (alphas[j] - alpha_j_old) * K[i, j])
                b2 = (b - E_j - y[i] * (alphas[i] - alpha_i_old) * K[i, j]
                      - y[j] * (alphas[j] - alpha_j_old) * K[j, j])
                if 0 < alphas[i] < C:
                    b = b1
                elif 0 < alphas[j] < C:
                    b = b2
                else:
                    b = (b1 + b2) / 2
                num_changed_alphas += 1
        if num_changed_alphas == 0:
            passes += 1
        else:
            passes = 0
    w = (alphas * y) @ X
    support = np.where(alphas > 1e-6)[0]
    return alphas, float(b), w, support, it


def svm_loss_naive(W, X, y, reg):
    dW = np.zeros(W.shape)  # initialize the gradient as zero
    num_classes = W.shape[1]
    num_train = X.shape[0]
    loss = 0.0
    for i in range(num_train):
        scores = X[i].dot(W)
        correct_class_score = scores[y[i]]
        for j in range(num_classes):
            if j == y[i]:
                continue
            margin = scores[j] - correct_class_score + 1  # note delta = 1
            if margin > 0:
                loss += margin
                dW[:, j] += X[i]
                dW[:, y[i]] -= X[i]
    loss /= num_train
    dW /= num_train
    loss += reg * np.sum(W * W)
    dW += 2 * reg * W
    return loss, dW


def svm_loss_vectorized(W, X, y, reg):
    num_train = X.shape[0]
    scores = X.dot(W)
    correct_class_scores = scores[np.arange(num_train), y][:, np.newaxis]
    margins = np.maximum(0, scores - correct_class_scores + 1)
    margins[np.arange(num_train), y] = 0
    loss = np.sum(margins) / num_train
    loss += reg * np.sum(W * W)
    binary = margins
    binary[margins > 0] = 1
    row_sum = np.sum(binary, axis=1)
    binary[np.arange(num_train), y] = -row_sum.T
    dW = np.dot(X.T, binary)
    dW /= num_train
    dW += 2 * reg * W
    return loss, dW


def softmax_loss_naive(W, X, y, reg):
    loss = 0.0
    dW = np.zeros_like(W)
    num_train = X.shape[0]
    num_classes = W.shape[1]
    for i in range(num_train):
        scores = X[i].dot(W)
        scores -= np.max(scores)
        exp_scores = np.exp(scores)
        probs = exp_scores / np.sum(exp_scores)
        loss += -np.log(probs[y[i]])
        for j in range(num_classes):
            dW[:, j] += (probs[j] - (j == y[i])) * X[i]
    loss /= num_train
    dW /= num_train
    loss += reg * np.sum(W * W)
    dW += 2 * reg * W
    return loss, dW


def softmax_loss_vectorized(W, X, y, reg):
    num_train = X.shape[0]
    scores = X.dot(W)
    scores -= np.max(scores, axis=1, keepdims=True)
    exp_scores = np.exp(scores)
    probs = exp_scores / np.sum(exp_scores, axis=1, keepdims=True)
    loss = np.sum(-np.log(probs[np.arange(num_train), y])) / num_train
    loss += reg * np.sum(W * W)
    dscores = probs
    dscores[np.arange(num_train), y] -= 1
    dW = X.T.dot(dscores) / num_train + 2 * reg * W
    return loss, dW


def linear_svm_sgd_unseeded(X, y, num_classes, learning_rate=1e-2, reg=1e-4, num_iters=40,
                            batch_size=16):
    num_train, dim = X.shape
    W = 0.001 * np.random.randn(dim, num_classes)
    loss_history = []
    for it in range(num_iters):
        batch_idx = np.random.choice(num_train, batch_size, replace=True)
        X_batch = X[batch_idx]
        y_batch = y[batch_idx]
        loss, grad = svm_loss_vectorized(W, X_batch, y_batch, reg)
        loss_history.append(loss)
        W += -learning_rate * grad
    y_pred = np.argmax(X.dot(W), axis=1)
    return W, np.array(loss_history), y_pred


# ---------------------------------------------------------------------------
# nearest neighbours
# ---------------------------------------------------------------------------

class KNN:
    def __init__(self, k=3):
        self.k = k

    def fit(self, X, y):
        self.X_train = X
        self.y_train = y

    def predict(self, X):
        y_pred = [self._predict(x) for x in X]
        return np.array(y_pred)

    def _predict(self, x):
        # compute distances
        distances = [np.sqrt(np.sum((x - x_train) ** 2)) for x_train in self.X_train]
        # get k nearest samples, labels
        k_indices = np.argsort(distances)[:self.k]
        k_nearest_labels = [self.y_train[i] for i in k_indices]
        # majority vote, most common class label
        most_common = Counter(k_nearest_labels).most_common(1)
        return most_common[0][0]


def knn_classify(X_train, y_train, X_test, k=3):
    clf = KNN(k=k)
    clf.fit(X_train, y_train)
    predictions = clf.predict(X_test)
    return predictions


class KNNRegressor:
    def __init__(self, k=5, weights="uniform"):
        self.k = k
        self.weights = weights

    def fit(self, X, y):
        self.X_train, self.y_train = X, y
        return self

    def predict(self, X_test):
        y_pred = np.empty(X_test.shape[0])
        for i, test_sample in enumerate(X_test):
            dists = np.array([euclidean_distance(test_sample, x) for x in self.X_train])
            idx = np.argsort(dists)[:self.k]
            if self.weights == "distance":
                w = 1.0 / (dists[idx] + 1e-8)
                y_pred[i] = np.sum(w * self.y_train[idx]) / np.sum(w)
            else:
                y_pred[i] = np.mean(self.y_train[idx])
        return y_pred


def knn_regress(X_train, y_train, X_test, k=4, weights="uniform"):
    return KNNRegressor(k, weights).fit(X_train, y_train).predict(X_test)


def compute_distances_two_loops(X, X_train):
    num_test = X.shape[0]
    num_train = X_train.shape[0]
    dists = np.zeros((num_test, num_train))
    for i in range(num_test):
        for j in range(num_train):
            dists[i, j] = np.sqrt(np.sum(np.square(X[i] - X_train[j])))
    return dists


def compute_distances_one_loop(X, X_train):
    num_test = X.shape[0]
    num_train = X_train.shape[0]
    dists = np.zeros((num_test, num_train))
    for i in range(num_test):
        dists[i, :] = np.sqrt(np.sum(np.square(X_train - X[i, :]), axis=1))
    return dists


def compute_distances_no_loops(X, X_train):
    test_sq = np.sum(np.square(X), axis=1).reshape(-1, 1)
    train_sq = np.sum(np.square(X_train), axis=1)
    cross = X.dot(X_train.T)
    dists = np.sqrt(test_sq + train_sq - 2 * cross)
    return dists


def predict_labels(dists, y_train, k=1):
    num_test = dists.shape[0]
    y_pred = np.zeros(num_test)
    for i in range(num_test):
        closest_y = y_train[np.argsort(dists[i])[:k]]
        y_pred[i] = np.argmax(np.bincount(closest_y))
    return y_pred


def knn_cs231n(X_train, y_train, X_test, k=1, num_loops=0):
    if num_loops == 0:
        dists = compute_distances_no_loops(X_test, X_train)
    elif num_loops == 1:
        dists = compute_distances_one_loop(X_test, X_train)
    elif num_loops == 2:
        dists = compute_distances_two_loops(X_test, X_train)
    else:
        raise ValueError('Invalid value %d for num_loops' % num_loops)
    return dists, predict_labels(dists, y_train, k=k)


def knn_cross_validate_k(X_train, y_train, k_choices=(1, 3, 5, 8), num_folds=5):
    X_train_folds = np.array_split(X_train, num_folds)
    y_train_folds = np.array_split(y_train, num_folds)
    k_to_accuracies = {}
    for k in k_choices:
        k_to_accuracies[k] = []
        for i in range(num_folds):
            X_tr = np.concatenate(X_train_folds[:i] + X_train_folds[i + 1:])
            y_tr = np.concatenate(y_train_folds[:i] + y_train_folds[i + 1:])
            X_val, y_val = X_train_folds[i], y_train_folds[i]
            dists = compute_distances_no_loops(X_val, X_tr)
            y_val_pred = predict_labels(dists, y_tr, k=k)
            num_correct = np.sum(y_val_pred == y_val)
            k_to_accuracies[k].append(float(num_correct) / len(y_val))
    mean_acc = {k: np.mean(v) for k, v in k_to_accuracies.items()}
    best_k = max(mean_acc, key=mean_acc.get)
    return k_to_accuracies, best_k


# ---------------------------------------------------------------------------
# clustering
# ---------------------------------------------------------------------------

class KMeans():
    """A simple clustering method that forms k clusters by iteratively reassigning
    samples to the closest centroids and after that moves the centroids to the center
    of the new formed clusters."""
    def __init__(self, k=2, max_iterations=500, seed=1):
        self.k = k
        self.max_iterations = max_iterations
        self.seed = seed

    def _init_random_centroids(self, X):
        """ Initialize the centroids as k random samples of X"""
        n_samples, n_features = np.shape(X)
        centroids = np.zeros((self.k, n_features))
        idx = np.random.choice(range(n_samples), self.k, replace=False)
        for i in range(self.k):
            centroid = X[idx[i]]
            centroids[i] = centroid
        return centroids

    def _closest_centroid(self, sample, centroids):
        """ Return the index of the closest centroid to the sample """
        closest_i = 0
        closest_dist = float('inf')
        for i, centroid in enumerate(centroids):
            distance = euclidean_distance(sample, centroid)
            if distance < closest_dist:
                closest_i = i
                closest_dist = distance
        return closest_i

    def _create_clusters(self, centroids, X):
        """ Assign the samples to the closest centroids to create clusters """
        clusters = [[] for _ in range(self.k)]
        for sample_i, sample in enumerate(X):
            centroid_i = self._closest_centroid(sample, centroids)
            clusters[centroid_i].append(sample_i)
        return clusters

    def _calculate_centroids(self, clusters, X, prev_centroids):
        """ Calculate new centroids as the means of the samples in each cluster  """
        n_features = np.shape(X)[1]
        centroids = np.zeros((self.k, n_features))
        for i, cluster in enumerate(clusters):
            if len(cluster) == 0:
                centroids[i] = prev_centroids[i]
                continue
            centroid = np.mean(X[cluster], axis=0)
            centroids[i] = centroid
        return centroids

    def _get_cluster_labels(self, clusters, X):
        """ Classify samples as the index of their clusters """
        y_pred = np.zeros(np.shape(X)[0])
        for cluster_i, cluster in enumerate(clusters):
            for sample_i in cluster:
                y_pred[sample_i] = cluster_i
        return y_pred

    def predict(self, X):
        """ Do K-Means clustering and return cluster indices """
        np.random.seed(self.seed)
        centroids = self._init_random_centroids(X)
        for it in range(self.max_iterations):
            clusters = self._create_clusters(centroids, X)
            prev_centroids = centroids
            centroids = self._calculate_centroids(clusters, X, prev_centroids)
            diff = centroids - prev_centroids
            if not diff.any():
                break
        self.centroids = centroids
        self.n_iter_ = it + 1
        return self._get_cluster_labels(clusters, X)


def kmeans_fit_predict(X, k=3, max_iterations=50, seed=1):
    km = KMeans(k=k, max_iterations=max_iterations, seed=seed)
    labels = km.predict(X)
    return labels, km.centroids, km.n_iter_


def kmeans_plus_plus_init(X, k, rng):
    centers = [X[rng.integers(len(X))]]
    for _ in range(1, k):
        d2 = np.array([min(np.sum((x - c) ** 2) for c in centers) for x in X])
        probs = d2 / d2.sum()
        cumprobs = np.cumsum(probs)
        r = rng.random()
        idx = int(np.searchsorted(cumprobs, r))
        centers.append(X[idx])
    return np.array(centers)


def kmeans_plus_plus(X, k=3, max_iters=100, tol=1e-6, seed=0):
    rng = np.random.default_rng(seed)
    centroids = kmeans_plus_plus_init(X, k, rng)
    init = centroids.copy()
    for it in range(max_iters):
        distances = np.linalg.norm(X[:, np.newaxis, :] - centroids[np.newaxis, :, :], axis=2)
        labels = np.argmin(distances, axis=1)
        new_centroids = np.array([X[labels == j].mean(axis=0) if np.any(labels == j)
                                  else centroids[j] for j in range(k)])
        shift = np.linalg.norm(new_centroids - centroids)
        centroids = new_centroids
        if shift < tol:
            break
    inertia = float(np.sum((X - centroids[labels]) ** 2))
    return init, centroids, labels, inertia, it + 1


def gaussian_pdf(X, mean, cov):
    d = X.shape[1]
    diff = X - mean
    inv = np.linalg.inv(cov)
    det = np.linalg.det(cov)
    norm_const = 1.0 / np.sqrt((2 * np.pi) ** d * det)
    exponent = -0.5 * np.einsum('ij,jk,ik->i', diff, inv, diff)
    return norm_const * np.exp(exponent)


def gmm_em(X, k=2, n_iter=30, tol=1e-6, seed=0):
    n, d = X.shape
    rng = np.random.RandomState(seed)
    means = X[rng.choice(n, k, replace=False)].copy()
    covs = np.array([np.cov(X.T) for _ in range(k)])
    weights = np.ones(k) / k
    log_likelihoods = []
    for it in range(n_iter):
        # E-step
        resp = np.zeros((n, k))
        for j in range(k):
            resp[:, j] = weights[j] * gaussian_pdf(X, means[j], covs[j])
        total = resp.sum(axis=1, keepdims=True)
        log_likelihood = float(np.sum(np.log(total)))
        resp /= total
        # M-step
        Nk = resp.sum(axis=0)
        weights = Nk / n
        means = (resp.T @ X) / Nk[:, np.newaxis]
        for j in range(k):
            diff = X - means[j]
            covs[j] = (resp[:, j, np.newaxis] * diff).T @ diff / Nk[j] + 1e-6 * np.eye(d)
        log_likelihoods.append(log_likelihood)
        if len(log_likelihoods) > 1 and abs(log_likelihoods[-1] - log_likelihoods[-2]) < tol:
            break
    return weights, means, covs, np.array(log_likelihoods), resp.argmax(axis=1)


def dbscan(X, eps=0.5, min_samples=4):
    n = len(X)
    labels = np.full(n, -1)
    visited = np.zeros(n, dtype=bool)

    def region_query(i):
        return list(np.where(np.linalg.norm(X - X[i], axis=1) <= eps)[0])

    cluster_id = 0
    for i in range(n):
        if visited[i]:
            continue
        visited[i] = True
        neighbors = region_query(i)
        if len(neighbors) < min_samples:
            continue  # noise for now, may become a border point later
        labels[i] = cluster_id
        seeds = list(neighbors)
        k = 0
        while k < len(seeds):
            j = seeds[k]
            if not visited[j]:
                visited[j] = True
                neighbors_j = region_query(j)
                if len(neighbors_j) >= min_samples:
                    seeds.extend(neighbors_j)
            if labels[j] == -1:
                labels[j] = cluster_id
            k += 1
        cluster_id += 1
    core = np.array([len(region_query(i)) >= min_samples for i in range(n)])
    return labels, cluster_id, core


def agglomerative_clustering(X, n_clusters=3, linkage="single"):
    n = len(X)
    D = np.sqrt(((X[:, np.newaxis, :] - X[np.newaxis, :, :]) ** 2).sum(axis=2))
    clusters = [[i] for i in range(n)]
    merges = []
    labels = np.arange(n)
    while len(clusters) > 1:
        best = (np.inf, -1, -1)
        for a in range(len(clusters)):
            for b in range(a + 1, len(clusters)):
                block = D[np.ix_(clusters[a], clusters[b])]
                if linkage == "single":
                    d = block.min()
                elif linkage == "complete":
                    d = block.max()
                else:
                    d = block.mean()
                if d < best[0]:
                    best = (d, a, b)
        d, a, b = best
        merges.append([min(clusters[a]), min(clusters[b]), float(d),
                       len(clusters[a]) + len(clusters[b])])
        clusters[a] = clusters[a] + clusters[b]
        del clusters[b]
        if len(clusters) == n_clusters:
            for c, members in enumerate(clusters):
                labels[members] = c
    return labels, np.array(merges)


# ---------------------------------------------------------------------------
# projections
# ---------------------------------------------------------------------------

class PCA:
    def __init__(self, n_components):
        self.n_components = n_components
        self.components = None
        self.mean = None

    def fit(self, X):
        # Mean centering
        self.mean = np.mean(X, axis=0)
        X = X - self.mean
        # covariance, function needs samples as columns
        cov = np.cov(X.T)
        # eigenvalues, eigenvectors
        eigenvalues, eigenvectors = np.linalg.eigh(cov)
        # -> eigenvector v = [:,i] column vector, transpose for easier calculations
        eigenvectors = eigenvectors.T
        idxs = np.argsort(eigenvalues)[::-1]
        eigenvalues = eigenvalues[idxs]
        eigenvectors = eigenvectors[idxs]
        self.components = eigenvectors[0:self.n_components]
        self.explained_variance_ratio = eigenvalues[:self.n_components] / np.sum(eigenvalues)

    def transform(self, X):
        X = X - self.mean
        return np.dot(X, self.components.T)


def pca_eig(X, n_components=2):
    pca = PCA(n_components)
    pca.fit(X)
    X_projected = pca.transform(X)
    return X_projected, pca.components, pca.explained_variance_ratio


def pca_svd(X, n_components=2):
    mean = X.mean(axis=0)
    X_centered = X - mean
    U, S, Vt = np.linalg.svd(X_centered, full_matrices=False)
    # flip eigenvectors' sign to enforce deterministic output
    max_abs_cols = np.argmax(np.abs(U), axis=0)
    signs = np.sign(U[max_abs_cols, range(U.shape[1])])
    U *= signs
    Vt *= signs[:, np.newaxis]
    components = Vt[:n_components]
    explained_variance = (S ** 2) / (X.shape[0] - 1)
    explained_variance_ratio = explained_variance / explained_variance.sum()
    X_proj = X_centered @ components.T
    X_rec = X_proj @ components + mean
    return X_proj, components, explained_variance_ratio[:n_components], float(
        np.mean((X - X_rec) ** 2))


def rbf_kernel_pca(X, gamma, n_components):
    # Calculate pairwise squared Euclidean distances in the MxN dimensional dataset.
    sq_dists = np.sum((X[:, np.newaxis, :] - X[np.newaxis, :, :]) ** 2, axis=-1)
    # Compute the symmetric kernel matrix.
    K = np.exp(-gamma * sq_dists)
    # Center the kernel matrix.
    N = K.shape[0]
    one_n = np.ones((N, N)) / N
    K = K - one_n.dot(K) - K.dot(one_n) + one_n.dot(K).dot(one_n)
    # Obtaining eigenpairs from the centered kernel matrix
    eigvals, eigvecs = np.linalg.eigh(K)
    eigvals, eigvecs = eigvals[::-1], eigvecs[:, ::-1]
    # Collect the top k eigenvectors (projected samples)
    alphas = np.column_stack([eigvecs[:, i] for i in range(n_components)])
    lambdas = [eigvals[i] for i in range(n_components)]
    return alphas, lambdas


class LDA:
    def __init__(self, n_components):
        self.n_components = n_components
        self.linear_discriminants = None

    def fit(self, X, y):
        n_features = X.shape[1]
        class_labels = np.unique(y)
        mean_overall = np.mean(X, axis=0)
        SW = np.zeros((n_features, n_features))
        SB = np.zeros((n_features, n_features))
        for c in class_labels:
            X_c = X[y == c]
            mean_c = np.mean(X_c, axis=0)
            SW += (X_c - mean_c).T.dot((X_c - mean_c))
            n_c = X_c.shape[0]
            mean_diff = (mean_c - mean_overall).reshape(n_features, 1)
            SB += n_c * (mean_diff).dot(mean_diff.T)
        A = np.linalg.inv(SW).dot(SB)
        eigenvalues, eigenvectors = np.linalg.eig(A)
        eigenvectors = eigenvectors.T
        idxs = np.argsort(abs(eigenvalues))[::-1]
        eigenvalues = eigenvalues[idxs]
        eigenvectors = eigenvectors[idxs]
        self.linear_discriminants = np.real(eigenvectors[0:self.n_components])
        self.eigenvalues = np.real(eigenvalues[0:self.n_components])

    def transform(self, X):
        return np.dot(X, self.linear_discriminants.T)


def lda_multiclass_transform(X, y, n_components=2):
    lda = LDA(n_components)
    lda.fit(X, y)
    X_projected = lda.transform(X)
    return X_projected, lda.eigenvalues


class FisherLDA():
    """The Linear Discriminant Analysis classifier, also known as Fisher's linear
    discriminant."""
    def __init__(self):
        self.w = None

    def transform(self, X, y):
        self.fit(X, y)
        X_transform = X.dot(self.w)
        return X_transform

    def fit(self, X, y):
        X1 = X[y == 0]
        X2 = X[y == 1]
        cov1 = calculate_covariance_matrix(X1)
        cov2 = calculate_covariance_matrix(X2)
        cov_tot = cov1 + cov2
        mean1 = X1.mean(0)
        mean2 = X2.mean(0)
        mean_diff = np.atleast_1d(mean1 - mean2)
        self.w = np.linalg.pinv(cov_tot).dot(mean_diff)

    def predict(self, X):
        y_pred = []
        for sample in X:
            h = sample.dot(self.w)
            y = 1 * (h < 0)
            y_pred.append(y)
        return y_pred


def fisher_lda_two_class(X, y):
    X = X - X.mean(axis=0)
    lda = FisherLDA()
    X_t = lda.transform(X, y)
    y_pred = lda.predict(X)
    return lda.w, X_t, np.array(y_pred), accuracy_score(y, np.array(y_pred))


def Hbeta(D=np.array([]), beta=1.0):
    """Compute the perplexity and the P-row for a specific value of the precision of a
    Gaussian distribution."""
    P = np.exp(-D.copy() * beta)
    sumP = sum(P)
    H = np.log(sumP) + beta * np.sum(D * P) / sumP
    P = P / sumP
    return H, P


def x2p(X=np.array([]), tol=1e-5, perplexity=30.0):
    """Performs a binary search to get P-values in such a way that each conditional
    Gaussian has the same perplexity."""
    (n, d) = X.shape
    sum_X = np.sum(np.square(X), 1)
    D = np.add(np.add(-2 * np.dot(X, X.T), sum_X).T, sum_X)
    P = np.zeros((n, n))
    beta = np.ones((n, 1))
    logU = np.log(perplexity)
    n_tries = []
    for i in range(n):
        betamin = -np.inf
        betamax = np.inf
        Di = D[i, np.concatenate((np.r_[0:i], np.r_[i + 1:n]))]
        (H, thisP) = Hbeta(Di, beta[i])
        Hdiff = H - logU
        tries = 0
        while np.abs(Hdiff) > tol and tries < 50:
            if Hdiff > 0:
                betamin = beta[i].copy()
                if betamax == np.inf or betamax == -np.inf:
                    beta[i] = beta[i] * 2.
                else:
                    beta[i] = (beta[i] + betamax) / 2.
            else:
                betamax = beta[i].copy()
                if betamin == np.inf or betamin == -np.inf:
                    beta[i] = beta[i] / 2.
                else:
                    beta[i] = (beta[i] + betamin) / 2.
            (H, thisP) = Hbeta(Di, beta[i])
            Hdiff = H - logU
            tries += 1
        n_tries.append(tries)
        P[i, np.concatenate((np.r_[0:i], np.r_[i + 1:n]))] = thisP
    return P, np.sqrt(1 / beta).ravel(), n_tries


def tsne(X, no_dims=2, perplexity=5.0, max_iter=30, seed=0, eta=100):
    (n, d) = X.shape
    initial_momentum = 0.5
    final_momentum = 0.8
    min_gain = 0.01
    np.random.seed(seed)
    Y = np.random.randn(n, no_dims)
    dY = np.zeros((n, no_dims))
    iY = np.zeros((n, no_dims))
    gains = np.ones((n, no_dims))
    P, sigmas, _ = x2p(X, 1e-5, perplexity)
    P = P + np.transpose(P)
    P = P / np.sum(P)
    P = P * 4.  # early exaggeration
    P = np.maximum(P, 1e-12)
    costs = []
    for iter in range(max_iter):
        sum_Y = np.sum(np.square(Y), 1)
        num = -2. * np.dot(Y, Y.T)
        num = 1. / (1. + np.add(np.add(num, sum_Y).T, sum_Y))
        num[range(n), range(n)] = 0.
        Q = num / np.sum(num)
        Q = np.maximum(Q, 1e-12)
        PQ = P - Q
        for i in range(n):
            dY[i, :] = np.sum(np.tile(PQ[:, i] * num[:, i], (no_dims, 1)).T * (Y[i, :] - Y), 0)
        if iter < 20:
            momentum = initial_momentum
        else:
            momentum = final_momentum
        gains = (gains + 0.2) * ((dY > 0.) != (iY > 0.)) + \
                (gains * 0.8) * ((dY > 0.) == (iY > 0.))
        gains[gains < min_gain] = min_gain
        iY = momentum * iY - eta * (gains * dY)
        Y = Y + iY
        Y = Y - np.tile(np.mean(Y, 0), (n, 1))
        if (iter + 1) % 10 == 0:
            C = np.sum(P * np.log(P / Q))
            costs.append(C)
        if iter == 15:
            P = P / 4.
    return Y, np.array(costs)


# ---------------------------------------------------------------------------
# naive Bayes, HMMs
# ---------------------------------------------------------------------------

class NaiveBayes():
    """The Gaussian Naive Bayes classifier. """
    def fit(self, X, y):
        self.X, self.y = X, y
        self.classes = np.unique(y)
        self.parameters = []
        # Calculate the mean and variance of each feature for each class
        for i, c in enumerate(self.classes):
            # Only select the rows where the label equals the given class
            X_where_c = X[np.where(y == c)]
            self.parameters.append([])
            # Add the mean and variance for each feature (column)
            for col in X_where_c.T:
                parameters = {"mean": col.mean(), "var": col.var()}
                self.parameters[i].append(parameters)

    def _calculate_likelihood(self, mean, var, x):
        """ Gaussian likelihood of the data x given mean and var """
        eps = 1e-4  # Added in denominator to prevent division by zero
        coeff = 1.0 / math.sqrt(2.0 * math.pi * var + eps)
        exponent = math.exp(-(math.pow(x - mean, 2) / (2 * var + eps)))
        return coeff * exponent

    def _calculate_prior(self, c):
        """ Calculate the prior of class c
        (samples where class == c / total number of samples)"""
        frequency = np.mean(self.y == c)
        return frequency

    def _classify(self, sample):
        posteriors = []
        for i, c in enumerate(self.classes):
            posterior = self._calculate_prior(c)
            for feature_value, params in zip(sample, self.parameters[i]):
                likelihood = self._calculate_likelihood(params["mean"], params["var"],
                                                        feature_value)
                posterior *= likelihood
            posteriors.append(posterior)
        return self.classes[np.argmax(posteriors)]

    def predict(self, X):
        y_pred = [self._classify(sample) for sample in X]
        return y_pred


def gaussian_nb_loops(X_train, y_train, X_test):
    clf = NaiveBayes()
    clf.fit(X_train, y_train)
    y_pred = np.array(clf.predict(X_test))
    means = np.array([[p["mean"] for p in row] for row in clf.parameters])
    variances = np.array([[p["var"] for p in row] for row in clf.parameters])
    return y_pred, means, variances


class GaussianNB:
    def fit(self, X, y):
        n_samples, n_features = X.shape
        self._classes = np.unique(y)
        n_classes = len(self._classes)
        # calculate mean, var, and prior for each class
        self._mean = np.zeros((n_classes, n_features), dtype=np.float64)
        self._var = np.zeros((n_classes, n_features), dtype=np.float64)
        self._priors = np.zeros(n_classes, dtype=np.float64)
        for idx, c in enumerate(self._classes):
            X_c = X[y == c]
            self._mean[idx, :] = X_c.mean(axis=0)
            self._var[idx, :] = X_c.var(axis=0)
            self._priors[idx] = len(X[y == c]) / float(n_samples)

    def predict(self, X):
        y_pred = [self._predict(x) for x in X]
        return np.array(y_pred)

    def _predict(self, x):
        posteriors = []
        # calculate posterior probability for each class
        for idx, c in enumerate(self._classes):
            prior = np.log(self._priors[idx])
            posterior = np.sum(np.log(self._pdf(idx, x)))
            posterior = posterior + prior
            posteriors.append(posterior)
        # return class with the highest posterior
        return self._classes[np.argmax(posteriors)]

    def _pdf(self, class_idx, x):
        mean = self._mean[class_idx]
        var = self._var[class_idx]
        numerator = np.exp(-((x - mean) ** 2) / (2 * var))
        denominator = np.sqrt(2 * np.pi * var)
        return numerator / denominator


def gaussian_nb_vectorized(X_train, y_train, X_test):
    nb = GaussianNB()
    nb.fit(X_train, y_train)
    return nb.predict(X_test), nb._mean, nb._var, nb._priors


def multinomial_nb(X_counts, y, X_test, alpha=1.0):
    classes = np.unique(y)
    n_features = X_counts.shape[1]
    class_log_prior = np.zeros(len(classes))
    feature_log_prob = np.zeros((len(classes), n_features))
    for i, c in enumerate(classes):
        X_c = X_counts[y == c]
        class_log_prior[i] = np.log(X_c.shape[0] / X_counts.shape[0])
        counts = X_c.sum(axis=0) + alpha  # Laplace smoothing
        feature_log_prob[i] = np.log(counts / counts.sum())
    jll = X_test @ feature_log_prob.T + class_log_prior
    a_max = np.max(jll, axis=1, keepdims=True)
    log_prob_x = a_max + np.log(np.sum(np.exp(jll - a_max), axis=1, keepdims=True))
    proba = np.exp(jll - log_prob_x)
    return classes[np.argmax(jll, axis=1)], proba, feature_log_prob


def hmm_forward(V, a, b, initial_distribution):
    alpha = np.zeros((V.shape[0], a.shape[0]))
    alpha[0, :] = initial_distribution * b[:, V[0]]
    for t in range(1, V.shape[0]):
        for j in range(a.shape[0]):
            # Matrix Computation Steps
            alpha[t, j] = alpha[t - 1].dot(a[:, j]) * b[j, V[t]]
    return alpha


def hmm_backward(V, a, b):
    beta = np.zeros((V.shape[0], a.shape[0]))
    # setting beta(T) = 1
    beta[V.shape[0] - 1] = np.ones((a.shape[0]))
    # Loop in backward way from T-1 to
    for t in range(V.shape[0] - 2, -1, -1):
        for j in range(a.shape[0]):
            beta[t, j] = (beta[t + 1] * b[:, V[t + 1]]).dot(a[j, :])
    return beta


def hmm_forward_backward(V, a, b, initial_distribution):
    alpha = hmm_forward(V, a, b, initial_distribution)
    beta = hmm_backward(V, a, b)
    likelihood = alpha[-1].sum()
    gamma = alpha * beta / likelihood
    check = float((initial_distribution * b[:, V[0]] * beta[0]).sum())
    return alpha, beta, gamma, float(likelihood), check


def baum_welch(V, n_states, n_symbols, n_iter=10, seed=0):
    rng = np.random.RandomState(seed)
    a = rng.rand(n_states, n_states)
    a /= a.sum(axis=1, keepdims=True)
    b = rng.rand(n_states, n_symbols)
    b /= b.sum(axis=1, keepdims=True)
    initial_distribution = np.ones(n_states) / n_states
    M = a.shape[0]
    T = len(V)
    history = []
    for n in range(n_iter):
        alpha = hmm_forward(V, a, b, initial_distribution)
        beta = hmm_backward(V, a, b)
        history.append(np.log(alpha[-1].sum()))
        xi = np.zeros((M, M, T - 1))
        for t in range(T - 1):
            denominator = np.dot(np.dot(alpha[t, :].T, a) * b[:, V[t + 1]].T, beta[t + 1, :])
            for i in range(M):
                numerator = alpha[t, i] * a[i, :] * b[:, V[t + 1]].T * beta[t + 1, :].T
                xi[i, :, t] = numerator / denominator
        gamma = np.sum(xi, axis=1)
        a = np.sum(xi, 2) / np.sum(gamma, axis=1).reshape((-1, 1))
        # Add additional T'th element in gamma
        gamma = np.hstack((gamma, np.sum(xi[:, :, T - 2], axis=0).reshape((-1, 1))))
        K = b.shape[1]
        denominator = np.sum(gamma, axis=1)
        for l in range(K):
            b[:, l] = np.sum(gamma[:, V == l], axis=1)
        b = np.divide(b, denominator.reshape((-1, 1)))
    return a, b, np.array(history)


def viterbi_dict(obs, states, start_p, trans_p, emit_p):
    V = [{}]
    for st in states:
        V[0][st] = {"prob": start_p[st] * emit_p[st][obs[0]], "prev": None}
    # Run Viterbi when t > 0
    for t in range(1, len(obs)):
        V.append({})
        for st in states:
            max_tr_prob = V[t - 1][states[0]]["prob"] * trans_p[states[0]][st]
            prev_st_selected = states[0]
            for prev_st in states[1:]:
                tr_prob = V[t - 1][prev_st]["prob"] * trans_p[prev_st][st]
                if tr_prob > max_tr_prob:
                    max_tr_prob = tr_prob
                    prev_st_selected = prev_st
            max_prob = max_tr_prob * emit_p[st][obs[t]]
            V[t][st] = {"prob": max_prob, "prev": prev_st_selected}
    opt = []
    max_prob = 0.0
    best_st = None
    # Get most probable state and its backtrack
    for st, data in V[-1].items():
        if data["prob"] > max_prob:
            max_prob = data["prob"]
            best_st = st
    opt.append(best_st)
    previous = best_st
    # Follow the backtrack till the first observation
    for t in range(len(V) - 2, -1, -1):
        opt.insert(0, V[t + 1][previous]["prev"])
        previous = V[t + 1][previous]["prev"]
    return opt, max_prob


def viterbi_log(obs, pi, A, B):
    T = len(obs)
    N = A.shape[0]
    logA, logB = np.log(A), np.log(B)
    delta = np.zeros((T, N))
    psi = np.zeros((T, N), dtype=int)
    delta[0] = np.log(pi) + logB[:, obs[0]]
    for t in range(1, T):
        trans = delta[t - 1][:, np.newaxis] + logA
        psi[t] = np.argmax(trans, axis=0)
        delta[t] = np.max(trans, axis=0) + logB[:, obs[t]]
    path = np.zeros(T, dtype=int)
    path[-1] = np.argmax(delta[-1])
    for t in range(T - 2, -1, -1):
        path[t] = psi[t + 1, path[t + 1]]
    return path, float(delta[-1].max())


# ---------------------------------------------------------------------------
# trees and ensembles
# ---------------------------------------------------------------------------

def gini_impurity(y):
    _, counts = np.unique(y, return_counts=True)
    p = counts / counts.sum()
    return 1.0 - np.sum(p ** 2)


def entropy_impurity(y):
    _, counts = np.unique(y, return_counts=True)
    p = counts / counts.sum()
    return -np.sum(p * np.log2(p))


def best_split(X, y, criterion="gini"):
    impurity = gini_impurity if criterion == "gini" else entropy_impurity
    best = {"gain": 0.0}
    parent = impurity(y)
    n = len(y)
    for feature in range(X.shape[1]):
        values = np.unique(X[:, feature])
        thresholds = (values[:-1] + values[1:]) / 2
        for threshold in thresholds:
            left_mask = X[:, feature] <= threshold
            n_left = left_mask.sum()
            n_right = n - n_left
            child = (n_left / n * impurity(y[left_mask])
                     + n_right / n * impurity(y[~left_mask]))
            gain = parent - child
            if gain > best["gain"]:
                best = {"gain": gain, "feature": feature, "threshold": threshold}
    return best


def build_tree(X, y, depth=0, max_depth=3, min_samples_split=2, criterion="gini"):
    n_samples = len(y)
    leaf = {"leaf": True, "value": Counter(y.tolist()).most_common(1)[0][0], "n": n_samples}
    if depth >= max_depth or n_samples < min_samples_split or len(np.unique(y)) == 1:
        return leaf
    split = best_split(X, y, criterion)
    if split["gain"] <= 0:
        return leaf
    left_mask = X[:, split["feature"]] <= split["threshold"]
    left = build_tree(X[left_mask], y[left_mask], depth + 1, max_depth, min_samples_split,
                      criterion)
    right = build_tree(X[~left_mask], y[~left_mask], depth + 1, max_depth, min_samples_split,
                       criterion)
    return {"leaf": False, "feature": int(split["feature"]),
            "threshold": float(split["threshold"]), "gain": float(split["gain"]),
            "left": left, "right": right}


def predict_tree(node, x):
    if node["leaf"]:
        return node["value"]
    if x[node["feature"]] <= node["threshold"]:
        return predict_tree(node["left"], x)
    return predict_tree(node["right"], x)


def tree_depth(node):
    if node["leaf"]:
        return 0
    return 1 + max(tree_depth(node["left"]), tree_depth(node["right"]))


def decision_tree_dict(X_train, y_train, X_test, max_depth=3, criterion="gini"):
    tree = build_tree(X_train, y_train, max_depth=max_depth, criterion=criterion)
    y_pred = np.array([predict_tree(tree, x) for x in X_test])
    return tree, y_pred, tree_depth(tree)


def entropy(y):
    hist = np.bincount(y)
    ps = hist / len(y)
    return -np.sum([p * np.log2(p) for p in ps if p > 0])


class Node:
    def __init__(self, feature=None, threshold=None, left=None, right=None, *, value=None):
        self.feature = feature
        self.threshold = threshold
        self.left = left
        self.right = right
        self.value = value

    def is_leaf_node(self):
        return self.value is not None


class DecisionTree:
    def __init__(self, min_samples_split=2, max_depth=100, n_feats=None, rng=None):
        self.min_samples_split = min_samples_split
        self.max_depth = max_depth
        self.n_feats = n_feats
        self.rng = rng if rng is not None else np.random.RandomState(0)
        self.root = None

    def fit(self, X, y):
        self.n_feats = X.shape[1] if not self.n_feats else min(self.n_feats, X.shape[1])
        self.root = self._grow_tree(X, y)

    def predict(self, X):
        return np.array([self._traverse_tree(x, self.root) for x in X])

    def _grow_tree(self, X, y, depth=0):
        n_samples, n_features = X.shape
        n_labels = len(np.unique(y))
        # stopping criteria
        if (depth >= self.max_depth or n_labels == 1 or n_samples < self.min_samples_split):
            leaf_value = self._most_common_label(y)
            return Node(value=leaf_value)
        feat_idxs = self.rng.choice(n_features, self.n_feats, replace=False)
        # greedily select the best split according to information gain
        best_feat, best_thresh = self._best_criteria(X, y, feat_idxs)
        # grow the children that result from the split
        left_idxs, right_idxs = self._split(X[:, best_feat], best_thresh)
        if len(left_idxs) == 0 or len(right_idxs) == 0:
            return Node(value=self._most_common_label(y))
        left = self._grow_tree(X[left_idxs, :], y[left_idxs], depth + 1)
        right = self._grow_tree(X[right_idxs, :], y[right_idxs], depth + 1)
        return Node(best_feat, best_thresh, left, right)

    def _best_criteria(self, X, y, feat_idxs):
        best_gain = -1
        split_idx, split_thresh = None, None
        for feat_idx in feat_idxs:
            X_column = X[:, feat_idx]
            thresholds = np.unique(X_column)
            for threshold in thresholds:
                gain = self._information_gain(y, X_column, threshold)
                if gain > best_gain:
                    best_gain = gain
                    split_idx = feat_idx
                    split_thresh = threshold
        return split_idx, split_thresh

    def _information_gain(self, y, X_column, split_thresh):
        # parent loss
        parent_entropy = entropy(y)
        # generate split
        left_idxs, right_idxs = self._split(X_column, split_thresh)
        if len(left_idxs) == 0 or len(right_idxs) == 0:
            return 0
        # compute the weighted avg. of the loss for the children
        n = len(y)
        n_l, n_r = len(left_idxs), len(right_idxs)
        e_l, e_r = entropy(y[left_idxs]), entropy(y[right_idxs])
        child_entropy = (n_l / n) * e_l + (n_r / n) * e_r
        # information gain is difference in loss before vs. after split
        ig = parent_entropy - child_entropy
        return ig

    def _split(self, X_column, split_thresh):
        left_idxs = np.argwhere(X_column <= split_thresh).flatten()
        right_idxs = np.argwhere(X_column > split_thresh).flatten()
        return left_idxs, right_idxs

    def _traverse_tree(self, x, node):
        if node.is_leaf_node():
            return node.value
        if x[node.feature] <= node.threshold:
            return self._traverse_tree(x, node.left)
        return self._traverse_tree(x, node.right)

    def _most_common_label(self, y):
        counter = Counter(y)
        most_common = counter.most_common(1)[0][0]
        return most_common


def count_leaves(node):
    if node.is_leaf_node():
        return 1
    return count_leaves(node.left) + count_leaves(node.right)


def decision_tree_nodes(X_train, y_train, X_test, max_depth=4):
    clf = DecisionTree(max_depth=max_depth)
    clf.fit(X_train, y_train)
    y_pred = clf.predict(X_test)
    root = clf.root
    return y_pred, int(root.feature), float(root.threshold), count_leaves(root)


def bootstrap_sample(X, y, rng):
    n_samples = X.shape[0]
    idxs = rng.choice(n_samples, n_samples, replace=True)
    return X[idxs], y[idxs]


def most_common_label(y):
    counter = Counter(y)
    most_common = counter.most_common(1)[0][0]
    return most_common


class RandomForest:
    def __init__(self, n_trees=10, min_samples_split=2, max_depth=100, n_feats=None, seed=0):
        self.n_trees = n_trees
        self.min_samples_split = min_samples_split
        self.max_depth = max_depth
        self.n_feats = n_feats
        self.seed = seed
        self.trees = []

    def fit(self, X, y):
        rng = np.random.RandomState(self.seed)
        self.trees = []
        for _ in range(self.n_trees):
            tree = DecisionTree(min_samples_split=self.min_samples_split,
                                max_depth=self.max_depth, n_feats=self.n_feats, rng=rng)
            X_samp, y_samp = bootstrap_sample(X, y, rng)
            tree.fit(X_samp, y_samp)
            self.trees.append(tree)

    def predict(self, X):
        tree_preds = np.array([tree.predict(X) for tree in self.trees])
        tree_preds = np.swapaxes(tree_preds, 0, 1)
        y_pred = [most_common_label(tree_pred) for tree_pred in tree_preds]
        return np.array(y_pred), tree_preds


def random_forest(X_train, y_train, X_test, n_trees=4, max_depth=3, n_feats=1, seed=0):
    clf = RandomForest(n_trees=n_trees, max_depth=max_depth, n_feats=n_feats, seed=seed)
    clf.fit(X_train, y_train)
    y_pred, tree_preds = clf.predict(X_test)
    roots = [(int(t.root.feature), float(t.root.threshold)) if not t.root.is_leaf_node()
             else (-1, float(t.root.value)) for t in clf.trees]
    return y_pred, tree_preds, roots


class DecisionStump:
    def __init__(self):
        self.polarity = 1
        self.feature_idx = None
        self.threshold = None
        self.alpha = None

    def predict(self, X):
        n_samples = X.shape[0]
        X_column = X[:, self.feature_idx]
        predictions = np.ones(n_samples)
        if self.polarity == 1:
            predictions[X_column < self.threshold] = -1
        else:
            predictions[X_column > self.threshold] = -1
        return predictions


class Adaboost:
    def __init__(self, n_clf=5):
        self.n_clf = n_clf

    def fit(self, X, y):
        n_samples, n_features = X.shape
        # Initialize weights to 1/N
        w = np.full(n_samples, (1 / n_samples))
        self.clfs = []
        # Iterate through classifiers
        for _ in range(self.n_clf):
            clf = DecisionStump()
            min_error = float("inf")
            # greedy search to find best threshold and feature
            for feature_i in range(n_features):
                X_column = X[:, feature_i]
                thresholds = np.unique(X_column)
                for threshold in thresholds:
                    # predict with polarity 1
                    p = 1
                    predictions = np.ones(n_samples)
                    predictions[X_column < threshold] = -1
                    # Error = sum of weights of misclassified samples
                    misclassified = w[y != predictions]
                    error = sum(misclassified)
                    if error > 0.5:
                        error = 1 - error
                        p = -1
                    # store the best configuration
                    if error < min_error:
                        clf.polarity = p
                        clf.threshold = threshold
                        clf.feature_idx = feature_i
                        min_error = error
            # calculate alpha
            EPS = 1e-10
            clf.alpha = 0.5 * np.log((1.0 - min_error + EPS) / (min_error + EPS))
            # calculate predictions and update weights
            predictions = clf.predict(X)
            w *= np.exp(-clf.alpha * y * predictions)
            # Normalize to one
            w /= np.sum(w)
            # Save classifier
            self.clfs.append(clf)

    def predict(self, X):
        clf_preds = [clf.alpha * clf.predict(X) for clf in self.clfs]
        y_pred = np.sum(clf_preds, axis=0)
        y_pred = np.sign(y_pred)
        return y_pred


def adaboost_stumps(X_train, y_train, X_test, n_clf=5):
    clf = Adaboost(n_clf=n_clf)
    clf.fit(X_train, y_train)
    y_pred = clf.predict(X_test)
    alphas = np.array([c.alpha for c in clf.clfs])
    stumps = [(c.feature_idx, float(c.threshold), c.polarity) for c in clf.clfs]
    return y_pred, alphas, stumps


class RegressionStump:
    def fit(self, X, y):
        best_sse = np.inf
        for feature in range(X.shape[1]):
            values = np.unique(X[:, feature])
            for thr in (values[:-1] + values[1:]) / 2:
                left = X[:, feature] <= thr
                y_left, y_right = y[left], y[~left]
                sse = (np.sum((y_left - y_left.mean()) ** 2)
                       + np.sum((y_right - y_right.mean()) ** 2))
                if sse < best_sse:
                    best_sse = sse
                    self.feature = feature
                    self.threshold = thr
                    self.left_value = y_left.mean()
                    self.right_value = y_right.mean()
        return self

    def predict(self, X):
        return np.where(X[:, self.feature] <= self.threshold, self.left_value, self.right_value)


def gradient_boosting_regressor(X, y, X_test, n_estimators=10, learning_rate=0.1):
    F0 = np.mean(y)
    F = np.full(len(y), F0)
    trees = []
    train_loss = []
    for m in range(n_estimators):
        residuals = y - F
        stump = RegressionStump().fit(X, residuals)
        F += learning_rate * stump.predict(X)
        trees.append(stump)
        train_loss.append(np.mean((y - F) ** 2))
    y_pred = F0 + learning_rate * sum(tree.predict(X_test) for tree in trees)
    return y_pred, np.array(train_loss), [(t.feature, float(t.threshold)) for t in trees]


def gradient_boosting_classifier(X, y, X_test, n_estimators=8, learning_rate=0.5):
    p = np.clip(np.mean(y), 1e-6, 1 - 1e-6)
    F0 = np.log(p / (1 - p))
    F = np.full(len(y), F0)
    trees = []
    log_losses = []
    for m in range(n_estimators):
        p = sigmoid(F)
        residuals = y - p
        stump = RegressionStump().fit(X, residuals)
        # Newton step for the leaf values
        left = X[:, stump.feature] <= stump.threshold
        hess = p * (1 - p)
        stump.left_value = residuals[left].sum() / (hess[left].sum() + 1e-12)
        stump.right_value = residuals[~left].sum() / (hess[~left].sum() + 1e-12)
        F += learning_rate * stump.predict(X)
        trees.append(stump)
        p = np.clip(sigmoid(F), 1e-15, 1 - 1e-15)
        log_losses.append(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    F_test = F0 + sum(learning_rate * t.predict(X_test) for t in trees)
    proba = sigmoid(F_test)
    return (proba > 0.5).astype(int), proba, np.array(log_losses)


# ---------------------------------------------------------------------------
# neural network building blocks
# ---------------------------------------------------------------------------

class Dense:
    def __init__(self, n_inputs, n_units, seed=0):
        rng = np.random.RandomState(seed)
        limit = 1 / math.sqrt(n_inputs)
        self.W = rng.uniform(-limit, limit, (n_inputs, n_units))
        self.b = np.zeros((1, n_units))

    def forward(self, X, training=True):
        self.layer_input = X
        return X.dot(self.W) + self.b

    def backward(self, accum_grad):
        W = self.W
        self.dW = self.layer_input.T.dot(accum_grad)
        self.db = np.sum(accum_grad, axis=0, keepdims=True)
        return accum_grad.dot(W.T)

    def parameters(self):
        return [self.W, self.b]

    def gradients(self):
        return [self.dW, self.db]


class ReLU:
    def forward(self, X, training=True):
        self.mask = X <= 0
        out = X.copy()
        out[self.mask] = 0
        return out

    def backward(self, accum_grad):
        dx = accum_grad.copy()
        dx[self.mask] = 0
        return dx

    def parameters(self):
        return []

    def gradients(self):
        return []


class Sigmoid:
    def forward(self, X, training=True):
        self.out = 1 / (1 + np.exp(-X))
        return self.out

    def backward(self, accum_grad):
        return accum_grad * self.out * (1 - self.out)

    def parameters(self):
        return []

    def gradients(self):
        return []


class Softmax:
    def forward(self, X, training=True):
        e_x = np.exp(X - np.max(X, axis=-1, keepdims=True))
        self.out = e_x / np.sum(e_x, axis=-1, keepdims=True)
        return self.out

    def backward(self, accum_grad):
        p = self.out
        return p * (accum_grad - np.sum(accum_grad * p, axis=-1, keepdims=True))

    def parameters(self):
        return []

    def gradients(self):
        return []


class Dropout:
    def __init__(self, p=0.2, seed=0):
        self.p = p
        self.rng = np.random.default_rng(seed)
        self._mask = None

    def forward(self, X, training=True):
        c = (1 - self.p)
        if training:
            self._mask = self.rng.uniform(size=X.shape) > self.p
            c = self._mask
        return X * c

    def backward(self, accum_grad):
        return accum_grad * self._mask

    def parameters(self):
        return []

    def gradients(self):
        return []


class BatchNormalization:
    def __init__(self, n_units, momentum=0.99, eps=0.01):
        self.momentum = momentum
        self.eps = eps
        self.gamma = np.ones(n_units)
        self.beta = np.zeros(n_units)
        self.running_mean = None
        self.running_var = None

    def forward(self, X, training=True):
        if self.running_mean is None:
            self.running_mean = np.mean(X, axis=0)
            self.running_var = np.var(X, axis=0)
        if training:
            mean = np.mean(X, axis=0)
            var = np.var(X, axis=0)
            self.running_mean = self.momentum * self.running_mean + (1 - self.momentum) * mean
            self.running_var = self.momentum * self.running_var + (1 - self.momentum) * var
        else:
            mean = self.running_mean
            var = self.running_var
        self.X_centered = X - mean
        self.stddev_inv = 1 / np.sqrt(var + self.eps)
        X_norm = self.X_centered * self.stddev_inv
        output = self.gamma * X_norm + self.beta
        return output

    def backward(self, accum_grad):
        gamma = self.gamma
        X_norm = self.X_centered * self.stddev_inv
        self.dgamma = np.sum(accum_grad * X_norm, axis=0)
        self.dbeta = np.sum(accum_grad, axis=0)
        batch_size = accum_grad.shape[0]
        accum_grad = (1 / batch_size) * gamma * self.stddev_inv * (
            batch_size * accum_grad
            - np.sum(accum_grad, axis=0)
            - self.X_centered * self.stddev_inv ** 2 * np.sum(accum_grad * self.X_centered, axis=0)
        )
        return accum_grad

    def parameters(self):
        return [self.gamma, self.beta]

    def gradients(self):
        return [self.dgamma, self.dbeta]


class SquareLoss:
    def loss(self, y, y_pred):
        return 0.5 * np.power((y - y_pred), 2)

    def gradient(self, y, y_pred):
        return -(y - y_pred)

    def acc(self, y, y_pred):
        return 0


class CrossEntropy:
    def loss(self, y, p):
        # Avoid division by zero
        p = np.clip(p, 1e-15, 1 - 1e-15)
        return - y * np.log(p) - (1 - y) * np.log(1 - p)

    def acc(self, y, p):
        return accuracy_score(np.argmax(y, axis=1), np.argmax(p, axis=1))

    def gradient(self, y, p):
        # Avoid division by zero
        p = np.clip(p, 1e-15, 1 - 1e-15)
        return - (y / p) + (1 - y) / (1 - p)


class SGD:
    def __init__(self, lr=0.01, momentum=0.0):
        self.lr = lr
        self.momentum = momentum
        self.velocities = None

    def step(self, params, grads):
        if self.velocities is None:
            self.velocities = [np.zeros_like(p) for p in params]
        for p, g, v in zip(params, grads, self.velocities):
            v *= self.momentum
            v -= self.lr * g
            p += v


class RMSProp:
    def __init__(self, lr=0.01, decay_rate=0.9, eps=1e-8):
        self.lr = lr
        self.decay_rate = decay_rate
        self.eps = eps
        self.cache = {}

    def step(self, params, grads):
        for i, (p, g) in enumerate(zip(params, grads)):
            if i not in self.cache:
                self.cache[i] = np.zeros_like(p)
            self.cache[i] = self.decay_rate * self.cache[i] + (1 - self.decay_rate) * g ** 2
            p -= self.lr * g / (np.sqrt(self.cache[i]) + self.eps)


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.m = None
        self.v = None
        self.t = 0

    def step(self, params, grads):
        if self.m is None:
            self.m = [np.zeros_like(p) for p in params]
            self.v = [np.zeros_like(p) for p in params]
        self.t += 1
        for i in range(len(params)):
            self.m[i] = self.beta1 * self.m[i] + (1 - self.beta1) * grads[i]
            self.v[i] = self.beta2 * self.v[i] + (1 - self.beta2) * np.power(grads[i], 2)
            m_hat = self.m[i] / (1 - self.beta1 ** self.t)
            v_hat = self.v[i] / (1 - self.beta2 ** self.t)
            params[i] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


def rosenbrock(xy, a=1.0, b=100.0):
    x, y = xy
    return (a - x) ** 2 + b * (y - x ** 2) ** 2


def rosenbrock_grad(xy, a=1.0, b=100.0):
    x, y = xy
    dx = -2 * (a - x) - 4 * b * x * (y - x ** 2)
    dy = 2 * b * (y - x ** 2)
    return np.array([dx, dy])


def optimize_rosenbrock(opt_name, start, n_steps=200, lr=1e-3):
    params = [np.array(start, dtype=float)]
    optimizers = {"sgd": SGD(lr=lr, momentum=0.9), "rmsprop": RMSProp(lr=lr), "adam": Adam(lr=lr)}
    opt = optimizers[opt_name]
    path = [params[0].copy()]
    losses = []
    for step in range(n_steps):
        grads = [rosenbrock_grad(params[0])]
        opt.step(params, grads)
        path.append(params[0].copy())
        losses.append(rosenbrock(params[0]))
    return np.array(path), np.array(losses)


def layers_forward_backward(X, y, n_hidden=8, p_drop=0.3, seed=0):
    n_classes = int(y.max()) + 1
    Y = to_categorical(y, n_classes)
    layers = [Dense(X.shape[1], n_hidden, seed=seed), ReLU(), Dropout(p_drop, seed=seed),
              Dense(n_hidden, n_hidden, seed=seed + 1), Sigmoid(),
              Dense(n_hidden, n_classes, seed=seed + 2), Softmax()]
    out = X
    for layer in layers:
        out = layer.forward(out, training=True)
    loss_fn = CrossEntropy()
    loss = np.mean(loss_fn.loss(Y, out))
    grad = loss_fn.gradient(Y, out)
    for layer in reversed(layers):
        grad = layer.backward(grad)
    grads = [g for layer in layers for g in layer.gradients()]
    return float(loss), grads, grad, out


class NeuralNetwork():
    """Neural Network. Deep Learning base model."""
    def __init__(self, optimizer, loss):
        self.optimizer = optimizer
        self.layers = []
        self.errors = {"training": [], "validation": []}
        self.loss_function = loss()

    def add(self, layer):
        self.layers.append(layer)

    def _forward_pass(self, X, training=True):
        layer_output = X
        for layer in self.layers:
            layer_output = layer.forward(layer_output, training)
        return layer_output

    def _backward_pass(self, loss_grad):
        for layer in reversed(self.layers):
            loss_grad = layer.backward(loss_grad)

    def train_on_batch(self, X, y):
        y_pred = self._forward_pass(X)
        loss = np.mean(self.loss_function.loss(y, y_pred))
        acc = self.loss_function.acc(y, y_pred)
        loss_grad = self.loss_function.gradient(y, y_pred)
        self._backward_pass(loss_grad=loss_grad)
        params, grads = [], []
        for layer in self.layers:
            params += layer.parameters()
            grads += layer.gradients()
        self.optimizer.step(params, grads)
        return loss, acc

    def fit(self, X, y, n_epochs, batch_size, seed=0):
        rng = np.random.RandomState(seed)
        for _ in range(n_epochs):
            idx = rng.permutation(len(X))
            batch_error = []
            for X_batch, y_batch in batch_iterator(X[idx], y[idx], batch_size=batch_size):
                loss, _ = self.train_on_batch(X_batch, y_batch)
                batch_error.append(loss)
            self.errors["training"].append(np.mean(batch_error))
        return self.errors["training"]

    def predict(self, X):
        return self._forward_pass(X, training=False)


def train_mlp_sequential(X, y, n_hidden=16, n_epochs=8, batch_size=8, lr=0.01, seed=0):
    n_classes = int(np.max(y)) + 1
    Y = to_categorical(y, n_classes)
    clf = NeuralNetwork(optimizer=Adam(lr=lr), loss=CrossEntropy)
    clf.add(Dense(X.shape[1], n_hidden, seed=seed))
    clf.add(BatchNormalization(n_hidden))
    clf.add(ReLU())
    clf.add(Dropout(0.1, seed=seed))
    clf.add(Dense(n_hidden, n_classes, seed=seed + 1))
    clf.add(Softmax())
    train_err = clf.fit(X, Y, n_epochs=n_epochs, batch_size=batch_size, seed=seed)
    y_pred = np.argmax(clf.predict(X), axis=1)
    return np.array(train_err), y_pred, float(accuracy_score(y, y_pred)), clf.layers[0].W


def batchnorm_forward(x, gamma, beta, bn_param):
    mode = bn_param['mode']
    eps = bn_param.get('eps', 1e-5)
    momentum = bn_param.get('momentum', 0.9)
    N, D = x.shape
    running_mean = bn_param.get('running_mean', np.zeros(D, dtype=x.dtype))
    running_var = bn_param.get('running_var', np.zeros(D, dtype=x.dtype))
    out, cache = None, None
    if mode == 'train':
        sample_mean = np.mean(x, axis=0)
        sample_var = np.var(x, axis=0)
        x_hat = (x - sample_mean) / np.sqrt(sample_var + eps)
        out = gamma * x_hat + beta
        cache = (x, x_hat, sample_mean, sample_var, gamma, beta, eps)
        running_mean = momentum * running_mean + (1 - momentum) * sample_mean
        running_var = momentum * running_var + (1 - momentum) * sample_var
    elif mode == 'test':
        x_hat = (x - running_mean) / np.sqrt(running_var + eps)
        out = gamma * x_hat + beta
    else:
        raise ValueError('Invalid forward batchnorm mode "%s"' % mode)
    # Store the updated running means back into bn_param
    bn_param['running_mean'] = running_mean
    bn_param['running_var'] = running_var
    return out, cache


def batchnorm_backward(dout, cache):
    x, x_hat, mu, var, gamma, beta, eps = cache
    N = x.shape[0]
    dbeta = np.sum(dout, axis=0)
    dgamma = np.sum(dout * x_hat, axis=0)
    dx_hat = dout * gamma
    xmu = x - mu
    ivar = 1. / np.sqrt(var + eps)
    divar = np.sum(dx_hat * xmu, axis=0)
    dxmu1 = dx_hat * ivar
    dsqrtvar = -1. / (np.sqrt(var + eps) ** 2) * divar
    dvar = 0.5 * 1. / np.sqrt(var + eps) * dsqrtvar
    dsq = 1. / N * np.ones_like(x) * dvar
    dxmu2 = 2 * xmu * dsq
    dx1 = (dxmu1 + dxmu2)
    dmu = -1 * np.sum(dxmu1 + dxmu2, axis=0)
    dx2 = 1. / N * np.ones_like(x) * dmu
    dx = dx1 + dx2
    return dx, dgamma, dbeta


def batchnorm_backward_alt(dout, cache):
    x, x_hat, mu, var, gamma, beta, eps = cache
    N = dout.shape[0]
    dbeta = dout.sum(axis=0)
    dgamma = np.sum(dout * x_hat, axis=0)
    dx_hat = dout * gamma
    std = np.sqrt(var + eps)
    dx = (1. / N) / std * (N * dx_hat - dx_hat.sum(axis=0)
                           - x_hat * np.sum(dx_hat * x_hat, axis=0))
    return dx, dgamma, dbeta


def batchnorm_train_test(x, gamma, beta, dout, x_test, n_steps=3, backward="alt"):
    bn_param = {'mode': 'train', 'momentum': 0.9}
    for step in range(n_steps):
        out, cache = batchnorm_forward(x + 0.1 * step, gamma, beta, bn_param)
    if backward == "alt":
        dx, dgamma, dbeta = batchnorm_backward_alt(dout, cache)
    else:
        dx, dgamma, dbeta = batchnorm_backward(dout, cache)
    bn_param['mode'] = 'test'
    test_out, _ = batchnorm_forward(x_test, gamma, beta, bn_param)
    return out, dx, dgamma, dbeta, test_out, bn_param['running_mean'], bn_param['running_var']


def dropout_forward(x, dropout_param):
    p, mode = dropout_param['p'], dropout_param['mode']
    if 'seed' in dropout_param:
        np.random.seed(dropout_param['seed'])
    mask = None
    out = None
    if mode == 'train':
        mask = (np.random.rand(*x.shape) < p) / p
        out = x * mask
    elif mode == 'test':
        out = x
    cache = (dropout_param, mask)
    out = out.astype(x.dtype, copy=False)
    return out, cache


def dropout_backward(dout, cache):
    dropout_param, mask = cache
    mode = dropout_param['mode']
    dx = None
    if mode == 'train':
        dx = dout * mask
    elif mode == 'test':
        dx = dout
    return dx


def dropout_forward_backward(x, dout, p=0.7, seed=123):
    dropout_param = {'mode': 'train', 'p': p, 'seed': seed}
    out, cache = dropout_forward(x, dropout_param)
    dx = dropout_backward(dout, cache)
    out_test, _ = dropout_forward(x, {'mode': 'test', 'p': p})
    kept = float((out != 0).mean())
    return out, dx, out_test, kept


class TwoLayerNet(object):
    """A two-layer fully-connected neural network with ReLU and a softmax loss."""
    def __init__(self, input_size, hidden_size, output_size, std=1e-4, seed=0):
        np.random.seed(seed)
        self.params = {}
        self.params['W1'] = std * np.random.randn(input_size, hidden_size)
        self.params['b1'] = np.zeros(hidden_size)
        self.params['W2'] = std * np.random.randn(hidden_size, output_size)
        self.params['b2'] = np.zeros(output_size)

    def loss(self, X, y=None, reg=0.0):
        W1, b1 = self.params['W1'], self.params['b1']
        W2, b2 = self.params['W2'], self.params['b2']
        N, D = X.shape
        # Compute the forward pass
        h1 = np.maximum(0, X.dot(W1) + b1)
        scores = h1.dot(W2) + b2
        if y is None:
            return scores
        shifted = scores - np.max(scores, axis=1, keepdims=True)
        exp_scores = np.exp(shifted)
        probs = exp_scores / np.sum(exp_scores, axis=1, keepdims=True)
        loss = -np.sum(np.log(probs[np.arange(N), y])) / N
        loss += reg * (np.sum(W1 * W1) + np.sum(W2 * W2))
        # Backward pass: compute gradients
        grads = {}
        dscores = probs.copy()
        dscores[np.arange(N), y] -= 1
        dscores /= N
        grads['W2'] = h1.T.dot(dscores) + 2 * reg * W2
        grads['b2'] = np.sum(dscores, axis=0)
        dh1 = dscores.dot(W2.T)
        dh1[h1 <= 0] = 0
        grads['W1'] = X.T.dot(dh1) + 2 * reg * W1
        grads['b1'] = np.sum(dh1, axis=0)
        return loss, grads

    def train(self, X, y, X_val, y_val, learning_rate=1e-3, learning_rate_decay=0.95,
              reg=5e-6, num_iters=100, batch_size=200, verbose=False):
        num_train = X.shape[0]
        iterations_per_epoch = max(num_train / batch_size, 1)
        loss_history = []
        train_acc_history = []
        val_acc_history = []
        for it in range(num_iters):
            sample_indices = np.random.choice(np.arange(num_train), batch_size)
            X_batch = X[sample_indices]
            y_batch = y[sample_indices]
            loss, grads = self.loss(X_batch, y=y_batch, reg=reg)
            loss_history.append(loss)
            for param_name in self.params:
                self.params[param_name] -= learning_rate * grads[param_name]
            if verbose and it % 100 == 0:
                print('iteration %d / %d: loss %f' % (it, num_iters, loss))
            if it % iterations_per_epoch == 0:
                train_acc = (self.predict(X_batch) == y_batch).mean()
                val_acc = (self.predict(X_val) == y_val).mean()
                train_acc_history.append(train_acc)
                val_acc_history.append(val_acc)
                learning_rate *= learning_rate_decay
        return {
            'loss_history': loss_history,
            'train_acc_history': train_acc_history,
            'val_acc_history': val_acc_history,
        }

    def predict(self, X):
        y_pred = np.argmax(self.loss(X), axis=1)
        return y_pred


def two_layer_net_train(X, y, X_val, y_val, hidden_size=10, num_iters=60, batch_size=16,
                        learning_rate=0.5, reg=1e-3, seed=0):
    net = TwoLayerNet(X.shape[1], hidden_size, int(y.max()) + 1, std=1e-1, seed=seed)
    stats = net.train(X, y, X_val, y_val, learning_rate=learning_rate, reg=reg,
                      num_iters=num_iters, batch_size=batch_size)
    val_acc = (net.predict(X_val) == y_val).mean()
    return stats, net.params, float(val_acc)


def eval_numerical_gradient(f, x, verbose=False, h=0.00001):
    """a naive implementation of numerical gradient of f at x"""
    grad = np.zeros_like(x)
    # iterate over all indexes in x
    it = np.nditer(x, flags=['multi_index'], op_flags=['readwrite'])
    while not it.finished:
        # evaluate function at x+h
        ix = it.multi_index
        oldval = x[ix]
        x[ix] = oldval + h  # increment by h
        fxph = f(x)  # evalute f(x + h)
        x[ix] = oldval - h
        fxmh = f(x)  # evaluate f(x - h)
        x[ix] = oldval  # restore
        # compute the partial derivative with centered formula
        grad[ix] = (fxph - fxmh) / (2 * h)  # the slope
        if verbose:
            print(ix, grad[ix])
        it.iternext()  # step to next dimension
    return grad


def rel_error(x, y):
    """ returns relative error """
    return np.max(np.abs(x - y) / (np.maximum(1e-8, np.abs(x) + np.abs(y))))


def gradient_check_two_layer(X, y, hidden_size=5, reg=0.05, seed=0):
    net = TwoLayerNet(X.shape[1], hidden_size, int(y.max()) + 1, std=1e-1, seed=seed)
    loss, grads = net.loss(X, y, reg=reg)
    num_grads = {}
    passed = {}
    for param_name in sorted(grads):
        f = lambda W: net.loss(X, y, reg=reg)[0]
        param_grad_num = eval_numerical_gradient(f, net.params[param_name], verbose=False)
        num_grads[param_name] = param_grad_num
        passed[param_name] = bool(rel_error(param_grad_num, grads[param_name]) < 1e-6)
    return float(loss), num_grads, passed


def spiral_data(samples, classes, seed=0):
    np.random.seed(seed)
    X = np.zeros((samples * classes, 2))
    y = np.zeros(samples * classes, dtype='uint8')
    for class_number in range(classes):
        ix = range(samples * class_number, samples * (class_number + 1))
        r = np.linspace(0.0, 1, samples)
        t = np.linspace(class_number * 4, (class_number + 1) * 4, samples) + \
            np.random.randn(samples) * 0.2
        X[ix] = np.c_[r * np.sin(t * 2.5), r * np.cos(t * 2.5)]
        y[ix] = class_number
    return X, y


class Layer_Dense:
    def __init__(self, n_inputs, n_neurons):
        self.weights = 0.01 * np.random.randn(n_inputs, n_neurons)
        self.biases = np.zeros((1, n_neurons))

    def forward(self, inputs):
        self.inputs = inputs
        self.output = np.dot(inputs, self.weights) + self.biases

    def backward(self, dvalues):
        self.dweights = np.dot(self.inputs.T, dvalues)
        self.dbiases = np.sum(dvalues, axis=0, keepdims=True)
        self.dinputs = np.dot(dvalues, self.weights.T)


class Activation_ReLU:
    def forward(self, inputs):
        self.inputs = inputs
        self.output = np.maximum(0, inputs)

    def backward(self, dvalues):
        self.dinputs = dvalues.copy()
        self.dinputs[self.inputs <= 0] = 0


class Activation_Softmax:
    def forward(self, inputs):
        exp_values = np.exp(inputs - np.max(inputs, axis=1, keepdims=True))
        probabilities = exp_values / np.sum(exp_values, axis=1, keepdims=True)
        self.output = probabilities


class Loss:
    def calculate(self, output, y):
        sample_losses = self.forward(output, y)
        data_loss = np.mean(sample_losses)
        return data_loss


class Loss_CategoricalCrossentropy(Loss):
    def forward(self, y_pred, y_true):
        samples = len(y_pred)
        y_pred_clipped = np.clip(y_pred, 1e-7, 1 - 1e-7)
        if len(y_true.shape) == 1:
            correct_confidences = y_pred_clipped[range(samples), y_true]
        elif len(y_true.shape) == 2:
            correct_confidences = np.sum(y_pred_clipped * y_true, axis=1)
        negative_log_likelihoods = -np.log(correct_confidences)
        return negative_log_likelihoods


class Activation_Softmax_Loss_CategoricalCrossentropy():
    def __init__(self):
        self.activation = Activation_Softmax()
        self.loss = Loss_CategoricalCrossentropy()

    def forward(self, inputs, y_true):
        self.activation.forward(inputs)
        self.output = self.activation.output
        return self.loss.calculate(self.output, y_true)

    def backward(self, dvalues, y_true):
        samples = len(dvalues)
        if len(y_true.shape) == 2:
            y_true = np.argmax(y_true, axis=1)
        self.dinputs = dvalues.copy()
        self.dinputs[range(samples), y_true] -= 1
        self.dinputs = self.dinputs / samples


class Optimizer_Adam:
    def __init__(self, learning_rate=0.001, decay=0., epsilon=1e-7, beta_1=0.9, beta_2=0.999):
        self.learning_rate = learning_rate
        self.current_learning_rate = learning_rate
        self.decay = decay
        self.iterations = 0
        self.epsilon = epsilon
        self.beta_1 = beta_1
        self.beta_2 = beta_2

    def pre_update_params(self):
        if self.decay:
            self.current_learning_rate = self.learning_rate * \
                (1. / (1. + self.decay * self.iterations))

    def update_params(self, layer):
        if not hasattr(layer, 'weight_cache'):
            layer.weight_momentums = np.zeros_like(layer.weights)
            layer.weight_cache = np.zeros_like(layer.weights)
            layer.bias_momentums = np.zeros_like(layer.biases)
            layer.bias_cache = np.zeros_like(layer.biases)
        layer.weight_momentums = self.beta_1 * layer.weight_momentums + \
            (1 - self.beta_1) * layer.dweights
        layer.bias_momentums = self.beta_1 * layer.bias_momentums + \
            (1 - self.beta_1) * layer.dbiases
        weight_momentums_corrected = layer.weight_momentums / \
            (1 - self.beta_1 ** (self.iterations + 1))
        bias_momentums_corrected = layer.bias_momentums / \
            (1 - self.beta_1 ** (self.iterations + 1))
        layer.weight_cache = self.beta_2 * layer.weight_cache + \
            (1 - self.beta_2) * layer.dweights ** 2
        layer.bias_cache = self.beta_2 * layer.bias_cache + \
            (1 - self.beta_2) * layer.dbiases ** 2
        weight_cache_corrected = layer.weight_cache / \
            (1 - self.beta_2 ** (self.iterations + 1))
        bias_cache_corrected = layer.bias_cache / \
            (1 - self.beta_2 ** (self.iterations + 1))
        layer.weights += -self.current_learning_rate * weight_momentums_corrected / \
            (np.sqrt(weight_cache_corrected) + self.epsilon)
        layer.biases += -self.current_learning_rate * bias_momentums_corrected / \
            (np.sqrt(bias_cache_corrected) + self.epsilon)

    def post_update_params(self):
        self.iterations += 1


def nnfs_train_spiral(samples=30, classes=3, epochs=100, seed=0):
    X, y = spiral_data(samples=samples, classes=classes, seed=seed)
    np.random.seed(seed)
    dense1 = Layer_Dense(2, 32)
    activation1 = Activation_ReLU()
    dense2 = Layer_Dense(32, classes)
    loss_activation = Activation_Softmax_Loss_CategoricalCrossentropy()
    optimizer = Optimizer_Adam(learning_rate=0.05, decay=5e-7)
    history = []
    for epoch in range(epochs + 1):
        dense1.forward(X)
        activation1.forward(dense1.output)
        dense2.forward(activation1.output)
        loss = loss_activation.forward(dense2.output, y)
        predictions = np.argmax(loss_activation.output, axis=1)
        if len(y.shape) == 2:
            y = np.argmax(y, axis=1)
        accuracy = np.mean(predictions == y)
        if not epoch % 20:
            history.append((epoch, float(accuracy), float(loss),
                            optimizer.current_learning_rate))
        loss_activation.backward(loss_activation.output, y)
        dense2.backward(loss_activation.dinputs)
        activation1.backward(dense2.dinputs)
        dense1.backward(activation1.dinputs)
        optimizer.pre_update_params()
        optimizer.update_params(dense1)
        optimizer.update_params(dense2)
        optimizer.post_update_params()
    return history, dense1.weights, dense2.biases


def trask_two_layer(X, y, iterations=500, seed=1):
    np.random.seed(seed)
    # randomly initialize our weights with mean 0
    syn0 = 2 * np.random.random((X.shape[1], 4)) - 1
    syn1 = 2 * np.random.random((4, 1)) - 1
    errors = []
    for j in range(iterations):
        # Feed forward through layers 0, 1, and 2
        l0 = X
        l1 = 1 / (1 + np.exp(-(np.dot(l0, syn0))))
        l2 = 1 / (1 + np.exp(-(np.dot(l1, syn1))))
        # how much did we miss the target value?
        l2_error = y - l2
        if (j % 100) == 0:
            errors.append(np.mean(np.abs(l2_error)))
        # in what direction is the target value?
        l2_delta = l2_error * (l2 * (1 - l2))
        # how much did each l1 value contribute to the l2 error?
        l1_error = l2_delta.dot(syn1.T)
        l1_delta = l1_error * (l1 * (1 - l1))
        syn1 += l1.T.dot(l2_delta)
        syn0 += l0.T.dot(l1_delta)
    return l2, syn0, syn1, errors


def initialize_parameters_deep(layer_dims):
    np.random.seed(1)
    parameters = {}
    L = len(layer_dims)  # number of layers in the network
    for l in range(1, L):
        parameters['W' + str(l)] = np.random.randn(layer_dims[l], layer_dims[l - 1]) / \
            np.sqrt(layer_dims[l - 1])
        parameters['b' + str(l)] = np.zeros((layer_dims[l], 1))
    return parameters


def linear_forward(A, W, b):
    Z = W.dot(A) + b
    cache = (A, W, b)
    return Z, cache


def linear_activation_forward(A_prev, W, b, activation):
    Z, linear_cache = linear_forward(A_prev, W, b)
    if activation == "sigmoid":
        A = 1 / (1 + np.exp(-Z))
    elif activation == "relu":
        A = np.maximum(0, Z)
    activation_cache = Z
    cache = (linear_cache, activation_cache)
    return A, cache


def L_model_forward(X, parameters):
    caches = []
    A = X
    L = len(parameters) // 2  # number of layers in the neural network
    for l in range(1, L):
        A_prev = A
        A, cache = linear_activation_forward(A_prev, parameters[f"W{l}"], parameters[f"b{l}"],
                                             activation="relu")
        caches.append(cache)
    AL, cache = linear_activation_forward(A, parameters[f"W{L}"], parameters[f"b{L}"],
                                          activation="sigmoid")
    caches.append(cache)
    return AL, caches


def compute_cost(AL, Y):
    m = Y.shape[1]
    cost = (1. / m) * (-np.dot(Y, np.log(AL).T) - np.dot(1 - Y, np.log(1 - AL).T))
    cost = np.squeeze(cost)  # To make sure your cost's shape is what we expect
    return cost


def linear_backward(dZ, cache):
    A_prev, W, b = cache
    m = A_prev.shape[1]
    dW = 1. / m * np.dot(dZ, A_prev.T)
    db = 1. / m * np.sum(dZ, axis=1, keepdims=True)
    dA_prev = np.dot(W.T, dZ)
    return dA_prev, dW, db


def linear_activation_backward(dA, cache, activation):
    linear_cache, activation_cache = cache
    Z = activation_cache
    if activation == "relu":
        dZ = np.array(dA, copy=True)
        dZ[Z <= 0] = 0
    elif activation == "sigmoid":
        s = 1 / (1 + np.exp(-Z))
        dZ = dA * s * (1 - s)
    dA_prev, dW, db = linear_backward(dZ, linear_cache)
    return dA_prev, dW, db


def L_model_backward(AL, Y, caches):
    grads = {}
    L = len(caches)  # the number of layers
    Y = Y.reshape(AL.shape)
    dAL = - (np.divide(Y, AL) - np.divide(1 - Y, 1 - AL))
    current_cache = caches[L - 1]
    grads[f"dA{L - 1}"], grads[f"dW{L}"], grads[f"db{L}"] = linear_activation_backward(
        dAL, current_cache, activation="sigmoid")
    for l in reversed(range(L - 1)):
        current_cache = caches[l]
        dA_prev_temp, dW_temp, db_temp = linear_activation_backward(
            grads["dA" + str(l + 1)], current_cache, activation="relu")
        grads["dA" + str(l)] = dA_prev_temp
        grads["dW" + str(l + 1)] = dW_temp
        grads["db" + str(l + 1)] = db_temp
    return grads


def update_parameters(parameters, grads, learning_rate):
    L = len(parameters) // 2  # number of layers in the neural network
    for l in range(L):
        parameters["W" + str(l + 1)] = parameters["W" + str(l + 1)] - \
            learning_rate * grads["dW" + str(l + 1)]
        parameters["b" + str(l + 1)] = parameters["b" + str(l + 1)] - \
            learning_rate * grads["db" + str(l + 1)]
    return parameters


def L_layer_model(X, Y, layers_dims, learning_rate=0.0075, num_iterations=100,
                  print_cost=False):
    costs = []
    parameters = initialize_parameters_deep(layers_dims)
    for i in range(0, num_iterations):
        AL, caches = L_model_forward(X, parameters)
        cost = compute_cost(AL, Y)
        grads = L_model_backward(AL, Y, caches)
        parameters = update_parameters(parameters, grads, learning_rate)
        if print_cost and i % 100 == 0:
            print("Cost after iteration %i: %f" % (i, cost))
        if i % 10 == 0:
            costs.append(cost)
    probas, _ = L_model_forward(X, parameters)
    p = (probas > 0.5).astype(int)
    return parameters, np.array(costs), p, float(np.sum(p == Y) / Y.shape[1])


# ---------------------------------------------------------------------------
# convolution and pooling
# ---------------------------------------------------------------------------

def conv_forward_naive(x, w, b, conv_param):
    stride, pad = conv_param['stride'], conv_param['pad']
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    x_pad = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), mode='constant')
    out = np.zeros((N, F, H_out, W_out))
    for n in range(N):
        for f in range(F):
            for i in range(H_out):
                for j in range(W_out):
                    h_start = i * stride
                    w_start = j * stride
                    window = x_pad[n, :, h_start:h_start + HH, w_start:w_start + WW]
                    out[n, f, i, j] = np.sum(window * w[f]) + b[f]
    cache = (x, w, b, conv_param)
    return out, cache


def conv_backward_naive(dout, cache):
    x, w, b, conv_param = cache
    stride, pad = conv_param['stride'], conv_param['pad']
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    _, _, H_out, W_out = dout.shape
    x_pad = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), mode='constant')
    dx_pad = np.zeros_like(x_pad)
    dw = np.zeros_like(w)
    db = np.sum(dout, axis=(0, 2, 3))
    for n in range(N):
        for f in range(F):
            for i in range(H_out):
                for j in range(W_out):
                    hs, ws = i * stride, j * stride
                    window = x_pad[n, :, hs:hs + HH, ws:ws + WW]
                    dw[f] += window * dout[n, f, i, j]
                    dx_pad[n, :, hs:hs + HH, ws:ws + WW] += w[f] * dout[n, f, i, j]
    dx = dx_pad[:, :, pad:pad + H, pad:pad + W]
    return dx, dw, db


def conv_naive(x, w, b, dout, stride=1, pad=1):
    conv_param = {'stride': stride, 'pad': pad}
    out, cache = conv_forward_naive(x, w, b, conv_param)
    dx, dw, db = conv_backward_naive(dout, cache)
    return out, dx, dw, db


def get_im2col_indices(x_shape, field_height, field_width, padding=1, stride=1):
    # First figure out what the size of the output should be
    N, C, H, W = x_shape
    assert (H + 2 * padding - field_height) % stride == 0
    assert (W + 2 * padding - field_width) % stride == 0
    out_height = int((H + 2 * padding - field_height) / stride + 1)
    out_width = int((W + 2 * padding - field_width) / stride + 1)
    i0 = np.repeat(np.arange(field_height), field_width)
    i0 = np.tile(i0, C)
    i1 = stride * np.repeat(np.arange(out_height), out_width)
    j0 = np.tile(np.arange(field_width), field_height * C)
    j1 = stride * np.tile(np.arange(out_width), out_height)
    i = i0.reshape(-1, 1) + i1.reshape(1, -1)
    j = j0.reshape(-1, 1) + j1.reshape(1, -1)
    k = np.repeat(np.arange(C), field_height * field_width).reshape(-1, 1)
    return (k.astype(int), i.astype(int), j.astype(int))


def im2col_indices(x, field_height, field_width, padding=1, stride=1):
    """ An implementation of im2col based on some fancy indexing """
    p = padding
    x_padded = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), mode='constant')
    k, i, j = get_im2col_indices(x.shape, field_height, field_width, padding, stride)
    cols = x_padded[:, k, i, j]
    C = x.shape[1]
    cols = cols.transpose(1, 2, 0).reshape(field_height * field_width * C, -1)
    return cols


def col2im_indices(cols, x_shape, field_height=3, field_width=3, padding=1, stride=1):
    """ An implementation of col2im based on fancy indexing and np.add.at """
    N, C, H, W = x_shape
    H_padded, W_padded = H + 2 * padding, W + 2 * padding
    x_padded = np.zeros((N, C, H_padded, W_padded), dtype=cols.dtype)
    k, i, j = get_im2col_indices(x_shape, field_height, field_width, padding, stride)
    cols_reshaped = cols.reshape(C * field_height * field_width, -1, N)
    cols_reshaped = cols_reshaped.transpose(2, 0, 1)
    np.add.at(x_padded, (slice(None), k, i, j), cols_reshaped)
    if padding == 0:
        return x_padded
    return x_padded[:, :, padding:-padding, padding:-padding]


def conv_im2col(x, w, b, dout, stride=1, pad=1):
    N, C, H, W = x.shape
    num_filters, _, filter_height, filter_width = w.shape
    out_height = (H + 2 * pad - filter_height) // stride + 1
    out_width = (W + 2 * pad - filter_width) // stride + 1
    x_cols = im2col_indices(x, filter_height, filter_width, pad, stride)
    res = w.reshape((w.shape[0], -1)).dot(x_cols) + b.reshape(-1, 1)
    out = res.reshape(w.shape[0], out_height, out_width, x.shape[0])
    out = out.transpose(3, 0, 1, 2)
    # backward
    db = np.sum(dout, axis=(0, 2, 3))
    dout_reshaped = dout.transpose(1, 2, 3, 0).reshape(num_filters, -1)
    dw = dout_reshaped.dot(x_cols.T).reshape(w.shape)
    dx_cols = w.reshape(num_filters, -1).T.dot(dout_reshaped)
    dx = col2im_indices(dx_cols, x.shape, filter_height, filter_width, pad, stride)
    return out, dx, dw, db


def convolve2d(image, kernel, padding=0, strides=1):
    # Cross Correlation
    kernel = np.flipud(np.fliplr(kernel))
    xKernShape, yKernShape = kernel.shape
    xImgShape, yImgShape = image.shape
    xOutput = int(((xImgShape - xKernShape + 2 * padding) / strides) + 1)
    yOutput = int(((yImgShape - yKernShape + 2 * padding) / strides) + 1)
    output = np.zeros((xOutput, yOutput))
    if padding != 0:
        imagePadded = np.zeros((image.shape[0] + padding * 2, image.shape[1] + padding * 2))
        imagePadded[int(padding):int(-1 * padding), int(padding):int(-1 * padding)] = image
    else:
        imagePadded = image
    for y in range(image.shape[1]):
        if y > image.shape[1] - yKernShape + 2 * padding:
            break
        if y % strides == 0:
            for x in range(image.shape[0]):
                if x > image.shape[0] - xKernShape + 2 * padding:
                    break
                if x % strides == 0:
                    output[x // strides, y // strides] = (
                        kernel * imagePadded[x: x + xKernShape, y: y + yKernShape]).sum()
    return output


def max_pool_forward_naive(x, pool_param):
    N, C, H, W = x.shape
    pool_height = pool_param['pool_height']
    pool_width = pool_param['pool_width']
    stride = pool_param['stride']
    H_out = 1 + (H - pool_height) // stride
    W_out = 1 + (W - pool_width) // stride
    out = np.zeros((N, C, H_out, W_out))
    for n in range(N):
        for c in range(C):
            for i in range(H_out):
                for j in range(W_out):
                    hs, ws = i * stride, j * stride
                    out[n, c, i, j] = np.max(x[n, c, hs:hs + pool_height, ws:ws + pool_width])
    cache = (x, pool_param)
    return out, cache


def max_pool_backward_naive(dout, cache):
    x, pool_param = cache
    N, C, H, W = x.shape
    ph, pw, stride = pool_param['pool_height'], pool_param['pool_width'], pool_param['stride']
    _, _, H_out, W_out = dout.shape
    dx = np.zeros_like(x)
    for n in range(N):
        for c in range(C):
            for i in range(H_out):
                for j in range(W_out):
                    hs, ws = i * stride, j * stride
                    window = x[n, c, hs:hs + ph, ws:ws + pw]
                    idx = np.unravel_index(np.argmax(window), window.shape)
                    dx[n, c, hs + idx[0], ws + idx[1]] += dout[n, c, i, j]
    return dx


def max_pool_naive(x, dout, pool_height=2, pool_width=2, stride=2):
    pool_param = {'pool_height': pool_height, 'pool_width': pool_width, 'stride': stride}
    out, cache = max_pool_forward_naive(x, pool_param)
    dx = max_pool_backward_naive(dout, cache)
    return out, dx


def max_pool_reshape(x, dout, pool_height=2, pool_width=2):
    N, C, H, W = x.shape
    assert pool_height == pool_width, 'Invalid pool params'
    assert H % pool_height == 0
    assert W % pool_height == 0
    x_reshaped = x.reshape(N, C, H // pool_height, pool_height, W // pool_width, pool_width)
    out = x_reshaped.max(axis=3).max(axis=4)
    # backward
    dx_reshaped = np.zeros_like(x_reshaped)
    out_newaxis = out[:, :, :, np.newaxis, :, np.newaxis]
    mask = (x_reshaped == out_newaxis)
    dout_newaxis = dout[:, :, :, np.newaxis, :, np.newaxis]
    dout_broadcast, _ = np.broadcast_arrays(dout_newaxis, dx_reshaped)
    dx_reshaped[mask] = dout_broadcast[mask]
    dx_reshaped /= np.sum(mask, axis=(3, 5), keepdims=True)
    dx = dx_reshaped.reshape(x.shape)
    return out, dx


# ---------------------------------------------------------------------------
# recurrent networks and word vectors
# ---------------------------------------------------------------------------

def lossFun(inputs, targets, hprev, Wxh, Whh, Why, bh, by, vocab_size):
    """inputs,targets are both list of integers. hprev is Hx1 array of initial hidden state
    returns the loss, gradients on model parameters, and last hidden state"""
    xs, hs, ys, ps = {}, {}, {}, {}
    hs[-1] = np.copy(hprev)
    loss = 0
    # forward pass
    for t in range(len(inputs)):
        xs[t] = np.zeros((vocab_size, 1))  # encode in 1-of-k representation
        xs[t][inputs[t]] = 1
        hs[t] = np.tanh(np.dot(Wxh, xs[t]) + np.dot(Whh, hs[t - 1]) + bh)  # hidden state
        ys[t] = np.dot(Why, hs[t]) + by  # unnormalized log probabilities for next chars
        ps[t] = np.exp(ys[t]) / np.sum(np.exp(ys[t]))  # probabilities for next chars
        loss += -np.log(ps[t][targets[t], 0])  # softmax (cross-entropy loss)
    # backward pass: compute gradients going backwards
    dWxh, dWhh, dWhy = np.zeros_like(Wxh), np.zeros_like(Whh), np.zeros_like(Why)
    dbh, dby = np.zeros_like(bh), np.zeros_like(by)
    dhnext = np.zeros_like(hs[0])
    for t in reversed(range(len(inputs))):
        dy = np.copy(ps[t])
        dy[targets[t]] -= 1  # backprop into y
        dWhy += np.dot(dy, hs[t].T)
        dby += dy
        dh = np.dot(Why.T, dy) + dhnext  # backprop into h
        dhraw = (1 - hs[t] * hs[t]) * dh  # backprop through tanh nonlinearity
        dbh += dhraw
        dWxh += np.dot(dhraw, xs[t].T)
        dWhh += np.dot(dhraw, hs[t - 1].T)
        dhnext = np.dot(Whh.T, dhraw)
    for dparam in [dWxh, dWhh, dWhy, dbh, dby]:
        np.clip(dparam, -5, 5, out=dparam)  # clip to mitigate exploding gradients
    return loss, dWxh, dWhh, dWhy, dbh, dby, hs[len(inputs) - 1]


def rnn_sample(h, seed_ix, n, Wxh, Whh, Why, bh, by, vocab_size):
    """ sample a sequence of integers from the model """
    x = np.zeros((vocab_size, 1))
    x[seed_ix] = 1
    ixes = []
    for t in range(n):
        h = np.tanh(np.dot(Wxh, x) + np.dot(Whh, h) + bh)
        y = np.dot(Why, h) + by
        p = np.exp(y) / np.sum(np.exp(y))
        ix = np.random.choice(range(vocab_size), p=p.ravel())
        x = np.zeros((vocab_size, 1))
        x[ix] = 1
        ixes.append(ix)
    return ixes


def min_char_rnn(data, hidden_size=16, seq_length=8, learning_rate=1e-1, n_iters=30,
                 sample_len=20, seed=0):
    chars = sorted(set(data))
    data_size, vocab_size = len(data), len(chars)
    char_to_ix = {ch: i for i, ch in enumerate(chars)}
    ix_to_char = {i: ch for i, ch in enumerate(chars)}
    np.random.seed(seed)
    Wxh = np.random.randn(hidden_size, vocab_size) * 0.01  # input to hidden
    Whh = np.random.randn(hidden_size, hidden_size) * 0.01  # hidden to hidden
    Why = np.random.randn(vocab_size, hidden_size) * 0.01  # hidden to output
    bh = np.zeros((hidden_size, 1))  # hidden bias
    by = np.zeros((vocab_size, 1))  # output bias
    n, p = 0, 0
    mWxh, mWhh, mWhy = np.zeros_like(Wxh), np.zeros_like(Whh), np.zeros_like(Why)
    mbh, mby = np.zeros_like(bh), np.zeros_like(by)  # memory variables for Adagrad
    smooth_loss = -np.log(1.0 / vocab_size) * seq_length  # loss at iteration 0
    losses = []
    while n < n_iters:
        # prepare inputs (we're sweeping from left to right in steps seq_length long)
        if p + seq_length + 1 >= len(data) or n == 0:
            hprev = np.zeros((hidden_size, 1))  # reset RNN memory
            p = 0  # go from start of data
        inputs = [char_to_ix[ch] for ch in data[p:p + seq_length]]
        targets = [char_to_ix[ch] for ch in data[p + 1:p + seq_length + 1]]
        loss, dWxh, dWhh, dWhy, dbh, dby, hprev = lossFun(inputs, targets, hprev, Wxh, Whh,
                                                          Why, bh, by, vocab_size)
        smooth_loss = smooth_loss * 0.999 + loss * 0.001
        losses.append(smooth_loss)
        # perform parameter update with Adagrad
        for param, dparam, mem in zip([Wxh, Whh, Why, bh, by],
                                      [dWxh, dWhh, dWhy, dbh, dby],
                                      [mWxh, mWhh, mWhy, mbh, mby]):
            mem += dparam * dparam
            param += -learning_rate * dparam / np.sqrt(mem + 1e-8)  # adagrad update
        p += seq_length  # move data pointer
        n += 1  # iteration counter
    sample_ix = rnn_sample(hprev, inputs[0], sample_len, Wxh, Whh, Why, bh, by, vocab_size)
    txt = ''.join(ix_to_char[ix] for ix in sample_ix)
    return np.array(losses), txt, Wxh, Why, data_size


def stable_sigmoid(x):
    pos_mask = (x >= 0)
    neg_mask = (x < 0)
    z = np.zeros_like(x)
    z[pos_mask] = np.exp(-x[pos_mask])
    z[neg_mask] = np.exp(x[neg_mask])
    top = np.ones_like(x)
    top[neg_mask] = z[neg_mask]
    return top / (1 + z)


def lstm_step_forward(x, prev_h, prev_c, Wx, Wh, b):
    N, H = prev_h.shape
    a = x.dot(Wx) + prev_h.dot(Wh) + b
    ai, af, ao, ag = a[:, :H], a[:, H:2 * H], a[:, 2 * H:3 * H], a[:, 3 * H:]
    i = stable_sigmoid(ai)
    f = stable_sigmoid(af)
    o = stable_sigmoid(ao)
    g = np.tanh(ag)
    next_c = f * prev_c + i * g
    next_h = o * np.tanh(next_c)
    cache = (x, prev_h, prev_c, Wx, Wh, i, f, o, g, next_c)
    return next_h, next_c, cache


def lstm_step_backward(dnext_h, dnext_c, cache):
    x, prev_h, prev_c, Wx, Wh, i, f, o, g, next_c = cache
    tanh_c = np.tanh(next_c)
    dnext_c = dnext_c + dnext_h * o * (1 - tanh_c ** 2)
    dprev_c = dnext_c * f
    di = dnext_c * g
    df = dnext_c * prev_c
    do = dnext_h * tanh_c
    dg = dnext_c * i
    dai = di * i * (1 - i)
    daf = df * f * (1 - f)
    dao = do * o * (1 - o)
    dag = dg * (1 - g ** 2)
    da = np.hstack((dai, daf, dao, dag))
    dx = da.dot(Wx.T)
    dprev_h = da.dot(Wh.T)
    dWx = x.T.dot(da)
    dWh = prev_h.T.dot(da)
    db = np.sum(da, axis=0)
    return dx, dprev_h, dprev_c, dWx, dWh, db


def lstm_forward(x, h0, Wx, Wh, b):
    N, T, D = x.shape
    H = h0.shape[1]
    h = np.zeros((N, T, H))
    cache = []
    prev_h = h0
    prev_c = np.zeros_like(h0)
    for t in range(T):
        next_h, next_c, cache_t = lstm_step_forward(x[:, t, :], prev_h, prev_c, Wx, Wh, b)
        h[:, t, :] = next_h
        cache.append(cache_t)
        prev_h, prev_c = next_h, next_c
    return h, cache


def lstm_backward(dh, cache):
    N, T, H = dh.shape
    D = cache[0][0].shape[1]
    dx = np.zeros((N, T, D))
    dprev_h = np.zeros((N, H))
    dprev_c = np.zeros((N, H))
    dWx = np.zeros((D, 4 * H))
    dWh = np.zeros((H, 4 * H))
    db = np.zeros(4 * H)
    for t in reversed(range(T)):
        dnext_h = dh[:, t, :] + dprev_h
        dx_t, dprev_h, dprev_c, dWx_t, dWh_t, db_t = lstm_step_backward(dnext_h, dprev_c,
                                                                        cache[t])
        dx[:, t, :] = dx_t
        dWx += dWx_t
        dWh += dWh_t
        db += db_t
    dh0 = dprev_h
    return dx, dh0, dWx, dWh, db


def lstm_sequence(x, h0, Wx, Wh, b, dh):
    h, cache = lstm_forward(x, h0, Wx, Wh, b)
    dx, dh0, dWx, dWh, db = lstm_backward(dh, cache)
    return h, dx, dh0, dWx, dWh, db


def skipgram_pairs(tokens, window_size=2):
    word_counts = Counter(tokens)
    vocab = [w for w, _ in word_counts.most_common()]
    word2idx = {w: i for i, w in enumerate(vocab)}
    ids = [word2idx[w] for w in tokens]
    pairs = []
    for i, center in enumerate(ids):
        for j in range(max(0, i - window_size), min(len(ids), i + window_size + 1)):
            if i != j:
                pairs.append((center, ids[j]))
    return vocab, pairs


def word2vec_sgns(text, embed_dim=8, window_size=2, n_negative=3, lr=0.05, epochs=3, seed=0):
    tokens = text.lower().split()
    vocab, pairs = skipgram_pairs(tokens, window_size)
    V = len(vocab)
    counts = Counter(tokens)
    freqs = np.array([counts[w] for w in vocab], dtype=float)
    noise_dist = freqs ** 0.75
    noise_dist /= noise_dist.sum()
    rng = np.random.default_rng(seed)
    W_in = (rng.random((V, embed_dim)) - 0.5) / embed_dim
    W_out = np.zeros((V, embed_dim))
    losses = []
    for epoch in range(epochs):
        order = rng.permutation(len(pairs))
        total_loss = 0.0
        for idx in order:
            center, context = pairs[idx]
            negatives = rng.choice(V, size=n_negative, p=noise_dist)
            targets = np.concatenate(([context], negatives))
            labels = np.zeros(len(targets))
            labels[0] = 1
            v = W_in[center]
            u = W_out[targets]
            scores = sigmoid(u @ v)
            total_loss += -np.log(scores[0] + 1e-10) - np.sum(np.log(1 - scores[1:] + 1e-10))
            g = scores - labels
            grad_v = g @ u
            for k, t in enumerate(targets):
                W_out[t] -= lr * g[k] * v
            W_in[center] -= lr * grad_v
        losses.append(total_loss / len(pairs))
    emb = W_in / np.linalg.norm(W_in, axis=1, keepdims=True)
    sims = emb @ emb[0]
    nearest = [vocab[i] for i in np.argsort(-sims)[1:4]]
    return W_in, W_out, np.array(losses), nearest, len(pairs)


# ---------------------------------------------------------------------------
# reinforcement learning
# ---------------------------------------------------------------------------

def q_learning_gridworld(n_rows=4, n_cols=4, holes=(5, 7, 11, 12), episodes=60, alpha=0.1,
                         gamma=0.9, epsilon=1.0, epsilon_decay=0.95, min_epsilon=0.05,
                         max_steps=30, seed=0):
    rng = np.random.default_rng(seed)
    n_states = n_rows * n_cols
    actions = [(-1, 0), (1, 0), (0, -1), (0, 1)]  # up, down, left, right
    goal = n_states - 1
    holes = set(holes)
    Q = np.zeros((n_states, len(actions)))

    def step(s, a):
        r, c = divmod(s, n_cols)
        dr, dc = actions[a]
        nr = min(max(r + dr, 0), n_rows - 1)
        nc = min(max(c + dc, 0), n_cols - 1)
        s2 = nr * n_cols + nc
        if s2 == goal:
            return s2, 1.0, True
        if s2 in holes:
            return s2, -1.0, True
        return s2, -0.01, False

    rewards_per_episode = []
    steps_per_episode = []
    for episode in range(episodes):
        state = 0
        total_reward = 0.0
        for t in range(max_steps):
            if rng.random() < epsilon:
                action = int(rng.integers(len(actions)))
            else:
                action = int(np.argmax(Q[state]))
            next_state, reward, done = step(state, action)
            td_target = reward + gamma * np.max(Q[next_state]) * (not done)
            Q[state, action] += alpha * (td_target - Q[state, action])
            state = next_state
            total_reward += reward
            if done:
                break
        epsilon = max(min_epsilon, epsilon * epsilon_decay)
        rewards_per_episode.append(total_reward)
        steps_per_episode.append(t + 1)
    policy = np.argmax(Q, axis=1)
    return Q, policy, np.array(rewards_per_episode), steps_per_episode


def make_frozen_lake(desc=("SFFF", "FHFH", "FFFH", "HFFG"), slip=0.2):
    nrow, ncol = len(desc), len(desc[0])
    nA = 4
    nS = nrow * ncol
    P = {s: {a: [] for a in range(nA)} for s in range(nS)}

    def to_s(row, col):
        return row * ncol + col

    def inc(row, col, a):
        if a == 0:  # left
            col = max(col - 1, 0)
        elif a == 1:  # down
            row = min(row + 1, nrow - 1)
        elif a == 2:  # right
            col = min(col + 1, ncol - 1)
        elif a == 3:  # up
            row = max(row - 1, 0)
        return (row, col)

    for row in range(nrow):
        for col in range(ncol):
            s = to_s(row, col)
            for a in range(nA):
                li = P[s][a]
                letter = desc[row][col]
                if letter in 'GH':
                    li.append((1.0, s, 0.0, True))
                    continue
                for b, prob in [((a - 1) % 4, slip / 2), (a, 1 - slip), ((a + 1) % 4, slip / 2)]:
                    newrow, newcol = inc(row, col, b)
                    newstate = to_s(newrow, newcol)
                    newletter = desc[newrow][newcol]
                    done = newletter in 'GH'
                    rew = float(newletter == 'G')
                    li.append((prob, newstate, rew, done))
    return P, nS, nA


def value_iteration(desc, slip=0.2, discount_factor=0.9, theta=1e-6):
    P, nS, nA = make_frozen_lake(desc, slip)

    def one_step_lookahead(state, V):
        A = np.zeros(nA)
        for a in range(nA):
            for prob, next_state, reward, done in P[state][a]:
                A[a] += prob * (reward + discount_factor * V[next_state] * (not done))
        return A

    V = np.zeros(nS)
    sweeps = 0
    while True:
        # Stopping condition
        delta = 0
        # Update each state...
        for s in range(nS):
            # Do a one-step lookahead to find the best action
            A = one_step_lookahead(s, V)
            best_action_value = np.max(A)
            # Calculate delta across all states seen so far
            delta = max(delta, np.abs(best_action_value - V[s]))
            # Update the value function. Ref: Sutton book eq. 4.10.
            V[s] = best_action_value
        sweeps += 1
        if delta < theta:
            break
    # Create a deterministic policy using the optimal value function
    policy = np.zeros([nS, nA])
    for s in range(nS):
        A = one_step_lookahead(s, V)
        best_action = np.argmax(A)
        policy[s, best_action] = 1.0
    return policy, V, sweeps


def make_gridworld(shape=(4, 4)):
    nS = np.prod(shape)
    nA = 4
    MAX_Y, MAX_X = shape
    P = {}
    grid = np.arange(nS).reshape(shape)
    it = np.nditer(grid, flags=['multi_index'])
    UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
    while not it.finished:
        s = it.iterindex
        y, x = it.multi_index
        P[s] = {a: [] for a in range(nA)}
        is_done = lambda s: s == 0 or s == (nS - 1)
        reward = 0.0 if is_done(s) else -1.0
        if is_done(s):
            P[s][UP] = [(1.0, s, reward, True)]
            P[s][RIGHT] = [(1.0, s, reward, True)]
            P[s][DOWN] = [(1.0, s, reward, True)]
            P[s][LEFT] = [(1.0, s, reward, True)]
        else:
            ns_up = s if y == 0 else s - MAX_X
            ns_right = s if x == (MAX_X - 1) else s + 1
            ns_down = s if y == (MAX_Y - 1) else s + MAX_X
            ns_left = s if x == 0 else s - 1
            P[s][UP] = [(1.0, ns_up, reward, is_done(ns_up))]
            P[s][RIGHT] = [(1.0, ns_right, reward, is_done(ns_right))]
            P[s][DOWN] = [(1.0, ns_down, reward, is_done(ns_down))]
            P[s][LEFT] = [(1.0, ns_left, reward, is_done(ns_left))]
        it.iternext()
    return P, int(nS), nA


def policy_eval(policy, P, nS, nA, discount_factor=1.0, theta=0.00001):
    # Start with a random (all 0) value function
    V = np.zeros(nS)
    while True:
        delta = 0
        # For each state, perform a "full backup"
        for s in range(nS):
            v = 0
            # Look at the possible next actions
            for a, action_prob in enumerate(policy[s]):
                # For each action, look at the possible next states...
                for prob, next_state, reward, done in P[s][a]:
                    # Calculate the expected value
                    v += action_prob * prob * (reward + discount_factor * V[next_state])
            # How much our value function changed (across any states)
            delta = max(delta, np.abs(v - V[s]))
            V[s] = v
        # Stop evaluating once our value function change is below a threshold
        if delta < theta:
            break
    return np.array(V)


def policy_iteration(shape=(4, 4), discount_factor=0.9, theta=1e-4):
    P, nS, nA = make_gridworld(shape)

    def one_step_lookahead(state, V):
        A = np.zeros(nA)
        for a in range(nA):
            for prob, next_state, reward, done in P[state][a]:
                A[a] += prob * (reward + discount_factor * V[next_state])
        return A

    # Start with a random policy
    policy = np.ones([nS, nA]) / nA
    V_random = policy_eval(policy, P, nS, nA, discount_factor, theta)
    n_improvements = 0
    while True:
        V = policy_eval(policy, P, nS, nA, discount_factor, theta)
        policy_stable = True
        for s in range(nS):
            chosen_a = np.argmax(policy[s])
            action_values = one_step_lookahead(s, V)
            best_a = np.argmax(action_values)
            if chosen_a != best_a:
                policy_stable = False
            policy[s] = np.eye(nA)[best_a]
        n_improvements += 1
        if policy_stable:
            return policy, V, V_random, n_improvements


def discount_rewards(r, gamma=0.99, reset_at_nonzero=True):
    """ take 1D float array of rewards and compute discounted reward """
    discounted_r = np.zeros_like(r)
    running_add = 0
    for t in reversed(range(0, r.size)):
        if reset_at_nonzero and r[t] != 0:
            running_add = 0  # reset the sum, since this was a game boundary (pong specific!)
        running_add = running_add * gamma + r[t]
        discounted_r[t] = running_add
    return discounted_r


def normalized_returns(rewards, gamma=0.99, reset_at_nonzero=True):
    discounted_epr = discount_rewards(np.asarray(rewards, dtype=float), gamma, reset_at_nonzero)
    raw = discounted_epr.copy()
    discounted_epr -= np.mean(discounted_epr)
    discounted_epr /= np.std(discounted_epr)
    return raw, discounted_epr


def pong_policy_gradient(observations, rewards, H=8, gamma=0.99, learning_rate=1e-3,
                         decay_rate=0.99, batch_episodes=2, seed=0):
    np.random.seed(seed)
    D = observations.shape[1]
    model = {}
    model['W1'] = np.random.randn(H, D) / np.sqrt(D)  # "Xavier" initialization
    model['W2'] = np.random.randn(H) / np.sqrt(H)
    grad_buffer = {k: np.zeros_like(v) for k, v in model.items()}
    rmsprop_cache = {k: np.zeros_like(v) for k, v in model.items()}

    def policy_forward(x):
        h = np.dot(model['W1'], x)
        h[h < 0] = 0  # ReLU nonlinearity
        logp = np.dot(model['W2'], h)
        p = sigmoid(logp)
        return p, h  # return probability of taking action 2, and hidden state

    def policy_backward(eph, epdlogp, epx):
        """ backward pass. (eph is array of intermediate hidden states) """
        dW2 = np.dot(eph.T, epdlogp).ravel()
        dh = np.outer(epdlogp, model['W2'])
        dh[eph <= 0] = 0  # backpro prelu
        dW1 = np.dot(dh.T, epx)
        return {'W1': dW1, 'W2': dW2}

    all_actions = []
    reward_sums = []
    for episode_number in range(1, batch_episodes + 1):
        xs, hs, dlogps, drs = [], [], [], []
        prev_x = None
        for t in range(len(observations)):
            cur_x = observations[t]
            x = cur_x - prev_x if prev_x is not None else np.zeros(D)
            prev_x = cur_x
            aprob, h = policy_forward(x)
            action = 2 if np.random.uniform() < aprob else 3  # roll the dice!
            xs.append(x)  # observation
            hs.append(h)  # hidden state
            y = 1 if action == 2 else 0  # a "fake label"
            dlogps.append(y - aprob)
            drs.append(rewards[t])
            all_actions.append(action)
        epx = np.vstack(xs)
        eph = np.vstack(hs)
        epdlogp = np.vstack(dlogps)
        epr = np.vstack(drs)
        reward_sums.append(float(epr.sum()))
        discounted_epr = discount_rewards(epr, gamma)
        discounted_epr -= np.mean(discounted_epr)
        discounted_epr /= np.std(discounted_epr)
        epdlogp *= discounted_epr  # modulate the gradient with advantage (PG magic happens here.)
        grad = policy_backward(eph, epdlogp, epx)
        for k in model:
            grad_buffer[k] += grad[k]  # accumulate grad over batch
    for k, v in model.items():
        g = grad_buffer[k]  # gradient
        rmsprop_cache[k] = decay_rate * rmsprop_cache[k] + (1 - decay_rate) * g ** 2
        model[k] += learning_rate * g / (np.sqrt(rmsprop_cache[k]) + 1e-5)
        grad_buffer[k] = np.zeros_like(v)  # reset batch gradient buffer
    return model, all_actions, reward_sums


def reinforce_short_corridor(n_episodes=40, alpha=2e-2, gamma=1.0, max_steps=40, seed=0):
    rng = np.random.default_rng(seed)
    theta = np.array([1.47, -1.47])  # preferences for [right, left]

    def policy(theta):
        h = theta - np.max(theta)
        pmf = np.exp(h) / np.sum(np.exp(h))
        return pmf

    def step(state, go_right):
        if state == 1:  # the "switched" state
            go_right = not go_right
        state = state + 1 if go_right else max(0, state - 1)
        return state, -1.0, state == 3

    returns_history = []
    for episode in range(n_episodes):
        state = 0
        rewards, actions = [], []
        for t in range(max_steps):
            pmf = policy(theta)
            action = 0 if rng.random() < pmf[0] else 1
            state, reward, done = step(state, action == 0)
            rewards.append(reward)
            actions.append(action)
            if done:
                break
        G = np.zeros(len(rewards))
        running_add = 0.0
        for t in reversed(range(len(rewards))):
            running_add = running_add * gamma + rewards[t]
            G[t] = running_add
        for t, action in enumerate(actions):
            pmf = policy(theta)
            grad_ln_pi = np.eye(2)[action] - pmf
            theta += alpha * (gamma ** t) * G[t] * grad_ln_pi
        returns_history.append(G[0])
    return theta, policy(theta), np.array(returns_history)


def bandit_simulation(true_means, steps=200, strategy="epsilon", epsilon=0.1, c=2.0, seed=0):
    rng = np.random.default_rng(seed)
    k = len(true_means)
    Q = np.zeros(k)
    N = np.zeros(k)
    rewards = np.zeros(steps)
    optimal = int(np.argmax(true_means))
    optimal_hits = 0
    for t in range(steps):
        if strategy == "ucb":
            if np.any(N == 0):
                a = int(np.argmin(N))
            else:
                a = int(np.argmax(Q + c * np.sqrt(np.log(t + 1) / N)))
        else:
            if rng.random() < epsilon:
                a = int(rng.integers(k))
            else:
                a = int(np.argmax(Q))
        r = rng.normal(true_means[a], 1.0)
        N[a] += 1
        Q[a] += (r - Q[a]) / N[a]
        rewards[t] = r
        optimal_hits += a == optimal
    return Q, N, np.cumsum(rewards) / np.arange(1, steps + 1), optimal_hits / steps


# ---------------------------------------------------------------------------
# recommenders and association rules
# ---------------------------------------------------------------------------

def als_factorize(R, mask, k=2, lam=0.1, n_iters=8, seed=0):
    n_users, n_items = R.shape
    rng = np.random.RandomState(seed)
    U = rng.rand(n_users, k)
    V = rng.rand(n_items, k)
    errors = []
    for it in range(n_iters):
        for u in range(n_users):
            idx = np.where(mask[u] > 0)[0]
            V_u = V[idx]
            U[u] = np.linalg.solve(V_u.T @ V_u + lam * np.eye(k), V_u.T @ R[u, idx])
        for i in range(n_items):
            idx = np.where(mask[:, i] > 0)[0]
            U_i = U[idx]
            V[i] = np.linalg.solve(U_i.T @ U_i + lam * np.eye(k), U_i.T @ R[idx, i])
        err = np.sqrt(np.sum((mask * (R - U @ V.T)) ** 2) / mask.sum())
        errors.append(err)
    R_hat = U @ V.T
    top_items = [np.argsort(-np.where(mask[u] > 0, -np.inf, R_hat[u]), kind="stable")[:2].tolist()
                 for u in range(n_users)]
    return U, V, np.array(errors), top_items


def apriori(baskets, min_support=0.3, min_confidence=0.6):
    transactions = [frozenset(np.flatnonzero(row).tolist()) for row in baskets]
    n = len(transactions)
    item_counts = Counter(item for t in transactions for item in t)
    current = [frozenset([item]) for item, c in sorted(item_counts.items())
               if c / n >= min_support]
    support = {s: item_counts[next(iter(s))] / n for s in current}
    k = 2
    while current:
        candidates = set()
        for a, b in itertools.combinations(current, 2):
            union = a | b
            if len(union) == k:
                # prune: every (k-1)-subset must be frequent
                if all(frozenset(sub) in support for sub in itertools.combinations(union, k - 1)):
                    candidates.add(union)
        counts = defaultdict(int)
        for t in transactions:
            for cand in candidates:
                if cand.issubset(t):
                    counts[cand] += 1
        current = [c for c in candidates if counts[c] / n >= min_support]
        for c in current:
            support[c] = counts[c] / n
        k += 1
    rules = []
    for itemset, sup in support.items():
        if len(itemset) < 2:
            continue
        for r in range(1, len(itemset)):
            for antecedent in itertools.combinations(sorted(itemset), r):
                antecedent = frozenset(antecedent)
                consequent = itemset - antecedent
                confidence = sup / support[antecedent]
                if confidence >= min_confidence:
                    lift = confidence / support[consequent]
                    rules.append((tuple(sorted(antecedent)), tuple(sorted(consequent)),
                                  round(sup, 6), round(confidence, 6), round(lift, 6)))
    itemsets = sorted((tuple(sorted(s)), round(v, 6)) for s, v in support.items())
    return itemsets, sorted(rules)


# ---------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def _blobs(seed, n=30, d=2, c=2, spread=1.0, scale=3.0):
    r = _rng(seed)
    centers = r.normal(0, scale, (c, d))
    y = np.arange(n) % c
    r.shuffle(y)
    X = centers[y] + r.normal(0, spread, (n, d))
    return X, y


def _split_blobs(seed, n=30, n_test=10, d=2, c=2, spread=1.0):
    X, y = _blobs(seed, n + n_test, d, c, spread)
    return X[:n], y[:n], X[n:]


def _pm1(seed, n=30, d=2, spread=1.0):
    X, y = _blobs(seed, n, d, 2, spread)
    return X, np.where(y == 0, -1.0, 1.0)


def _regression(seed, n=30, d=3, noise=0.1):
    r = _rng(seed)
    X = r.normal(size=(n, d))
    w = r.normal(size=d)
    y = X @ w + 0.5 + noise * r.normal(size=n)
    return X, y


def _houses(seed, n=30):
    r = _rng(seed)
    size = r.integers(800, 4000, n).astype(float)
    rooms = r.integers(1, 6, n).astype(float)
    price = 150.0 * size + 8000.0 * rooms + 50000 + r.normal(0, 20000, n)
    return np.c_[size, rooms], price


def _stochastic(seed, rows, cols):
    m = _rng(seed).random((rows, cols)) + 0.1
    return m / m.sum(axis=1, keepdims=True)


def _ratings_mask(seed, nu=8, ni=6, density=0.6):
    r = _rng(seed)
    R = r.integers(1, 6, (nu, ni)).astype(float)
    mask = (r.random((nu, ni)) < density).astype(float)
    mask[:, 0] = 1.0
    mask[0, :] = 1.0
    return R * mask, mask


_WORDS = ["the", "cat", "sat", "on", "mat", "dog", "ran", "to", "a", "park", "and", "ate"]


def _sentence(seed, n=40):
    return " ".join(_rng(seed).choice(_WORDS, n).tolist())


def _weather_hmm(seed, T=8):
    states = ("Healthy", "Fever")
    symbols = ("normal", "cold", "dizzy")
    A = _stochastic(seed, 2, 2)
    B = _stochastic(seed + 1, 2, 3)
    start = _stochastic(seed + 2, 1, 2)[0]
    obs = _rng(seed + 3).choice(symbols, T).tolist()
    start_p = {s: start[i] for i, s in enumerate(states)}
    trans_p = {s: {t: A[i, j] for j, t in enumerate(states)} for i, s in enumerate(states)}
    emit_p = {s: {o: B[i, j] for j, o in enumerate(symbols)} for i, s in enumerate(states)}
    return obs, states, start_p, trans_p, emit_p


def _pong_obs(seed, T=20, D=6):
    r = _rng(seed)
    rewards = np.zeros(T)
    rewards[[6, 13, T - 1]] = [-1.0, 1.0, -1.0]
    return r.random((T, D)), rewards


def _dbscan_data(seed):
    X, _ = _blobs(seed, 30, 2, 3, 0.4, 4.0)
    return np.vstack([X, _rng(seed + 1).uniform(-8, 8, (4, 2))])


def _ng_planar(seed, n=40):
    r = _rng(seed)
    X = r.normal(size=(2, n))
    Y = ((X[0] * X[1]) > 0).astype(float).reshape(1, n)
    return X, Y


_XOR = np.array([[0, 0, 1], [0, 1, 1], [1, 0, 1], [1, 1, 1]], dtype=float)


CASES = [
    # data utilities
    ("shuffle_data_unseeded", shuffle_data, lambda: _blobs(1, 12), {"rand": True}),
    ("shuffle_data_seeded", shuffle_data, lambda: (*_blobs(2, 12), 5), {}),
    ("train_test_split_seeded", train_test_split, lambda: (*_blobs(3, 20), 0.3, True, 42), {}),
    ("train_test_split_perm", train_test_split_perm, lambda: (*_regression(4, 25), 0.2, 7), {}),
    ("k_fold_cross_validation_sets", k_fold_cross_validation_sets, lambda: (*_blobs(5, 23), 4, True, 3), {}),
    ("to_categorical", to_categorical, lambda: (_rng(6).integers(0, 4, 12),), {}),
    ("normalize_rows_l2", normalize, lambda: (np.vstack([_rng(7).normal(size=(6, 3)), np.zeros((1, 3))]),), {}),
    ("normalize_cols_l1", normalize, lambda: (_rng(8).normal(size=(6, 3)), 0, 1), {}),
    ("polynomial_features_deg3", polynomial_features, lambda: (_rng(9).normal(size=(10, 2)), 3), {}),
    ("calculate_entropy", calculate_entropy, lambda: (_rng(10).integers(0, 3, 30),), {}),
    ("covariance_matrix", calculate_covariance_matrix, lambda: (_rng(11).normal(size=(20, 3)),), {}),
    ("covariance_matrix_xy", calculate_covariance_matrix,
     lambda: (_rng(12).normal(size=(20, 3)), _rng(13).normal(size=(20, 2))), {}),
    ("correlation_matrix", calculate_correlation_matrix, lambda: (_rng(14).normal(size=(20, 4)),), {}),
    ("euclidean_distance_loop", euclidean_distance, lambda: (_rng(15).normal(size=5), _rng(16).normal(size=5)), {}),
    ("scale_standard", scale_train_test, lambda: (_rng(17).normal(3, 2, (15, 3)), _rng(18).normal(3, 2, (5, 3))), {}),
    ("scale_minmax", scale_train_test,
     lambda: (np.c_[_rng(19).normal(size=(15, 2)), np.ones(15)], _rng(20).normal(size=(5, 3)), "minmax", (-1, 1)), {}),
    # metrics
    ("accuracy_score", accuracy_score, lambda: (_rng(21).integers(0, 3, 30), _rng(22).integers(0, 3, 30)), {}),
    ("confusion_matrix_loop", confusion_matrix, lambda: (_rng(23).integers(0, 3, 30), _rng(24).integers(0, 3, 30)), {}),
    ("confusion_matrix_bincount", confusion_matrix,
     lambda: (_rng(25).integers(0, 4, 30), _rng(26).integers(0, 4, 30), 4, "bincount"), {}),
    ("precision_recall_f1_macro", precision_recall_f1,
     lambda: (_rng(27).integers(0, 3, 30), _rng(28).integers(0, 3, 30)), {}),
    ("precision_recall_f1_weighted", precision_recall_f1,
     lambda: (_rng(29).integers(0, 3, 30), _rng(30).integers(0, 4, 30), "weighted"), {}),
    ("precision_recall_f1_per_class", precision_recall_f1,
     lambda: (_rng(31).integers(0, 2, 20), np.zeros(20, dtype=int), None), {}),
    ("roc_auc_score", roc_auc_score,
     lambda: (_rng(32).integers(0, 2, 40), np.round(_rng(33).random(40), 1)), {}),
    ("regression_report", regression_report, lambda: (_rng(34).normal(size=25), _rng(35).normal(size=25)), {}),
    ("silhouette_score", silhouette_score, lambda: _blobs(36, 24, 2, 3), {}),
    # linear regression
    ("linear_regression_normal_equation", linear_regression_normal_equation, lambda: _regression(40), {}),
    ("ex1_multi_gradient_descent", ex1_multi, lambda: (*_houses(41), [1650.0, 3.0], 0.1, 50), {}),
    ("ridge_regression_gd", regularized_regression,
     lambda: (*_regression(42, 25), _rng(43).normal(size=(6, 3)), "ridge", 0.5, 1, 100, 0.005), {}),
    ("lasso_regression_poly_gd", regularized_regression,
     lambda: (*_regression(44, 25, 2), _rng(45).normal(size=(6, 2)), "lasso", 0.05, 2, 200, 0.01), {}),
    ("elastic_net_poly_gd", regularized_regression,
     lambda: (*_regression(46, 25, 2), _rng(47).normal(size=(6, 2)), "elastic", 0.05, 2, 200, 0.01), {}),
    ("linear_regression_gd", regularized_regression,
     lambda: (*_regression(48, 25), _rng(49).normal(size=(6, 3)), "linear", 0.0, 1, 100, 0.005), {}),
    ("linear_regression_svd_pinv", regularized_regression,
     lambda: (*_regression(50, 25), _rng(51).normal(size=(6, 3)), "lstsq"), {}),
    ("ridge_closed_form", ridge_closed_form, lambda: (*_regression(52, 20, 4), 2.0), {}),
    ("lasso_coordinate_descent", lasso_coordinate_descent, lambda: (*_regression(53, 30, 5), 0.5, 100), {}),
    # logistic regression and linear classifiers
    ("logistic_regression_early_stop", logistic_regression_fit_predict,
     lambda: (*_split_blobs(60, 30, 8, 2, 2, 3.0), 0.5, 300), {}),
    ("softmax_regression", softmax_regression, lambda: (*_blobs(61, 30, 2, 3), 3, 0.5, 60), {}),
    ("logistic_newton", logistic_newton, lambda: (*_blobs(62, 40, 2, 2, 2.5), 1e-2), {}),
    ("cost_function_reg", costFunctionReg,
     lambda: (_rng(63).normal(0, 0.1, 28), mapFeature(*_rng(64).uniform(-1, 1, (2, 20))),
              (_rng(65).random(20) < 0.5).astype(float), 1.0), {}),
    ("ex2_reg_map_feature", ex2_reg,
     lambda: (_rng(66).uniform(-1, 1, (30, 2)), (_rng(67).random(30) < 0.4).astype(float), 1.0, 1.0, 60), {}),
    ("perceptron", perceptron_fit_predict, lambda: (*_split_blobs(68, 30, 8, 2, 2, 0.8), 0.01, 20), {}),
    ("adaline_gd", adaline_standardized, lambda: (*_pm1(69, 30, 2, 1.0), 0.01, 15), {}),
    ("linear_svm_subgradient", linear_svm_subgradient,
     lambda: (*_pm1(70, 25, 2, 1.0), _rng(71).normal(0, 3, (6, 2)), 0.01, 0.01, 20), {}),
    ("simplified_smo", simplified_smo, lambda: (*_pm1(72, 16, 2, 0.8), 1.0, 1e-3, 3, 30, 0), {}),
    ("svm_loss_naive", svm_loss_naive,
     lambda: (_rng(73).normal(0, 0.01, (5, 3)), _rng(74).normal(size=(12, 5)), _rng(75).integers(0, 3, 12), 0.1), {}),
    ("svm_loss_vectorized", svm_loss_vectorized,
     lambda: (_rng(73).normal(0, 0.01, (5, 3)), _rng(74).normal(size=(12, 5)), _rng(75).integers(0, 3, 12), 0.1), {}),
    ("softmax_loss_naive", softmax_loss_naive,
     lambda: (_rng(76).normal(0, 0.1, (5, 4)), _rng(77).normal(size=(12, 5)), _rng(78).integers(0, 4, 12), 0.05), {}),
    ("softmax_loss_vectorized", softmax_loss_vectorized,
     lambda: (_rng(76).normal(0, 0.1, (5, 4)), _rng(77).normal(size=(12, 5)), _rng(78).integers(0, 4, 12), 0.05), {}),
    ("linear_svm_sgd_unseeded", linear_svm_sgd_unseeded, lambda: (*_blobs(79, 40, 3, 3), 3), {"rand": True}),
    # nearest neighbours
    ("knn_classify_counter", knn_classify, lambda: (*_split_blobs(80, 30, 10, 2, 3, 1.5), 3), {}),
    ("knn_regress_uniform", knn_regress, lambda: (*_regression(81, 30, 2), _rng(82).normal(size=(8, 2)), 4), {}),
    ("knn_regress_distance", knn_regress,
     lambda: (*_regression(83, 30, 2), _rng(84).normal(size=(8, 2)), 3, "distance"), {}),
    ("knn_cs231n_no_loops", knn_cs231n, lambda: (*_split_blobs(85, 30, 8, 3, 3, 1.5), 3, 0), {}),
    ("knn_cs231n_one_loop", knn_cs231n, lambda: (*_split_blobs(86, 30, 8, 3, 3, 1.5), 5, 1), {}),
    ("knn_cs231n_two_loops", knn_cs231n, lambda: (*_split_blobs(87, 30, 8, 3, 3, 1.5), 1, 2), {}),
    ("knn_cross_validate_k", knn_cross_validate_k, lambda: (*_blobs(88, 30, 2, 3, 1.5), (1, 3, 5, 8), 5), {}),
    # clustering
    ("kmeans_class", kmeans_fit_predict, lambda: (_blobs(90, 30, 2, 3, 0.7)[0], 3, 50, 1), {}),
    ("kmeans_plus_plus", kmeans_plus_plus, lambda: (_blobs(91, 30, 2, 3, 0.7)[0], 3, 100, 1e-6, 3), {}),
    ("gmm_em", gmm_em, lambda: (_blobs(92, 40, 2, 2, 0.8)[0], 2, 30, 1e-6, 0), {}),
    ("dbscan_loops", dbscan, lambda: (_dbscan_data(93), 1.0, 4), {}),
    ("agglomerative_single", agglomerative_clustering, lambda: (_blobs(94, 12, 2, 3, 0.5)[0], 3, "single"), {}),
    ("agglomerative_complete", agglomerative_clustering, lambda: (_blobs(95, 12, 2, 3, 0.5)[0], 2, "complete"), {}),
    ("agglomerative_average", agglomerative_clustering, lambda: (_blobs(96, 12, 2, 3, 0.5)[0], 4, "average"), {}),
    # projections
    ("pca_eig", pca_eig, lambda: (_rng(100).normal(size=(20, 4)) @ _rng(101).normal(size=(4, 4)), 2), {}),
    ("pca_svd_flip", pca_svd, lambda: (_rng(102).normal(size=(20, 5)) @ _rng(103).normal(size=(5, 5)), 2), {}),
    ("rbf_kernel_pca", rbf_kernel_pca, lambda: (_rng(104).normal(size=(15, 2)), 0.5, 2), {}),
    ("lda_multiclass", lda_multiclass_transform, lambda: (*_blobs(105, 30, 4, 3, 1.0), 2), {}),
    ("fisher_lda_two_class", fisher_lda_two_class, lambda: _blobs(106, 30, 3, 2, 1.0), {}),
    ("tsne_x2p_perplexity", x2p, lambda: (_rng(107).normal(size=(12, 3)), 1e-5, 4.0), {}),
    ("tsne_few_iters", tsne, lambda: (_blobs(108, 15, 4, 3, 0.5)[0], 2, 5.0, 30, 0), {}),
    # naive Bayes and HMMs
    ("gaussian_nb_loops", gaussian_nb_loops, lambda: _split_blobs(110, 30, 8, 3, 3, 1.2), {}),
    ("gaussian_nb_vectorized", gaussian_nb_vectorized, lambda: _split_blobs(111, 30, 8, 3, 3, 1.2), {}),
    ("multinomial_nb", multinomial_nb,
     lambda: (_rng(112).poisson(2.0, (20, 6)), np.arange(20) % 3, _rng(113).poisson(2.0, (5, 6)), 1.0), {}),
    ("hmm_forward_backward", hmm_forward_backward,
     lambda: (_rng(114).integers(0, 3, 10), _stochastic(115, 2, 2), _stochastic(116, 2, 3), np.array([0.6, 0.4])), {}),
    ("baum_welch", baum_welch, lambda: (_rng(117).integers(0, 3, 25), 2, 3, 8, 0), {}),
    ("viterbi_dict", viterbi_dict, lambda: _weather_hmm(118), {}),
    ("viterbi_log", viterbi_log,
     lambda: (_rng(119).integers(0, 4, 15), _stochastic(120, 1, 3)[0], _stochastic(121, 3, 3), _stochastic(122, 3, 4)), {}),
    # trees and ensembles
    ("decision_tree_dict_gini", decision_tree_dict, lambda: (*_split_blobs(130, 30, 8, 2, 3, 1.5), 3, "gini"), {}),
    ("decision_tree_dict_entropy", decision_tree_dict,
     lambda: (*_split_blobs(131, 30, 8, 2, 2, 3.0), 4, "entropy"), {}),
    ("decision_tree_nodes", decision_tree_nodes, lambda: (*_split_blobs(132, 30, 8, 2, 3, 1.5), 4), {}),
    ("random_forest_bootstrap", random_forest, lambda: (*_split_blobs(133, 24, 8, 3, 2, 1.5), 4, 3, 2, 0), {}),
    ("adaboost_stumps", adaboost_stumps, lambda: (*_pm1(134, 20, 2, 3.0), _rng(135).normal(0, 3, (6, 2)), 5), {}),
    ("gradient_boosting_regressor", gradient_boosting_regressor,
     lambda: (*_regression(136, 20, 2), _rng(137).normal(size=(6, 2)), 10, 0.3), {}),
    ("gradient_boosting_classifier", gradient_boosting_classifier,
     lambda: (*_split_blobs(138, 20, 6, 2, 2, 1.5), 8, 0.5), {}),
    # neural network building blocks
    ("optimizer_sgd_momentum", optimize_rosenbrock, lambda: ("sgd", [-0.5, 0.5], 150, 2e-4), {}),
    ("optimizer_rmsprop", optimize_rosenbrock, lambda: ("rmsprop", [-1.0, 1.5], 150, 1e-2), {}),
    ("optimizer_adam", optimize_rosenbrock, lambda: ("adam", [0.0, -0.5], 150, 2e-2), {}),
    ("layers_forward_backward", layers_forward_backward, lambda: (*_blobs(140, 12, 3, 3), 8, 0.3, 0), {}),
    ("train_mlp_sequential", train_mlp_sequential, lambda: (*_blobs(141, 40, 2, 3, 1.0), 16, 6, 8, 0.02, 0), {}),
    ("batchnorm_backward_alt", batchnorm_train_test,
     lambda: (_rng(142).normal(2, 3, (8, 4)), _rng(143).random(4) + 0.5, _rng(144).normal(size=4),
              _rng(145).normal(size=(8, 4)), _rng(146).normal(2, 3, (3, 4))), {}),
    ("batchnorm_backward_graph", batchnorm_train_test,
     lambda: (_rng(147).normal(-1, 2, (6, 5)), _rng(148).random(5) + 0.5, _rng(149).normal(size=5),
              _rng(150).normal(size=(6, 5)), _rng(151).normal(size=(2, 5)), 2, "graph"), {}),
    ("dropout_forward_backward", dropout_forward_backward,
     lambda: (_rng(152).normal(size=(10, 6)).astype(np.float32), _rng(153).normal(size=(10, 6)), 0.7, 123), {}),
    ("two_layer_net_train", two_layer_net_train,
     lambda: (*_blobs(154, 40, 4, 3, 1.0), *_blobs(154, 12, 4, 3, 1.0), 10, 60, 16, 0.5, 1e-3, 0), {}),
    ("gradient_check_two_layer", gradient_check_two_layer, lambda: (*_blobs(155, 6, 4, 3), 5, 0.05, 0), {}),
    ("spiral_data", spiral_data, lambda: (20, 3, 0), {}),
    ("nnfs_train_spiral", nnfs_train_spiral, lambda: (30, 3, 100, 0), {}),
    ("trask_xor_net", trask_two_layer, lambda: (_XOR, np.array([[0, 1, 1, 0]], dtype=float).T, 500, 1), {}),
    ("L_layer_model", L_layer_model, lambda: (*_ng_planar(156, 40), [2, 5, 3, 1], 0.5, 100), {}),
    # convolution and pooling
    ("conv_naive_loops", conv_naive,
     lambda: (_rng(160).normal(size=(2, 3, 5, 5)), _rng(161).normal(size=(3, 3, 3, 3)), _rng(162).normal(size=3),
              _rng(163).normal(size=(2, 3, 5, 5)), 1, 1), {}),
    ("conv_naive_stride2", conv_naive,
     lambda: (_rng(164).normal(size=(2, 2, 7, 7)), _rng(165).normal(size=(2, 2, 3, 3)), _rng(166).normal(size=2),
              _rng(167).normal(size=(2, 2, 4, 4)), 2, 1), {}),
    ("conv_im2col", conv_im2col,
     lambda: (_rng(160).normal(size=(2, 3, 5, 5)), _rng(161).normal(size=(3, 3, 3, 3)), _rng(162).normal(size=3),
              _rng(163).normal(size=(2, 3, 5, 5)), 1, 1), {}),
    ("conv_im2col_stride2", conv_im2col,
     lambda: (_rng(164).normal(size=(2, 2, 7, 7)), _rng(165).normal(size=(2, 2, 3, 3)), _rng(166).normal(size=2),
              _rng(167).normal(size=(2, 2, 4, 4)), 2, 1), {}),
    ("convolve2d_padded", convolve2d, lambda: (_rng(168).normal(size=(8, 8)), _rng(169).normal(size=(3, 3)), 1, 1), {}),
    ("convolve2d_strided", convolve2d, lambda: (_rng(170).normal(size=(8, 8)), _rng(171).normal(size=(3, 3)), 0, 2), {}),
    ("max_pool_naive", max_pool_naive, lambda: (_rng(172).normal(size=(2, 2, 6, 6)), _rng(173).normal(size=(2, 2, 3, 3))), {}),
    ("max_pool_naive_overlap", max_pool_naive,
     lambda: (_rng(174).normal(size=(1, 2, 5, 5)), _rng(175).normal(size=(1, 2, 2, 2)), 3, 3, 2), {}),
    ("max_pool_reshape", max_pool_reshape,
     lambda: (_rng(176).normal(size=(2, 2, 6, 6)), _rng(177).normal(size=(2, 2, 3, 3))), {}),
    # recurrent networks and word vectors
    ("min_char_rnn", min_char_rnn, lambda: (_sentence(180, 25), 16, 8, 0.1, 30, 20, 0), {}),
    ("lstm_sequence", lstm_sequence,
     lambda: (_rng(181).normal(size=(2, 4, 3)), _rng(182).normal(size=(2, 5)), _rng(183).normal(0, 0.3, (3, 20)),
              _rng(184).normal(0, 0.3, (5, 20)), _rng(185).normal(0, 0.1, 20), _rng(186).normal(size=(2, 4, 5))), {}),
    ("skipgram_pairs", skipgram_pairs, lambda: (_sentence(187, 20).split(), 2), {}),
    ("word2vec_sgns", word2vec_sgns, lambda: (_sentence(188, 30), 8, 2, 3, 0.2, 3, 0), {}),
    # reinforcement learning
    ("q_learning_gridworld", q_learning_gridworld,
     lambda: (4, 4, (5, 7, 11, 12), 60, 0.1, 0.9, 1.0, 0.95, 0.05, 30, int(_rng(190).integers(100))), {}),
    ("value_iteration_frozen_lake", value_iteration, lambda: (("SFFF", "FHFH", "FFFH", "HFFG"), 0.2, 0.9, 1e-6), {}),
    ("policy_iteration_gridworld", policy_iteration, lambda: ((4, 4), 0.9, 1e-4), {}),
    ("discounted_returns_pong", normalized_returns,
     lambda: (np.where(_rng(191).random(30) < 0.15, _rng(192).choice([-1.0, 1.0], 30), 0.0), 0.99), {}),
    ("discounted_returns_no_reset", normalized_returns,
     lambda: (_rng(193).normal(size=20), 0.9, False), {}),
    ("pong_policy_gradient", pong_policy_gradient, lambda: (*_pong_obs(194), 8, 0.99, 1e-3, 0.99, 2, 0), {}),
    ("reinforce_short_corridor", reinforce_short_corridor, lambda: (25, 2e-3, 1.0, 30, 0), {}),
    ("bandit_epsilon_greedy", bandit_simulation, lambda: (_rng(195).normal(size=5), 200, "epsilon", 0.1, 2.0, 1), {}),
    ("bandit_ucb", bandit_simulation, lambda: (_rng(196).normal(size=5), 200, "ucb", 0.1, 2.0, 2), {}),
    # recommenders and association rules
    ("als_factorize", als_factorize, lambda: (*_ratings_mask(197), 2, 0.1, 8, 0), {}),
    ("apriori_itemsets", apriori, lambda: ((_rng(198).random((20, 6)) < 0.5).astype(int), 0.3, 0.6), {}),
]
