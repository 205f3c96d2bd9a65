"""docs/reference/nodes.md: every node type of field graphs, from `isoterra graph types
--json` (the node table the compiler reads).
Usage: nodes_reference.py ISOTERRA OUT.md"""
import json
import subprocess
import sys

from mdtext import escape, generated_note, write_page


def number(v):
    return "" if v is None else f"{v:g}"


def value_range(i):
    if "min" not in i or (i["min"] is None and i["max"] is None):
        return ""
    lo = "-inf" if i["min"] is None else number(i["min"])
    hi = "inf" if i["max"] is None else number(i["max"])
    return f"{'(' if i['min_open'] or i['min'] is None else '['}{lo}, {hi}{')' if i['max_open'] or i['max'] is None else ']'}"


def input_rows(inputs):
    rows = ["| input | what | takes | required | default | range | unit |", "|---|---|---|---|---|---|---|"]
    for i in inputs:
        rows.append(f"| `{i['name']}` | {escape(i['doc'])} | {escape(i['kind'])} | {'yes' if i['required'] else 'no'} | "
                    f"{number(i['default'])} | {value_range(i)} | {i['unit']} |")
    return "\n".join(rows) + "\n"


def main():
    binary, out_path = sys.argv[1], sys.argv[2]
    run = subprocess.run([binary, "graph", "types", "--json"], capture_output=True, text=True, check=True)
    table = json.loads(run.stdout)
    lines = [
        "# Node types\n",
        generated_note("`isoterra graph types --json`"),
        "Every node type a field graph may use, in the order of the node table. A graph file "
        "names each node's `type` and sets its inputs (see [the graph format](file-formats.md#field-graphs-toml) "
        "and the [guide](../guides/field-graphs.md)). An input that takes a node takes a node's id "
        "(`\"hills\"`, or `\"warp.x\"` for one output of several) or a number. A range in brackets "
        "includes its end, in parentheses leaves it out. Unit m: metres.\n",
        "## Keys any node takes\n",
    ]
    lines += [escape(line) + "\n" for line in table["keys_any_node_takes"].splitlines() if line.strip()]
    for t in table["node_types"]:
        lines.append(f"## {t['name']}\n")
        first = t["formula"].split(" ")[0]
        formula = t["formula"] if first.lower() != first else t["formula"][:1].upper() + t["formula"][1:]  # fBm stays
        lines.append(escape(formula) + ("\n" if formula.endswith(".") else ".\n"))
        if t["outputs"]:
            outs = ", ".join(f"`ID.{o}`" for o in t["outputs"])
            lines.append(f"Outputs: {outs}.\n")
        if t["inputs"]:
            lines.append(input_rows(t["inputs"]))
        else:
            lines.append("No inputs.\n")
    write_page(out_path, "\n".join(lines))


if __name__ == "__main__":
    main()
