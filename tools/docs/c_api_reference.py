"""docs/reference/c-api.md: include/isoterra/isoterra.h's functions, types and their
comments, through Doxygen's XML (c_header_filter.py reads the plain comments as docs),
grouped by the header's "/* ---- NAME ---- */" sections.
Usage: c_api_reference.py SOURCE_DIR OUT.md"""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from mdtext import escape, fence, generated_note, write_page

HEADER = "include/isoterra/isoterra.h"


def doxygen_xml(source_dir, work):
    here = os.path.dirname(os.path.abspath(__file__))
    config = "\n".join([
        f"INPUT = {os.path.join(source_dir, HEADER)}",
        f"OUTPUT_DIRECTORY = {work}",
        "GENERATE_XML = YES", "GENERATE_HTML = NO", "GENERATE_LATEX = NO", "XML_PROGRAMLISTING = NO",
        f'INPUT_FILTER = "/usr/bin/python3 {os.path.join(here, "c_header_filter.py")}"',
        "EXTRACT_ALL = YES", "OPTIMIZE_OUTPUT_FOR_C = YES", "ENABLE_PREPROCESSING = YES",
        "MACRO_EXPANSION = YES", "EXPAND_ONLY_PREDEF = YES", "PREDEFINED = ISOTERRA_API= __cplusplus=0",
        "QUIET = YES", "WARNINGS = NO", "WARN_IF_UNDOCUMENTED = NO", "AUTOLINK_SUPPORT = NO",
        "MARKDOWN_SUPPORT = YES", "TYPEDEF_HIDES_STRUCT = NO", "SHOW_INCLUDE_FILES = NO",
    ])
    run = subprocess.run(["doxygen", "-"], input=config, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"c_api_reference: doxygen failed: {run.stderr.strip()}")
    return os.path.join(work, "xml")


def text_of(node):
    """A Doxygen description element as Markdown: paragraphs, `code`, lists."""
    if node is None:
        return ""
    out = []

    def inline(el):
        parts = [el.text or ""]
        for child in el:
            if child.tag == "computeroutput":
                parts.append("`" + "".join(child.itertext()) + "`")
            elif child.tag in ("itemizedlist", "orderedlist"):
                parts.append("\n\n" + "\n".join("- " + " ".join(inline(p).strip() for p in li.findall("para"))
                                                   for li in child.findall("listitem")) + "\n\n")
            elif child.tag == "sp":
                parts.append(" ")
            elif child.tag in ("ndash", "mdash"):  # Doxygen's reading of "--" and "---"
                parts.append("--" if child.tag == "ndash" else "---")
            else:
                parts.append(inline(child))
            parts.append(child.tail or "")
        return "".join(parts)

    for para in node.findall("para"):
        out.append(escape(re.sub(r"[ \t]+", " ", inline(para)).strip()))
    return "\n\n".join(p for p in out if p)


def sections(source_dir):
    """(first line, name) of each "/* ---- NAME ---- */" marker in the header."""
    found = []
    with open(os.path.join(source_dir, HEADER), encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            m = re.match(r"^/\* -{2,} (.*?) -+ \*/$", line.rstrip())
            if m:
                found.append((n, m.group(1)))
    return found


def struct_fields(xml_dir, refid):
    root = ET.parse(os.path.join(xml_dir, refid + ".xml")).getroot()
    rows = ["| field | type | what |", "|---|---|---|"]
    for m in root.iter("memberdef"):
        if m.get("kind") != "variable":
            continue
        doc = " ".join(filter(None, [text_of(m.find("briefdescription")), text_of(m.find("detaileddescription"))]))
        kind = "".join(m.find("type").itertext()).strip() + "".join(m.find("argsstring").itertext() if m.find("argsstring") is not None else "")
        rows.append(f"| `{m.findtext('name')}` | `{kind}` | {doc.replace('|', '&#124;')} |")
    return "\n".join(rows) + "\n"


def entries(xml_dir):
    """Every documented thing of the header: (line, kind, name, declaration, doc, refid)."""
    root = ET.parse(os.path.join(xml_dir, "isoterra_8h.xml")).getroot()
    compound = root.find("compounddef")
    items = []
    for m in compound.iter("memberdef"):
        kind, name = m.get("kind"), m.findtext("name")
        if kind == "define" and name in ("ISOTERRA_API", "ISOTERRA_ISOTERRA_H"):
            continue
        line = int(m.find("location").get("line"))
        doc = "\n\n".join(filter(None, [text_of(m.find("briefdescription")), text_of(m.find("detaileddescription"))]))
        if kind == "function":
            decl = "".join(m.find("definition").itertext()) + "".join(m.find("argsstring").itertext()) + ";"
        elif kind == "define":
            decl = f"#define {name} {''.join(m.find('initializer').itertext()) if m.find('initializer') is not None else ''}".rstrip()
        elif kind == "typedef":
            decl, args = "".join(m.find("definition").itertext()), "".join(m.find("argsstring").itertext())
            if "(" in decl:  # a function pointer: Doxygen's definition holds the arguments, one ")" too many
                args = ""
                while decl.count(")") > decl.count("("):
                    decl = decl[:-1]
            decl = decl + args + ";"
        else:
            continue
        items.append((line, kind, name, re.sub(r"\s+", " ", decl).replace("( ", "(").strip(), doc, None))
    for inner in compound.findall("innerclass"):
        sub = ET.parse(os.path.join(xml_dir, inner.get("refid") + ".xml")).getroot().find("compounddef")
        line = int(sub.find("location").get("line"))
        doc = "\n\n".join(filter(None, [text_of(sub.find("briefdescription")), text_of(sub.find("detaileddescription"))]))
        items.append((line, "struct", sub.findtext("compoundname"), f"struct {sub.findtext('compoundname')}", doc, inner.get("refid")))
    # A typedef of a struct defined in place ("typedef struct x {...} x;") is the struct's line.
    structs = {i[2] for i in items if i[1] == "struct"}
    items = [i for i in items if not (i[1] == "typedef" and i[2] in structs)]
    return sorted(items), text_of(compound.find("detaileddescription"))


def main():
    source_dir, out_path = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as work:
        xml_dir = doxygen_xml(source_dir, work)
        items, intro = entries(xml_dir)
        marks = sections(source_dir)
        lines = ["# C API reference\n", generated_note("include/isoterra/isoterra.h (Doxygen XML)"),
                 "`#include <isoterra/isoterra.h>` and link `libisoterra_c.so` (`-lisoterra_c`; the target `isoterra_c` "
                 "in this project's CMake build). "
                 "The guide: [C and C#](../guides/c-and-csharp.md).\n", intro + "\n"]
        current = None
        for line, kind, name, decl, doc, refid in items:
            group = next((g for n, g in reversed(marks) if n < line), "The library")
            if group != current:
                lines.append(f"## {group[0].upper() + group[1:]}\n")
                current = group
            lines.append(f"### {name}\n")
            lines.append(fence(decl, "c", skip="a declaration of isoterra.h, not a program"))
            if doc:
                lines.append(doc + "\n")
            if kind == "struct":
                lines.append(struct_fields(xml_dir, refid))
        write_page(out_path, "\n".join(lines))


if __name__ == "__main__":
    main()
