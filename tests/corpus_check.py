#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/make-corpus.py's verdicts on a built module against its manifest row, on one corpus module
($SPVCOND_CORPUS): the manifest's bytes pass; other bytes with the manifest's package version are an
error when the counts differ and a warning when they agree; with another package version, only a
difference in counts is reported, as a warning. Also the counts themselves and a malformed manifest."""
import importlib.util
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("make_corpus", os.path.join(ROOT, "tools", "make-corpus.py"))
mc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mc)


def main():
    rows = {m["file"]: m for m in mc.read_manifest(mc.MANIFEST)}
    m = rows["darktable__extended.spv"]
    path = os.path.join(os.environ["SPVCOND_CORPUS"], m["file"])
    other_bytes = dict(m, sha256="0" * 64)
    other_counts = dict(other_bytes, calls=str(int(m["calls"]) + 1))
    version, newer = m["package_version"], m["package_version"] + "+1"
    with open(path, "rb") as f:
        data = f.read()
    cases = [
        ("the manifest's bytes", mc.check_module(m, path, version), (None, None)),
        ("the manifest's bytes, another version", mc.check_module(m, path, newer), (None, None)),
        ("other bytes, same counts", mc.check_module(other_bytes, path, version), ("-", "warning")),
        ("other bytes, other counts", mc.check_module(other_counts, path, version), ("error", "-")),
        ("another version, same counts", mc.check_module(other_bytes, path, newer), (None, None)),
        ("another version, other counts", mc.check_module(other_counts, path, newer), ("-", "warning")),
        ("counts", mc.counts(data), (22, 91, 98)),
        ("counts of a word count 0", mc.counts(data[:20] + b"\0\0\0\0"), None),
        ("counts of a wrong magic", mc.counts(b"\0" * 20), None),
    ]
    failed = 0
    for what, got, want in cases:
        if isinstance(want, tuple) and want and want[0] in ("-", "error"):
            ok = (got[0] is not None) == (want[0] == "error") and (got[1] is not None) == (want[1] == "warning")
        else:
            ok = got == want
        print("%s %s: %r" % ("ok  " if ok else "FAIL", what, got))
        failed += not ok
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        f.write("file\tpackage\n")
    try:
        mc.read_manifest(f.name)
        print("FAIL a manifest without the sha256 column was accepted")
        failed += 1
    except SystemExit as e:
        print("ok   a manifest without its columns: %s" % e)
    finally:
        os.remove(f.name)
    total = len(cases) + 1
    print("%d passed, %d failed" % (total - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
