#!/usr/bin/env python3
"""scikit-learn's Isomap as a drbench external method (examples/external/sklearn.yaml)."""
from sklearn.manifold import Isomap

from drbench.external import estimator


@estimator
def isomap(task):
    return Isomap(n_components=task.dim, n_neighbors=task.params["neighbours"],
                  n_jobs=task.threads)


if __name__ == "__main__":
    isomap.main()
