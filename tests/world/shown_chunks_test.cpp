// The owner's side of a World: the triangles it draws, kept as updates come (a renderer
// asks every frame), against counts worked out by hand.
#include <gtest/gtest.h>

#include "isoterra/world.hpp"

using namespace isoterra;

namespace {

// A mesh of `triangles`, the last `edge` of them drawn only beside a neighbour of the same
// level across +x (none: no ranges, all drawn always).
MeshBuffers mesh_of(std::uint32_t triangles, std::uint32_t edge) {
    MeshBuffers m;
    m.indices.assign(3 * triangles, 0u);
    if (edge > 0)
        m.ranges = {{0, 3 * (triangles - edge), DrawCondition::always()},
                    {3 * (triangles - edge), 3 * edge, DrawCondition::side_is(side_pos_x, 0)}};
    return m;
}

}  // namespace

TEST(ShownChunks, triangles_drawn_follow_new_meshes_neighbours_visibility_and_drops) {
    ShownChunks shown(false);
    const ChunkCoord a{0, 0, 0, 0}, b{1, 0, 0, 0}, c{0, 0, 0, 1};
    Neighbourhood same, coarser_x;
    coarser_x.side[side_pos_x] = 1;
    const MeshBuffers ten = mesh_of(10, 4), five = mesh_of(5, 0), seven = mesh_of(7, 0), three = mesh_of(3, 0);
    shown.apply({a, 1, false, &ten, true, same});
    EXPECT_EQ(shown.triangles_drawn(), 10u);
    shown.apply({a, 1, false, nullptr, true, coarser_x});  // the +x edge gives way to a transition
    EXPECT_EQ(shown.triangles_drawn(), 6u);
    shown.apply({b, 1, false, &five, true, same});
    shown.apply({c, 1, false, &three, false, same});  // handed, not drawn
    EXPECT_EQ(shown.triangles_drawn(), 11u);
    shown.apply({a, 1, false, nullptr, false, coarser_x});
    EXPECT_EQ(shown.triangles_drawn(), 5u);
    shown.apply({b, 2, false, &seven, true, same});  // built again
    EXPECT_EQ(shown.triangles_drawn(), 7u);
    shown.apply({a, 1, false, nullptr, true, same});
    shown.apply({c, 1, false, nullptr, true, same});
    EXPECT_EQ(shown.triangles_drawn(), 20u);
    EXPECT_EQ(shown.triangles_per_level(), (std::vector<std::size_t>{17u, 3u}));
    shown.apply({b, 2, true, nullptr, false, {}});
    shown.apply({b, 2, true, nullptr, false, {}});  // a drop of what is gone changes nothing
    EXPECT_EQ(shown.triangles_drawn(), 13u);
    shown.apply({a, 1, true, nullptr, false, {}});
    shown.apply({c, 1, true, nullptr, false, {}});
    EXPECT_EQ(shown.triangles_drawn(), 0u);
}
