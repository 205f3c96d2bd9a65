#!/usr/bin/env python3
"""Runs the documentation's snippets (tests/docs/snippet_pages.py says which) and reports each
page's language as one result: PASS, FAIL (the page and line and the error) or SKIP (the
reasons). Shell blocks run with `bash -euo pipefail`, C++ and C programs are built against the
installed library (isoterra::isoterra, libisoterra_c), Python runs with /usr/bin/python3 and
PYTHONPATH=BUILD/python. Each group runs in a scratch copy of the repository root (its
top-level entries linked, `build` the built tree), so outputs land there. Exits 1 when one
fails or a page cannot be read, else 0.

Usage: run_snippets.py --root SOURCE --build BUILD [--work DIR] [--jobs N] [--cxx-flags F]
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

import snippet_pages
import snippet_programs

TIMEOUT_S = 120
TAIL_LINES = 25


def scratch_copy(root, build, where):
    """A folder beside nothing else where the repository's top-level entries are links."""
    where.mkdir(parents=True)
    for entry in pathlib.Path(root).iterdir():
        if entry.name.startswith(".") or entry.name.startswith("build") or entry.name == "out":
            continue
        (where / entry.name).symlink_to(entry.resolve())
    (where / "build").symlink_to(pathlib.Path(build).resolve())
    return where


def environment(build):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(pathlib.Path(build).resolve() / "python")
    env["ISOTERRA_NO_VIEWER"] = "1"  # scripts/demo.sh: no window, the pictures
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def tail(text):
    lines = text.rstrip().split("\n")
    return "\n".join(lines[-TAIL_LINES:])


def block_at(group, line):
    """The block of `group` that holds page line `line`, else None."""
    for block in group.running():
        if block.line <= line < block.line + len(block.lines):
            return block
    return None


def run_script(group, scratch, env):
    """sh and python: one script whose lines are the page's. Returns None or an error."""
    script = scratch / (pathlib.Path(group.page).name + (".sh" if group.lang == "sh" else ".py"))
    text = snippet_pages.line_for_line(group.running())
    if group.lang == "sh":
        # Line 1 is never code (a fence precedes every block): the trap names the failing line.
        text = "trap 'echo \"snippet-runner: failed at line $LINENO (exit $?)\" >&2' ERR" + text[text.index("\n"):]
        command = ["bash", "-euo", "pipefail", script.name]
    else:
        command = ["/usr/bin/python3", script.name]
    script.write_text(text)
    # A block that builds (scripts/build.sh, cmake) would reconfigure the very tree under test.
    cache = scratch / "build" / "CMakeCache.txt"
    configured = cache.read_bytes() if cache.exists() else None
    try:
        done = subprocess.run(command, cwd=scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return f"{group.page}:{group.running()[0].line}: still running after {TIMEOUT_S} s"
    finally:
        changed = configured is not None and cache.read_bytes() != configured
        if changed:
            cache.write_bytes(configured)
    if changed:
        return f"{group.page}:{group.running()[0].line}: a block reconfigured the build tree under test (put back); skip what builds"
    if done.returncode == 0:
        return None
    out = done.stdout.replace(str(script), group.page).replace(f'"{script.name}"', f'"{group.page}"')
    line = failed_line(group, out)
    where = f"{group.page}:{line}" if line else f"{group.page}:{group.running()[0].line}"
    return f"{where}: exit {done.returncode}\n{tail(out)}"


def failed_line(group, out):
    """The page line an error names: the ERR trap's for bash, the last traceback line for
    Python (inside a block of this group)."""
    if group.lang == "sh":
        found = re.findall(r"snippet-runner: failed at line (\d+)", out)
    else:
        found = re.findall(r'File "' + re.escape(group.page) + r'", line (\d+)', out)
    for n in reversed(found):
        if block_at(group, int(n)):
            return int(n)
    return None


def report(group, error, seconds):
    """The result's lines: SKIP for each skipped block with its reason, then PASS or FAIL."""
    reasons = {}  # the skipped blocks' lines by reason, in order
    for b in group.skipped():
        reasons.setdefault(b.skip, []).append(str(b.line))
    lines = [f"SKIP  {group.page}:{','.join(at)} [{group.lang}]: {reason}" for reason, at in reasons.items()]
    running = len(group.running())
    if running == 0:
        return lines, "skip"
    if error is None:
        lines.append(f"PASS  {group.page} [{group.lang}]: {running} block{'s' if running > 1 else ''} in {seconds:.1f} s")
        return lines, "pass"
    lines.append(f"FAIL  {group.page} [{group.lang}]: {error.splitlines()[0]}")
    lines += ["      " + line for line in error.splitlines()[1:]]
    return lines, "fail"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--work", help="scratch folder (emptied first); default BUILD/docs-snippets")
    parser.add_argument("--jobs", type=int, default=max(2, os.cpu_count() or 2))
    parser.add_argument("--cxx-flags", default="")
    parser.add_argument("--linker-flags", default="")
    args = parser.parse_args(argv)
    work = pathlib.Path(args.work or pathlib.Path(args.build) / "docs-snippets").resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        groups = snippet_pages.groups_of(args.root)
    except snippet_pages.PageError as e:
        print(f"FAIL  {e}")
        return 1
    env = environment(args.build)
    started = time.monotonic()
    programs = [g for g in groups if g.lang in ("cpp", "c") and g.running()]
    built = snippet_programs.build_all(programs, args, work / "programs") if programs else {}

    def run(index, group):
        t0 = time.monotonic()
        if not group.running():
            return report(group, None, 0.0)
        scratch = scratch_copy(args.root, args.build, work / f"{index:03d}-{group.lang}")
        if group.lang in ("cpp", "c"):
            error = snippet_programs.run_program(group, built[id(group)], scratch, env, TIMEOUT_S)
        else:
            error = run_script(group, scratch, env)
        return report(group, error, time.monotonic() - t0)

    counts = {"pass": 0, "fail": 0, "skip": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda ig: run(*ig), enumerate(groups)))
    for lines, status in results:
        print("\n".join(lines), flush=True)
        counts[status] += 1
    skipped = sum(len(g.skipped()) for g in groups)
    print(f"snippets: {counts['pass']} passed, {counts['fail']} failed, {counts['skip']} all skipped "
          f"({skipped} blocks skipped) of {len(groups)} pages' languages in {time.monotonic() - started:.1f} s")
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
