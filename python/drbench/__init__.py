"""Python side of drbench: read results files (`drbench.results`), draw them (`drbench.plot`),
and write a one-page HTML report (`drbench.report`).

Needs h5py, numpy and pandas (Debian python3-h5py, python3-numpy, python3-pandas); plotting and
the report also need matplotlib (python3-matplotlib).
"""

__all__ = ["results"]
