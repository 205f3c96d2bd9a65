"""Doxygen's INPUT_FILTER for include/isoterra/isoterra.h, whose comments are plain C
(/* ... */): it reads them as documentation without the header changing, line for line
(the line numbers place each function in its section).
Usage: c_header_filter.py HEADER  (the filtered text on stdout)"""
import re
import sys

SECTION = re.compile(r"^/\* -{2,} .* -+ \*/$")

with open(sys.argv[1], encoding="utf-8") as f:
    lines = f.read().split("\n")
out = []
for n, line in enumerate(lines):
    if n == 0 and line.startswith("/* "):
        line = "/** \\file isoterra.h " + line[3:]  # the header's own comment: the file's
    elif SECTION.match(line) or line.startswith("#endif"):
        pass  # a section marker: read by c_api_reference.py from the header itself
    elif line.startswith("/* "):
        line = "/** " + line[3:]
    else:
        # A member's trailing comment: "int radius; /* ... */".
        line = re.sub(r"^(\s+\S.*;\s*)/\* ", r"\1/**< ", line)
    out.append(line)
sys.stdout.write("\n".join(out))
