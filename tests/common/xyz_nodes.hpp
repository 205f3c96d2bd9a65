// The [node] lines of a graph's three coordinate nodes, px, py and pz, for tests that build
// small graphs over them.
#pragma once

namespace isoterra::test {

inline constexpr const char* kXYZ = "px = { type = \"x\" }\npy = { type = \"y\" }\npz = { type = \"z\" }\n";

}  // namespace isoterra::test
