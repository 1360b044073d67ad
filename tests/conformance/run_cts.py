#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a suite of the Khronos OpenCL conformance suite (the CTS) so that a test that ends its process (a
signal, a test running past --timeout) is recorded as such and the rest still run: the tests go to one process per job, in order;
when a process ends before its last test, the test it was running is recorded as killed and a new process
takes the tests after it (the crash-and-resume runner of tests/conformance.py and docs/conformance.md).

    run_cts.py BINARY PLATFORM_INDEX [--jobs N] [--timeout S] [--json OUT] [--times OUT] [--logs DIR]
               [--tests NAME,...] [--deadline S] [--] [SUITE OPTIONS...]

The environment is the caller's (OPENCL_LAYERS, RUSTICL_ENABLE, OCL_ICD_VENDORS...). Prints one line a test,
"name: pass|fail|skip|killed (SIGNAME)|hang (seconds)", then "N passed, N failed, N skipped, N killed, N hung"."""
import argparse
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time


def tests_of(binary):
    out = subprocess.run([binary, "--list"], capture_output=True, text=True, timeout=120).stdout
    return [line.strip() for line in out.splitlines() if line.startswith("\t") and line.strip()]


def started_test(word, names):
    """The test a line ending in "WORD..." starts, if any: WORD itself, or the longest test name WORD ends with
    (what another process wrote without a newline can run into the line)."""
    if word in names:
        return word
    return max((n for n in names if word.endswith(n)), key=len, default=None)


def line_starts(line, names):
    """The test a line of output starts ("name..."), or None."""
    m = re.search(r"(\w+)\.\.\.$", line.rstrip("\n"))
    return started_test(m.group(1), names) if m else None


def outcomes(text, names):
    """What the suite's output says of each test it finished: {name: (verdict, its output)}."""
    done = {}
    starts = []
    for m in re.finditer(r"(\w+)\.\.\.$", text, re.M):
        name = started_test(m.group(1), names)
        if name:
            starts.append((m.end(1) - len(name), name))
    for k, (at, name) in enumerate(starts):
        part = text[at:starts[k + 1][0] if k + 1 < len(starts) else len(text)]
        n = r"(?:\(seed = \d+\) )?" + re.escape(name)
        if re.search(r"%s (test not supported|skipped)$" % n, part, re.M) or \
                re.search(r"^Subtest %s tests is not supported in offline compiler execution path!$" % re.escape(name),
                          part, re.M):
            done[name] = ("skip", part)
        elif re.search(r"%s passed$" % n, part, re.M):
            done[name] = ("pass", part)
        elif re.search(r"%s FAILED$" % n, part, re.M):
            done[name] = ("fail", part)
    return done, [name for _, name in starts]


def run_suite(command, env, cwd, timeout, names, deadline):
    """Runs the suite's process, ended when one test runs past TIMEOUT seconds or the run reaches DEADLINE (a
    time.monotonic()); returns (exit status, or None when it was ended so, its output, and when each line of it
    arrived, in seconds from the start)."""
    p = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                         env=env, cwd=cwd)
    lines, times, start = [], [], time.monotonic()
    last = [start]  # when the test now running began

    def read():
        for line in p.stdout:
            lines.append(line)
            times.append(time.monotonic() - start)
            if line_starts(line, names):
                last[0] = time.monotonic()

    reader = threading.Thread(target=read)
    reader.start()
    code = None
    while True:
        try:
            code = p.wait(timeout=2)
            break
        except subprocess.TimeoutExpired:
            if time.monotonic() - last[0] > timeout or time.monotonic() > deadline:
                p.kill()
                p.wait()
                break
    reader.join()
    return code, lines, times


def run_batch(binary, platform, names, timeout, options, deadline):
    """Runs the tests, a new process for those left after one that ends its process. {name: (verdict, output,
    seconds)}: a test's seconds from the line that starts it to the next test's (or the process's end). A suite
    runs the tests named on its command line in its own order, not theirs: what is left is what has no verdict.
    At DEADLINE, the test running is "not run" as are those after it."""
    env = dict(os.environ, CL_PLATFORM_INDEX=str(platform), CL_DEVICE_TYPE="all")
    results, left, text = {}, list(names), ""
    while left and time.monotonic() < deadline:
        # line-buffered, so that what kernels print (straight to the descriptor) stays between its lines
        code, lines, times = run_suite(["stdbuf", "-oL", "-eL", binary, *options, *left], env, os.path.dirname(binary),
                                       timeout, set(left), deadline)
        text = "".join(lines)
        done, started = outcomes(text, set(left))
        took = seconds(lines, times, set(left))
        for name, (verdict, part) in done.items():
            results[name] = (verdict, part, took.get(name, 0.0))
        unfinished = [n for n in started if n not in done]
        if time.monotonic() >= deadline:
            break
        ended = "hang" if code is None else "killed (%s)" % signal.Signals(-code).name if code < 0 else "fail"
        if unfinished:  # the test running when the process ended
            culprit = unfinished[-1]
            results[culprit] = (ended, text[text.rfind(culprit + "..."):], took.get(culprit, 0.0))
            for name in unfinished[:-1]:  # started, then another began without a verdict for it
                results.setdefault(name, ("fail", text[text.rfind(name + "..."):], took.get(name, 0.0)))
        elif code is not None and code >= 0 or not done:
            # the suite ended by itself, or the process ended before any test began: what it did not run, it did
            # not report
            for name in left:
                results.setdefault(name, ("fail" if code is not None and code >= 0 else ended, text[-4000:], 0.0))
        left = [n for n in left if n not in results]
    for name in left:
        if name not in results:
            results[name] = ("not run", "the run reached its --deadline first", 0.0)
    return results


def seconds(lines, times, names):
    """{test: seconds} from the arrival times of the lines that start each test ("name...")."""
    starts = []
    for k, line in enumerate(lines):
        name = line_starts(line, names)
        if name:
            starts.append((times[k], name))
    end = times[-1] if times else 0.0
    return {name: (starts[k + 1][0] if k + 1 < len(starts) else end) - at for k, (at, name) in enumerate(starts)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("platform", type=int)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=900, help="seconds a test may run")
    ap.add_argument("--json")
    ap.add_argument("--times", help="a JSON file for each test's seconds")
    ap.add_argument("--deadline", type=float, help="seconds the whole run may take (tests left then: not run)")
    ap.add_argument("--tests", help="the tests to run, separated by commas (default: every test the suite lists)")
    ap.add_argument("--logs", help="a folder for the output of each test that did not pass")
    a, options = ap.parse_known_args()
    options = [o for o in options if o != "--"]
    binary = os.path.abspath(a.binary)
    names = tests_of(binary)
    if a.tests:
        unknown = [n for n in a.tests.split(",") if n not in names]
        if unknown:
            ap.error("the suite has no test %s" % ", ".join(unknown))
        names = [n for n in names if n in a.tests.split(",")]
    shares = [names[k::a.jobs] for k in range(a.jobs)]
    results, deadline = {}, time.monotonic() + (a.deadline or float("inf"))
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for part in pool.map(lambda share: run_batch(binary, a.platform, share, a.timeout, options, deadline), shares):
            results.update(part)
    for name in names:
        verdict, text, took = results[name]
        print("%s: %s (%.1f s)" % (name, verdict, took), flush=True)
        if a.logs and verdict != "pass":
            os.makedirs(a.logs, exist_ok=True)
            with open(os.path.join(a.logs, name + ".log"), "w") as f:
                f.write(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({n: v for n, (v, _, _) in results.items()}, f, indent=1, sort_keys=True)
    if a.times:
        with open(a.times, "w") as f:
            json.dump({n: round(t, 2) for n, (_, _, t) in results.items()}, f, indent=1, sort_keys=True)
    count = lambda what: sum(1 for v, _, _ in results.values() if v.startswith(what))
    print("%d passed, %d failed, %d skipped, %d killed, %d hung" % (count("pass"), count("fail"), count("skip"),
                                                                  count("killed"), count("hang"))
          + (", %d not run" % count("not run") if count("not run") else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
