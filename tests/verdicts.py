# SPDX-License-Identifier: MIT
"""What the end-to-end scripts share: check() counts a verdict and prints what failed, run() runs a
command for its output, summary() prints the totals and gives the exit status."""
import subprocess

counts = {"passed": 0, "failed": 0}


def check(ok, what, detail=""):
    ok = bool(ok)
    if not ok:
        print("FAIL %s%s" % (what, (": " + detail) if detail else ""))
    counts["passed" if ok else "failed"] += 1
    return ok


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def summary():
    print("%d passed, %d failed" % (counts["passed"], counts["failed"]))
    return 1 if counts["failed"] else 0
