"""docs/reference/cli.md: `isoterra --help` and every subcommand's, found by walking the
help's own "Subcommands:" lists, so a new subcommand appears without an edit here.
Usage: cli_reference.py ISOTERRA OUT.md"""
import re
import subprocess
import sys

from mdtext import fence, generated_note, write_page


def help_text(binary, words):
    run = subprocess.run([binary, *words, "--help"], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"cli_reference: `isoterra {' '.join(words)} --help` exited {run.returncode}: {run.stderr.strip()}")
    return run.stdout


def subcommands(text):
    """The names in the help's subcommand list (CLI11: a "Subcommands:" heading, then one
    indented line a subcommand)."""
    names, inside = [], False
    for line in text.splitlines():
        if re.fullmatch(r"(?i)subcommands:", line.strip()):
            inside = True
        elif inside:
            m = re.match(r"^  (\S+)", line)
            if m:
                names.append(m.group(1))
            elif line.strip() and not line.startswith("   "):
                inside = False
    return names


def walk(binary, words, out):
    text = help_text(binary, words)
    out.append((words, text))
    for name in subcommands(text):
        walk(binary, words + [name], out)


def main():
    binary, out_path = sys.argv[1], sys.argv[2]
    pages = []
    walk(binary, [], pages)
    lines = [
        "# Command-line reference\n",
        generated_note("every `isoterra ... --help`"),
        "Every subcommand of `isoterra`, as its `--help` prints it. Each help ends with the guide "
        "that explains the command. Errors are one line on stderr; exit 2 for bad input, 1 for a failure.\n",
    ]
    for words, _ in pages[1:]:
        if len(words) == 1:
            lines.append(f"- [`isoterra {words[0]}`](#{'isoterra-' + words[0]})")
    lines.append("")
    # Every subcommand's help repeats the program's notes (CLI11 copies the footer): shown once, at the top.
    top = pages[0][1]
    notes = top[top.rfind("\n\n", 0, top.rfind("\n\nGuide:")) + 2:top.rfind("\n\nGuide:")]
    for words, text in pages:
        if words and notes:
            text = text.replace(notes + "\n\n", "")
        # The program's name as a user types it (CLI11 prints the path it was run by).
        text = re.sub(r"(?m)^Usage: \S*isoterra\b", "Usage: isoterra", text)
        title = " ".join(["isoterra", *words])
        lines.append(f"{'#' * min(2 + max(len(words) - 1, 0), 4)} {title}\n")
        lines.append(fence(text))
    write_page(out_path, "\n".join(lines))


if __name__ == "__main__":
    main()
