#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The tool starts as the C program it is (docs/performance.md, "Start-up"): it needs the C library alone
(readelf's NEEDED entries: libc, with the sanitizers' runtimes in a sanitized build); a run loads no C++
runtime and no libyaml (the dynamic loader's own account, LD_DEBUG=files); --validate opens SPIRV-Tools'
validator, a module of its own, and judges as before, or says clearly that it cannot be loaded; a YAML
file opens libyaml and is read as before."""
import os
import re
import subprocess
import sys
import tempfile

from verdicts import check, run, summary

CLI = os.environ["SPVCOND_CLI"]
SRC = os.environ["SPVCOND_TEST_SRC"]
DEMO = os.path.join(SRC, "..", "examples", "demo.spvasm")
SPIRV_AS = os.environ["SPIRV_AS"]
CONFIG = "my_gpu:\n  aspects: [fp16, atomic64]\n  may_support_other_aspects: false\n"


def loaded(args, env=None):
    """The return code and the libraries the dynamic loader opened for a run of the tool."""
    p = run([CLI, *args], env=dict(env or os.environ, LD_DEBUG="files"))
    libraries = set(re.findall(r"file=(\S+?\.so[.\d]*)\s*\[0\];\s*(?:needed|dynamically loaded)", p.stderr))
    return p.returncode, {os.path.basename(x) for x in libraries}, p


def sanitizer_runtimes(needed):
    """The sanitizers' runtimes the tool needs, and what they need in turn (libubsan needs the C++ runtime)."""
    runtimes = {n for n in needed if re.match(r"lib(asan|ubsan|tsan|lsan)\.so", n)}
    theirs = set(runtimes)
    for line in run(["ldd", CLI]).stdout.splitlines():
        m = re.match(r"\s*(\S+) => (\S+)", line)
        if m and m.group(1) in runtimes:
            theirs |= {os.path.basename(x) for x in re.findall(r"=> (\S+)", run(["ldd", m.group(2)]).stdout)}
    return runtimes, theirs


def main():
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.*?)\]", run(["readelf", "-d", CLI]).stdout)
    runtimes, sanitizers = sanitizer_runtimes(needed)
    check(set(needed) - runtimes <= {"libc.so.6", "libm.so.6"} and "libc.so.6" in needed,
          "spvcond needs the C library alone (NEEDED: %s)" % ", ".join(needed))
    if sanitizers:
        print("a sanitized build: what the sanitizers' runtimes load themselves is not counted (%s)"
              % ", ".join(sorted(sanitizers)))
    rc, libs, p = loaded(["--version"])
    check(rc == 0 and not any(x.startswith(("libstdc++", "libyaml", "libgcc_s", "spvcond-validator"))
                              for x in libs - sanitizers),
          "--version loads no C++ runtime, no validator and no libyaml (%s)" % ", ".join(sorted(libs)),
          p.stderr[-300:])
    with tempfile.TemporaryDirectory() as tmp:
        demo = os.path.join(tmp, "demo.spv")
        subprocess.run([SPIRV_AS, "--target-env", "spv1.2", DEMO, "-o", demo], check=True)
        out = os.path.join(tmp, "out.spv")
        rc, libs, p = loaded(["annotate", "-q", demo, "-o", out])
        check(rc == 0 and not any(x.startswith(("libstdc++", "libyaml", "libgcc_s", "spvcond-validator"))
                                  for x in libs - sanitizers),
              "annotate loads no C++ runtime, no validator and no libyaml (%s)" % ", ".join(sorted(libs)),
              p.stderr[-300:])
        rc, libs, p = loaded(["annotate", "-q", "--validate", demo, "-o", out])
        validator = [x for x in libs if x.startswith("spvcond-validator")]
        if rc == 2 and "built without SPIRV-Tools' validator" in p.stderr:
            print("skipped: --validate (this spvcond was built without SPIRV-Tools' validator)")
        else:
            check(rc == 0 and validator and os.path.exists(out),
                  "annotate --validate opens the validator's module and takes a valid module (%s)" %
                  ", ".join(sorted(libs)), p.stderr[-300:])
            p = run([CLI, "annotate", "-q", "--validate", demo, "-o", out],
                    env=dict(os.environ, SPVCOND_VALIDATOR=os.path.join(tmp, "none.so")))
            check(p.returncode == 2 and "--validate: SPIRV-Tools' validator cannot be loaded" in p.stderr and
                  "none.so" in p.stderr, "--validate without its module: exit 2, and why", p.stderr[-300:])
        config = os.path.join(tmp, "devices.yaml")
        with open(config, "w") as f:
            f.write(CONFIG)
        rc, libs, p = loaded(["devices", "--device-config", config])
        check(rc == 0 and "my_gpu" in p.stdout and any(x.startswith("libyaml") for x in libs),
              "a YAML file opens libyaml and is read (devices --device-config)", p.stderr[-300:])
        with open(config, "w") as f:
            f.write("my_gpu: [unclosed\n")
        p = run([CLI, "devices", "--device-config", config])
        check(p.returncode != 0 and "devices.yaml:" in p.stderr, "a YAML syntax error names the file and line",
              p.stderr[-300:])
    return summary()


if __name__ == "__main__":
    sys.exit(main())
