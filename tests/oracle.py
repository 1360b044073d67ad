# SPDX-License-Identifier: MIT
"""The validators that judge what the tests write (docs/testing.md, "Oracles").

spirv-val: $SPIRV_VAL (the build sets it: a SPIRV-Tools v2026.4 at ../shared/tools/spirv-tools-2026 when
present, else Debian's). Debian's 2023.1 cannot read SPV_INTEL_function_variants and misses version
rules; today's knows both. `knows_extension` says which one judges, and the tests say it in their output.
The target environment comes from the module: OpenCL's memory model up to SPIR-V 1.2 is opencl2.2,
anything later or any other memory model the universal spv1.N of its version.

The translator's function-variants consumer: $SPVCOND_TRANSLATOR, else
../shared/tools/llvm-spirv-fnvar/bin/llvm-spirv beside the source tree; None in a lone clone."""
import os
import struct
import subprocess

SRC = os.environ.get("SPVCOND_TEST_SRC", os.path.dirname(os.path.abspath(__file__)))
SHARED_TOOLS = os.path.join(SRC, "..", "..", "shared", "tools")

VAL = os.environ.get("SPIRV_VAL", "spirv-val")


def _version_of(tool):
    try:
        p = subprocess.run([tool, "--version"], capture_output=True, text=True)
    except OSError:
        return ""
    return (p.stdout + p.stderr).splitlines()[0] if (p.stdout + p.stderr) else ""


VAL_VERSION = _version_of(VAL)
# SPIRV-Tools v2025.4 and later know the extension (its validator support landed there).
knows_extension = any("v%d." % y in VAL_VERSION for y in range(2025, 2100))
VAL_NAME = "%s (%s)" % (VAL, VAL_VERSION or "unknown version")

TRANSLATOR = os.environ.get("SPVCOND_TRANSLATOR") or os.path.join(SHARED_TOOLS, "llvm-spirv-fnvar", "bin", "llvm-spirv")
if not os.access(TRANSLATOR, os.X_OK):
    TRANSLATOR = None


def describe():
    """One line naming the judges, for the test output."""
    judge = "spirv-val %s%s" % (VAL_NAME, "" if knows_extension else
                                 ": it cannot read SPV_INTEL_function_variants, so annotated modules are judged "
                                 "by spvcond validate alone")
    trans = ("the translator's consumer %s" % TRANSLATOR) if TRANSLATOR else \
        "no function-variants translator (../shared/tools absent): annotated modules not read by it"
    return "oracles: %s; %s" % (judge, trans)


def target_env(path):
    """opencl2.2 for an OpenCL-memory-model module up to SPIR-V 1.2, else spv1.N of its version."""
    with open(path, "rb") as f:
        data = f.read()
    words = struct.unpack("<%dI" % (len(data) // 4), data[:len(data) // 4 * 4])
    minor = (words[1] >> 8) & 0xFF if len(words) > 1 else 0
    opencl = False
    i = 5
    while i < len(words):
        wc, op = words[i] >> 16, words[i] & 0xFFFF
        if wc == 0:
            break
        if op == 14 and wc >= 3:  # OpMemoryModel
            opencl = words[i + 2] == 2
            break
        i += wc
    return "opencl2.2" if opencl and minor <= 2 else "spv1.%d" % minor


def uses_extension(path):
    with open(path, "rb") as f:
        return b"SPV_INTEL_function_variants" in f.read()


def val(path, env=None):
    """(ok, output, judged): judged is False when the validator cannot read the module (the extension
    under Debian's), and ok is then True."""
    if uses_extension(path) and not knows_extension:
        return True, "", False
    p = subprocess.run([VAL, "--target-env", env or target_env(path), path], capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip(), True


def translate(path, out, args=()):
    """The translator's consumer on an annotated module: (ok, output), or None without a translator."""
    if TRANSLATOR is None:
        return None
    p = subprocess.run([TRANSLATOR, "-r", "--fnvar-spec-enable", *args, path, "-o", out], capture_output=True,
                       text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip()
