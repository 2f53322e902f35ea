"""The registry's lists in README.md, docs/methods.md and docs/parameters.md are what
`drbench methods --markdown` says today (scripts/gen_docs.py writes them)."""
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import gen_docs  # noqa: E402


def test_the_committed_lists_are_fresh():
    r = subprocess.run(["/usr/bin/python3", str(ROOT / "scripts/gen_docs.py"), "--check"],
                       capture_output=True, text=True, env=dict(os.environ))
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_stale_methods_column_is_rewritten():
    text = "| `neighbours` | int | meaning | pca |\n| not a row |\n"
    out = gen_docs.parameters_text(text, {"neighbours": ["lle", "isomap"]})
    assert out.splitlines()[0] == "| `neighbours` | int | meaning | isomap, lle |"
    assert out.splitlines()[1] == "| not a row |"


def test_a_block_is_spliced_between_its_markers():
    text = f"a\n{gen_docs.BEGIN}\nold\n{gen_docs.END}\nb\n"
    assert gen_docs.splice(text, "new\n", "x") == f"a\n{gen_docs.BEGIN}\nnew\n{gen_docs.END}\nb\n"
