# SPDX-License-Identifier: MIT
"""What the end-to-end scripts share: check() counts a verdict and prints what failed, run() runs a
command for its output, summary() prints the totals and gives the exit status.

run() of the tool itself (SPVCOND_CLI) with one of its file commands, and nothing but `check` asked of
the process (no input, environment, directory or time limit of its own), goes to the batch runner
(SPVCOND_CLI_BATCH, cli/batch.c) when the build has one: the same code, one process a thread for
every such command line, its standard output, error and exit status as a process of its own would give
them. Under the sanitizers this spares 50-90 ms a command; the tool's own process (start-up, exit,
environment) is tested where a script runs it with subprocess. summary() ends the runners and checks
that they ended cleanly: no leak and no sanitizer report (SPVCOND_CLI_BATCH= turns them off)."""
import os
import subprocess
import tempfile
import threading

counts = {"passed": 0, "failed": 0}

CLI = os.environ.get("SPVCOND_CLI")
BATCH = os.environ.get("SPVCOND_CLI_BATCH")
# The commands that read and write files only (not `opencl`, which loads drivers and sets variables).
BATCHED = {"annotate", "check", "devices", "filter", "info", "repair", "reqs", "specialize", "split", "validate"}


def check(ok, what, detail=""):
    ok = bool(ok)
    if not ok:
        print("FAIL %s%s" % (what, (": " + detail) if detail else ""))
    counts["passed" if ok else "failed"] += 1
    return ok


class _Runner:
    """One spvcond-batch process and the files its commands write to."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="spvcond-batch-")
        self.out, self.err = os.path.join(self.dir, "out"), os.path.join(self.dir, "err")
        self.log = open(os.path.join(self.dir, "runner.err"), "w+b")
        env = dict(os.environ)
        # spvcond finds its validator beside itself; the runner lives elsewhere.
        validator = os.path.join(os.path.dirname(CLI), "spvcond-validator.so")
        if os.path.exists(validator):
            env.setdefault("SPVCOND_VALIDATOR", validator)
        self.proc = subprocess.Popen([BATCH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                     env=env)
        self.commands = 0

    def run(self, args):
        fields = [self.out, self.err, str(len(args))] + [str(a) for a in args]
        try:
            self.proc.stdin.write(b"".join(os.fsencode(f) + b"\0" for f in fields))
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline()
        except BrokenPipeError:
            reply = b""
        self.commands += 1
        rc = int(reply) if reply.strip() else None
        if rc is None:  # the command took the process with it: its signal or status, as a process's
            rc = self.proc.wait() or 125  # (a runner that ended without a reply and without a failure: 125)
        out, err = (_read(p) for p in (self.out, self.err))
        return rc, out, err

    def alive(self):
        return self.proc.poll() is None

    def close(self):
        """(clean, what the runner said at its end)."""
        if self.alive():
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=300)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.seek(0)
        said = self.log.read().decode(errors="replace")
        self.log.close()
        for p in (self.out, self.err, self.log.name):
            if os.path.exists(p):
                os.remove(p)
        os.rmdir(self.dir)
        return self.proc.returncode == 0 and not said.strip(), said


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""


_local = threading.local()
_runners = []
_runners_lock = threading.Lock()


def _batched(args, kw):
    return (BATCH and CLI and os.access(BATCH, os.X_OK) and len(args) > 1 and str(args[0]) == CLI and
            args[1] in BATCHED and set(kw) <= {"check"})


def run(args, **kw):
    if not _batched(args, kw):
        return subprocess.run(args, capture_output=True, text=True, **kw)
    runner = getattr(_local, "runner", None)
    if runner is None or not runner.alive():
        runner = _local.runner = _Runner()
        with _runners_lock:
            _runners.append(runner)
    rc, out, err = runner.run(args)
    p = subprocess.CompletedProcess(args, rc, out, err)
    if kw.get("check"):
        p.check_returncode()
    return p


def close_runners():
    """End the batch runners (summary() does): whether they ended cleanly, counted as a check."""
    with _runners_lock:
        runners, _runners[:] = list(_runners), []
    if not runners:
        return True
    said = []
    for r in runners:
        clean, text = r.close()
        if not clean:
            said.append("status %s after %d commands: %s" % (r.proc.returncode, r.commands, text.strip()[-3000:]))
    what = "%d command lines of the tool in %d batch runner processes" % (sum(r.commands for r in runners),
                                                                         len(runners))
    if not check(not said, what + " ended cleanly: no leak, no sanitizer report", "\n".join(said)):
        return False
    print(what + ", ended cleanly")
    return True


def summary():
    close_runners()
    print("%d passed, %d failed" % (counts["passed"], counts["failed"]))
    return 1 if counts["failed"] else 0
