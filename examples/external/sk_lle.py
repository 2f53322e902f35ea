#!/usr/bin/env python3
"""scikit-learn's locally linear embedding as a drbench external method: the seed reaches the
ARPACK start vector through random_state, which the SDK sets."""
from sklearn.manifold import LocallyLinearEmbedding

from drbench.external import estimator


@estimator
def lle(task):
    return LocallyLinearEmbedding(n_components=task.dim, n_neighbors=task.params["neighbours"],
                                  reg=task.params["reg"], method=task.params["variant"],
                                  eigen_solver="dense", n_jobs=task.threads)


if __name__ == "__main__":
    lle.main()
