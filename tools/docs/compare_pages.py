"""Compares freshly generated docs pages with the checked-in ones: for each stale file,
one line naming it and its first differing line. Exit 1 when any is stale.
Usage: compare_pages.py FRESH_DIR DOCS_DIR"""
import os
import sys

GENERATED_IMAGES = "images/bench-"  # every such image is generated: one left over is stale too


def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _, names in os.walk(root) for f in names)


def first_difference(a, b):
    for n, (x, y) in enumerate(zip(a, b), start=1):
        if x != y:
            return n, x, y
    n = min(len(a), len(b)) + 1
    return n, a[n - 1] if len(a) >= n else "(end of file)", b[n - 1] if len(b) >= n else "(end of file)"


def main():
    fresh, docs = sys.argv[1], sys.argv[2]
    stale = []
    generated = files_under(fresh)
    for rel in generated:
        path = os.path.join(docs, rel)
        want = open(os.path.join(fresh, rel), encoding="utf-8").read().split("\n")
        if not os.path.exists(path):
            stale.append(f"docs/{rel}: missing (generated, not checked in)")
            continue
        have = open(path, encoding="utf-8").read().split("\n")
        if have != want:
            n, old, new = first_difference(have, want)
            stale.append(f"docs/{rel}:{n}: checked in {old.strip()[:100]!r}, generated {new.strip()[:100]!r}")
    images = os.path.join(docs, "images")
    for name in sorted(os.listdir(images)) if os.path.isdir(images) else []:
        rel = f"images/{name}"
        if rel.startswith(GENERATED_IMAGES) and rel not in generated:
            stale.append(f"docs/{rel}: no longer generated; remove it")
    for line in stale:
        print(line)
    if stale:
        print("stale: regenerate with `bash scripts/docs-reference.sh build docs` and commit the pages")
        return 1
    print(f"{len(generated)} generated files match the checked-in ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
