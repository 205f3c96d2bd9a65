// The meshers in one table: a new mesher is its own file and one row here; the program, the
// viewer, the page, --help, world settings and bakes read their names, paddings and meshing
// functions from it.
#include <stdexcept>

#include "isoterra/mesh.hpp"

namespace isoterra {

namespace {

void marching_cubes_row(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out,
                        unsigned transition_sides) {
    mesh_marching_cubes(s, rules, scratch, out, transition_sides);
}

// Surface nets and blocks meet other levels by their own seams, not by transition strips.
void surface_nets_row(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out, unsigned) {
    mesh_surface_nets(s, rules, scratch, out);
}

void blocks_row(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out, unsigned) {
    mesh_blocks(s, rules, scratch, out);
}

}  // namespace

const std::vector<MesherInfo>& meshers() {
    // Paddings: two samples each side for the smooth meshers, because the chunk one level
    // coarser takes its gradients over its own spacing, and a finer chunk builds that
    // neighbour's vertices (normals included) from its even samples, up to two of its steps
    // beyond its faces. Surface nets' simplification stays off: their seams reach further in
    // than a cell and opened there.
    static const std::vector<MesherInfo> table{
        // (Transvoxel's strips read the faces' samples alone; surface nets' seams two steps in.)
        {Mesher::marching_cubes, "marching-cubes", "marching cubes", {2, 2}, true, 0, marching_cubes_row},
        {Mesher::surface_nets, "surface-nets", "surface nets", {2, 2}, false, 2, surface_nets_row},
        // Blocks: faces towards the samples at -1 and 32; skirts between levels.
        {Mesher::blocks, "blocks", "blocks", {1, 0}, false, 0, blocks_row},
    };
    return table;
}

const MesherInfo& mesher_info(Mesher m) {
    for (const MesherInfo& info : meshers())
        if (info.id == m) return info;
    throw std::invalid_argument("mesher_info: a Mesher value with no row in the registry");
}

std::size_t mesher_index(Mesher m) { return static_cast<std::size_t>(&mesher_info(m) - meshers().data()); }

Mesher next_mesher(Mesher m) { return meshers()[(mesher_index(m) + 1) % meshers().size()].id; }

std::string mesher_names(const std::string& separator) {
    std::string names;
    for (const MesherInfo& info : meshers()) names += (names.empty() ? "" : separator) + info.name;
    return names;
}

const char* mesher_name(Mesher m) { return mesher_info(m).name; }

bool parse_mesher(const std::string& name, Mesher& out) {
    for (const MesherInfo& info : meshers())
        if (name == info.name) {
            out = info.id;
            return true;
        }
    return false;
}

Padding mesher_padding(Mesher m) { return mesher_info(m).padding; }

void mesh_chunk(Mesher mesher, const ChunkSamples& samples, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out,
                unsigned transition_sides) {
    mesher_info(mesher).mesh(samples, rules, scratch, out, transition_sides);
}

}  // namespace isoterra
