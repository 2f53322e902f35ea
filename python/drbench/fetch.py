"""`drbench datasets fetch NAME --manifest FILE [--dest DIR]`: download a dataset's files as a
manifest lists them (URL, size, sha256 per file), resuming a partial download, showing progress,
checking size and SHA-256 before a file takes its place, and converting it where the manifest says
(`convert: gunzip` for formats drbench reads uncompressed only). Each file then gets a row in the
destination's MANIFEST.tsv, so drbench checks its checksum again at every load.

Manifest (JSON):
    {"NAME": {"note": "...",
              "files": [{"url": "https://.../a.mat", "file": "a.mat", "size": 123,
                         "sha256": "...", "convert": "gunzip"}]}}
`file` defaults to the URL's last part (less .gz where converted). Nothing is ever used unverified:
a file whose size or checksum differs is deleted and the command fails; an interrupted transfer
keeps its partial file (NAME.part) and the next run resumes it with an HTTP Range request.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import http.client
import json
import os
import shutil
import socket
import sys
import urllib.error
import urllib.request

CHUNK = 1 << 16


class FetchError(Exception):
    pass


def sha256_of(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _progress(label: str, done: int, size: int, quiet: bool, last: list) -> None:
    if quiet or size <= 0:
        return
    pct = int(100 * done / size)
    if pct != last[0] or done == size:
        last[0] = pct
        sys.stderr.write(f"\r{label}: {pct:3d}% ({done / 2**20:.1f} of {size / 2**20:.1f} MiB)")
        if done >= size:
            sys.stderr.write("\n")
        sys.stderr.flush()


def download(url: str, part: str, size: int, label: str, timeout: float, quiet: bool) -> None:
    """Brings `part` to `size` bytes from `url`, resuming what it already holds."""
    have = os.path.getsize(part) if os.path.exists(part) else 0
    if have > size:
        os.remove(part)
        have = 0
    if have == size:
        return
    req = urllib.request.Request(url, headers={"Range": f"bytes={have}-"} if have else {})
    try:
        resp = urllib.request.urlopen(req, timeout=timeout)
    except urllib.error.HTTPError as e:
        raise FetchError(f"{url}: the server answered HTTP {e.code} {e.reason} (fix: check the "
                         "URL in the manifest; the file may have moved)") from None
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise FetchError(f"{url}: cannot reach the server ({reason}) (fix: check the network "
                         "or the URL; a rerun resumes what was downloaded)") from None
    mode = "ab"
    if have and resp.status != 206:  # the server ignored the Range: start again
        have, mode = 0, "wb"
    done, last = have, [-1]
    try:
        with resp, open(part, mode) as out:
            while True:
                block = resp.read(CHUNK)
                if not block:
                    break
                done += len(block)
                if done > size:
                    raise FetchError(f"{url}: the server sent more than the {size} bytes the "
                                     "manifest lists (fix: check the URL; if the upstream file "
                                     "changed, update size and sha256 in the manifest)")
                out.write(block)
                _progress(label, done, size, quiet, last)
    except (http.client.IncompleteRead, ConnectionError, socket.timeout, TimeoutError):
        pass  # counted below: the partial file is kept for the next run
    if done < size:
        if not quiet:
            sys.stderr.write("\n")
        raise FetchError(f"{url}: the transfer ended at {done} of {size} bytes; {part} is kept "
                         "(fix: run the same command again to resume)")


def fetch_file(entry: dict, dest: str, timeout: float, quiet: bool) -> str:
    """Downloads, verifies and converts one manifest entry; returns the final file's path."""
    for key in ("url", "size", "sha256"):
        if key not in entry:
            raise FetchError(f"manifest entry {entry}: no '{key}' (fix: every file needs url, "
                             "size and sha256)")
    url, size, want = entry["url"], int(entry["size"]), entry["sha256"].lower()
    convert = entry.get("convert", "")
    if convert not in ("", "gunzip"):
        raise FetchError(f"manifest entry for {url}: unknown convert '{convert}' (fix: gunzip, "
                         "or leave it out)")
    raw_name = os.path.basename(url.split("?")[0])
    final_name = entry.get("file") or (raw_name[:-3] if convert and raw_name.endswith(".gz")
                                       else raw_name)
    final = os.path.join(dest, final_name)
    raw = os.path.join(dest, raw_name if convert else final_name)
    part = raw + ".part"
    # A converted file is checked against the digest recorded when it was converted.
    if os.path.exists(final) and sha256_of(final) == (recorded_sha(dest, final_name) if convert
                                                      else want):
        if not quiet:
            sys.stderr.write(f"{final_name}: present\n")
        return final
    download(url, part, size, final_name, timeout, quiet)
    got = sha256_of(part)
    if got != want:
        os.remove(part)
        raise FetchError(f"{url}: sha256 mismatch\n  expected {want}\n  got      {got}\nThe "
                         "download was deleted (fix: check the URL; if the upstream file changed "
                         "knowingly, update size and sha256 in the manifest)")
    if convert == "gunzip":
        tmp = final + ".tmp"
        try:
            with gzip.open(part, "rb") as src, open(tmp, "wb") as out:
                shutil.copyfileobj(src, out)
        except (OSError, EOFError) as e:
            os.remove(tmp)
            raise FetchError(f"{url}: verified, but not a gzip file ({e}) (fix: remove convert: "
                             "gunzip from the manifest entry)") from None
        os.replace(tmp, final)
        os.remove(part)
    else:
        os.replace(part, final)
    return final


def recorded_sha(dest: str, file: str) -> str:
    path = os.path.join(dest, "MANIFEST.tsv")
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        lines = f.read().splitlines()
    header = lines[0].split("\t") if lines else []
    if "file" not in header or "sha256" not in header:
        return ""
    for ln in lines[1:]:
        cells = ln.split("\t") + [""] * len(header)
        if cells[header.index("file")] == file:
            return cells[header.index("sha256")]
    return ""


def record(dest: str, name: str, files: list) -> None:
    """Adds or replaces the files' rows in dest/MANIFEST.tsv (name, file, sha256 and the columns
    it already has), so that drbench verifies them at load."""
    path = os.path.join(dest, "MANIFEST.tsv")
    header, rows = ["name", "file", "sha256"], []
    if os.path.exists(path):
        with open(path) as f:
            lines = f.read().splitlines()
        if lines:
            header = lines[0].split("\t")
            rows = [ln for ln in lines[1:] if ln.strip()]
    if "file" not in header or "sha256" not in header:
        raise FetchError(f"{path}: header lacks 'file' and 'sha256' columns (fix: restore the "
                         "manifest, or fetch into another --dest)")
    ci = header.index("file")
    names = {os.path.basename(f) for f in files}
    rows = [r for r in rows if (r.split("\t") + [""] * len(header))[ci] not in names]
    for f in files:
        cells = {"name": name if len(files) == 1 else os.path.basename(f),
                 "file": os.path.basename(f), "sha256": sha256_of(f)}
        rows.append("\t".join(cells.get(h, "") for h in header))
    tmp = path + ".tmp"
    with open(tmp, "w") as out:
        out.write("\t".join(header) + "\n" + "".join(r + "\n" for r in rows))
    os.replace(tmp, path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="drbench datasets fetch",
                                 description="Download a dataset listed in a manifest.")
    ap.add_argument("name")
    ap.add_argument("--manifest", required=True, help="JSON manifest: URL, size, sha256 per file")
    ap.add_argument("--dest", default=os.environ.get("DRBENCH_DATA") or
                    os.path.join("..", "shared", "datasets"),
                    help="data path folder to put the files in (default $DRBENCH_DATA, else "
                         "../shared/datasets)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds without data per request")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    try:
        try:
            with open(a.manifest) as f:
                manifest = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            raise FetchError(f"{a.manifest}: cannot read the manifest ({e}) (fix: give a JSON "
                             "file as documented in docs/data.md)") from None
        if a.name not in manifest:
            raise FetchError(f"{a.manifest}: no dataset '{a.name}' (it lists: "
                             f"{', '.join(sorted(manifest)) or 'none'}) (fix: one of those)")
        os.makedirs(a.dest, exist_ok=True)
        files = [fetch_file(e, a.dest, a.timeout, a.quiet) for e in manifest[a.name]["files"]]
        record(a.dest, a.name, files)
    except FetchError as e:
        print(f"drbench datasets fetch: {e}", file=sys.stderr)
        return 2
    for f in files:
        print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
