"""Read a drbench results file (docs/results-format.md) into pandas DataFrames.

    from drbench import results
    r = results.load("results/quickstart.h5")
    r.tasks        # one row per finished task; knn errors as columns error_k1, error_k3, ...;
                   # protocol (holdout / transductive) of each
    r.tables       # aggregated tables, long format (columns of `drbench aggregate --format csv`,
                   # and the protocol of each row)
    r.traces       # optimiser traces: task_id, iteration, objective, grad_norm, seconds[, step]
    r.embeddings   # every kept embedding: task_id, part, row, index, label, z0, z1, ...
    r.embedding(17)  # one task's embedding

`r.tables` are the tables `drbench run`/`drbench aggregate` stored under /tables when the file has
them, else the same tables printed by `drbench aggregate --no-store` (`aggregate(r)`): only the C++
program computes tables, so a selection rule or a test is written once;
`r.tables_source` says which. Everything a file lacks (older files, runs without
keep_embeddings/keep_traces) is an empty frame or NaN column, and `r.notes` says why.
"""
from __future__ import annotations

import faulthandler
import io
import os
import shutil
import signal
import struct
import subprocess
import time
import warnings
import zlib
from dataclasses import dataclass, field

import h5py
import numpy as np
import pandas as pd

TABLE_COLUMNS = ["dataset", "method", "split_kind", "split_value", "dim", "k", "mean_error_pct",
                 "std_error_pct", "n", "setting", "p_value", "worse", "failed", "best", "reference",
                 "test", "correction", "p_adjusted", "mean_diff", "ci95_low", "ci95_high", "protocol"]
# Columns tables stored by older programs lack (docs/results-format.md, "Tables").
_TEST_COLUMNS = ["best", "reference", "test", "correction", "p_adjusted", "mean_diff", "ci95_low",
                 "ci95_high"]

# Where a per-point array of an embedding may live, newest spelling first: files written before
# embeddings carried their point indices and labels have none of these.
_INDEX_NAMES = ("{part}_index", "{part}_indices", "{part}_idx", "index/{part}", "indices/{part}")
_LABEL_NAMES = ("{part}_label", "{part}_labels", "{part}_y", "y_{part}", "labels/{part}",
                "y/{part}")


def _text(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", "backslashreplace")
    if isinstance(v, np.ndarray) and v.dtype.kind in "OS":
        return [_text(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    return v


def _column(d: h5py.Dataset):
    if d.dtype.kind in "OS" or h5py.check_string_dtype(d.dtype) is not None:
        # Files of drbench before it escaped stored text may hold raw bytes from an external
        # command's stderr: shown escaped (\xNN). Their CRC-32 is the program's to verify
        # (verify_with_program).
        v = d.asstr(errors="surrogateescape")[:]
        return np.array([x.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                         for x in v], dtype=object)
    return d[:]


def verify_with_program(path: str) -> bool:
    """Has the drbench program read the file as every C++ reader does (`drbench info`,
    framework/results/reader.cpp): it walks the HDF5 string heaps before libhdf5 touches them
    (libhdf5 1.10 loops forever on a free-space record of size 0), checks the CRC-32 drbench
    stores beside every string column, and rehearses the whole read in a child process, so a file
    that would crash the library is refused. Raises ValueError with the program's sentence when
    it finds the file damaged. False when there is no program to ask, or when the program refuses
    the file's layout rather than its bytes (a hand-made file in the documented layout, which this
    reader takes as far as it goes): the caller then rehearses its own read."""
    prog = drbench_program()
    if prog is None:
        return False
    run = subprocess.run([prog, "info", path], capture_output=True, text=True,
                         errors="backslashreplace")
    if run.returncode == 0:
        return True
    said = [x[len("drbench: "):] for x in run.stderr.splitlines() if x.startswith("drbench: ")]
    if said and "damaged" in said[-1]:
        raise ValueError(said[-1])
    return False


def _first(group: h5py.Group, patterns, part):
    for p in patterns:
        name = p.format(part=part)
        if name in group and isinstance(group[name], h5py.Dataset):
            return group[name][:]
    return None


# Quality measures where lower values are better (framework/eval/coranking.cpp's vocabulary).
LOWER_IS_BETTER = {"mrre_intrusion", "mrre_extrusion", "stress"}


@dataclass
class Results:
    path: str
    attrs: dict
    k: list
    knn_metric: str
    quality_names: list
    tasks: pd.DataFrame
    tables: pd.DataFrame
    tables_source: str  # "stored" (from /tables) or "recomputed" (by `drbench aggregate`)
    table_text: dict  # name -> markdown text of the stored tables ({} when none)
    tables_reference: str  # the t-test reference of the tables (stored: /tables' attribute)
    traces: pd.DataFrame
    notes: list = field(default_factory=list)
    _embeddings: pd.DataFrame | None = None

    @property
    def name(self) -> str:
        return self.attrs.get("name", "")

    @property
    def graph_version(self) -> int:
        """The neighbour search the graph methods' tasks were computed with (root attribute
        graph_version; 1 for files from before it: docs/results-format.md)."""
        return int(self.attrs.get("graph_version", 1) or 1)

    def quality_columns(self) -> pd.DataFrame:
        """One row per quality column of the tasks: column ("rnx@10"), measure, k (0 for measures
        without K) and higher_better."""
        rows = []
        for qn in self.quality_names:
            m, _, k = qn.partition("@")
            rows.append({"column": qn, "measure": m, "k": int(k) if k else 0,
                         "higher_better": m not in LOWER_IS_BETTER})
        return pd.DataFrame(rows, columns=["column", "measure", "k", "higher_better"])

    def rnx_curves(self) -> pd.DataFrame:
        """R_NX(K) of every task that stored one (/rnx_curves): task_id, K, rnx."""
        frames = []
        if self.path:
            with h5py.File(self.path, "r") as f:
                if "rnx_curves" in f:
                    for key in sorted(f["rnx_curves"].keys(), key=int):
                        m = np.asarray(f["rnx_curves"][key][:], dtype=float).reshape(-1, 2)
                        frames.append(pd.DataFrame({"task_id": int(key), "K": m[:, 0].astype(int),
                                                    "rnx": m[:, 1]}))
        return (pd.concat(frames, ignore_index=True) if frames
                else pd.DataFrame(columns=["task_id", "K", "rnx"]))


    @property
    def embedding_ids(self) -> list:
        if not self.path:  # several files as one (load_pieces): embeddings stay per file
            return []
        with h5py.File(self.path, "r") as f:
            return sorted(int(i) for i in f["embeddings"].keys()) if "embeddings" in f else []

    def embedding(self, task_id: int) -> pd.DataFrame:
        """One task's embedding: part (train/test), row (position in the part), index (point index
        into the dataset, -1 when the file does not store it), label (class, -1 when not stored),
        z0..z{dim-1}."""
        with h5py.File(self.path, "r") as f:
            key = f"embeddings/{int(task_id)}"
            if key not in f:
                raise KeyError(f"{self.path}: no embedding for task {task_id} (run with "
                               "output.keep_embeddings: true to keep them)")
            return _read_embedding(f[key], int(task_id))

    @property
    def embeddings(self) -> pd.DataFrame:
        """Every kept embedding in one long frame (loaded on first use)."""
        if self._embeddings is None:
            frames = []
            if self.path:  # several files as one (load_pieces): embeddings stay per file
                with h5py.File(self.path, "r") as f:
                    ids = sorted(int(k) for k in f["embeddings"].keys()) if "embeddings" in f else []
                    for i in ids:
                        frames.append(_read_embedding(f[f"embeddings/{i}"], i))
            self._embeddings = (pd.concat(frames, ignore_index=True) if frames else
                                pd.DataFrame(columns=["task_id", "part", "row", "index", "label"]))
            if frames and (self._embeddings["label"] < 0).all():
                self.notes.append("embeddings carry no point indices or labels (file written "
                                  "before drbench stored them): index and label are -1")
        return self._embeddings


def _read_embedding(g: h5py.Group, task_id: int) -> pd.DataFrame:
    frames = []
    for part in ("train", "test"):
        if part not in g:
            continue
        z = np.asarray(g[part][:], dtype=float)
        if z.ndim == 1:
            z = z[:, None]
        n = z.shape[0]
        idx = _first(g, _INDEX_NAMES, part)
        lab = _first(g, _LABEL_NAMES, part)
        df = pd.DataFrame({
            "task_id": task_id, "part": part, "row": np.arange(n),
            "index": np.asarray(idx, dtype=np.int64) if idx is not None and len(idx) == n
            else np.full(n, -1, dtype=np.int64),
            "label": np.asarray(lab, dtype=np.int64) if lab is not None and len(lab) == n
            else np.full(n, -1, dtype=np.int64)})
        for j in range(z.shape[1]):
            df[f"z{j}"] = z[:, j]
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def _read_tasks(f: h5py.File, notes: list):
    t = f["tasks"]
    cols = {}
    k, metric, qnames = [], "euclidean", []
    for name in t.keys():
        d = t[name]
        if name == "knn_error":
            k = [int(x) for x in d.attrs.get("k", [])]
            metric = _text(d.attrs.get("metric", "euclidean"))
            e = d[:]
            for j, kk in enumerate(k):
                cols[f"error_k{kk}"] = e[:, j] if e.ndim == 2 else np.full(len(e), np.nan)
        elif name == "quality":
            # Columns "rnx@10", "rnx_auc" (docs/results-format.md). Files from before the
            # co-ranking pass hold bare names and one scalar k: read as name@k.
            qnames = [str(x) for x in _text(d.attrs.get("names", []))]
            if "measure" not in d.attrs:
                kk = int(np.asarray(d.attrs.get("k", 0)).reshape(-1)[0]) if "k" in d.attrs else 0
                qnames = [f"{n}@{kk}" for n in qnames]
            q = d[:]
            for j, qn in enumerate(qnames):
                cols[qn] = q[:, j] if q.ndim == 2 else np.full(len(q), np.nan)
        elif name == "quality_se":
            se = d[:]
            for j, qn in enumerate(_text(t["quality"].attrs.get("names", []))):
                cols[f"{qn}_se"] = se[:, j] if se.ndim == 2 else np.full(len(se), np.nan)
        elif d.ndim == 1:
            cols[name] = _column(d)
        else:
            notes.append(f"/tasks/{name} has shape {d.shape}: not read (unknown 2-D column)")
    df = pd.DataFrame(cols)
    if "status" in df:
        df["ok"] = df["status"] == 0
    if "id" in df:
        df = df.sort_values("id", kind="stable").reset_index(drop=True)
    return df, k, metric, qnames


def _read_traces(f: h5py.File) -> pd.DataFrame:
    frames = []
    if "traces" in f:
        for key in sorted(f["traces"].keys(), key=int):
            d = f["traces"][key]
            m = np.asarray(d[:], dtype=float)
            if m.ndim != 2:
                continue
            names = [str(c) for c in _text(d.attrs.get("columns", []))]
            if len(names) != m.shape[1]:  # the four documented columns, then anything unnamed
                base = ["iteration", "objective", "grad_norm", "seconds", "step"]
                names = (base + [f"c{j}" for j in range(len(base), m.shape[1])])[:m.shape[1]]
            df = pd.DataFrame(m, columns=names)
            df.insert(0, "task_id", int(key))
            df.insert(1, "optimizer", _text(d.attrs.get("optimizer", "")))
            df["notes"] = ";".join(str(n) for n in _text(d.attrs.get("notes", [])))
            frames.append(df)
    if not frames:
        return pd.DataFrame(columns=["task_id", "optimizer", "iteration", "objective",
                                     "grad_norm", "seconds", "notes"])
    out = pd.concat(frames, ignore_index=True)
    if "iteration" in out:
        out["iteration"] = out["iteration"].astype(np.int64)
    return out


def _read_stored_tables(f: h5py.File):
    frames, text = [], {}
    if "tables" not in f:
        return None, text, None
    for name in sorted(f["tables"].keys()):
        raw = f["tables"][name][()]
        s = raw.decode("utf-8", "backslashreplace") if isinstance(raw, bytes) else str(raw)
        if name.endswith(".md"):
            text[name[:-3]] = s
        elif name.endswith(".csv"):
            frames.append(parse_table_csv(s))
    ref = _text(f["tables"].attrs.get("reference", ""))
    if not frames:
        return None, text, ref
    return pd.concat(frames, ignore_index=True), text, ref


def parse_table_csv(text: str) -> pd.DataFrame:
    """One CSV table as `drbench aggregate --format csv` writes it, typed like aggregate()."""
    df = pd.read_csv(io.StringIO(text), keep_default_na=False, dtype=str)
    out = pd.DataFrame({
        "dataset": df["dataset"], "method": df["method"], "split_kind": df["split_kind"],
        "split_value": df["split_value"].astype(float), "dim": df["dim"].astype(np.int64),
        "k": df["k"].astype(np.int64),
        "mean_error_pct": pd.to_numeric(df["mean_error_pct"].replace("", np.nan)),
        "std_error_pct": pd.to_numeric(df["std_error_pct"].replace("", np.nan)),
        "n": df["n"].astype(np.int64), "setting": df["setting"],
        "p_value": pd.to_numeric(df["p_value"].replace("", np.nan)),
        "worse": df["worse"].astype(np.int64) != 0, "failed": df["failed"].astype(np.int64),
        # Tables of one protocol name it in their captions only: filled in from the tasks.
        "protocol": df["protocol"] if "protocol" in df else ""})
    if "best" in df:
        out["best"] = df["best"].astype(np.int64) != 0
        for c in ("reference", "test", "correction"):
            out[c] = df[c]
        for c in ("p_adjusted", "mean_diff", "ci95_low", "ci95_high"):
            out[c] = pd.to_numeric(df[c].replace("", np.nan))
    else:  # stored by a program from before these columns: unknown, not false
        out["best"] = pd.Series([pd.NA] * len(df), dtype="boolean")
        for c in ("reference", "test", "correction"):
            out[c] = ""
        for c in ("p_adjusted", "mean_diff", "ci95_low", "ci95_high"):
            out[c] = np.nan
    return out[TABLE_COLUMNS]


def config_protocol(config_text: str) -> str:
    """The protocol of every task of a file without /tasks/protocol (written before per-method
    protocols): its config's evaluation.protocol, holdout where it names none."""
    try:
        import yaml
        ev = (yaml.safe_load(config_text) or {}).get("evaluation") or {}
        return "transductive" if ev.get("protocol") == "transductive" else "holdout"
    except ImportError:  # no PyYAML: such a config's only protocol key is evaluation's
        import re
        text = "\n".join(line.split("#", 1)[0] for line in config_text.splitlines())
        return "transductive" if re.search(r"\bprotocol\s*:\s*transductive\b", text) \
            else "holdout"
    except Exception:  # a text that no longer parses ran under the default
        return "holdout"


def fill_protocols(tasks: pd.DataFrame, tables: pd.DataFrame) -> pd.DataFrame:
    """Tables rows without a protocol take their label's from the tasks: the csv of a table whose
    rows share one protocol names it in the caption only, not in a column."""
    if tables.empty or "protocol" not in tasks or "label" not in tasks:
        return tables
    by_label = dict(zip(tasks["label"], tasks["protocol"]))
    tables = tables.copy()
    empty = tables["protocol"].isna() | (tables["protocol"] == "")
    tables.loc[empty, "protocol"] = tables.loc[empty, "method"].map(by_label).fillna("")
    return tables


def rehearse_read(path: str, read, base_seconds: float = 30.0) -> None:
    """Calls read() once in a forked child. Debian's libhdf5 1.10 crashes inside its own
    decoding on some damaged files (fuzz/known/ in the source tree), and h5py with it; this way
    such a file raises ValueError here instead of killing Python. Where os.fork is missing the
    rehearsal is skipped."""
    if not hasattr(os, "fork"):
        return
    limit = base_seconds + os.path.getsize(path) / 20e6
    pid = os.fork()
    if pid == 0:  # the child: no exception, no cleanup, no flushed buffers may leave it
        faulthandler.disable()  # a crash here is the expected answer, not a report to print
        try:
            read()
        except BaseException:  # the parent reads again and raises the error itself
            pass
        os._exit(0)
    start, pause = time.monotonic(), 5e-5
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            break
        if time.monotonic() - start > limit:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise ValueError(f"{path}: reading it did not finish within {limit:.0f} s (libhdf5 "
                             "loops on some damaged files); restore it from a copy or rerun the "
                             "experiment")
        time.sleep(pause)
        pause = min(2 * pause, 0.02)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        raise ValueError(f"{path}: reading it crashed the HDF5 library (signal {sig}, "
                         f"{signal.Signals(sig).name}) in a separate process, so the file is "
                         "damaged; restore it from a copy or rerun the experiment")
    if os.WEXITSTATUS(status) != 0:
        raise ValueError(f"{path}: reading it ended the reading process abnormally (exit status "
                         f"{os.WEXITSTATUS(status)}); restore it from a copy or rerun the experiment")


_HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
_JOURNAL_MAGIC = b"DRBJNL01"


def run_progress(path: str) -> dict | None:
    """How far the run of the results file at `path` has come, as the program counts it (`drbench
    info FILE --progress`, the one reader of journals): tasks in the file, tasks of the
    experiment, whether it is stamped finished, the journal and the tasks it holds (None without
    one), and the tasks left (None under successive halving). None when there is no program to
    ask; raises ValueError with the program's sentence when it refuses the file."""
    prog = drbench_program()
    if prog is None:
        return None
    run = subprocess.run([prog, "info", path, "--progress"], capture_output=True, text=True,
                         errors="backslashreplace")
    if run.returncode != 0:
        said = [x[len("drbench: "):] for x in run.stderr.splitlines() if x.startswith("drbench: ")]
        raise ValueError(said[-1] if said else f"{path}: drbench info --progress failed")
    rows = run.stdout.splitlines()
    f = rows[1].split("\t")
    held, left = int(f[5]), int(f[6])
    return {"tasks": int(f[1]), "expected": int(f[2]), "finished": f[3] == "1",
            "journal": f[4] or None, "journal_tasks": held if held >= 0 else None,
            "left": left if left >= 0 else None}


def refuse_unreadable(path: str) -> None:
    """Raises ValueError with the sentence `drbench aggregate` prints for a results file that is
    missing, interrupted before its first snapshot (only the journal left), a directory, empty or
    not HDF5 at all, so that every reader refuses as the program does."""
    journal = path + ".journal"
    if not os.path.exists(path) and os.path.isfile(journal):
        run_progress(path)  # the program's sentence, with the tasks the journal holds
        raise ValueError(f"{path}: the run was interrupted before it wrote this file; its journal "
                         f"{journal} holds its finished tasks (fix: rerun the same `drbench run` "
                         "command to recover them)")
    if not os.path.exists(path):
        raise ValueError(f"{path}: no such file (fix: check the path; drbench run writes "
                         "results/<config>.h5)")
    if os.path.isdir(path):
        raise ValueError(f"{path}: is a directory (fix: name the results file inside it)")
    if not h5py.is_hdf5(path):
        raise ValueError(f"{path}: not an HDF5 file (fix: give a results file that drbench run "
                         "wrote; a truncated or overwritten file cannot be read)")


def load(path: str) -> Results:
    """Reads a results file. Embeddings are read on first use of `.embeddings`/`.embedding()`.
    A file that cannot be read (missing, damaged, not a results file, written by a newer drbench)
    raises ValueError with the reason and the fix."""
    refuse_unreadable(path)
    # The program's reader verifies the file (heaps, checksums, a rehearsed read); without one,
    # the read is rehearsed here, so a damaged file at least raises instead of crashing Python.
    if not verify_with_program(path):
        rehearse_read(path, lambda: _load(path, ask_program=False).embeddings)
    try:
        return _load(path)
    except (OSError, RuntimeError, KeyError) as e:
        # h5py's own words ("bad symbol table node signature") name the damage, not the fix.
        raise ValueError(f"{path}: cannot read it: the file is damaged ({e}) (fix: restore the "
                         "file from a copy, or rerun the experiment with --force-new)") from None


def _load(path: str, ask_program: bool = True) -> Results:
    notes = []
    with h5py.File(path, "r") as f:
        if "tasks" not in f:
            raise ValueError(f"{path}: not a drbench results file (no config attribute or /tasks "
                             "group) (fix: give a file that drbench run wrote)")
        attrs = {}
        for key, v in f.attrs.items():
            v = _text(v)
            attrs[key] = list(v) if isinstance(v, (list, np.ndarray)) else v
        tasks, k, metric, qnames = _read_tasks(f, notes)
        if "protocol" not in tasks and not tasks.empty:
            tasks["protocol"] = config_protocol(str(attrs.get("config", "")))
        traces = _read_traces(f)
        stored, text, stored_ref = _read_stored_tables(f)
        if traces.empty:
            notes.append("no optimiser traces (no iterative method, or keep_traces: false; fix: "
                         "output.keep_traces: true)")
        elif "step" not in traces:
            notes.append("traces have no step column (file written before steps were logged)")
    if not attrs.get("finished") and int(attrs.get("n_tasks", 0) or 0) > 0:
        # The same sentence as `drbench aggregate` prints above the tables of an unfinished run.
        done = (f"{len(tasks)} task results (successive halving runs only part of the "
                f"{attrs['n_tasks']} expanded tasks)" if int(attrs.get("halving_repeats", 0) or 0) > 0
                else f"{len(tasks)} of {attrs['n_tasks']} tasks")
        msg = (f"incomplete run: {path} holds {done} and its run has not finished (stopped, killed "
               "or still running), so cells may rest on fewer partitions and methods may be "
               "missing; rerun the same `drbench run` command to complete it")
        notes.insert(0, msg)
        warnings.warn(msg, stacklevel=3)
    if "graph_version" not in attrs:
        notes.append("neighbour graph version 1: the file predates the one neighbour search, so "
                     "its graph methods' cells (LE, LLE, Isomap, the LPP family, ...) came from "
                     "the retired brute-force search and may differ from a rerun by today's "
                     "drbench (docs/results-format.md, graph_version)")
    migrated = ask_program and _migrate_settings(path, attrs, tasks, notes)
    if migrated and stored is not None:
        # Tables stored by a program of that version print the old names too: recompute them.
        stored = None
        notes.append("the file's stored tables carry the old parameter names: tables computed "
                     "by `drbench aggregate --no-store` instead")
    elif stored is not None and stored["best"].isna().all():
        if ask_program and drbench_program() is not None:
            stored = None
            migrated = True  # the note below says why the tables are recomputed
            notes.append("the file's stored tables predate the columns best, reference, test, "
                         "correction, p_adjusted, mean_diff and ci95_*: tables computed by "
                         "`drbench aggregate --no-store` instead")
        else:
            notes.append("the file's stored tables predate the columns best, reference, test, "
                         "correction, p_adjusted, mean_diff and ci95_* (left empty; fix: run "
                         "`drbench aggregate FILE` to store them anew)")
    r = Results(path=path, attrs=attrs, k=k, knn_metric=metric, quality_names=qnames,
                tasks=tasks, tables=pd.DataFrame(columns=TABLE_COLUMNS), tables_source="",
                table_text=text, tables_reference=attrs.get("ttest_reference", ""),
                traces=traces, notes=notes)
    if stored is not None:
        # /tables lists names alphabetically; put the rows in the order `drbench aggregate`
        # prints them (config order of datasets, then k, then dim; rows within a table as stored).
        order = {d: i for i, d in enumerate(attrs.get("datasets", []))}
        stored["_o"] = stored["dataset"].map(lambda d: order.get(d, len(order)))
        stored = stored.sort_values(["_o", "k", "dim"], kind="stable").drop(columns="_o")
        r.tables, r.tables_source = stored.reset_index(drop=True), "stored"
        r.tables_reference = stored_ref or ""
    elif not tasks.empty and k:
        missing = [c for c in ("dataset", "label", "split_kind", "split_value", "dim",
                               "setting", "split_seed", "status") if c not in tasks]
        if missing:
            notes.append(f"no tables: /tasks lacks {', '.join(missing)}")
        elif drbench_program() is None:
            notes.append("no tables stored in the file (a run still going or stopped, or a file "
                         "from before runs stored their tables), and no drbench program to "
                         "compute them (fix: build drbench, put it on PATH or set "
                         "DRBENCH_PROGRAM; or run `drbench aggregate FILE` to store them)")
        else:
            r.tables, r.tables_source = aggregate(r), "recomputed"
            if not migrated:  # else the note above says why
                notes.append("no tables stored in the file (a run still going or stopped, or a "
                             "file from before runs stored their tables): tables computed by "
                             "`drbench aggregate --no-store`")
    r.tables = fill_protocols(tasks, r.tables)
    return r


_SETTINGS_VERSION = {}


def program_settings_version(prog: str | None = None) -> int | None:
    """The settings version (parameter names) the drbench program writes: `drbench info
    --settings-version`, asked once per program; None without a program."""
    prog = prog or drbench_program()
    if prog is None:
        return None
    if prog not in _SETTINGS_VERSION:
        run = subprocess.run([prog, "info", "--settings-version"], capture_output=True, text=True)
        _SETTINGS_VERSION[prog] = int(run.stdout.strip()) if run.returncode == 0 else None
    return _SETTINGS_VERSION[prog]


def _migrate_settings(path: str, attrs: dict, tasks: pd.DataFrame, notes: list) -> bool:
    """Puts the setting and key columns of a file written under older parameter names
    (docs/results-format.md, "Renamed parameters") under today's names, as the drbench program
    reads them (`drbench info --settings`): the renames are declared once, by the methods in
    C++, and never restated here. True when the names were migrated."""
    version = int(attrs.get("settings_version", 1) or 1)
    if tasks.empty or "setting" not in tasks or "id" not in tasks:
        return False
    current = program_settings_version()
    if current is None:
        if "settings_version" not in attrs:
            notes.append("settings may carry parameter names from before the renames of "
                         "settings version 2 (no drbench program to migrate them; fix: build it "
                         "or set DRBENCH_PROGRAM)")
        return False
    if version > current:
        raise ValueError(f"{path}: written by a newer drbench (settings_version {version}; this "
                         f"drbench reads up to {current}) (fix: read it with the drbench version "
                         f"that wrote it, {attrs.get('drbench_version', '?')}, or newer)")
    if version >= current:
        return False
    run = subprocess.run([drbench_program(), "info", path, "--settings"], capture_output=True,
                         text=True)
    if run.returncode != 0:
        raise ValueError(run.stderr.strip() or f"drbench info {path} --settings failed")
    lines = run.stdout.splitlines()[1:]
    now = {}
    for line in lines:
        _, _, tid, setting, key = line.split("\t")
        now[int(tid)] = (setting, key)
    ids = tasks["id"].astype(np.int64)
    tasks["setting"] = [now.get(int(i), (s, None))[0] for i, s in zip(ids, tasks["setting"])]
    if "key" in tasks:
        tasks["key"] = [now.get(int(i), (None, k))[1] for i, k in zip(ids, tasks["key"])]
    notes.append(f"settings written under the parameter names of settings version {version}: "
                 f"shown under today's (version {current}), as drbench reads them")
    return True


def load_pieces(paths) -> Results:
    """Several results files of one table run in pieces (one profile per column, as
    configs/gplrf_usps.yaml runs GPLRF Table 1) as one Results: the tasks and each file's own
    tables pooled by `drbench aggregate A.h5 B.h5` with its checks (framework/results/combine.hpp:
    the files agree on k, the kNN metric, the split kind, the partitions per split value and the
    selection rule, and no table cell is in two of them; a failed check raises ValueError).
    Embeddings and traces stay per file (task ids repeat across files): `path` is "" and both are
    empty."""
    parts = [load(p) for p in paths]
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    # The pooled tables and every check on the pieces come from the program that owns tables.
    tables = aggregate(list(paths))
    tasks = pd.concat([r.tasks.assign(source=p) for r, p in zip(parts, paths)],
                      ignore_index=True)
    attrs = dict(first.attrs)
    profiles = [r.attrs.get("profile", "") for r in parts]
    attrs["profile"] = _pieces_name(profiles)
    labels = list(dict.fromkeys(x for r in parts for x in r.attrs.get("labels", [])))
    datasets = list(dict.fromkeys(x for r in parts for x in r.attrs.get("datasets", [])))
    attrs["labels"], attrs["datasets"] = labels, datasets
    notes = list(dict.fromkeys(n for r in parts for n in r.notes))
    notes.append(f"{len(parts)} files as one table: latent spaces and optimiser traces are drawn "
                 "per file (plot each file on its own)")
    return Results(path="", attrs=attrs, k=first.k, knn_metric=first.knn_metric,
                   quality_names=first.quality_names, tasks=tasks, tables=tables,
                   tables_source="+".join(dict.fromkeys(r.tables_source for r in parts)),
                   table_text={}, tables_reference=first.tables_reference,
                   traces=first.traces.iloc[0:0], notes=notes)


def _pieces_name(profiles) -> str:
    """table1_halving_10, ..._20, ..._50 -> table1_halving_{10,20,50}."""
    if any(not p for p in profiles) or len(set(profiles)) < len(profiles):
        return "+".join(p or "(none)" for p in profiles)
    stem = os.path.commonprefix(profiles)
    return f"{stem}{{{','.join(p[len(stem):] for p in profiles)}}}" if stem else "+".join(profiles)


# ---- tables: computed by the drbench program only (framework/results/aggregate.cpp) ----

def drbench_program() -> str | None:
    """The drbench executable that computes tables: $DRBENCH_PROGRAM (`drbench plot`/`report` set
    it to themselves), else build/drbench of the checkout this package lives in, else `drbench`
    on PATH; None when there is none."""
    env = os.environ.get("DRBENCH_PROGRAM")
    here = os.path.dirname(os.path.abspath(__file__))
    for c in ([env] if env else []) + [os.path.join(here, "..", "..", "build", "drbench"),
                                       shutil.which("drbench")]:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    return None


def split_tables_csv(text: str) -> list:
    """`drbench aggregate --format csv` prints one header per table: the text of each table."""
    blocks, cur = [], []
    for line in text.splitlines():
        if line.startswith("dataset,method,") and cur:
            blocks.append("\n".join(cur))
            cur = []
        if line.strip():
            cur.append(line)
    if cur:
        blocks.append("\n".join(cur))
    return blocks


def parse_tables_csv(text: str) -> pd.DataFrame:
    """`drbench aggregate --format csv` output, every table parsed into one frame."""
    blocks = split_tables_csv(text)
    if not blocks:
        return pd.DataFrame(columns=TABLE_COLUMNS)
    return pd.concat([parse_table_csv(b) for b in blocks], ignore_index=True)


def aggregate(r, reference: str | None = None, test: str | None = None,
              correction: str | None = None) -> pd.DataFrame:
    """The tables of `drbench aggregate` as one long frame (columns TABLE_COLUMNS), computed by the
    drbench program without storing them (`--no-store`): the selection rule and the t-tests have
    one implementation, in C++. `r` is a Results or a path, or a list of paths (pooled as
    `drbench aggregate A.h5 B.h5` pools them, with its checks); `reference` overrides the files'
    t-test reference ("" for none, "best" for each column's best), `test` ("ttest", "wilcoxon")
    and `correction` ("holm", "none") the aggregator's defaults."""
    paths = [r.path] if isinstance(r, Results) else [r] if isinstance(r, str) else list(r)
    if not all(paths):
        raise ValueError("aggregate() needs results files on disk (fix: pass their paths)")
    prog = drbench_program()
    if prog is None:
        raise FileNotFoundError(
            "the drbench program computes tables, and none was found (fix: build it with "
            "scripts/build.sh, put it on PATH, or set DRBENCH_PROGRAM=/path/to/drbench)")
    cmd = [prog, "aggregate", *paths, "--no-store", "--format", "csv"]
    for opt, v in (("--ttest", reference), ("--test", test), ("--correction", correction)):
        if v is not None:
            cmd += [opt, v]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        raise ValueError(run.stderr.strip() or f"{' '.join(cmd)} failed ({run.returncode})")
    tables = parse_tables_csv(run.stdout)
    return fill_protocols(r.tasks, tables) if isinstance(r, Results) else tables


def long_table(paths, *, all_settings: bool = False, reference: str | None = None,
               metric: str | None = None, pool_datasets: str | None = None,
               pool_labels: str | None = None, test: str | None = None,
               correction: str | None = None) -> pd.DataFrame:
    """`drbench aggregate PATHS --long --details` as a frame: one row per cell and k (every
    setting with all_settings, `chosen` marking the reported one), numbers at full precision,
    with the paired test (`test`: "ttest" or "wilcoxon") against `reference` ("best" for each
    column's best) of each chosen setting (pairs, t, p_value, mean_diff, ci95_low, ci95_high,
    p_adjusted after `correction`, "holm" or "none", and the reference's label) and its mean
    fit_seconds. pool_datasets / pool_labels are the aggregator's rules
    ("oil_*=oil"; docs/results-format.md, "Pooled tables"): the pooling, the selection and the
    tests all happen in the C++ program."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    prog = drbench_program()
    if prog is None:
        raise FileNotFoundError(
            "the drbench program computes tables, and none was found (fix: build it with "
            "scripts/build.sh, put it on PATH, or set DRBENCH_PROGRAM=/path/to/drbench)")
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "long.csv")
        cmd = [prog, "aggregate", *paths, "--no-store", "--long", out, "--details"]
        if all_settings:
            cmd.append("--all-settings")
        for opt, v in (("--ttest", reference), ("--metric", metric),
                       ("--pool-datasets", pool_datasets), ("--pool-labels", pool_labels),
                       ("--test", test), ("--correction", correction)):
            if v is not None:
                cmd += [opt, v]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            raise ValueError(run.stderr.strip() or f"{' '.join(cmd)} failed ({run.returncode})")
        df = pd.read_csv(out, dtype=str, keep_default_na=False)
    text = {"dataset", "method", "split_kind", "setting", "protocol", "reference"}
    for c in df.columns:
        if c in text:
            continue
        v = pd.to_numeric(df[c].replace("", np.nan))
        df[c] = v.astype(np.int64) if c in ("dim", "k", "n", "repeats", "worse", "chosen",
                                            "failed", "pairs") else v
    return df


def best_rows(r: Results, k: int | None = None) -> pd.DataFrame:
    """Tables rows at one k (default the first): one line per (dataset, method, split, dim)."""
    kk = r.k[0] if k is None else k
    return r.tables[r.tables["k"] == kk].reset_index(drop=True)


# ---- tables with their captions, and the ranks: as the drbench program writes them ----

def _md_blocks(text: str) -> list:
    """`drbench aggregate --format md` output split into (caption, table text) per table; the
    caption is the bold line above each table (notes such as an incomplete run's come before)."""
    out, cap, body = [], None, []
    for line in text.splitlines():
        if line.startswith("**") and line.rstrip().endswith("**"):
            if cap is not None:
                out.append((cap, "\n".join(body)))
            cap, body = line.strip()[2:-2], []
        elif cap is not None:
            body.append(line)
    if cap is not None:
        out.append((cap, "\n".join(body)))
    return out


def captioned_tables(path: str, metric: str | None = None) -> list:
    """Every table of one results file as (caption, markdown table, frame of its csv), in the
    order `drbench
    aggregate` prints them. The k-NN error tables (metric None) are the stored ones
    (/tables/<name>.md and .csv, written together by the program) where the file has them; other
    measures' tables, and files without stored tables, are printed by `drbench aggregate
    --no-store` in md and csv, paired in order. The frames keep the csv's columns (mean_error_pct
    or, for a quality measure, mean and std)."""
    if metric is None:
        with h5py.File(path, "r") as f:
            names = sorted(f["tables"].keys()) if "tables" in f else []
            pairs = {}
            for n in names:
                stem, _, ext = n.rpartition(".")
                raw = f["tables"][n][()]
                s = raw.decode("utf-8", "backslashreplace") if isinstance(raw, bytes) else str(raw)
                pairs.setdefault(stem, {})[ext] = s
        got = [(_md_blocks(p["md"]), p["csv"]) for p in pairs.values() if "md" in p and "csv" in p]
        if got and all(len(md) == 1 for md, _ in got):
            return [(md[0][0], md[0][1], pd.read_csv(io.StringIO(c), keep_default_na=False,
                                                     dtype=str)) for md, c in got]
    prog = drbench_program()
    if prog is None:
        raise FileNotFoundError("the drbench program prints tables, and none was found (fix: "
                                "build it, or set DRBENCH_PROGRAM=/path/to/drbench)")
    out = {}
    for fmt in ("md", "csv"):
        cmd = [prog, "aggregate", path, "--no-store", "--format", fmt]
        if metric:
            cmd += ["--metric", metric]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            raise ValueError(run.stderr.strip() or f"{' '.join(cmd)} failed ({run.returncode})")
        out[fmt] = run.stdout
    md = _md_blocks(out["md"])
    # The csv may print one header for all tables: a table is a run of rows of one dataset, k
    # and dim (framework/results/aggregate.cpp, make_tables), in the order of the md captions.
    frames = [pd.read_csv(io.StringIO(c), keep_default_na=False, dtype=str)
              for c in split_tables_csv(out["csv"])]
    rows = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    tables = []
    if not rows.empty:
        key = rows["dataset"] + "\t" + rows["k"] + "\t" + rows["dim"]
        run = (key != key.shift()).cumsum()
        tables = [g.reset_index(drop=True) for _, g in rows.groupby(run, sort=True)]
    if len(md) != len(tables):
        raise ValueError(f"{path}: drbench aggregate printed {len(md)} captions for "
                         f"{len(tables)} csv tables")
    return [(cap, body, t) for (cap, body), t in zip(md, tables)]


def ranks(paths, metric: str | None = None, k: int | None = None) -> pd.DataFrame:
    """`drbench aggregate PATHS --ranks --format csv [--metric M] [--k K]`: each method's mean rank over
    the (dataset, split value) blocks, with the Friedman test and the Nemenyi critical difference
    on every row (framework/results/ranks.cpp owns them; columns label, mean_rank, measure,
    blocks, methods, chi2, p, iman_davenport, p_f, alpha, q_alpha, cd, protocols, left_out)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    prog = drbench_program()
    if prog is None:
        raise FileNotFoundError("the drbench program ranks methods, and none was found (fix: "
                                "build it, or set DRBENCH_PROGRAM=/path/to/drbench)")
    cmd = [prog, "aggregate", *paths, "--no-store", "--ranks", "--format", "csv"]
    if metric:
        cmd += ["--metric", metric]
    if k is not None:
        cmd += ["--k", str(k)]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        raise ValueError(run.stderr.strip() or f"{' '.join(cmd)} failed ({run.returncode})")
    df = pd.read_csv(io.StringIO(run.stdout), keep_default_na=False, dtype=str)
    for c in ("mean_rank", "chi2", "p", "iman_davenport", "p_f", "alpha", "q_alpha", "cd"):
        # One block has no test: printf's "nan" / "-nan", read as NaN.
        df[c] = pd.to_numeric(df[c].replace("", np.nan), errors="coerce")
    for c in ("blocks", "methods"):
        df[c] = df[c].astype(np.int64)
    return df
