"""docs/reference/file-formats.md: templates/file-formats.md with its {{...}} filled from
files the built program writes in a scratch folder (a world file's schema, a heightmap's
sidecar, a tiny bake's settings and manifests), so the page shows what it writes today.
Usage: file_formats.py ISOTERRA SOURCE_DIR OUT.md"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

from mdtext import fence, generated_note, write_page

GRAPH = "tests/fuzz/corpus/graph/terraced_plateau.toml"


def run(binary, args, cwd):
    done = subprocess.run([binary, *args], cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"file_formats: `isoterra {' '.join(args)}` exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def shorten(value, width=60):
    value = value.replace("\n", "\\n")
    return value if len(value) <= width else value[:width] + "..."


def world_file(binary, work):
    run(binary, ["edit", "sphere", "--preset", "tutorial", "--world", "world.db", "--at", "0,0,0", "--radius", "4"], work)
    db = sqlite3.connect(os.path.join(work, "world.db"))
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        schema = [row[0] for row in db.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type DESC, name")]
        settings = db.execute("SELECT key, value FROM settings ORDER BY key").fetchall()
    finally:
        db.close()
    pragmas = fence(f"PRAGMA application_id = {app_id};  -- 0x{app_id:08x}, \"{app_id.to_bytes(4, 'big').decode()}\"\n"
                    f"PRAGMA user_version = {version};", "sql")
    rows = ["| key | value |", "|---|---|"] + [f"| `{k}` | `{shorten(str(v))}` |" for k, v in settings]
    return {"world_pragmas": pragmas, "world_schema": fence(";\n".join(schema) + ";", "sql"),
            "world_settings": "\n".join(rows) + "\n"}


def heightmap(binary, work):
    run(binary, ["heightmap", "--preset", "tutorial", "--from", "0,0", "--to", "64,32", "--step", "8", "-o", "ground.png"], work)
    with open(os.path.join(work, "ground.json"), encoding="utf-8") as f:
        return {"heightmap_sidecar": fence(f.read(), "json")}


def bake(binary, work):
    run(binary, ["bake", "--preset", "tutorial", "--from", "0,0", "--to", "32,32", "--levels", "2", "--job-levels", "1",
                 "--out", "bake", "--quiet", "--threads", "1"], work)
    root = os.path.join(work, "bake")
    files = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, names in os.walk(root) for f in names)
    manifests = [f for f in files if f.startswith("jobs/")]
    with open(os.path.join(root, "bake.json"), encoding="utf-8") as f:
        settings = f.read()
    with open(os.path.join(root, manifests[-1]), encoding="utf-8") as f:
        manifest = f.read()
    json.loads(manifest)  # the page shows JSON: a manifest that is not is a failure here
    return {"bake_files": fence("\n".join(files)), "bake_json": fence(settings, "json"),
            "bake_manifest_path": manifests[-1], "bake_manifest": fence(manifest, "json")}


def main():
    binary, source_dir, out_path = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "templates", "file-formats.md"), encoding="utf-8") as f:
        template = f.read()
    with open(os.path.join(source_dir, GRAPH), encoding="utf-8") as f:
        values = {"graph_example": fence(f.read(), "toml")}
    with tempfile.TemporaryDirectory() as work:
        with open(os.path.join(work, "plateau.toml"), "w", encoding="utf-8") as f:
            f.write(open(os.path.join(source_dir, GRAPH), encoding="utf-8").read())
        values["graph_check"] = fence(run(binary, ["graph", "check", "plateau.toml"], work))
        values.update(world_file(binary, work))
        values.update(heightmap(binary, work))
        values.update(bake(binary, work))
    values["generated_note"] = generated_note("tools/docs/templates/file-formats.md and files the program wrote")
    missing = set(re.findall(r"{{(\w+)}}", template)) - set(values)
    if missing:
        sys.exit(f"file_formats: the template names {sorted(missing)}, which nothing fills")
    write_page(out_path, re.sub(r"{{(\w+)}}", lambda m: values[m.group(1)].rstrip("\n"), template))


if __name__ == "__main__":
    main()
