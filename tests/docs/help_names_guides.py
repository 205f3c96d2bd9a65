"""Every `isoterra ... --help` ends with "Guide: docs/....md", a page that exists, and every
docs page any help (or `graph types`) names exists: the help cannot point at a moved page.
Usage: help_names_guides.py ISOTERRA SOURCE_DIR"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tools/docs"))
from cli_reference import walk  # noqa: E402 (the same walk as the reference page)


def main():
    binary, source = sys.argv[1], sys.argv[2]
    pages = []
    walk(binary, [], pages)
    problems = []
    for words, text in pages:
        command = " ".join(["isoterra", *words, "--help"])
        guide = re.findall(r"(?m)^Guide: (docs/\S+\.md)", text)
        if len(guide) != 1:
            problems.append(f"{command}: {len(guide)} 'Guide: docs/PAGE.md' lines (expected 1)")
        for page in re.findall(r"docs/[\w./-]+\.md", text):
            if not os.path.isfile(os.path.join(source, page)):
                problems.append(f"{command}: names {page}, which does not exist")
    types = subprocess.run([binary, "graph", "types"], capture_output=True, text=True, check=True).stdout
    for page in re.findall(r"docs/[\w./-]+\.md", types):
        if not os.path.isfile(os.path.join(source, page)):
            problems.append(f"isoterra graph types: names {page}, which does not exist")
    for p in problems:
        print(p)
    print(f"{len(pages)} helps checked, {len(problems)} problems")
    return 1 if problems or len(pages) < 20 else 0


if __name__ == "__main__":
    sys.exit(main())
