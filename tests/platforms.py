# SPDX-License-Identifier: MIT
"""An OpenCL process of the tests that uses one runtime sees that runtime alone (docs/testing.md, "Time")."""
import os

VENDORS = os.environ.get("SPVCOND_ICD_VENDORS", "/etc/OpenCL/vendors")  # ocl-icd's folder of vendor files
LIBRARIES = {"pocl": "libpocl", "rusticl": "libRusticlOpenCL"}


def one_platform(env, platform):
    """ENV for a process that uses PLATFORM alone: the ICD loader reads that runtime's vendor file only (ocl-icd's
    OCL_ICD_VENDORS names a folder holding a copy of it). pocl, rusticl and clover in one process start in about
    2 s, each alone in 0.3-0.6 s; the layer's suites start a few hundred such processes. ENV unchanged where it
    names its vendors already (the mock driver's) or the runtime has no vendor file here."""
    if "OCL_ICD_VENDORS" in env or platform not in LIBRARIES:
        return env
    folder = os.path.join(os.environ.get("SPVCOND_TEST_DATA", "/tmp"), "icd-" + platform)
    if not os.path.isdir(folder):
        try:
            names = sorted(n for n in os.listdir(VENDORS) if n.endswith(".icd"))
            found = [n for n in names if LIBRARIES[platform] in open(os.path.join(VENDORS, n)).read()]
        except OSError:
            return env
        if not found:
            return env
        part = "%s.%d" % (folder, os.getpid())
        os.makedirs(part, exist_ok=True)
        with open(os.path.join(part, found[0]), "w") as f:
            f.write(open(os.path.join(VENDORS, found[0])).read())
        try:
            os.rename(part, folder)
        except OSError:  # another test made it first
            os.remove(os.path.join(part, found[0]))
            os.rmdir(part)
    return dict(env, OCL_ICD_VENDORS=folder)
