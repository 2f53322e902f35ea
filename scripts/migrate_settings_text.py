#!/usr/bin/python3
"""Rewrites the settings printed in committed result tables (CSV and markdown) from the parameter
names of an older settings version to today's, for tables whose results file is no longer at hand
(docs/results-format.md, "Renamed parameters"). Tables whose file is present are regenerated from
it instead (`drbench aggregate`, which migrates as it reads).

The renames are not restated here: each setting goes through `drbench methods --migrate`, the
migration every reader of an old results file applies. The config that made the table maps its
method labels to registered methods (its methods and every profile's).

What is rewritten:
- CSV files with `method` (the label) and `setting` columns (drbench's long CSV, the TPSLVM
  tables): the setting field of each line, nothing else of the line;
- markdown table rows whose first cell is a label of the config: every cell that is a setting
  (`a=1,b=2`, no spaces);
- markdown lines listing failed tasks, `- DATASET LABEL SETTING: error`.

usage: migrate_settings_text.py CONFIG.yaml [--from-version N] FILE [FILE ...]
"""
import csv
import io
import os
import re
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from drbench import results  # noqa: E402

SETTING = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=[^\s|]*$")


def label_methods(config_path):
    """label -> registered method over the config's methods and every profile's."""
    with open(config_path) as f:
        cfg = yaml.safe_load(f)
    out = {}
    blocks = [cfg] + list((cfg.get("profiles") or {}).values())
    for b in blocks:
        for m in (b or {}).get("methods") or []:
            label = str(m.get("label", m["method"]))
            if out.get(label, m["method"]) != m["method"]:
                sys.exit(f"{config_path}: label {label} names two methods ({out[label]}, "
                         f"{m['method']}); give each file's own config")
            out[label] = m["method"]
    return out


def migrate(pairs, from_version):
    """[(method, setting)] -> {(method, setting): today's setting}, by the drbench program."""
    pairs = sorted(set(pairs))
    if not pairs:
        return {}
    prog = results.drbench_program()
    if prog is None:
        sys.exit("no drbench program (fix: build it, or set DRBENCH_PROGRAM)")
    text = "".join(f"{m}\t{s}\n" for m, s in pairs)
    run = subprocess.run([prog, "methods", "--migrate", "--from-version", str(from_version)],
                         input=text, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(run.stderr.strip())
    out = run.stdout.splitlines()
    assert len(out) == len(pairs), (len(out), len(pairs))
    return dict(zip(pairs, out))


def csv_edits(lines, methods):
    """(line index, old setting, method) for every data line of a CSV with method/setting."""
    header = next(csv.reader([lines[0]]))
    if "method" not in header or "setting" not in header:
        return []
    mi, si = header.index("method"), header.index("setting")
    edits = []
    for i, line in enumerate(lines[1:], 1):
        if not line.strip():
            continue
        row = next(csv.reader(io.StringIO(line)))
        if row[si] and row[mi] in methods:
            edits.append((i, row[si], methods[row[mi]]))
    return edits


def md_edits(lines, methods):
    edits = []
    labels = sorted(methods, key=len, reverse=True)
    for i, line in enumerate(lines):
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells and cells[0] in methods:
                edits += [(i, c, methods[cells[0]]) for c in cells[1:] if SETTING.match(c)]
        elif line.startswith("- "):
            for lab in labels:
                m = re.match(r"^- \S+ " + re.escape(lab) + r" (\S+=\S*): ", line)
                if m:
                    edits.append((i, m.group(1), methods[lab]))
                    break
    return edits


def main():
    args = sys.argv[1:]
    from_version = 1
    if "--from-version" in args:
        j = args.index("--from-version")
        from_version = int(args[j + 1])
        del args[j:j + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    methods = label_methods(args[0])
    files = {}
    for path in args[1:]:
        with open(path) as f:
            lines = f.read().split("\n")
        edits = csv_edits(lines, methods) if path.endswith(".csv") else md_edits(lines, methods)
        files[path] = (lines, edits)
    now = migrate([(m, s) for _, edits in files.values() for _, s, m in edits], from_version)
    for path, (lines, edits) in files.items():
        changed = 0
        for i, old, method in sorted(set(edits)):
            new = now[(method, old)]
            if new == old:
                continue
            if lines[i].startswith("|"):  # a table row: whole cells only
                parts = lines[i].split("|")
                hits = [j for j, c in enumerate(parts) if c.strip() == old]
                for j in hits:
                    parts[j] = parts[j].replace(old, new)
                lines[i] = "|".join(parts)
                changed += len(hits)
                continue
            if lines[i].count(old) != 1:
                sys.exit(f"{path}:{i + 1}: '{old}' is not once in the line; not rewritten")
            lines[i] = lines[i].replace(old, new)
            changed += 1
        if changed:
            with open(path, "w") as f:
                f.write("\n".join(lines))
        print(f"{path}: {changed} settings renamed")


if __name__ == "__main__":
    main()
