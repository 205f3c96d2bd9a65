// The viewer's panel: figures and controls, drawn with Dear ImGui each frame.
#include "view_panel.hpp"

#include <cmath>

#include <fmt/format.h>
#include <imgui.h>

namespace isoterra::app {

ViewPanel::ViewPanel(const Session& session)
    : names_(builtin_terrain_names()), seed_(static_cast<int>(session.terrain().seed)), radius_(session.settings().view_radius),
      view_distance_(static_cast<float>(session.settings().view_distance_m)) {
    for (std::size_t i = 0; i < names_.size(); ++i)
        if (names_[i] == session.terrain().name) preset_index_ = static_cast<int>(i);
}

namespace {

std::string seconds_or_filling(double s) { return s < 0.0 ? "filling" : fmt::format("{:.2f} s", s); }

void figures(const Session& session, const FlyCamera& camera, double fps, double upload_ms, double speed) {
    const WorldCounts c = session.world()->counts();
    ImGui::Text("%zu chunks loaded, %zu waiting; %.2f M triangles shown, %g chunks a ring%s", c.loaded, c.waiting,
                session.shown().triangles_drawn() / 1e6, c.ring, c.ring_chosen ? "" : " (measuring)");
    const std::vector<std::size_t> chunks = session.shown().visible_per_level(), triangles = session.shown().triangles_per_level();
    for (std::size_t l = 0; l < chunks.size(); ++l)
        if (chunks[l] > 0)
            ImGui::Text("  level %zu (%g m): %4zu chunks, %7zu triangles", l, std::ldexp(1.0, static_cast<int>(l)), chunks[l],
                        triangles[l]);
    const SessionTimes t = session.times();
    ImGui::Text("first picture %s, first view %s", seconds_or_filling(t.first_picture_s).c_str(),
                seconds_or_filling(t.first_view_s).c_str());
    ImGui::Text("%.0f fps, upload %.2f ms/frame", fps, upload_ms);
    ImGui::Text("x %.0f  y %.0f  z %.0f  speed %.0f m/s", camera.position.x, camera.position.y, camera.position.z, speed);
}

}  // namespace

void ViewPanel::draw(Session& session, const FlyCamera& camera, double fps, double upload_ms, double speed, std::string& status) {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::Begin("isoterra");
    figures(session, camera, fps, upload_ms, speed);
    std::vector<const char*> items;
    for (const auto& n : names_) items.push_back(n.c_str());
    // A world file keeps its own preset and seed.
    ImGui::BeginDisabled(session.file() != nullptr);
    bool new_terrain = ImGui::Combo("preset", &preset_index_, items.data(), static_cast<int>(items.size()));
    new_terrain |= ImGui::InputInt("seed", &seed_);
    ImGui::EndDisabled();
    int mesher = static_cast<int>(mesher_index(session.settings().mesher));
    const auto label = [](void*, int i, const char** out) {
        *out = meshers()[static_cast<std::size_t>(i)].label;
        return true;
    };
    if (ImGui::Combo("mesher", &mesher, label, nullptr, static_cast<int>(meshers().size())))
        session.set_mesher(meshers()[static_cast<std::size_t>(mesher)].id);
    const bool new_radius = ImGui::SliderInt("chunks per ring", &radius_, 2, 16);
    ImGui::SliderFloat("view distance (m)", &view_distance_, 256.0f, 32000.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
    const bool new_distance = ImGui::IsItemDeactivatedAfterEdit();  // on release: a new world is costly
    ImGui::Checkbox("wireframe (L)", &wireframe);
    ImGui::SameLine();
    ImGui::Checkbox("colour levels (C)", &level_colours);
    ImGui::Text("brush %.1f m (Ctrl+wheel), %zu of %zu edits in effect", session.brush_radius_m, session.history().applied(),
                session.history().ops().size());
    ImGui::TextUnformatted(status.c_str());
    if (ImGui::Button("undo (Ctrl+Z)")) status = session.step_history(false);
    ImGui::SameLine();
    if (ImGui::Button("redo (Ctrl+Y)")) status = session.step_history(true);
    ImGui::Text("WASD move, QE down/up, middle-drag or Alt+drag to look, Shift x4, wheel speed");
    ImGui::Text("left carve, right add, Ctrl+Z undo, Ctrl+Y redo, M mesher, F12 screenshot");
    ImGui::Text("N navigation mesh, Shift+click a path's ends");
    ImGui::End();
    if (new_terrain) {
        TerrainSource chosen = builtin_terrain(names_[static_cast<std::size_t>(preset_index_)]);
        chosen.seed = static_cast<std::uint32_t>(seed_);
        const std::string refused = session.set_terrain(chosen);
        status = refused.empty() ? "edits are not saved (no --world)" : refused;
    }
    if (new_radius || new_distance) session.set_view(radius_, view_distance_);
}

}  // namespace isoterra::app
