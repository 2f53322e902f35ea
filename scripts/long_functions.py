#!/usr/bin/python3
"""Lists the functions of framework/ and apps/ longer than a limit (default 100 lines), longest
first, and exits 1 when there is one. A function is a top-level or class-level brace block
opened by a line that ends a parameter list; lambdas and nested blocks count toward the function
that holds them.

  scripts/long_functions.py [--limit N] [ROOT]
"""
import argparse
import pathlib
import re
import sys

OPENER = re.compile(r"\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->\s*[\w:<>,\s&*]+)?\s*\{\s*$")
NOT_FUNCTION = re.compile(r"^\s*(if|for|while|switch|catch|else|do)\b|\b(struct|class|enum|namespace)\b|=\s*\[|\]\s*\(")


def strip(line):
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return line.split("//")[0]


def functions(path):
    lines = path.read_text(errors="replace").splitlines()
    out, depth, start, start_depth, name = [], 0, None, 0, ""
    in_comment = False
    for n, raw in enumerate(lines, 1):
        line = raw
        if in_comment:
            if "*/" not in line:
                continue
            line, in_comment = line.split("*/", 1)[1], False
        if "/*" in line and "*/" not in line:
            line, in_comment = line.split("/*", 1)[0], True
        code = strip(line)
        if start is None and OPENER.search(code) and not NOT_FUNCTION.search(code) and depth <= 2:
            start, start_depth = n, depth
            k = n - 1
            sig = code
            while "(" not in sig and k > 0:
                k -= 1
                sig = strip(lines[k]) + sig
            m = re.search(r"([\w:~]+)\s*\(", sig)
            name = m.group(1) if m else "?"
        depth += code.count("{") - code.count("}")
        if start is not None and depth <= start_depth:
            out.append((n - start + 1, name, start))
            start = None
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("root", nargs="?", default=pathlib.Path(__file__).resolve().parent.parent)
    a = ap.parse_args()
    root = pathlib.Path(a.root)
    long = []
    for top in ("framework", "apps"):
        for f in sorted((root / top).rglob("*.[ch]pp")):
            for length, name, line in functions(f):
                if length > a.limit:
                    long.append((length, f"{f.relative_to(root)}:{line}", name))
    for length, where, name in sorted(long, reverse=True):
        print(f"{length:5d}  {where}  {name}")
    print(f"{len(long)} function(s) over {a.limit} lines in framework/ and apps/")
    sys.exit(1 if long else 0)


if __name__ == "__main__":
    main()
