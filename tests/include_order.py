#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The library's folders keep their one-way order, and no two of its files depend on each other in a loop
(docs/architecture.md). Two readings of the same rule:

- includes: a file of src/F includes only headers of F and of the folders below F in LAYERS; a quoted
  include names its folder ("ir/module.h"), so the check is exact;
- calls, from the compiled library: an object file references (nm's undefined symbols) only what objects
  of its own folder or of lower ones define, and the graph of objects referencing each other has no
  circle (a header's inline functions count for the file that includes it);
- the CLI (cli/) and the OpenCL layer (layer/) include the public headers, their own and the SPIRV-Tools
  wrapper they share (spirv_tools/, which includes nothing of ours), nothing of src/.

src/meson.build must list the folders in an order that keeps LAYERS. Usage:
include_order.py SOURCE_ROOT INTERNAL_LIBRARY NM"""
import os
import re
import subprocess
import sys

# Lower layers first; folders of one layer do not depend on each other.
LAYERS = [["support"], ["ir"], ["registry"], ["analysis"], ["devices"], ["annotate", "specialize", "validate", "lower"],
          ["split"]]
LAYER = {folder: k for k, layer in enumerate(LAYERS) for folder in layer}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def may_use(user, used):
    return user == used or LAYER[used] < LAYER[user]


def check_includes(src, fail):
    files = 0
    for folder in sorted(LAYER):
        for name in sorted(os.listdir(os.path.join(src, folder))):
            if not name.endswith((".c", ".h")):
                continue
            files += 1
            text = open(os.path.join(src, folder, name), encoding="utf-8").read()
            for target in INCLUDE.findall(text):
                parts = target.split("/")
                if target.startswith("spvcond/"):
                    continue  # the public headers, under include/
                if len(parts) != 2 or parts[0] not in LAYER:
                    fail("src/%s/%s includes \"%s\": name the folder (\"ir/module.h\")" % (folder, name, target))
                elif not may_use(folder, parts[0]):
                    fail("src/%s/%s includes \"%s\": %s is not below %s" % (folder, name, target, parts[0], folder))
    return files


def check_public_only(root, folder, fail):
    """The CLI and the OpenCL layer are built on the public API: they include public headers and their own,
    nothing of src/."""
    path = os.path.join(root, folder)
    own = set(os.listdir(path))
    files = 0
    for name in sorted(own):
        if not name.endswith((".c", ".h", ".cpp")):
            continue
        files += 1
        for target in INCLUDE.findall(open(os.path.join(path, name), encoding="utf-8").read()):
            if not target.startswith(("spvcond/", "spirv_tools/")) and target not in own:
                fail("%s/%s includes \"%s\": %s/ uses the public headers (include/spvcond) alone" %
                     (folder, name, target, folder))
    return files


def check_meson_order(src, fail):
    listed = re.findall(r"^subdir\('([a-z_]+)'\)", open(os.path.join(src, "meson.build")).read(), re.M)
    if sorted(listed) != sorted(LAYER):
        fail("src/meson.build lists %s, the layers %s" % (listed, sorted(LAYER)))
    for k, folder in enumerate(listed):
        for later in listed[k + 1:]:
            if later in LAYER and folder in LAYER and LAYER[later] < LAYER[folder]:
                fail("src/meson.build: %s comes before %s, which is below it" % (folder, later))


def object_folder(member):
    # meson names the members after their path: src_annotate_guards.c.o; generated sources: meson-generated_..
    m = re.match(r"src_([a-z]+)_.*\.c\.o$", os.path.basename(member))
    if "grammar_tables" in member:
        return "support"
    return m.group(1) if m and m.group(1) in LAYER else None


def check_calls(library, nm, fail):
    out = subprocess.run([nm, "-A", library], capture_output=True, text=True, check=True).stdout
    defined, undefined = {}, {}
    for line in out.splitlines():
        m = re.match(r"^[^:]+:([^:]+):\s*(?:[0-9a-f]+)?\s+([A-Za-z])\s+(\S+)$", line)
        if not m:
            continue
        member, kind, symbol = m.groups()
        if kind == "U":
            undefined.setdefault(member, set()).add(symbol)
        elif kind.isupper():
            defined[symbol] = member
    edges = {}
    for member, symbols in sorted(undefined.items()):
        folder = object_folder(member)
        if folder is None:
            fail("%s: an object of no folder" % member)
            continue
        for symbol in sorted(symbols):
            owner = defined.get(symbol)
            if owner is None or owner == member:
                continue  # the C library's, or its own
            owner_folder = object_folder(owner)
            if owner_folder and not may_use(folder, owner_folder):
                fail("%s (src/%s) calls %s of %s (src/%s), which is not below it" %
                     (member, folder, symbol, owner, owner_folder))
            edges.setdefault(member, set()).add(owner)
    # No circle among the objects (Tarjan's components, iteratively).
    index, low, on_stack, stack, order, circles = {}, {}, set(), [], [0], []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = order[0]
        order[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = order[0]
                    order[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    for component in circles:
        fail("a circle of calls: " + " <-> ".join(component))
    return len(undefined), sum(len(v) for v in edges.values())


def main():
    root, library, nm = sys.argv[1:4]
    src = os.path.join(root, "src")
    failures = []
    fail = failures.append
    files = check_includes(src, fail) + check_public_only(root, "cli", fail) + check_public_only(root, "layer", fail)
    for name in sorted(os.listdir(os.path.join(root, "spirv_tools"))):  # the wrapper includes nothing of ours
        for target in INCLUDE.findall(open(os.path.join(root, "spirv_tools", name), encoding="utf-8").read()):
            if target != "validator.h":
                fail("spirv_tools/%s includes \"%s\": it wraps SPIRV-Tools alone" % (name, target))
    check_meson_order(src, fail)
    objects, edges = check_calls(library, nm, fail)
    for f in failures:
        print("FAIL " + f)
    print("%d files' includes, %d objects and %d references between them checked; %d failed"
          % (files, objects, edges, len(failures)))
    return 1 if failures or files == 0 or objects == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
