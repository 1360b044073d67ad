#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""spvcond(1) and the --help texts it is written from:

- every command's --help names exactly the options of its option table (its rows, with the shared row
  macros of options.h and device_options.h), and the tool accepts every option its help names;
- the page is clean roff (groff -ww: no warning) and shows every command and every option.

  manual.py SPVCOND PAGE TOOLS_SOURCE_DIR"""
import os
import re
import subprocess
import sys

from verdicts import check, summary


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, stdin=subprocess.DEVNULL)


def commands(spvcond):
    out = run(spvcond, "--help").stdout
    block = out.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in block.splitlines() if re.match(r"  [a-z]", line)]


def help_options(text):
    """{option: takes an argument} from the option lines of a --help text."""
    options = {}
    for line in text.splitlines():
        if not line.startswith("  -"):
            continue
        head = re.split(r"\s{2,}", line[2:], maxsplit=1)[0]
        for part in head.split(", "):
            words = part.split()
            options[words[0]] = len(words) > 1
    return options


ROW = re.compile(r"""CLI_(?:FLAG|BITS|STRING|U32|CALL|OF_CLI)\((NULL|"[a-z-]+"), ('\w'|0)?|\.name = ("[a-z-]+")|\.letter = '(\w)'"""
                 r"""|CLI_OUTPUT\(""")


def row_options(text):
    """The options of the option-table rows in `text`: --long names and -letters."""
    found = set()
    for m in ROW.finditer(text):
        name, letter, dotname, dotletter = m.groups()
        if m.group(0).startswith("CLI_OUTPUT"):
            found.add("-o")
        for n in (name, dotname):
            if n and n != "NULL":
                found.add("--" + n.strip('"'))
        for c in (letter, dotletter):
            if c and c != "0":
                found.add("-" + c.strip("'"))
    return found


def macro_options(tools):
    """The options of the shared row macros (CLI_QUIET, CLI_SYNC, FNVAR_ROWS...)."""
    macros = {}
    for header in ("options.h", "device_options.h"):
        with open(os.path.join(tools, header)) as f:
            text = f.read()
        for m in re.finditer(r"#define (\w+)(?:\([^)]*\))?((?:.*\\\n)*.*)", text):
            members = row_options(m.group(2))
            if members:
                macros[m.group(1)] = members
    return macros


def source_options(tools, command, macros):
    """The options the command's option table accepts, -h and --help (which every command takes) with them."""
    with open(os.path.join(tools, f"cmd_{command}.c")) as f:
        text = f.read()
    table = re.search(r"struct cli_opt \w+_options\[\] = \{(.*?)\};", text, re.S)
    options = row_options(table.group(1)) | {"-h", "--help"}
    for name, members in macros.items():
        if re.search(rf"\b{name}\b", table.group(1)):
            options |= members
    return options


def main(spvcond, page, tools):
    macros = macro_options(tools)
    names = commands(spvcond)
    check(len(names) >= 10, f"spvcond --help lists the commands: {', '.join(names)}")
    all_options = {}
    for command in names:
        text = run(spvcond, command, "--help").stdout
        options = help_options(text)
        all_options[command] = options
        source = source_options(tools, command, macros)
        check(set(options) == source, f"{command}: --help names the options of its table",
                f"only in --help: {sorted(set(options) - source)}; only in the source: {sorted(source - set(options))}")
        refused = []
        for option, takes in options.items():
            args = [spvcond, command, option] + (["x"] if takes else [])
            err = run(*args).stderr
            if re.search(r"unrecognized option|invalid option|requires an argument", err):
                refused.append(f"{option}: {err.strip().splitlines()[0]}")
        check(not refused, f"{command}: every option --help names is accepted ({len(options)})", "; ".join(refused))
    lint = run("groff", "-man", "-ww", "-z", page)
    check(lint.returncode == 0 and not lint.stderr.strip(), "groff -man -ww: the page has no warning",
            lint.stderr.strip())
    text = run("groff", "-man", "-Tascii", "-P-cbou", page).stdout
    text = re.sub(r"-\n\s+", "-", text)  # words groff broke at a hyphen
    flat = " ".join(text.split())
    version = run(spvcond, "--version").stdout.split()[1]
    check(f"spvcond {version}" in flat, f"the page carries the tool's version {version}")
    # Each form of a command's synopsis on its own line; no placeholder where options belong.
    check(re.search(r"spvcond devices \[--device-config FILE\] \[--table dpcpp\] \[--json\]\n\s*spvcond devices "
                    r"--registry \[--json\]", text) is not None,
          "the page writes each form of the devices synopsis on its own line")
    check("[function-variants device]" not in text, "the page's synopses name options, not placeholders")
    check("share/doc/spvcond" in flat and "SPVCOND_LAYER_DEBUG" in flat and "of the source" not in flat,
          "the page points to the layer's installed document and its environment variables")
    for command, options in all_options.items():
        missing = [o for o in options if o not in flat]
        check(re.search(rf"^   {command}$", text, re.M) is not None and not missing,
                f"the page has a section for {command} with its {len(options)} options", f"missing: {missing}")
    for section in ("OUTPUT FILES", "EXIT STATUS", "DIAGNOSTICS", "EXAMPLES"):
        check(re.search(rf"^{section}$", text, re.M) is not None, f"the page has {section}")
    return summary()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
