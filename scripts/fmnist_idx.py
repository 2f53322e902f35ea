"""Fashion-MNIST as Debian's dataset-fashion-mnist installs it (gzipped IDX files), for the scripts
that read it without drbench: the side-by-side benchmarks and the papers' comparisons."""
import gzip

import numpy as np

FMNIST = "/usr/share/datasets/fashion-mnist"


def read_idx(path):
    """The array in one gzipped IDX file: uint8, with the file's own shape."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i: 8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)
