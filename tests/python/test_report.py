"""`drbench report`: one self-contained page, checked in headless Chromium."""
import os
import re
import shutil
import subprocess

import matplotlib.image as mpimg
import pytest

from conftest import drbench

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    msg = "chromium not installed (Debian: apt-get install chromium; scripts/install-deps.sh)"
    if os.environ.get("CI") == "true":
        pytest.fail(msg)
    pytest.skip(msg)


@pytest.fixture(scope="module")
def report(results_file, tmp_path_factory):
    path, _ = results_file
    out = tmp_path_factory.mktemp("report") / "report.html"
    p = drbench("report", path, "-o", str(out))
    assert out.exists() and "report with" in p.stdout
    return out


def test_report_is_self_contained(report):
    page = report.read_text()
    n_img = page.count("<img ")
    assert n_img >= 8
    assert page.count('src="data:image/png;base64,') == n_img
    assert not re.search(r'(src|href)="(https?:|file:|/)', page)  # nothing fetched from outside
    for must in ("pytiny", "OpenBLAS", "MPI ranks", "drbench version", "keep_traces: true",
                 "± ", "†", "GPLVM"):
        assert must in page, must


def test_report_renders_in_chromium(report, tmp_path):
    exe = chromium()
    profile = tmp_path / "profile"
    n_img = report.read_text().count("<img ")
    url = report.resolve().as_uri()
    dom = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                          "--virtual-time-budget=10000", "--dump-dom", url],
                         capture_output=True, text=True, timeout=120)
    m = re.search(r'data-images-ok="(\d+)/(\d+)"', dom.stdout)
    assert m, f"page script did not run:\n{dom.stderr[-2000:]}"
    assert int(m.group(1)) == int(m.group(2)) == n_img  # every image decoded
    shot = tmp_path / "shot.png"
    subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile2'}",
                    "--window-size=1200,1600", f"--screenshot={shot}", url],
                   capture_output=True, text=True, timeout=120)
    img = mpimg.imread(shot)[..., :3]
    assert img.shape[:2] == (1600, 1200)
    dark = (img.min(axis=2) < 0.5).mean()
    assert dark > 0.005, "screenshot is (nearly) blank"
    assert img.std() > 0.05
