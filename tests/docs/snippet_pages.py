"""The snippets of the documentation, under docs/ layout's rules ("Snippets that run"): which
fenced blocks of which pages run, which are skipped and why, and each page's blocks of one
language put together as one script or one program whose lines point back at the page.

A block runs when its fence is tagged exactly sh or bash (README.md and
docs/getting-started/*.md only), or cpp, c or python (every page). The line directly before
its opening fence may say `<!-- snippet: skip (REASON) -->`.
"""
import dataclasses
import pathlib
import re

SHELL_TAGS = {"sh": "sh", "bash": "sh"}
PROGRAM_TAGS = {"cpp": "cpp", "c": "c", "python": "python"}
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*)$")
SKIP = re.compile(r"^<!--\s*snippet:\s*skip\s*\((?P<reason>.+)\)\s*-->$")
MARKER = re.compile(r"^<!--\s*snippet\b")


@dataclasses.dataclass
class Block:
    page: str           # relative to the root, e.g. docs/guides/python.md
    lang: str           # sh, cpp, c or python (bash is sh)
    line: int           # the first line of its code (1-based)
    lines: list         # its code, the fence's indentation removed
    skip: str = None    # the reason, when skipped


@dataclasses.dataclass
class Group:
    """A page's blocks of one language, in order."""
    page: str
    lang: str
    blocks: list

    def running(self):
        return [b for b in self.blocks if b.skip is None]

    def skipped(self):
        return [b for b in self.blocks if b.skip is not None]


class PageError(Exception):
    """A page the rules cannot read: an unclosed fence, a skip marker without a reason."""


def runs_shell(page):
    return page == "README.md" or re.fullmatch(r"docs/getting-started/[^/]+\.md", page) is not None


def blocks_of(page, text):
    """Every fenced block of `text` that runs or is skipped, in order."""
    found, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            if MARKER.match(lines[i].strip()) and not SKIP.match(lines[i].strip()):
                raise PageError(f"{page}:{i + 1}: a snippet marker must read <!-- snippet: skip (REASON) -->")
            i += 1
            continue
        indent, fence, tag = len(m["indent"]), m["fence"], m["info"].strip().split(" ")[0]
        end = i + 1
        while end < len(lines) and not re.fullmatch(r"\s*" + re.escape(fence[0]) + "{%d,}\\s*" % len(fence), lines[end]):
            end += 1
        if end == len(lines):
            raise PageError(f"{page}:{i + 1}: the fence opened here is never closed")
        lang = PROGRAM_TAGS.get(tag) or (SHELL_TAGS.get(tag) if runs_shell(page) else None)
        if lang:
            before = lines[i - 1].strip() if i > 0 else ""
            skip = SKIP.match(before)
            code = [line[indent:] if line[:indent].strip() == "" else line.lstrip() for line in lines[i + 1:end]]
            found.append(Block(page, lang, i + 2, code, skip["reason"].strip() if skip else None))
        i = end + 1
    return found


def pages_of(root):
    """README.md and docs/**/*.md under `root`, as paths relative to it, sorted."""
    root = pathlib.Path(root)
    pages = [p for p in [root / "README.md"] if p.is_file()]
    pages += sorted((root / "docs").rglob("*.md")) if (root / "docs").is_dir() else []
    return [p.relative_to(root).as_posix() for p in pages]


def groups_of(root):
    """The groups of every page under `root`, page by page, languages in the order met."""
    groups = []
    for page in pages_of(root):
        by_lang = {}
        for block in blocks_of(page, (pathlib.Path(root) / page).read_text(encoding="utf-8")):
            by_lang.setdefault(block.lang, []).append(block)
        groups += [Group(page, lang, blocks) for lang, blocks in by_lang.items()]
    return groups


def line_for_line(blocks):
    """A script whose line N is line N of the page (blank between the blocks), so that an
    error's line number is the page's: for bash and python."""
    out = []
    for block in blocks:
        out += [""] * (block.line - 1 - len(out))
        out += block.lines
    return "\n".join(out) + "\n"


def program(blocks):
    """One C or C++ source from the blocks, each line under a #line naming the page. Without a
    main( of its own, the #include lines go to the top and the rest inside main()."""
    has_main = any(re.search(r"\bmain\s*\(", line) for b in blocks for line in b.lines)
    head, body = [], []
    for block in blocks:
        for n, line in enumerate(block.lines):
            hoisted = not has_main and line.lstrip().startswith("#include")
            (head if hoisted else body).append((block.page, block.line + n, line))
    text = [f'#line {n} "{page}"\n{line}' for page, n, line in head]
    if has_main:
        return "\n".join(text + [f'#line {n} "{page}"\n{line}' for page, n, line in body]) + "\n"
    text.append("int main() {")
    text += [f'#line {n} "{page}"\n{line}' for page, n, line in body]
    text.append("return 0;\n}")
    return "\n".join(text) + "\n"
