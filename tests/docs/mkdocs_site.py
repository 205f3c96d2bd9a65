#!/usr/bin/env python3
"""The documentation site builds with `mkdocs build --strict` and its nav lists every page.

MkDocs 1.4 only logs a page missing from the nav as INFO, so the nav is checked here: every
docs/**/*.md is in mkdocs.yml's nav exactly once, and every nav entry is a file under docs/.
Prints each fault on one line and exits 1, else builds the site into OUT and exits with
mkdocs' status.

Usage: python3 tests/docs/mkdocs_site.py ROOT OUT
       python3 tests/docs/mkdocs_site.py --self-test SCRATCH   (the check finds planted faults)
"""
import pathlib
import shutil
import subprocess
import sys

import yaml


def nav_pages(entries):
    """The .md paths of a nav (a list of strings and one-key mappings, nested)."""
    pages = []
    for entry in entries or []:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        if isinstance(value, list):
            pages += nav_pages(value)
        elif isinstance(value, str) and "://" not in value:
            pages.append(value)
    return pages


def nav_faults(root):
    config = yaml.safe_load((root / "mkdocs.yml").read_text())
    docs = root / config.get("docs_dir", "docs")
    listed = nav_pages(config.get("nav"))
    present = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))
    faults = [f"mkdocs.yml: nav lists {p}, which is not in {docs.name}/" for p in listed if p not in present]
    faults += [f"{docs.name}/{p}: not in mkdocs.yml's nav" for p in present if p not in listed]
    faults += [f"mkdocs.yml: nav lists {p} {listed.count(p)} times" for p in sorted(set(listed)) if listed.count(p) > 1]
    return faults


def self_test(scratch):
    """A tree with a page left out of the nav and a nav entry with no page: both are named."""
    shutil.rmtree(scratch, ignore_errors=True)
    (scratch / "docs" / "guides").mkdir(parents=True)
    (scratch / "mkdocs.yml").write_text("site_name: t\nnav:\n  - Home: index.md\n  - Guides:\n"
                                        "      - A: guides/a.md\n      - Gone: guides/gone.md\n")
    for page in ("index.md", "guides/a.md", "guides/stray.md"):
        (scratch / "docs" / page).write_text("# x\n")
    expected = ["mkdocs.yml: nav lists guides/gone.md, which is not in docs/",
                "docs/guides/stray.md: not in mkdocs.yml's nav"]
    found = nav_faults(scratch)
    if found != expected:
        print(f"self-test: expected {expected}, found {found}")
        return 1
    return 0


def main():
    if len(sys.argv) != 3:
        print("usage: mkdocs_site.py ROOT OUT | --self-test SCRATCH", file=sys.stderr)
        return 2
    if sys.argv[1] == "--self-test":
        return self_test(pathlib.Path(sys.argv[2]))
    root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    faults = nav_faults(root)
    for fault in faults:
        print(fault)
    if faults:
        return 1
    if shutil.which("mkdocs") is None:
        print("mkdocs: not installed (bash scripts/install-deps.sh --tests installs it)")
        return 1
    built = subprocess.run(["mkdocs", "build", "--strict", "--quiet", "-f", str(root / "mkdocs.yml"),
                            "-d", str(out.resolve())])
    return built.returncode


if __name__ == "__main__":
    sys.exit(main())
