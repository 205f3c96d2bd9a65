"""The Python module against the same work in C++ (bench/python_peer.cpp, one warm process
taking jobs on a pipe), alternated job by job in one run: sampling a 256^3 lattice of 1 m
and meshing the 3 x 3 x 3 chunks around the ground at the origin. Prints the medians and
their ratio (Python / C++). Usage, after the build, with Debian's python3:
    PYTHONPATH=build/python /usr/bin/python3 bench/python_vs_cpp.py [PRESET] [ROUNDS]"""
import math
import statistics
import subprocess
import sys
import time

import numpy as np

import isoterra

preset = sys.argv[1] if len(sys.argv) > 1 else "alpine"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 15
field = isoterra.Field.preset(preset)
ground = field.ground(np.array([[48.0, 48.0]]))[0]
base = 32.0 * math.floor(ground / 32.0) - 32.0  # three chunk layers around the ground
lattice_origin = (-128.0, base - 96.0, -128.0)
lo, hi = (0.0, base, 0.0), (96.0, base + 96.0, 96.0)
values = np.empty((256, 256, 256), dtype=np.float32)  # kept, as the peer keeps its vector
jobs = {
    "lattice": ("lattice {:.0f} {:.0f} {:.0f} 256".format(*lattice_origin),
                lambda: field.lattice(lattice_origin, (256, 256, 256), 1.0, out=values).size),
    "region": ("region {} {} {} {} {} {}".format(*lo, *hi), lambda: len(isoterra.mesh(field, lo, hi).faces)),
}
peer = subprocess.Popen(["build/isoterra_python_peer", preset], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def cpp_once(line):
    peer.stdin.write(line + "\n")
    peer.stdin.flush()
    seconds, check = peer.stdout.readline().split()
    return float(seconds), int(check)


def python_once(call):
    start = time.perf_counter()
    check = call()
    return time.perf_counter() - start, check


for what, (line, call) in jobs.items():
    cpp_once(line), python_once(call)  # both warm
    py, cpp = [], []
    for _ in range(rounds):
        t_cpp, check_cpp = cpp_once(line)
        t_py, check_py = python_once(call)
        assert check_cpp == check_py, (what, check_cpp, check_py)
        cpp.append(t_cpp)
        py.append(t_py)
    p, c = statistics.median(py), statistics.median(cpp)
    print(f"{what:8s} {preset:9s}: python {p * 1000:8.2f} ms   c++ {c * 1000:8.2f} ms   ratio {p / c:.3f}   "
          f"({rounds} rounds, medians; {check_py} {'samples' if what == 'lattice' else 'triangles'})")
peer.stdin.close()
peer.wait()
