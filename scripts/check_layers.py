#!/usr/bin/python3
"""Checks that every #include in framework/, methods/ and apps/ goes down the floors of
docs/architecture.md, never up or across. Prints each offending include and exits 1.

  scripts/check_layers.py [ROOT]     # ROOT: a checkout (default: this one)
"""
import pathlib
import re
import sys

# Each floor and the floors it may include besides itself. The order is the one in
# docs/architecture.md; a floor not listed here is itself an error, so a new folder has to be
# placed before it can be used.
FRAMEWORK = {
    "core": [],
    "support": ["core"],
    "budget": ["core", "support"],
    "linalg": ["core", "support"],
    "neighbours": ["core", "support", "linalg"],
    "nbody": ["core", "support", "linalg"],
    "optim": ["core", "support", "linalg"],
    "affinity": ["core", "support", "linalg", "neighbours", "nbody"],
    "data": ["core", "support", "linalg", "neighbours"],
    "eval": ["core", "support", "linalg", "neighbours"],
    "config": ["core", "support", "budget", "linalg", "neighbours", "data", "eval"],
    "plan": ["core", "support", "budget", "linalg", "neighbours", "data", "eval", "config"],
    "results": ["core", "support", "linalg", "neighbours", "data", "eval", "config", "plan"],
    "sched": ["core", "support", "budget", "linalg", "neighbours", "nbody", "data", "eval",
              "config", "plan", "results"],
}
# What a method may use: the contract and the shared numerical routines, never the run
# (config, plan, results, sched) nor the data and scoring the scheduler applies to it.
METHOD_FLOORS = ["core", "support", "budget", "linalg", "neighbours", "nbody", "optim", "affinity"]
# Single headers a method may read from a higher floor: the config entry its own `configure` hook
# parses (MethodInfo::configure takes it).
METHOD_EXCEPTIONS = {"framework/config/method_entry.hpp", "framework/config/yaml_reader.hpp"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def floor_of(path):
    """('framework', floor) | ('methods', family) | ('apps', name) for a repository path."""
    parts = pathlib.PurePosixPath(path).parts
    if len(parts) < 2 or parts[0] not in ("framework", "methods", "apps"):
        return None
    if len(parts) == 2:  # a file directly under framework/ or methods/
        return (parts[0], "")
    return (parts[0], parts[1])


def problem(src, inc):
    """Why src may not include inc, or None."""
    a, b = floor_of(src), floor_of(inc)
    if b is None:
        return None  # a system, third-party or test header
    if a == b:
        return None
    kind, name = a
    if kind == "apps":
        return None if b[0] == "framework" else f"apps include only framework/, not {inc}"
    if kind == "framework":
        if name not in FRAMEWORK:
            return f"framework/{name}/ is no floor of docs/architecture.md: place it there first"
        if b[0] != "framework":
            return "the framework never names a method or an app"
        if b[1] not in FRAMEWORK[name]:
            return f"framework/{name}/ may not include framework/{b[1]}/ (up or across)"
        return None
    # methods/<family>
    if b[0] == "methods":
        if b[1] == "common":
            return None
        return f"methods/{name}/ may not reach into methods/{b[1]}/ (shared code: methods/common/)"
    if b[0] == "apps":
        return "a method never includes an app"
    if b[1] in METHOD_FLOORS or inc in METHOD_EXCEPTIONS:
        return None
    return f"a method may not include framework/{b[1]}/ (the run's floors)"


def check(root):
    root = pathlib.Path(root)
    found = []
    for top in ("framework", "methods", "apps"):
        for f in sorted((root / top).rglob("*")):
            if f.suffix not in (".cpp", ".hpp", ".h") or not f.is_file():
                continue
            rel = f.relative_to(root).as_posix()
            for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if m:
                    why = problem(rel, m.group(1))
                    if why:
                        found.append(f"{rel}:{n}: #include \"{m.group(1)}\": {why}")
    return found


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
    bad = check(root)
    for line in bad:
        print(line)
    if bad:
        print(f"{len(bad)} include(s) break the floors of docs/architecture.md")
        sys.exit(1)
    print("every include goes down the floors of docs/architecture.md")
