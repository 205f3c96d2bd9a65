"""Renders docs/design/benchmarks.md from bench/benchmarks.md.in (the prose: how to run each
benchmark and what it means) and bench/data/*.csv (the measured figures, one row each with
its CPU, date, command and commit where known): {{table:NAME}} becomes NAME.csv as tables,
one per command; {{plot:NAME}} an SVG plot made with matplotlib (deterministic: no date,
a fixed hash salt, text kept as text).
Usage: render_benchmarks.py DATA_DIR TEMPLATE DOCS_OUT_DIR"""
import csv
import os
import re
import sys

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402 (after the backend is chosen)

COLUMNS = ["benchmark", "variant", "value", "range", "unit", "peer", "peer_value", "ratio", "ratio_of", "runs", "cpu", "date",
           "commit", "command", "note"]


def read_rows(data_dir, name):
    path = os.path.join(data_dir, name + ".csv")
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            sys.exit(f"render_benchmarks: {path}: the columns must be {','.join(COLUMNS)}")
        rows = list(reader)
    for n, row in enumerate(rows, start=2):
        if not (row["value"] or row["range"]) or not row["command"]:
            sys.exit(f"render_benchmarks: {path}:{n}: a row needs a value or a range, and its command")
        for key in ("value", "ratio"):
            if row[key]:
                try:
                    float(row[key])
                except ValueError:
                    sys.exit(f"render_benchmarks: {path}:{n}: {key} '{row[key]}' is not a number")
    return rows


def cell(text):
    return text.replace("|", "\\|")


def row_cells(row):
    """The cells of a row: what, isoterra, against, ratio, runs, CPU, date, notes."""
    what = row["benchmark"] + (f", {row['variant']}" if row["variant"] else "")
    ours = row["value"] or row["range"]
    if row["value"] and row["range"]:
        ours += f" ({row['range']})"
    peer = row["peer"] + (f": {row['peer_value']} {row['unit']}" if row["peer_value"] else "")
    ratio = f"**{row['ratio']}x** ({row['ratio_of']})" if row["ratio"] else ""
    date = row["date"] + (f" ({row['commit']})" if row["commit"] else "")
    return [what, f"{ours} {row['unit']}", peer, ratio, row["runs"], row["cpu"], date, row["note"]]


HEADINGS = ["what", "isoterra", "against", "ratio", "runs", "CPU", "date", "notes"]


def table(rows):
    """One table per command, in the order the rows come; a column empty in every row of a
    table is left out."""
    groups = []
    for row in rows:
        if not groups or groups[-1][0] != row["command"]:
            groups.append((row["command"], []))
        groups[-1][1].append(row_cells(row))
    out = []
    for command, cells in groups:
        keep = [i for i in range(len(HEADINGS)) if any(c[i] for c in cells)]
        out += [f"`{cell(command)}`:", "", "| " + " | ".join(HEADINGS[i] for i in keep) + " |", "|" + "---|" * len(keep)]
        out += ["| " + " | ".join(cell(c[i]) for i in keep) + " |" for c in cells]
        out.append("")
    return "\n".join(out).rstrip("\n")


def setup():
    plt.rcParams.update({"svg.hashsalt": "isoterra", "svg.fonttype": "none", "font.size": 9, "font.family": "DejaVu Sans"})


def save(fig, out_dir, name):
    path = os.path.join(out_dir, "images", f"bench-{name}.svg")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": "bench/render_benchmarks.py"})
    plt.close(fig)
    return f"![{name}](../images/bench-{name}.svg)"


def plot_peers(data_dir, out_dir):
    """Each comparison's latest ratio (peers.csv, fast_flavour.csv), peer's time over ours, on a
    log scale: right of 1, isoterra is faster."""
    rows = read_rows(data_dir, "peers") + read_rows(data_dir, "fast_flavour")
    latest = {}
    for row in rows:
        if row["ratio"] and row["ratio_of"] == "peer / isoterra":
            key = (row["benchmark"], row["variant"], row["peer"], row["cpu"])
            if key not in latest or row["date"] >= latest[key]["date"]:
                latest[key] = row
    picked = list(latest.values())
    labels = [f"{r['benchmark']}{' ' + r['variant'] if r['variant'] else ''}\nvs {r['peer']}; {r['cpu']}, {r['date']}" for r in picked]
    ratios = [float(r["ratio"]) for r in picked]
    fig, ax = plt.subplots(figsize=(9, 0.42 * len(picked) + 1.0))
    y = list(range(len(picked)))[::-1]
    ax.barh(y, ratios, color=["#3b7dd8" if v >= 1 else "#d8843b" for v in ratios])
    ax.set_xscale("log")
    ticks = [0.2, 0.5, 1, 2, 5, 10, 20]
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t:g}x" for t in ticks])
    ax.minorticks_off()
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=6.5)
    for yy, v in zip(y, ratios):
        ax.text(v * 1.04, yy, f"{v:g}x", va="center", fontsize=6.5)
    ax.set_xlabel("peer's time / isoterra's (log scale; above 1: isoterra is faster)")
    fig.tight_layout()
    return save(fig, out_dir, "peers")


def plot_bake_levels(data_dir, out_dir):
    """BM_bake_tile's time a tile by level of detail (alpine)."""
    picked = [r for r in read_rows(data_dir, "bake") if r["benchmark"].startswith("BM_bake_tile") and r["value"]]
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.bar([r["variant"].replace("level ", "") for r in picked], [float(r["value"]) for r in picked], color="#3b7dd8")
    ax.set_xlabel("level of detail (0: 1 m samples, 32 m tiles)")
    ax.set_ylabel("ms a tile, one thread")
    ax.set_title(f"BM_bake_tile, alpine ({picked[0]['cpu']}, {picked[0]['date']})", fontsize=9)
    fig.tight_layout()
    return save(fig, out_dir, "bake-levels")


PLOTS = {"peers": plot_peers, "bake": plot_bake_levels}


def main():
    data_dir, template_path, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    setup()
    with open(template_path, encoding="utf-8") as f:
        template = f.read()

    def fill(m):
        kind, name = m.group(1), m.group(2)
        if kind == "table":
            return table(read_rows(data_dir, name))
        if name not in PLOTS:
            sys.exit(f"render_benchmarks: no plot for '{name}' (known: {', '.join(PLOTS)})")
        return PLOTS[name](data_dir, out_dir)

    page = re.sub(r"{{(table|plot):(\w+)}}", fill, template)
    path = os.path.join(out_dir, "design", "benchmarks.md")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(page.rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
