#!/usr/bin/env python3
"""Issue 26's size rules for src/ and apps/: no file over 400 lines and no function over 80,
but the tables and switches named in ALLOWED (one case per node type each). A function is
found by its body's braces, its signature being the lines since the last statement; lambdas
count inside their function. Prints each breach on one line and exits 1, else exits 0.

Usage: python3 tests/layout/source_sizes.py [ROOT]
"""
import pathlib
import re
import sys

MOST_FILE_LINES, MOST_FUNCTION_LINES = 400, 80
# (file, the function's name): the node table, the evaluator's switch, the ranges' switch.
ALLOWED = {
    ("src/field/graph/graph_nodes.cpp", "node_types"),
    ("src/field/graph/graph_eval.cpp", "evaluate"),
    ("src/field/graph/graph_intervals.cpp", "node_range"),
}


def code(line):
    line = re.sub(r"//.*", "", line)
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    return re.sub(r"'(\\.|[^'\\])*'", "''", line)


def long_functions(path, lines):
    """(first line, length, name) of each top-level function body over the limit."""
    found, depth, start = [], 0, None
    for i, line in enumerate(lines):
        c = code(line)
        opens, closes = c.count("{"), c.count("}")
        if opens > closes and start is None:
            j, signature = i, c
            while j > 0 and lines[j - 1].strip() and not lines[j - 1].startswith("#") and not re.search(r"[;{}]\s*$", code(lines[j - 1])):
                j -= 1
                signature = code(lines[j]) + signature
            head = signature.split("(")[0]
            if (re.search(r"\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->[^{]*)?\{", signature)
                    and not re.match(r"\s*(if|for|while|switch|else|catch|do)\b", lines[j])
                    and not re.search(r"\b(namespace|struct|class|enum)\b", lines[j]) and "[" not in head):
                name = re.findall(r"(\w+)\s*$", head)
                start = (j, depth, name[0] if name else "?")
        depth += opens - closes
        if start is not None and depth <= start[1]:
            length = i - start[0] + 1
            if length > MOST_FUNCTION_LINES and (path, start[2]) not in ALLOWED:
                found.append((start[0] + 1, length, start[2]))
            start = None
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    breaches = []
    for folder in ("src", "apps"):
        for f in sorted((root / folder).rglob("*")):
            if f.suffix not in (".cpp", ".hpp") or not f.is_file():
                continue
            path = f.relative_to(root).as_posix()
            lines = f.read_text().split("\n")
            if len(lines) - 1 > MOST_FILE_LINES:
                breaches.append(f"{path}: {len(lines) - 1} lines (at most {MOST_FILE_LINES})")
            for first, length, name in long_functions(path, lines):
                breaches.append(f"{path}:{first}: {name} is {length} lines (at most {MOST_FUNCTION_LINES})")
    for b in breaches:
        print(b)
    if not (root / "src").is_dir():
        sys.exit(f"source_sizes: no src/ under {root}")
    sys.exit(1 if breaches else 0)


if __name__ == "__main__":
    main()
