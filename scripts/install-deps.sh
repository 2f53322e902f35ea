#!/usr/bin/env bash
# Installs the Debian packages drbench needs, and only those that are missing (so a re-run is a
# no-op that needs no network). Run as root (or with sudo available). Without an argument: what
# building and running drbench needs (scripts/quickstart.sh). --python: also the Python stack of
# `drbench plot`, `report` and the python/ tools; --test: that and the packages only the test suite
# and the benchmarks need.
set -euo pipefail
pkgs=(build-essential cmake pkg-config libarmadillo-dev libopenblas-dev liblapack-dev
      libopenmpi-dev openmpi-bin libyaml-cpp-dev libhdf5-dev
      libhnswlib-dev libfftw3-dev libsuperlu-dev libmatio-dev libdsdp-dev)
# The plotting stack is 96 more packages (90 MB on a bare Debian 12), which a first build and run
# do not use: the quickstart leaves it out, and drbench names the packages when a command needs them.
case "${1:-}" in --python | --test | --references)
  pkgs+=(python3 python3-numpy python3-h5py python3-pandas python3-matplotlib) ;;
esac
[ "${1:-}" = "--test" ] && pkgs+=(catch2 libbenchmark-dev python3-pytest)
# --test (scripts/test.sh): also what only the tests use; chromium renders the HTML report, driven
# over the DevTools protocol by python3-websocket
# (tests/python/test_report.py); scikit-learn and Octave run the external methods of
# tests/cli/external.sh and examples/external/ (scipy.io moves the data to Octave); Slurm and
# munge run examples/slurm/drbench.sbatch in tests/cluster/slurm.sh.
[ "${1:-}" = "--test" ] &&
  pkgs+=(chromium python3-websocket python3-sklearn python3-scipy octave slurmctld slurmd slurm-client munge)
# tests/cli/nodes.sh makes "nodes" of network namespaces (ip netns, nsenter, unshare).
[ "${1:-}" = "--test" ] && pkgs+=(iproute2 util-linux)
# --references: what scripts/get_references.sh builds openTSNE, umap-learn, pacmap and trimap
# with (python -m drbench.references, docs/external-methods.md); the tests skip without them.
[ "${1:-}" = "--references" ] && pkgs+=(python3-sklearn python3-scipy python3-numba
  python3-pynndescent python3-tqdm cython3 python3-threadpoolctl)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "[install-deps] installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
