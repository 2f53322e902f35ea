#!/usr/bin/env bash
# Configures and builds drbench (Release) in ./build. Extra arguments go to cmake; DRBENCH_TARGET
# (e.g. drbench) builds that target only instead of everything configured.
set -euo pipefail
cd "$(dirname "$0")/.."
# A compiler cache, where one is installed, makes rebuilds in other checkouts (and CI) cheap. It
# caches the sources compiled with the precompiled headers only when it may trust their macros and
# __TIME__ (ccache manual, "Precompiled headers").
launcher=()
command -v ccache >/dev/null &&
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_SLOPPINESS=pch_defines,time_macros;ccache")
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
cmake --build build -j "$(nproc)" ${DRBENCH_TARGET:+--target "$DRBENCH_TARGET"}
