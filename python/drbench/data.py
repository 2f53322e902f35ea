"""What a figure needs from the dataset files themselves: class names, images, point order.

Results files name their datasets but hold no pixels or class names, so these are looked up on the
data path the way drbench does (the config's data_path, then $DRBENCH_DATA, then
../shared/datasets), plus the directories given explicitly.
"""
from __future__ import annotations

import os
import re

import h5py
import numpy as np

# Datasets whose classes are themselves sequences, in index order (datasets/README.md: COIL-20
# holds each object's 72 poses in rotation order, 5 degrees apart, a closed loop).
CLASS_SEQUENCES = {"coil20": True}


def search_path(config_text: str = "", extra=()) -> list:
    dirs = list(extra)
    m = re.search(r"^data_path:\s*['\"]?([^'\"#\n]+?)['\"]?\s*(#.*)?$", config_text or "", re.M)
    if m:
        dirs.append(m.group(1).strip())
    if os.environ.get("DRBENCH_DATA"):
        dirs.append(os.environ["DRBENCH_DATA"])
    dirs.append(os.path.join("..", "shared", "datasets"))
    here = os.path.dirname(os.path.abspath(__file__))
    dirs.append(os.path.join(here, "..", "..", "..", "shared", "datasets"))  # beside the checkout
    return dirs


def find_file(name: str, dirs) -> str | None:
    for d in dirs:
        p = os.path.join(d, name + ".h5")
        if os.path.isfile(p):
            return os.path.normpath(p)
    return None


def idx_parts(config_text: str, name: str) -> list | None:
    """The IDX image files of dataset `name` of a config (`source: idx`, a folder holding the
    MNIST-named train and t10k halves, in that order, or one images file), as drbench reads them;
    None where the config does not say so or the files are missing. Only points of the whole
    files: with max_points or classes the stored indices refer to the kept points, and no image
    is looked up."""
    try:
        import yaml
        cfg = yaml.safe_load(config_text or "") or {}
    except Exception:
        return None
    for d in cfg.get("datasets", []) if isinstance(cfg, dict) else []:
        if not isinstance(d, dict) or d.get("name") != name or d.get("source") != "idx":
            continue
        if d.get("max_points") or d.get("classes"):
            return None
        path = str(d.get("path", ""))
        if os.path.isdir(path):
            parts = []
            for half in ("train", "t10k"):
                for ext in (".gz", ""):
                    f = os.path.join(path, f"{half}-images-idx3-ubyte{ext}")
                    if os.path.isfile(f):
                        parts.append(f)
                        break
            return parts or None
        return [path] if os.path.isfile(path) else None
    return None


def _idx_open(path):
    import gzip
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")


def _idx_header(path):
    with _idx_open(path) as f:
        head = f.read(4)
        dims = np.frombuffer(f.read(4 * head[3]), dtype=">u4")
    return tuple(int(x) for x in dims)


def _idx_read(path) -> np.ndarray:
    """The images of an IDX file (n, h, w), uint8."""
    with _idx_open(path) as f:
        data = f.read()
    dims = tuple(int(x) for x in np.frombuffer(data[4:4 + 4 * data[3]], dtype=">u4"))
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * len(dims)).reshape(dims)


class DatasetInfo:
    """Class names, image shape/order and raw rows of one dataset (when its file is found)."""

    def __init__(self, name: str, dirs, config_text: str = ""):
        self.name = name
        self.path = find_file(name, dirs)
        self.attrs = {}
        self.n_classes = 0
        # An IDX folder or pair (source: idx, e.g. Fashion-MNIST): the images come from there.
        self.idx_parts = None if self.path else idx_parts(config_text, name)
        if self.idx_parts:
            self.attrs["image_shape"] = _idx_header(self.idx_parts[0])[1:]
        if self.path:
            with h5py.File(self.path, "r") as f:
                for k, v in f.attrs.items():
                    self.attrs[k] = v.decode() if isinstance(v, bytes) else v
                if "y" in f:
                    self.n_classes = int(np.max(f["y"][:])) + 1

    @property
    def image_shape(self):
        s = self.attrs.get("image_shape")
        return tuple(int(x) for x in s) if s is not None else None

    @property
    def image_order(self) -> str:
        return str(self.attrs.get("image_order", "row-major"))

    def class_names(self, n: int) -> list:
        """Names for labels 0..n-1 from the file's label_meaning ("y = 0:setosa, 1:...",
        "vowel: 0=a, ..."), digits for digit sets, else "class i"."""
        meaning = str(self.attrs.get("label_meaning", ""))
        pairs = dict((int(a), b) for a, b in re.findall(r"(\d+)\s*[:=]\s*([A-Za-z_][\w-]*)",
                                                        meaning))
        names = []
        for i in range(n):
            if i in pairs:
                names.append(pairs[i])
            elif "digit" in meaning:
                names.append(str(i))
            else:
                names.append(f"class {i}")
        return names

    def images(self, index) -> np.ndarray | None:
        """Rows `index` of X as upright images (n, h, w) scaled to [0, 1], or None."""
        shape = self.image_shape
        if self.idx_parts and shape is not None:
            imgs = np.concatenate([_idx_read(p) for p in self.idx_parts])
            return imgs[np.asarray(index, dtype=np.int64)].astype(float) / 255.0
        if not self.path or shape is None:
            return None
        index = np.asarray(index, dtype=np.int64)
        uniq = np.unique(index)  # h5py reads increasing indices only
        with h5py.File(self.path, "r") as f:
            rows = np.asarray(f["X"][uniq], dtype=float)[np.searchsorted(uniq, index)]
        # MATLAB-stored images (column-major) reshape in Fortran order to stand upright.
        order = "F" if self.image_order == "column-major" else "C"
        imgs = np.stack([r.reshape(shape, order=order) for r in rows])
        lo, hi = float(np.min(imgs)), float(np.max(imgs))
        return (imgs - lo) / (hi - lo) if hi > lo else np.zeros_like(imgs)

    def sequences(self, index, labels):
        """Per-point (sequence id, position) for datasets with an order, or None. Uses the
        file's `sequence`/`order` datasets when it has them, else the class-as-sequence rule."""
        index = np.asarray(index, dtype=np.int64)
        if self.path:
            with h5py.File(self.path, "r") as f:
                if "sequence" in f:
                    seq = f["sequence"][:][index]
                    pos = f["order"][:][index] if "order" in f else index
                    return seq, pos, False
        if CLASS_SEQUENCES.get(self.name):
            return np.asarray(labels), index, True  # closed loops
        return None
