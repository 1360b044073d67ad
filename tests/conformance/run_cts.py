#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a suite of the Khronos OpenCL conformance suite (the CTS) one test to a process, so that a test that
ends its process (a signal, a hang) is recorded as such and the others still run: the crash-and-resume runner
of tests/conformance.py and of docs/conformance.md's tables.

    run_cts.py BINARY PLATFORM_INDEX [--jobs N] [--timeout S] [--json OUT] [--] [SUITE OPTIONS...]

The environment is the caller's (OPENCL_LAYERS, RUSTICL_ENABLE, OCL_ICD_VENDORS...). Prints one line a test,
"name: pass|fail|skip|killed (SIGNAME)|hang", then "N passed, N failed, N skipped, N killed"."""
import argparse
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys


def tests_of(binary):
    out = subprocess.run([binary, "--list"], capture_output=True, text=True, timeout=120).stdout
    return [line.strip() for line in out.splitlines() if line.startswith("\t") and line.strip()]


def verdict(returncode, text, name):
    if returncode < 0:
        return "killed (%s)" % signal.Signals(-returncode).name
    if re.search(r"^%s (skipped|test not supported)" % re.escape(name), text, re.M) and \
            not re.search(r"^%s (passed|FAILED)" % re.escape(name), text, re.M):
        return "skip"
    if returncode == 0 and re.search(r"^%s passed" % re.escape(name), text, re.M):
        return "pass"
    return "fail"


def run_one(binary, platform, name, timeout, options):
    env = dict(os.environ, CL_PLATFORM_INDEX=str(platform), CL_DEVICE_TYPE="all")
    try:
        p = subprocess.run([binary, *options, name], capture_output=True, text=True, errors="replace", env=env,
                           timeout=timeout, cwd=os.path.dirname(binary))
    except subprocess.TimeoutExpired:
        return name, "hang", ""
    text = p.stdout + p.stderr
    return name, verdict(p.returncode, text, name), text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("platform", type=int)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--json")
    ap.add_argument("--logs", help="a folder for the output of each test that did not pass")
    a, options = ap.parse_known_args()
    a.options = [o for o in options if o != "--"]
    binary = os.path.abspath(a.binary)
    names = tests_of(binary)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for name, result, text in pool.map(lambda n: run_one(binary, a.platform, n, a.timeout, a.options), names):
            results[name] = result
            print("%s: %s" % (name, result), flush=True)
            if a.logs and result != "pass":
                os.makedirs(a.logs, exist_ok=True)
                with open(os.path.join(a.logs, name + ".log"), "w") as f:
                    f.write(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    count = lambda what: sum(1 for r in results.values() if r.startswith(what))
    print("%d passed, %d failed, %d skipped, %d killed, %d hung" % (count("pass"), count("fail"), count("skip"),
                                                                  count("killed"), count("hang")))


if __name__ == "__main__":
    sys.exit(main())
