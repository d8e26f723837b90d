#!/usr/bin/env python3
"""tritonc's test driver.

Three kinds of test, each carrying its expectations inside itself:

  * lit-style files: any file under tests/ with `RUN:` lines (after `//` or
    `#`). Each RUN line is a shell pipeline; substitutions:
        %s        the test file            %S   its folder
        %t        a scratch path per test  %tritonc  the CLI
        %python   /usr/bin/python3         %build    the build folder
        FileCheck / not / count  LLVM's tools (Debian llvm-14-tools)
    A test passes when every RUN line exits 0 (prefix `not` inverts).
    `REQUIRES: torch` / `REQUIRES: numpy` / `REQUIRES: ptxas` skip a test
    when the tool is missing (CI installs them, so nothing is skipped there).
  * unit tests: tests/unit/*.c, built by make into <build>/tests/, each
    exits 0 when all its checks hold.

Ends with the line `N passed, N failed` (and `, N skipped` when any were).
"""
import argparse, concurrent.futures as cf, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-14/bin"
RUN_RE = re.compile(r"^\s*(?://|#|;)\s*RUN:\s?(.*)$")
REQ_RE = re.compile(r"^\s*(?://|#|;)\s*REQUIRES:\s*(.*)$")
TEST_EXTS = (".ttir", ".mlir", ".py", ".tri", ".c", ".ir", ".nnir", ".ttgir", ".sh", ".json")


def have(feature):
    if feature == "ptxas":
        return shutil.which("ptxas") is not None or os.path.exists("/usr/local/cuda/bin/ptxas")
    if feature in ("torch", "numpy"):
        r = subprocess.run(["/usr/bin/python3", "-c", "import " + feature],
                           capture_output=True)
        return r.returncode == 0
    if feature == "clang":
        return shutil.which("clang") is not None
    return False


def find_lit_tests(paths):
    out = []
    for base in paths:
        if os.path.isfile(base):
            out.append(base)
            continue
        for dirpath, dirs, files in os.walk(base):
            dirs[:] = [d for d in dirs if d not in ("Inputs", "__pycache__", "unit")]
            for f in sorted(files):
                if f.endswith(TEST_EXTS):
                    p = os.path.join(dirpath, f)
                    with open(p, errors="replace") as fh:
                        head = fh.read(20000)
                    if any(RUN_RE.match(l) for l in head.splitlines()):
                        out.append(p)
    return sorted(out)


def sanitizer_preload():
    """The ASan/UBSan runtimes, for Python processes that load a sanitized
    libtritonc.so (an interpreter must have them loaded first)."""
    libs = []
    for name in ("libasan.so", "libubsan.so"):
        r = subprocess.run(["gcc", "-print-file-name=" + name], capture_output=True, text=True)
        p = r.stdout.strip()
        if os.path.isabs(p) and os.path.exists(p):
            libs.append(os.path.realpath(p))
    return ":".join(libs)


PYTHON = "/usr/bin/python3"


def run_lit(path, build, tmpdir, feature_cache):
    runs, reqs = [], []
    with open(path, errors="replace") as fh:
        for line in fh:
            m = RUN_RE.match(line)
            if m:
                cmd = m.group(1).rstrip()
                if runs and runs[-1].endswith("\\"):
                    runs[-1] = runs[-1][:-1] + " " + cmd
                else:
                    runs.append(cmd)
            m = REQ_RE.match(line)
            if m:
                reqs += [r.strip() for r in m.group(1).split(",") if r.strip()]
    for r in reqs:
        if r not in feature_cache:
            feature_cache[r] = have(r)
        if not feature_cache[r]:
            return "skip", "missing " + r
    rel = os.path.relpath(path, ROOT)
    tpath = os.path.join(tmpdir, re.sub(r"[^A-Za-z0-9_.-]", "_", rel))
    env = dict(os.environ)
    env["PATH"] = LLVM_BIN + ":" + os.path.join(ROOT, build) + ":" + env["PATH"] + ":/usr/local/cuda/bin"
    env["PYTHONPATH"] = os.path.join(ROOT, "python")
    env["TRITONC_LIB"] = os.path.join(ROOT, build, "libtritonc.so")
    env.setdefault("TRITONC_CACHE_DIR", os.path.join(tmpdir, "cache"))
    log = []
    for cmd in runs:
        c = (cmd.replace("%tritonc", os.path.join(ROOT, build, "tritonc"))
                .replace("%python", PYTHON)
                .replace("%build", os.path.join(ROOT, build))
                .replace("%s", path).replace("%S", os.path.dirname(path))
                .replace("%t", tpath))
        try:
            r = subprocess.run(["bash", "-o", "pipefail", "-c", c], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            return "fail", f"$ {c}\n(timed out)"
        log.append(f"$ {c}\n{r.stdout}{r.stderr}")
        if r.returncode != 0:
            return "fail", "\n".join(log) + f"\n(exit {r.returncode})"
    if not runs:
        return "fail", "no RUN lines"
    return "pass", ""


def run_unit(binary):
    try:
        r = subprocess.run([binary], capture_output=True, text=True, timeout=600, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return "fail", "(timed out)"
    return ("pass" if r.returncode == 0 else "fail"), r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("-j", type=int, default=max(2, os.cpu_count() or 2))
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--sanitized", action="store_true",
                    help="the build uses ASan/UBSan: preload their runtimes into Python")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    paths = [os.path.abspath(p) for p in a.paths] or [os.path.join(ROOT, "tests")]
    if a.sanitized:
        global PYTHON
        # Python itself is not leak-clean; the C tests keep leak detection.
        PYTHON = ("env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0:handle_segv=0 /usr/bin/python3"
                  % sanitizer_preload())
    lit = find_lit_tests(paths)
    units = []
    if not a.paths:
        ud = os.path.join(ROOT, a.build, "tests")
        if os.path.isdir(ud):
            units = sorted(os.path.join(ud, f) for f in os.listdir(ud)
                           if os.access(os.path.join(ud, f), os.X_OK))
    tmpdir = tempfile.mkdtemp(prefix="tritonc-tests-")
    feats = {}
    results = []
    t0 = time.time()
    with cf.ThreadPoolExecutor(a.j) as ex:
        futs = {ex.submit(run_unit, u): os.path.relpath(u, ROOT) for u in units}
        futs.update({ex.submit(run_lit, p, a.build, tmpdir, feats): os.path.relpath(p, ROOT)
                     for p in lit})
        for f in cf.as_completed(futs):
            name = futs[f]
            try:
                st, msg = f.result()
            except Exception as e:  # a bug in the runner is a failure, not a crash
                st, msg = "fail", repr(e)
            results.append((name, st, msg))
            if st == "fail":
                print(f"FAIL: {name}\n" + "\n".join("    " + l for l in msg.splitlines()[-40:]),
                      flush=True)
            elif a.v:
                print(f"{st.upper()}: {name}", flush=True)
    shutil.rmtree(tmpdir, ignore_errors=True)
    npass = sum(1 for r in results if r[1] == "pass")
    nfail = sum(1 for r in results if r[1] == "fail")
    nskip = sum(1 for r in results if r[1] == "skip")
    for name, st, msg in sorted(results):
        if st == "skip":
            print(f"SKIP: {name} ({msg})")
    print(f"# {len(results)} tests in {time.time() - t0:.1f}s")
    line = f"{npass} passed, {nfail} failed"
    if nskip:
        line += f", {nskip} skipped"
    print(line)
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
