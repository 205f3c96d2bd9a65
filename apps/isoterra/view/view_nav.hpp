// The viewer's navigation: N shows the navigation mesh kept around the camera (a NavStream
// on the session's World, its tiles' triangles drawn as cyan lines within 100 m), and
// Shift+click sets the ends of a path in turn, drawn in the path colour over the terrain.
// Each says what it did on stdout, one line (scripts and tests read them):
//   nav: mesh shown, T tiles within 128 m of X,Z, N triangles   (once those tiles are built)
//   nav: mesh hidden
//   path: from X,Y,Z; Shift+click its end
//   path: from X,Y,Z to X,Y,Z, N waypoints, L m
//   path: no path from X,Y,Z to X,Y,Z: why
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "isoterra/nav.hpp"
#include "isoterra/session.hpp"
#include "../render/terrain_renderer.hpp"

namespace isoterra::app {

class ViewNav {
public:
    /// Shows or hides the navigation mesh (and starts keeping it, the first time).
    void toggle(Session& session);
    /// Takes a Shift+click on the ground at `p`: the first end, then the second (and the path
    /// between them), then a first end again. `status` gets what came of it (the line).
    void pick(Session& session, const glm::dvec3& p, std::string& status);
    /// Once a frame, after the World's deliver: takes the tiles finished since. `focus`: the
    /// World's, for the line that says what is shown.
    void frame(Session& session, const glm::dvec3& focus);
    /// Draws the mesh (when shown) and the path over the picture, `width` x `height` in the
    /// panel's units. Between the panel's begin and end.
    void draw(const Camera& camera, int width, int height) const;
    bool shown() const { return shown_; }

private:
    void start(Session& session);
    void report(const glm::dvec3& focus) const;
    std::unique_ptr<NavStream> nav_;
    unsigned world_ = 0;                  // the session's restarts when nav_ was made
    bool shown_ = false, stale_ = false;  // stale: lines_ to be made again once shown
    bool report_ = false;                 // the tiles changed or were shown since the last line
    std::vector<glm::vec3> lines_;        // pairs of ends: the detail triangles' edges
    std::optional<glm::dvec3> first_;
    std::vector<glm::dvec3> path_;
};

}  // namespace isoterra::app
