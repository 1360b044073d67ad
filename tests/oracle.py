# SPDX-License-Identifier: MIT
"""The validators that judge what the tests write (docs/testing.md, "Oracles").

spirv-val: $SPIRV_VAL (the build sets it: a SPIRV-Tools v2026.4 at ../shared/tools/spirv-tools-2026 when
present, else Debian's). Debian's 2023.1 cannot read SPV_INTEL_function_variants and misses version
rules; today's knows both. `knows_extension` says which one judges, and the tests say it in their output.
The target environment comes from the module: OpenCL's memory model up to SPIR-V 1.2 is opencl2.2 (the
OpenCL 2.2 full profile), anything later or any other memory model the universal spv1.N of its version.
A module that declares a capability outside the full profile (Int64Atomics, say: the input's, which no
pass adds) is judged under spv1.N instead.

The translator's function-variants consumer: $SPVCOND_TRANSLATOR, else
../shared/tools/llvm-spirv-fnvar/bin/llvm-spirv beside the source tree; None in a lone clone."""
import hashlib
import os
import struct
import tempfile
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


def _minor(path):
    with open(path, "rb") as f:
        header = f.read(8)
    return (struct.unpack("<2I", header)[1] >> 8) & 0xFF if len(header) == 8 else 0


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


# Instructions whose grammar before 2025 is wrong (spec/grammar/README): OpAsmTargetINTEL has no result
# type, which SPIRV-Tools 2023.1 expects, so it misreads every module that has one.
REGRAMMARED = (5609,)


def misread_before_2025(path):
    with open(path, "rb") as f:
        data = f.read()
    words = struct.unpack("<%dI" % (len(data) // 4), data[:len(data) // 4 * 4])
    i = 5
    while i < len(words) and words[i] >> 16:
        if words[i] & 0xFFFF in REGRAMMARED:
            return True
        i += words[i] >> 16
    return False


_verdicts = {}


def val(path, env=None):
    """(ok, output, judged): judged is False when the validator cannot read the module (the extension
    under Debian's, or an instruction its grammar has wrong), and ok is then True. The same bytes under
    the same environment are judged once (the property tests write the same module for many devices)."""
    with open(path, "rb") as f:
        key = (hashlib.sha256(f.read()).digest(), env)
    if key not in _verdicts:
        _verdicts[key] = _val(path, env)
    return _verdicts[key]


def _val(path, env):
    if not knows_extension and (uses_extension(path) or misread_before_2025(path)):
        return True, "", False
    chosen = env or target_env(path)
    p = subprocess.run([VAL, "--target-env", chosen, path], capture_output=True, text=True)
    text = (p.stdout + p.stderr).strip()
    if p.returncode != 0 and env is None and chosen.startswith("opencl") and "is not allowed by OpenCL" in text:
        universal = "spv1.%d" % _minor(path)
        p = subprocess.run([VAL, "--target-env", universal, path], capture_output=True, text=True)
        text = (p.stdout + p.stderr).strip()
    return p.returncode == 0, text, True


def translate(path, out, args=()):
    """The translator's consumer on an annotated module: (ok, output), or None without a translator."""
    if TRANSLATOR is None:
        return None
    p = subprocess.run([TRANSLATOR, "-r", "--fnvar-spec-enable", *args, path, "-o", out], capture_output=True,
                       text=True)
    return p.returncode == 0, (p.stdout + p.stderr).strip()


_tally = {}


def _count(kind, what):
    _tally[(kind, what)] = _tally.get((kind, what), 0) + 1


def judge(path, kind, env=None):
    """val(path) counted under `kind` ("annotated", "specialized"...) for report(); (ok, output)."""
    ok, out, judged = val(path, env)
    _count(kind, "spirv-val" if judged else "unjudged")
    return ok, out


_input_ok = {}


def judge_like(original, path, kind):
    """judge(path) when the validator accepts `original`, the module the pass was given; an input it
    rejects (llvm-spirv-15's debug information under Debian's validator, say) says nothing of the pass and
    is counted apart. (ok, output)."""
    st = os.stat(original)
    key = (original, st.st_mtime_ns, st.st_size)  # a path a test writes again is another input
    if key not in _input_ok:
        _input_ok[key] = val(original)[0]
    if not _input_ok[key]:
        _count(kind, "input invalid")
        return True, ""
    return judge(path, kind)


def translated(path, kind="annotated", args=()):
    """The translator's consumer reads `path`: (ok, output), counted; (True, "") without a translator."""
    if TRANSLATOR is None:
        _count(kind, "untranslated")
        return True, ""
    with tempfile.TemporaryDirectory() as tmp:
        ok, out = translate(path, os.path.join(tmp, "out.bc"), args)
    _count(kind, "translator")
    return ok, out


def translated_like(original, annotated, kind="annotated"):
    """The translator's consumer reads `annotated` whenever it reads `original`, the module annotate was
    given (an input it cannot read, a set of extended instructions it does not know say, says nothing of
    annotate): (ok, output), counted."""
    if TRANSLATOR is not None:
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run([TRANSLATOR, "-r", original, "-o", os.path.join(tmp, "in.bc")], capture_output=True,
                               text=True)
        if p.returncode != 0:
            _count(kind, "input unreadable by the translator")
            return True, ""
    return translated(annotated, kind)


# How each tally reads in report(), in its order.
_PHRASES = (("spirv-val", "%d by spirv-val"), ("input invalid", "%d whose input this spirv-val rejects"),
            ("unjudged", "%d not readable by this spirv-val"), ("translator", "%d read by the translator"),
            ("input unreadable by the translator", "%d whose input the translator cannot read"),
            ("untranslated", "%d not given to a translator (none here)"))


def report():
    """The counts per kind of module and judge, one line, for the test output and the closing note."""
    parts = []
    for kind in sorted({k for k, _ in _tally}):
        bits = [phrase % _tally[(kind, key)] for key, phrase in _PHRASES if _tally.get((kind, key))]
        parts.append("%s: %s" % (kind, ", ".join(bits)))
    return "judged (%s): %s" % (VAL_NAME, "; ".join(parts) if parts else "nothing")
