// A preset as a graph: the terrain function of nodes/terrain/function.cpp written node for node, in the
// order of its operations, so the graph gives the same bits on both paths (point and
// lattice). Warp and caves appear only when the preset has them.
#include <fmt/format.h>

#include "field/compile/toml_files.hpp"
#include "isoterra/graph.hpp"

namespace isoterra {
namespace {

// The shortest text that reads back to the same double, always as a TOML float.
std::string num(double v) {
    std::string s = fmt::format("{}", v);
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}

std::string fbm(const FbmShape& f) {
    return fmt::format("octaves = {}, lacunarity = {}, gain = {}, amplitude = {}", f.octaves, num(f.lacunarity), num(f.gain),
                       num(f.amplitude));
}

}  // namespace

std::string knob_terrain_to_graph(const KnobTerrain& preset) {
    const TerrainParams& t = preset.terrain;
    std::string out =
        fmt::format("# The '{}' preset as a field graph (isoterra graph export): the same terrain, bit for bit.\n", preset.name);
    out += fmt::format("format = 1\nname = {}\ndescription = {}\nseed = {}\n\n[node]\n", detail::toml_quote(preset.name),
                       detail::toml_quote(preset.description), preset.seed);
    const auto node = [&](const std::string& id, const std::string& body) { out += fmt::format("{} = {{ {} }}\n", id, body); };
    // The ground height of a column: hills plus ridged mountains, from the (warped) x and z.
    std::string at;
    if (t.warp_distance_m > 0.0) {
        node("warped", fmt::format("type = \"warp2\", scale_m = {}, distance_m = {}", num(t.warp_scale_m), num(t.warp_distance_m)));
        at = ", x = \"warped.x\", z = \"warped.z\"";
    }
    node("mountain_noise", fmt::format("type = \"simplex2\", scale_m = {}, offset = [40.0, -70.0]{}", num(t.mountain_scale_m), at));
    node("mountain",
         fmt::format("type = \"smoothstep\", in = \"mountain_noise\", from = {}, to = {}", num(t.mountain_from), num(t.mountain_to)));
    node("hill_noise", fmt::format("type = \"fbm2\", scale_m = {}, {}{}", num(t.hill_scale_m), fbm(t.hill_fbm), at));
    if (t.reshape) {
        // ((n + 1) / 2 * fudge) ^ exponent * multiplier
        node("hill_up", "type = \"add\", a = \"hill_noise\", b = 1.0");
        node("hill_half", "type = \"mul\", a = \"hill_up\", b = 0.5");
        node("hill_fudged", fmt::format("type = \"mul\", a = \"hill_half\", b = {}", num(t.reshape_fudge)));
        node("hill_shaped", fmt::format("type = \"pow\", in = \"hill_fudged\", exponent = {}", num(t.reshape_exponent)));
        node("hills", fmt::format("type = \"mul\", a = \"hill_shaped\", b = {}", num(t.reshape_multiplier_m)));
    } else {
        node("hills", fmt::format("type = \"mul\", a = \"hill_noise\", b = {}", num(t.hill_height_m)));
    }
    node("ridge_noise",
         fmt::format("type = \"fbm2\", scale_m = {}, offset = [-20.0, 90.0], {}{}", num(t.ridge_scale_m), fbm(t.ridge_fbm), at));
    node("ridge", fmt::format("type = \"ridge_profile\", in = \"ridge_noise\", sharpness = {}, crest = {}, exponent = {}",
                              num(t.ridge_sharpness), num(t.ridge_crest), num(t.ridge_exponent)));
    node("ridge_weight", "type = \"mul\", a = \"mountain\", b = \"ridge\"");
    node("ridge_height", fmt::format("type = \"mul\", a = \"ridge_weight\", b = {}", num(t.ridge_height_m)));
    node("base_and_hills", fmt::format("type = \"add\", a = {}, b = \"hills\"", num(t.base_height_m)));
    node("ground", "type = \"add\", a = \"base_and_hills\", b = \"ridge_height\"");
    // Overhangs: the ground bent by 3D noise, more in the mountains.
    node("up", "type = \"y\"");
    node("depth", "type = \"sub\", a = \"ground\", b = \"up\"");
    node("bend_noise", fmt::format("type = \"simplex3\", scale_m = {}, vertical_scale_m = {}", num(t.overhang_scale_m),
                                   num(t.overhang_vertical_scale_m)));
    node("bend", fmt::format("type = \"lerp\", a = {}, b = {}, t = \"mountain\"", num(t.overhang_plains_m), num(t.overhang_mountains_m)));
    node("push", "type = \"mul\", a = \"bend_noise\", b = \"bend\"");
    node("rock", "type = \"add\", a = \"depth\", b = \"push\"");
    std::string solid = "rock";
    if (t.caves) {
        // Tunnels where two noises are both near 0, narrowing towards the surface.
        const std::string cave_noise =
            fmt::format("type = \"simplex3\", scale_m = {}, vertical_scale_m = {}", num(t.cave_scale_m), num(t.cave_vertical_scale_m));
        node("cave_a", cave_noise);
        node("cave_b", cave_noise + ", offset = [43.7, -11.3, 7.9]");
        node("tunnel", "type = \"hypot\", a = \"cave_a\", b = \"cave_b\"");
        node("tunnel_width", fmt::format("type = \"sub\", a = \"tunnel\", b = {}", num(t.cave_width)));
        node("tunnel_m", fmt::format("type = \"mul\", a = \"tunnel_width\", b = {}", num(t.cave_metres_per_unit)));
        node("entrance_depth", fmt::format("type = \"sub\", a = {}, b = \"rock\"", num(t.cave_entrance_depth_m)));
        node("entrance", "type = \"max\", a = \"entrance_depth\", b = 0.0");
        node("narrowing", fmt::format("type = \"mul\", a = \"entrance\", b = {}", num(t.cave_entrance_narrowing)));
        node("cave", "type = \"add\", a = \"tunnel_m\", b = \"narrowing\"");
        if (t.cave_blend_m > 0.0)
            node("solid", fmt::format("type = \"smooth_union\", a = \"rock\", b = \"cave\", k = {}", num(t.cave_blend_m)));
        else node("solid", "type = \"min\", a = \"rock\", b = \"cave\"");
        solid = "solid";
    }
    // The field is minus the density, shifted so the surface is 0.
    node("air", fmt::format("type = \"neg\", in = \"{}\"", solid));
    node("field", fmt::format("type = \"sub\", a = \"air\", b = {}", num(t.iso_level)));
    out += "\n[output]\nsdf = \"field\"\nground = \"ground\"\n\n[material]\n";
    const MaterialRules& m = t.materials;
    out += fmt::format(
        "rock_slope_deg = {}\nslope_blend_deg = {}\nsnow_line_m = {}\nsnow_blend_m = {}\nsnow_max_slope_deg = {}\n"
        "soil_depth_m = {}\nsurface_reach_m = {}\n",
        num(m.rock_slope_deg), num(m.slope_blend_deg), num(m.snow_line_m), num(m.snow_blend_m), num(m.snow_max_slope_deg),
        num(m.soil_depth_m), num(std::max(t.overhang_plains_m, t.overhang_mountains_m)));
    return out;
}

}  // namespace isoterra
