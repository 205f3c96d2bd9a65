#!/usr/bin/env python3
"""The snippet runner on the fixture pages of tests/docs/fixtures/: which blocks it takes, the
program it makes of a page's C++ blocks, and its results: a skipped page with its reason, two
C++ blocks without a main built and run as one program, a failing shell block and a failing
Python line reported as failing at their page and line. Exits 1 on the first claim that fails.

Usage: self_test.py BUILD
"""
import pathlib
import subprocess
import sys

import snippet_pages

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"


def check(claim, ok, detail=""):
    if not ok:
        print(f"FAILED: {claim}\n{detail}")
        sys.exit(1)
    print(f"ok: {claim}")


def extraction():
    groups = {(g.page, g.lang): g for g in snippet_pages.groups_of(FIXTURES)}
    check("the pages' runnable groups are found, shell blocks of a guide and text blocks left out",
          sorted(groups) == [("README.md", "sh"), ("docs/getting-started/failing.md", "python"),
                             ("docs/getting-started/failing.md", "sh"), ("docs/getting-started/skipped.md", "sh"),
                             ("docs/guides/multi.md", "cpp")], str(sorted(groups)))
    readme = groups[("README.md", "sh")]
    check("a skip marker's reason is kept and bash counts as sh",
          [(b.line, b.skip) for b in readme.blocks] == [(5, "opens a window: needs a display"), (11, None), (15, None)],
          str([(b.line, b.skip) for b in readme.blocks]))
    script = snippet_pages.line_for_line(readme.running()).split("\n")
    check("a script's line N is the page's line N", script[10] == "build/isoterra presets > names.txt"
          and script[14] == "grep -q alpine names.txt", str(script))
    source = snippet_pages.program(groups[("docs/guides/multi.md", "cpp")].running()).split("\n")
    main_at = source.index("int main() {")
    includes = [i for i, line in enumerate(source) if line.startswith("#include")]
    check("without a main, both blocks' #includes go above main() and the rest inside it",
          len(includes) == 2 and max(includes) < main_at and source[-3:] == ["return 0;", "}", ""], "\n".join(source))
    check("each line carries a #line naming the page's line",
          source[source.index("#include <cstdio>") - 1] == '#line 16 "docs/guides/multi.md"', "\n".join(source))
    try:
        snippet_pages.blocks_of("x.md", "<!-- snippet: skip -->\n```sh\ntrue\n```\n")
        check("a skip marker without a reason is refused", False)
    except snippet_pages.PageError as e:
        check("a skip marker without a reason is refused", "x.md:1" in str(e), str(e))


def results(build):
    done = subprocess.run([sys.executable, str(HERE / "run_snippets.py"), "--root", str(FIXTURES), "--build", build,
                           "--work", str(pathlib.Path(build) / "docs-snippets-self-test")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = done.stdout
    print(out)
    lines = out.split("\n")
    check("a failing page makes the runner exit 1", done.returncode == 1, f"exit {done.returncode}")
    check("a skipped block prints its reason",
          "SKIP  README.md:5 [sh]: opens a window: needs a display" in lines
          and "SKIP  docs/getting-started/skipped.md:5 [sh]: installs Debian packages as root" in lines)
    check("the README's other shell blocks pass, the second reading what the first wrote",
          any(line.startswith("PASS  README.md [sh]: 2 blocks") for line in lines))
    check("two C++ blocks without a main build and run as one program",
          any(line.startswith("PASS  docs/guides/multi.md [cpp]: 2 blocks") for line in lines))
    check("the failing shell command is reported at its page and line with the program's error",
          "FAIL  docs/getting-started/failing.md [sh]: docs/getting-started/failing.md:8: exit 2" in lines
          and "nowhere" in out and "never\n" not in out)
    check("the failing Python line is reported at its page and line with its traceback",
          "FAIL  docs/getting-started/failing.md [python]: docs/getting-started/failing.md:15: exit 1" in lines
          and "IndexError" in out)
    check("the summary counts the results", "snippets: 2 passed, 2 failed, 1 all skipped (2 blocks skipped)" in out)


if __name__ == "__main__":
    extraction()
    results(sys.argv[1])
