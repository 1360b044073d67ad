#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every file path a comment or a document names exists: a path of the tree's own folders (src/, include/,
tests/, tools/, docs/, spec/, layer/, cli/, bench/, fuzz/, examples/, abi/, cmake/, spirv_tools/) with a
file's extension, in any tracked source or document, is found from the repository's root or from the
naming file's folder (tests/meson.build names layer/host.c). Paths with a wildcard or a placeholder are
not files. Usage: paths_named.py SOURCE_ROOT"""
import os
import re
import subprocess
import sys

from verdicts import check, summary

FOLDERS = "src|include|tests|tools|docs|spec|layer|cli|bench|fuzz|examples|abi|cmake|spirv_tools"
EXTENSIONS = "c|h|cpp|py|md|sh|spvasm|cl|build|txt|tsv|in|abi|map|yaml|json"
PATH = re.compile(r"(?<![\w/.$-])((?:%s)/[\w./-]*\w\.(?:%s))\b" % (FOLDERS, EXTENSIONS))
READ = (".c", ".h", ".cpp", ".py", ".md", ".sh", ".build", ".txt", ".in", ".cl", ".spvasm")


def main(root):
    listed = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    files = listed.stdout.split() if listed.returncode == 0 else [
        os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs]
    named = 0
    for name in files:
        if not name.endswith(READ) or name.startswith(("build", ".")):
            continue
        text = open(os.path.join(root, name), errors="replace").read()
        for m in PATH.finditer(text):
            path = m.group(1)
            if "*" in path or "XX" in path:
                continue
            named += 1
            here = os.path.dirname(os.path.join(root, name))
            check(os.path.exists(os.path.join(root, path)) or os.path.exists(os.path.join(here, path)),
                  "%s names %s, which exists" % (name, path))
    print("%d paths named in %d files" % (named, len(files)))
    return summary()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
