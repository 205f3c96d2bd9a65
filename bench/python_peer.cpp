// The C++ side of bench/python_vs_cpp.py: the same work as the Python module's calls, done
// here with the library directly, in one warm process that takes one job a line on stdin:
//   lattice X Y Z N          sample an N^3 lattice of 1 m from (X, Y, Z)
//   region X0 Y0 Z0 X1 Y1 Z1 mesh the chunks covering the box (marching cubes, every core)
// and answers each with "SECONDS CHECK" (CHECK: samples or triangles). Usage:
// isoterra_python_peer PRESET
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/world.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: isoterra_python_peer PRESET (jobs on stdin)\n");
        return 2;
    }
    const auto field = isoterra::find_terrain(argv[1]).make_field();
    const int threads = isoterra::default_threads();
    std::vector<float> values;
    for (std::string line; std::getline(std::cin, line);) {
        std::istringstream job(line);
        std::string what;
        job >> what;
        const auto start = std::chrono::steady_clock::now();
        std::size_t check = 0;
        if (what == "lattice") {
            double x, y, z;
            int n;
            job >> x >> y >> z >> n;
            const isoterra::Lattice lattice{
                {static_cast<std::int64_t>(x), static_cast<std::int64_t>(y), static_cast<std::int64_t>(z)}, {n, n, n}, 1.0};
            values.resize(lattice.count());  // kept between jobs, as the Python side keeps its array
            field->sample_lattice(lattice, values.data());
            check = values.size();
        } else if (what == "region") {
            glm::dvec3 lo, hi;
            job >> lo.x >> lo.y >> lo.z >> hi.x >> hi.y >> hi.z;
            const auto chunks = isoterra::chunks_covering(lo, hi);
            check = isoterra::merge_meshes(isoterra::mesh_chunks(*field, nullptr, chunks, isoterra::Mesher::marching_cubes, threads))
                        .triangle_count();
        } else {
            std::fprintf(stderr, "isoterra_python_peer: unknown job '%s'\n", what.c_str());
            return 2;
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("%.6f %zu\n", s, check);
        std::fflush(stdout);
    }
    return 0;
}
