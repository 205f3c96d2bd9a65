#!/usr/bin/env python3
"""Issue 26's size rules, over every folder of code (issue 54): no file over 400 lines and no
function over 80, with no exceptions (a node type is one row in a file of its family).
C, C++ and JavaScript: a function is found by its body's braces, its signature being the
lines since the last statement (a JavaScript arrow function's too); lambdas and closures count
inside their function. Python: a `def` runs to the next line indented no deeper. Prints each
breach on one line and exits 1, else exits 0.

Usage: python3 tests/layout/source_sizes.py [ROOT]
       python3 tests/layout/source_sizes.py --self-test DIR   (breaches of each kind planted in DIR)
"""
import pathlib
import re
import sys

MOST_FILE_LINES, MOST_FUNCTION_LINES = 400, 80
FOLDERS = ("src", "apps", "web", "integrations", "bench")
BRACES, PYTHON = {".cpp", ".hpp", ".h", ".c", ".js", ".mjs"}, {".py"}
SKIPPED = {"node_modules", "dist"}  # the web page's installed packages and its bundle


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
            if (re.search(r"\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->[^{]*|=>\s*)?\{", signature)
                    and not re.match(r"\s*(if|for|while|switch|else|catch|do)\b", lines[j])
                    and not re.search(r"\b(namespace|struct|class|enum)\b", lines[j]) and "[" not in head):
                name = re.search(r"(\w+)\s*(=\s*(async\s*)?)?$", head)  # `const f = async (...) =>`: f
                start = (j, depth, name.group(1) if name else "?")
        depth += opens - closes
        if start is not None and depth <= start[1]:
            length = i - start[0] + 1
            if length > MOST_FUNCTION_LINES:
                found.append((start[0] + 1, length, start[2]))
            start = None
    return found


def long_python_functions(lines):
    """(first line, length, name) of each function (a method, a nested one) over the limit."""
    found = []
    for i, line in enumerate(lines):
        m = re.match(r"(\s*)(async\s+)?def\s+(\w+)", line)
        if not m:
            continue
        indent, end = len(m.group(1)), i
        for j in range(i + 1, len(lines)):
            if lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) <= indent:
                break
            if lines[j].strip():
                end = j
        if end - i + 1 > MOST_FUNCTION_LINES:
            found.append((i + 1, end - i + 1, m.group(3)))
    return found


def sources(root):
    for folder in FOLDERS:
        for f in sorted((root / folder).rglob("*")):
            if f.is_file() and f.suffix in BRACES | PYTHON and not SKIPPED & set(f.relative_to(root).parts):
                yield f


def self_test(where):
    """Plants one breach of each kind (and the same in installed packages) and checks that
    exactly the planted ones are named."""
    root = pathlib.Path(where)
    body = lambda n: "".join(f"  x{i} = {i};\n" for i in range(n))
    files = {
        "src/ok.cpp": "int f() {\n" + body(78) + "}\n",
        "web/src/long.js": "export const run = async (a) => {\n" + body(80) + "};\n",
        "web/src/method.js": "class A {\n  go(b) {\n" + body(80) + "  }\n}\n",
        "web/tests/big.test.mjs": "// a\n" * 401,
        "web/node_modules/pkg/long.js": "function f() {\n" + body(90) + "}\n",
        "integrations/blender/addon.py": "class B:\n    def draw(self):\n" + "".join(f"        y = {i}\n" for i in range(80)),
        "bench/peer.cpp": "int main() {\n" + body(80) + "}\n",
    }
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    found = []
    for f in sources(root):
        path, lines = f.relative_to(root).as_posix(), f.read_text().split("\n")
        if len(lines) - 1 > MOST_FILE_LINES:
            found.append(path)
        found += [f"{path}:{first}:{name}:{length}" for first, length, name in
                  (long_python_functions(lines) if f.suffix in PYTHON else long_functions(path, lines))]
    want = ["bench/peer.cpp:1:main:82", "integrations/blender/addon.py:2:draw:81", "web/src/long.js:1:run:82",
            "web/src/method.js:2:go:82", "web/tests/big.test.mjs"]
    if sorted(found) != want:
        sys.exit(f"source_sizes self-test: named {sorted(found)}, expected {want}")


def main():
    if sys.argv[1:2] == ["--self-test"]:
        self_test(sys.argv[2])
        return
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    breaches = []
    for f in sources(root):
        path = f.relative_to(root).as_posix()
        lines = f.read_text().split("\n")
        if len(lines) - 1 > MOST_FILE_LINES:
            breaches.append(f"{path}: {len(lines) - 1} lines (at most {MOST_FILE_LINES})")
        long = long_python_functions(lines) if f.suffix in PYTHON else long_functions(path, lines)
        for first, length, name in long:
            breaches.append(f"{path}:{first}: {name} is {length} lines (at most {MOST_FUNCTION_LINES})")
    for b in breaches:
        print(b)
    if not (root / "src").is_dir():
        sys.exit(f"source_sizes: no src/ under {root}")
    sys.exit(1 if breaches else 0)


if __name__ == "__main__":
    main()
