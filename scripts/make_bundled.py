#!/usr/bin/env python3
"""Writes datasets/data/iris.csv and wine.csv from scikit-learn's bundled copies (Debian package
python3-sklearn), with a header line and the class number (0..C-1) as the last column.

Run from the repository root: /usr/bin/python3 scripts/make_bundled.py
"""
import csv
import os

import sklearn

SRC = os.path.join(os.path.dirname(sklearn.__file__), "datasets", "data")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "datasets", "data")

FEATURES = {
    "iris": ["sepal_length", "sepal_width", "petal_length", "petal_width"],
    "wine": ["alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols",
             "flavanoids", "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue",
             "od280_od315_of_diluted_wines", "proline"],
}
SOURCES = {"iris": "iris.csv", "wine": "wine_data.csv"}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, src in SOURCES.items():
        with open(os.path.join(SRC, src)) as f:
            rows = list(csv.reader(f))
        n, d = int(rows[0][0]), int(rows[0][1])  # sklearn's first line: n, d, class names
        body = rows[1:]
        assert len(body) == n and all(len(r) == d + 1 for r in body), src
        assert len(FEATURES[name]) == d
        with open(os.path.join(OUT, name + ".csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(FEATURES[name] + ["label"])
            w.writerows(body)
        print(f"{name}: {n} x {d} from {os.path.join(SRC, src)} (sklearn {sklearn.__version__})")


if __name__ == "__main__":
    main()
