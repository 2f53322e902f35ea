"""scripts/compare_to_paper.py: the gap check and the paper-shaped markdown table."""
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "compare_to_paper.py")

OURS = """dataset,method,split_value,mean_error_pct,std_error_pct,n
usps,A,10,20.0,1.0,20
usps,A,20,15.0,1.0,20
usps,B,10,30.0,2.0,20
usps,B,20,12.0,1.0,20
"""
# B at 20 is blank in the paper (as rankGPLVM at 50 per class in the GPLRF paper)
PAPER = """# comment lines are skipped
method,split_value,mean,std
A,10,0.18,0.01
A,20,0.16,0.02
B,10,0.30,0.04
"""


def run(tmp_path, *args):
    (tmp_path / "ours.csv").write_text(OURS)
    (tmp_path / "paper.csv").write_text(PAPER)
    return subprocess.run(["/usr/bin/python3", SCRIPT, str(tmp_path / "ours.csv"),
                           str(tmp_path / "paper.csv"), *args], capture_output=True, text=True)


def test_markdown_keeps_our_value_where_the_paper_is_blank(tmp_path):
    r = run(tmp_path, "--md")
    assert r.returncode == 0, r.stderr
    rows = {line.split(" | ")[0].strip("| "): line for line in r.stdout.splitlines()}
    assert rows["A"] == "| A | 20.00 ± 1.00 / 18.00 ± 1.00 (+2.0) | 15.00 ± 1.00 / 16.00 ± 2.00 (-0.5) |"
    assert rows["B"] == "| B | 30.00 ± 2.00 / 30.00 ± 4.00 (+0.0) | 12.00 ± 1.00 / - |"


def test_max_sigma_fails_on_the_largest_gap(tmp_path):
    assert run(tmp_path, "--max-sigma", "2.5").returncode == 0
    r = run(tmp_path, "--max-sigma", "1.5")
    assert r.returncode == 1
    assert "largest gap: 2.00" in r.stdout
