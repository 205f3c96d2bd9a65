// The viewer's navigation mesh and path (view_nav.hpp): a NavStream of 128 m around the
// camera on the session's World, made again when the session makes a new World; its lines
// and the path projected as `render --path` projects them, onto ImGui's background.
#include "view_nav.hpp"

#include <imgui.h>

#include <cstdio>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "../render/path_overlay.hpp"

namespace isoterra::app {
namespace {

constexpr double kViewNavRadius_m = 128.0;
constexpr double kLinesShown_m = 100.0;  // from the eye: ImGui draws every line each frame

ImU32 colour(const std::array<std::uint8_t, 3>& c) { return IM_COL32(c[0], c[1], c[2], 255); }

// A point as `isoterra path --from` reads it, to the millimetre.
std::string point(const glm::dvec3& p) { return fmt::format("{:.3f},{:.3f},{:.3f}", p.x, p.y, p.z); }

// One line on stdout, at once (a script waits for it); returns it for the status line.
std::string say(const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    return line;
}

}  // namespace

void ViewNav::start(Session& session) {
    NavStreamSettings s;
    s.radius_m = kViewNavRadius_m;
    nav_.reset();  // before a new one: its World may be gone
    nav_ = std::make_unique<NavStream>(*session.world(), s);
    world_ = session.restarts();
    lines_.clear();
    report_ = true;
}

void ViewNav::toggle(Session& session) {
    shown_ = !shown_;
    stale_ = report_ = true;
    if (shown_ && !nav_ && session.world()) start(session);
    if (!shown_) say("nav: mesh hidden");
}

void ViewNav::report(const glm::dvec3& focus) const {
    say(fmt::format("nav: mesh shown, {} tiles within {:g} m of {:.1f},{:.1f}, {} triangles", nav_->mesh().tiles().size(), kViewNavRadius_m,
                    focus.x, focus.z, lines_.size() / 6));
}

void ViewNav::frame(Session& session, const glm::dvec3& focus) {
    if (!nav_) return;
    if (session.restarts() != world_) {
        // A new World: the old tiles describe the old terrain or view.
        nav_.reset();
        path_.clear();
        lines_.clear();
        if (!session.world()) return;
        start(session);
    }
    const bool changed = !nav_->update().empty();
    report_ |= changed;
    if (shown_ && (changed || stale_)) {
        stale_ = false;
        const MeshBuffers tris = nav_->mesh().triangles();
        lines_.clear();
        for (std::size_t i = 0; i + 2 < tris.positions.size(); i += 3)
            for (int k = 0; k < 3; ++k) lines_.insert(lines_.end(), {tris.positions[i + k], tris.positions[i + (k + 1) % 3]});
    }
    // Once every tile kept is in: what is shown now (again after an edit or a move).
    if (shown_ && report_ && nav_->settled()) {
        report_ = false;
        report(focus);
    }
}

void ViewNav::pick(Session& session, const glm::dvec3& p, std::string& status) {
    if (!nav_ && session.world()) start(session);
    if (!first_ || !path_.empty()) {
        first_ = p;
        path_.clear();
        status = say(fmt::format("path: from {}; Shift+click its end", point(p)));
        return;
    }
    const std::string ends = fmt::format("from {} to {}", point(*first_), point(p));
    try {
        const NavPath found = nav_->mesh().path(*first_, p, "its start", "its end");
        path_ = found.points;
        status = say(fmt::format("path: {}, {} waypoints, {:.2f} m", ends, path_.size(), found.length_m));
    } catch (const std::runtime_error& e) {  // NavError, NoPathError: said, then a new start
        status = say(fmt::format("path: no path {}: {}", ends, e.what()));
        first_.reset();
    }
}

void ViewNav::draw(const Camera& camera, int width, int height) const {
    ImDrawList* list = ImGui::GetBackgroundDrawList();
    const auto line = [&](const glm::dvec3& a, const glm::dvec3& b, ImU32 c, float thickness) {
        if (const auto leg = project_leg(camera, width, height, a, b))
            list->AddLine(ImVec2(float((*leg)[0].x), float((*leg)[0].y)), ImVec2(float((*leg)[1].x), float((*leg)[1].y)), c, thickness);
    };
    if (shown_)
        for (std::size_t i = 0; i + 1 < lines_.size(); i += 2) {
            const glm::dvec3 a(lines_[i]), b(lines_[i + 1]);
            if (glm::distance(a, camera.eye) < kLinesShown_m) line(a, b, IM_COL32(0, 230, 255, 160), 1.0f);
        }
    for (std::size_t i = 1; i < path_.size(); ++i) line(path_[i - 1], path_[i], colour(kPathColour), 3.0f);
}

}  // namespace isoterra::app
