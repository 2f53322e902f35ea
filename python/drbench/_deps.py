"""The plotting stack is optional for drbench itself: say which Debian package is missing."""
import importlib
import sys

_DEBIAN = {"numpy": "python3-numpy", "h5py": "python3-h5py", "pandas": "python3-pandas",
           "matplotlib": "python3-matplotlib"}


def require(*modules, what="drbench"):
    missing = []
    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError:
            missing.append(m)
    if missing:
        pkgs = " ".join(_DEBIAN.get(m, m) for m in missing)
        sys.stderr.write(f"{what}: the Python package(s) {', '.join(missing)} cannot be imported "
                         f"by {sys.executable}; install them (Debian: apt-get install {pkgs}, or "
                         "bash scripts/install-deps.sh --python)\n")
        sys.exit(3)
