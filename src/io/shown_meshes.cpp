// What a World shows, as the entries of an export: the same entries, and so the same bytes,
// from `isoterra mesh --around` and from the web page's export.
#include <fmt/format.h>

#include "isoterra/io.hpp"

namespace isoterra {

std::vector<NamedMesh> shown_meshes(const ShownChunks& shown, bool per_chunk) {
    std::vector<NamedMesh> out;
    if (!per_chunk) out.push_back({"terrain", {}});
    for (auto& [c, m] : shown.drawn()) {
        if (per_chunk) out.push_back({fmt::format("chunk_L{}_{}_{}_{}", c.lod, c.x, c.y, c.z), std::move(m)});
        else out.front().mesh.append(m);
    }
    NamedMesh water{"water", {}, true};
    for (const auto& [c, m] : shown.drawn_water()) water.mesh.append(m);
    if (water.mesh.triangle_count() > 0) out.push_back(std::move(water));
    return out;
}

}  // namespace isoterra
