// Domain warping: evaluate a pattern somewhere else, moved by another noise, so that its
// regular shapes fold. The offsets pick unrelated regions of the same noise per axis.
#include "isoterra/noise.hpp"

namespace isoterra {

void warp2(const Simplex2& noise, double scale_m, double distance_m, double& x, double& z) {
    const double u = x / scale_m;
    const double v = z / scale_m;
    const double dx = noise(u + 11.3, v - 4.7) * distance_m;
    const double dz = noise(u - 23.9, v + 17.1) * distance_m;
    x += dx;
    z += dz;
}

void warp3(const Simplex3& noise, double scale_m, double distance_m, double& x, double& y, double& z) {
    const double u = x / scale_m;
    const double v = y / scale_m;
    const double w = z / scale_m;
    const double dx = noise(u + 11.3, v, w - 4.7) * distance_m;
    const double dy = noise(u, v + 17.9, w + 2.3) * distance_m;
    const double dz = noise(u - 23.9, v - 8.1, w + 29.3) * distance_m;
    x += dx;
    y += dy;
    z += dz;
}

}  // namespace isoterra
