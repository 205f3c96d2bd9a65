#!/usr/bin/env bash
# Compiles IsoterraTest.cs with Mono's C# compiler, runs it against libisoterra_c.so, and
# compares the values it wrote (their bits, in hex) with `isoterra sample` bit for bit. The
# points lie on a 1/1024 m grid, so that their decimals have at most 15 digits: Mono's
# double.Parse is off by an ulp on some 16- and 17-digit numbers (-1909.649274561477).
# Usage: run.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mcs -nologo -out:"$work/IsoterraTest.exe" "$here/IsoterraTest.cs"
/usr/bin/python3 - "$work/points.txt" <<'PY'
import random, sys
r = random.Random(9)
with open(sys.argv[1], "w") as f:
    for _ in range(500):
        x, y, z = (round(r.uniform(lo, hi) * 1024) / 1024 for lo, hi in ((-5000, 5000), (-100, 600), (-5000, 5000)))
        f.write(f"{x!r} {y!r} {z!r}\n")
    f.write("1000000.25 12.5 -2000000\n")
PY
LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" mono "$work/IsoterraTest.exe" "$work/points.txt" "$work/csharp.txt"
"$build/isoterra" sample --preset alpine --points "$work/points.txt" > "$work/program.txt"
/usr/bin/python3 - "$work/csharp.txt" "$work/program.txt" <<'PY'
import struct, sys
a = [struct.unpack(">d", bytes.fromhex(x))[0] for x in open(sys.argv[1]).read().split()]
b = [float(x) for x in open(sys.argv[2]).read().split()]
assert len(a) == len(b) == 501, (len(a), len(b))
bad = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
assert not bad, f"{len(bad)} values differ from isoterra sample, first at line {bad[0] + 1}: {a[bad[0]]!r} != {b[bad[0]]!r}"
print("C#: 501 values equal to isoterra sample, bit for bit")
PY
