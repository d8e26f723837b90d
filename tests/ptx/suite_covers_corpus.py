# RUN: %python %s
"""Every corpus file (tests/kernels/*.py) has its entry in tests/ptx/suite/,
so that each of its specialisations is compiled to PTX and assembled by
ptxas on CI: a new corpus file without one fails here."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
kernels = os.path.join(HERE, "..", "kernels")
suite = os.path.join(HERE, "suite")
missing = []
files = [f for f in sorted(os.listdir(kernels)) if f.endswith(".py")]
for f in files:
    entry = os.path.join(suite, f[:-3] + ".sh")
    if not os.path.exists(entry) or ("kernels/" + f) not in open(entry).read():
        missing.append(f)
for f in missing:
    print("tests/kernels/%s has no tests/ptx/suite/%s.sh running it through ptxas" % (f, f[:-3]))
print("%d corpus files, %d without a ptxas suite entry" % (len(files), len(missing)))
sys.exit(1 if missing else 0)
