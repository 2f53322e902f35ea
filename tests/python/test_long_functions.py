"""No function in framework/ or apps/ is over 100 lines (docs/architecture.md): the check
scripts/long_functions.py makes passes on this checkout, and finds a long function, and only
that, in a tree made to hold one."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import long_functions  # noqa: E402

SCRIPT = str(ROOT / "scripts/long_functions.py")


def test_no_framework_or_apps_function_is_over_100_lines():
    r = subprocess.run(["/usr/bin/python3", SCRIPT, str(ROOT)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def body(lines):
    return "".join(f"  x += {i};\n" for i in range(lines))


def test_a_long_function_is_found_and_a_short_one_is_not(tmp_path):
    src = tmp_path / "framework/core/f.cpp"
    src.parent.mkdir(parents=True)
    src.write_text("namespace drbench {\n\n"
                   "int short_one(int x) {\n" + body(10) + "  return x;\n}\n\n"
                   "int long_one(int x,\n             int y) {\n" + body(100) + "  return x;\n}\n\n"
                   "}  // namespace drbench\n")
    found = long_functions.functions(src)
    assert [(name, length) for length, name, _ in found] == [("short_one", 13), ("long_one", 103)]
    r = subprocess.run(["/usr/bin/python3", SCRIPT, str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 1
    assert "framework/core/f.cpp" in r.stdout and "long_one" in r.stdout
    assert "short_one" not in r.stdout


def test_lambdas_and_nested_blocks_count_toward_their_function(tmp_path):
    src = tmp_path / "apps/drbench/m.cpp"
    src.parent.mkdir(parents=True)
    src.write_text("int run(int x) {\n  auto f = [&](int y) {\n" + body(60) + "    return y;\n  };\n"
                   "  for (int i = 0; i < 3; ++i) {\n" + body(40) + "  }\n  return f(x);\n}\n")
    assert [(name, length) for length, name, _ in long_functions.functions(src)] == [("run", 108)]
