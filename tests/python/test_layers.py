"""The floors of docs/architecture.md hold: scripts/check_layers.py passes on this checkout and
fails on each kind of include it exists to catch."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import check_layers  # noqa: E402


def test_this_checkout_keeps_the_floors():
    r = subprocess.run(["/usr/bin/python3", str(ROOT / "scripts/check_layers.py"), str(ROOT)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def tree(tmp_path, files):
    for rel, text in files.items():
        f = tmp_path / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return check_layers.check(tmp_path)


def test_an_include_going_up_is_found(tmp_path):
    bad = tree(tmp_path, {"framework/linalg/a.cpp": '#include "framework/sched/plan.hpp"\n'})
    assert len(bad) == 1 and "framework/linalg/a.cpp:1" in bad[0] and "up or across" in bad[0]


def test_an_include_across_is_found(tmp_path):
    bad = tree(tmp_path, {"framework/nbody/t.cpp": '#include "framework/neighbours/k.hpp"\n'})
    assert len(bad) == 1


def test_a_method_reaching_the_run_is_found(tmp_path):
    bad = tree(tmp_path, {
        "methods/x/x.cpp": '#include "framework/sched/dispatch.hpp"\n'
                           '#include "framework/results/store.hpp"\n'
                           '#include "methods/y/y.hpp"\n'
                           '#include "framework/core/method.hpp"\n'
                           '#include "methods/common/linear_method.hpp"\n'
                           '#include "framework/config/method_entry.hpp"\n'
                           '#include <armadillo>\n'})
    assert [b.split(":")[1] for b in bad] == ["1", "2", "3"]


def test_the_framework_never_names_a_method(tmp_path):
    bad = tree(tmp_path, {"framework/eval/e.cpp": '#include "methods/linear/pca/pca.hpp"\n'})
    assert len(bad) == 1 and "never names a method" in bad[0]


def test_an_unplaced_folder_is_refused(tmp_path):
    bad = tree(tmp_path, {"framework/misc/m.cpp": '#include "framework/core/error.hpp"\n'})
    assert len(bad) == 1 and "no floor" in bad[0]


def test_downward_includes_pass(tmp_path):
    assert tree(tmp_path, {
        "framework/sched/s.cpp": '#include "framework/results/store.hpp"\n',
        "framework/neighbours/n.cpp": '#include "framework/linalg/eigen.hpp"\n',
        "apps/drbench/main.cpp": '#include "framework/sched/scheduler.hpp"\n'}) == []
