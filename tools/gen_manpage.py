#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the spvcond(1) manual page from the built tool's own --help texts and the hand-written parts of
docs/spvcond.1.in, so that the page and the tool cannot disagree:

  gen_manpage.py SPVCOND TEMPLATE OUTPUT

The template's @VERSION@ becomes `spvcond --version`'s version, @COMMANDS@ one subsection per command
(its synopsis, description and options, from `spvcond COMMAND --help`), in the order `spvcond --help`
lists them."""
import re
import subprocess
import sys

OPTION_COLUMN = 21  # where descriptions start in the tool's help texts


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def escape(text):
    """Roff-safe text: backslashes, and dots or quotes that would start a request."""
    text = text.replace("\\", "\\e")
    return "\\&" + text if text.startswith((".", "'")) else text


def option_head(head):
    """'--spec-file FILE' -> bold options, italic arguments; commas kept."""
    parts = []
    for token in head.split(" "):
        word, comma = (token[:-1], ",") if token.endswith(",") else (token, "")
        if word.startswith("-"):
            parts.append("\\fB" + escape(word).replace("-", "\\-") + "\\fR" + comma)
        else:
            parts.append("\\fI" + escape(word) + "\\fR" + comma)
    return " ".join(parts)


def commands(main_help):
    """The command names `spvcond --help` lists, in its order."""
    names, inside = [], False
    for line in main_help.splitlines():
        if line.startswith("Commands:"):
            inside = True
        elif inside and not line.strip():
            break
        elif inside and re.match(r"  [a-z]", line):
            names.append(line.split()[0])
    if not names:
        sys.exit("gen_manpage: no commands in spvcond --help")
    return names


def command_section(name, text):
    """One command's --help as a roff subsection."""
    lines = text.rstrip("\n").splitlines()
    if not lines or not lines[0].startswith("USAGE: "):
        sys.exit(f"gen_manpage: spvcond {name} --help does not start with USAGE:")
    forms = [[lines[0][len("USAGE: "):]]]
    k = 1
    while k < len(lines) and lines[k].startswith(" ") and lines[k].strip():
        if lines[k].strip().startswith("spvcond "):  # another form of the command
            forms.append([lines[k].strip()])
        else:  # a wrapped usage line
            forms[-1].append(lines[k].strip())
        k += 1
    out = [f".SS {name}", ".PP"]
    for n, form in enumerate(forms):
        out += ([".br"] if n else []) + [escape(" ".join(form)).replace("-", "\\-")]
    paragraph = []
    for line in lines[k:] + [""]:
        if line.startswith("  -"):
            if paragraph:
                out += [".PP", escape(" ".join(paragraph))]
                paragraph = []
            body = line[2:]
            split = re.search(r"\s{2,}", body)
            head, desc = (body[:split.start()], body[split.end():]) if split else (body, "")
            out += [".TP", option_head(head)]
            if desc:
                out.append(escape(desc))
        elif line.startswith(" " * OPTION_COLUMN) and not paragraph:
            out.append(escape(line.strip()))  # the option's description goes on
        elif line.strip():
            paragraph.append(line.strip())
        elif paragraph:
            out += [".PP", escape(" ".join(paragraph))]
            paragraph = []
    return "\n".join(out)


def main(spvcond, template, output):
    version = run(spvcond, "--version").split()[1]
    sections = [command_section(c, run(spvcond, c, "--help")) for c in commands(run(spvcond, "--help"))]
    with open(template) as f:
        page = f.read()
    if "@COMMANDS@" not in page or "@VERSION@" not in page:
        sys.exit("gen_manpage: the template lacks @COMMANDS@ or @VERSION@")
    page = page.replace("@VERSION@", version).replace("@COMMANDS@", "\n".join(sections))
    with open(output, "w") as f:
        f.write(page)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
