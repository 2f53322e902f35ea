"""`drbench datasets fetch` against an HTTP server on 127.0.0.1 serving fixture files: a correct
file (verified, recorded in MANIFEST.tsv, then loaded by `drbench run` with its checksum checked),
a wrong checksum (deleted, refused), a transfer cut short (partial kept, the rerun resumes with a
Range request), a gzip conversion, and a server that is gone. No test needs the internet."""
import gzip
import hashlib
import http.server
import json
import os
import subprocess
import threading

import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("DRBENCH_BIN", os.path.join(ROOT, "build", "drbench"))


def npz_bytes(tmp_path):
    rng = np.random.default_rng(1)
    y = np.repeat(np.arange(2), 10)
    np.savez(tmp_path / "src.npz", X=rng.normal(size=(20, 3)) + y[:, None], y=y)
    return (tmp_path / "src.npz").read_bytes()


class Server:
    """Serves `files` (name -> bytes) with Range support; a name in `cut` is sent half and the
    connection closed. `ranges` records the Range headers received."""

    def __init__(self, files):
        self.files, self.cut, self.ranges = files, set(), []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                name = self.path.lstrip("/")
                if name not in outer.files:
                    self.send_error(404)
                    return
                body = outer.files[name]
                start = 0
                rng = self.headers.get("Range")
                outer.ranges.append(rng)
                if rng:
                    start = int(rng.split("=")[1].split("-")[0])
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
                else:
                    self.send_response(200)
                self.send_header("Content-Length", str(len(body) - start))
                self.end_headers()
                if name in outer.cut:
                    self.wfile.write(body[start:start + (len(body) - start) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(body[start:])

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(tmp_path):
    s = Server({})
    yield s
    s.stop()


def manifest(tmp_path, entries):
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({"toy": {"files": entries}}))
    return str(path)


def entry(server, name, body, sha=None, **kw):
    server.files[name] = body
    return dict(url=server.url + name, size=len(body),
                sha256=sha or hashlib.sha256(body).hexdigest(), **kw)


def fetch(tmp_path, man, dest):
    return subprocess.run([BIN, "datasets", "fetch", "toy", "--manifest", man, "--dest", str(dest),
                           "--timeout", "10"], capture_output=True, text=True, timeout=120)


def test_correct_file_is_verified_recorded_and_runs(tmp_path, server):
    body = npz_bytes(tmp_path)
    dest = tmp_path / "data"
    p = fetch(tmp_path, manifest(tmp_path, [entry(server, "toy.npz", body)]), dest)
    assert p.returncode == 0, p.stderr
    assert (dest / "toy.npz").read_bytes() == body
    assert "100%" in p.stderr  # progress
    rows = (dest / "MANIFEST.tsv").read_text().splitlines()
    assert rows[1].split("\t") == ["toy", "toy.npz", hashlib.sha256(body).hexdigest()]
    cfg = tmp_path / "run.yaml"
    cfg.write_text(f"""name: fetched
data_path: {dest}
datasets: [{{name: toy, path: toy.npz}}]
splits: {{train_ratio: 0.5, repeats: 2}}
methods: [{{method: pca, dims: [2]}}]
evaluation: {{knn: [1]}}
output: {{path: {tmp_path / 'r.h5'}}}
""")
    r = subprocess.run([BIN, "run", str(cfg)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    # The recorded checksum guards the file from now on: a changed byte is refused at load.
    damaged = bytearray(body)
    damaged[-30] ^= 1
    (dest / "toy.npz").write_bytes(bytes(damaged))
    r = subprocess.run([BIN, "run", str(cfg)], capture_output=True, text=True, timeout=300)
    assert r.returncode != 0 and "sha256 mismatch" in r.stderr
    # A second fetch finds the damaged file, downloads it again and verifies it.
    p = fetch(tmp_path, manifest(tmp_path, [entry(server, "toy.npz", body)]), dest)
    assert p.returncode == 0, p.stderr
    assert (dest / "toy.npz").read_bytes() == body


def test_wrong_checksum_is_refused_and_deleted(tmp_path, server):
    body = npz_bytes(tmp_path)
    dest = tmp_path / "data"
    p = fetch(tmp_path, manifest(tmp_path, [entry(server, "toy.npz", body, sha="0" * 64)]), dest)
    assert p.returncode == 2
    assert "sha256 mismatch" in p.stderr and "fix:" in p.stderr
    assert sorted(os.listdir(dest)) == []  # nothing half-written, nothing recorded


def test_truncated_transfer_keeps_part_and_resumes(tmp_path, server):
    body = npz_bytes(tmp_path)
    dest = tmp_path / "data"
    man = manifest(tmp_path, [entry(server, "toy.npz", body)])
    server.cut.add("toy.npz")
    p = fetch(tmp_path, man, dest)
    assert p.returncode == 2
    assert "transfer ended at" in p.stderr and "run the same command again" in p.stderr
    assert not (dest / "toy.npz").exists()
    half = (dest / "toy.npz.part").stat().st_size
    assert 0 < half < len(body)
    server.cut.clear()
    p = fetch(tmp_path, man, dest)
    assert p.returncode == 0, p.stderr
    assert server.ranges[-1] == f"bytes={half}-"  # resumed, not restarted
    assert (dest / "toy.npz").read_bytes() == body
    assert not (dest / "toy.npz.part").exists()


def test_gunzip_conversion(tmp_path, server):
    body = npz_bytes(tmp_path)
    dest = tmp_path / "data"
    e = entry(server, "toy.npz.gz", gzip.compress(body), convert="gunzip")
    p = fetch(tmp_path, manifest(tmp_path, [e]), dest)
    assert p.returncode == 0, p.stderr
    assert sorted(os.listdir(dest)) == ["MANIFEST.tsv", "toy.npz"]
    assert (dest / "toy.npz").read_bytes() == body
    assert hashlib.sha256(body).hexdigest() in (dest / "MANIFEST.tsv").read_text()


def test_server_gone(tmp_path):
    s = Server({})
    url = s.url
    s.stop()
    man = manifest(tmp_path, [dict(url=url + "toy.npz", size=10, sha256="0" * 64)])
    p = fetch(tmp_path, man, tmp_path / "data")
    assert p.returncode == 2
    assert "cannot reach the server" in p.stderr and "fix:" in p.stderr


def test_unknown_name_and_bad_manifest(tmp_path):
    man = manifest(tmp_path, [])
    p = subprocess.run([BIN, "datasets", "fetch", "other", "--manifest", man], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "no dataset 'other'" in p.stderr and "toy" in p.stderr
    (tmp_path / "bad.json").write_text("{")
    p = subprocess.run([BIN, "datasets", "fetch", "toy", "--manifest", str(tmp_path / "bad.json")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "cannot read the manifest" in p.stderr
