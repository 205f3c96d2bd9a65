// The terrain's look, shared by the native renderer (terrain_renderer.cpp) and the web page
// (web/src/terrain_view.js): functions only, in the GLSL common to OpenGL 3.3 and WebGL 2.
//
// Each material is a base colour with detail noise in its own scale, sampled on the three
// axis planes and blended by the normal (triplanar), so steep faces are not stretched.
// Value noise repeats every `period` cells (an integer), so the detail repeats every 1000 m
// in the world (every frequency below times 1000 is an integer) and texture coordinates can
// wrap there without a seam.
// A lattice point's value in [0, 1): an integer hash (two multiplies by odd constants and a
// xor-shift), a few instructions where the usual fract(sin(...)) costs a sine's range
// reduction and polynomial on a software rasterizer. The points are whole numbers below the
// period, so the integer conversion is exact.
float hash(vec2 p) {
    uvec2 q = uvec2(ivec2(p)) * uvec2(1597334673u, 3812015801u);
    uint n = (q.x ^ q.y) * 1597334673u;
    n ^= n >> 16;
    return float(n >> 8) * (1.0 / 16777216.0);
}
float value_noise(vec2 p, float period) {
    vec2 i = floor(p), f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    vec2 a = mod(i, period), b = mod(i + 1.0, period);
    return mix(mix(hash(a), hash(vec2(b.x, a.y)), u.x), mix(hash(vec2(a.x, b.y)), hash(b), u.x), u.y);
}
float detail(vec2 p, float f) { return 0.6 * value_noise(p * f, floor(1000.0 * f + 0.5)) + 0.4 * value_noise(p * f * 3.7, floor(3700.0 * f + 0.5)); }

// Each material's two colours and its detail's frequency: grass, soil, rock, snow, sand,
// scree (fine stones).
const vec3 kDull[6] = vec3[6](vec3(0.22, 0.42, 0.14), vec3(0.36, 0.25, 0.16), vec3(0.38, 0.37, 0.36), vec3(0.86, 0.89, 0.95),
                              vec3(0.72, 0.64, 0.45), vec3(0.42, 0.40, 0.38));
const vec3 kBright[6] = vec3[6](vec3(0.36, 0.55, 0.20), vec3(0.50, 0.37, 0.24), vec3(0.60, 0.58, 0.55), vec3(0.98, 0.99, 1.0),
                                vec3(0.86, 0.79, 0.60), vec3(0.64, 0.61, 0.57));
const float kDetail[6] = float[6](0.7, 1.3, 0.4, 0.9, 2.1, 3.3);

vec3 paint(int id, vec2 p) { return mix(kDull[id], kBright[id], detail(p, kDetail[id])); }

// Why loops over what has weight rather than branches: a software rasterizer (llvmpipe,
// SwiftShader) shades a block of pixels at once and runs every branch any of them takes,
// but leaves a loop once none of them is still in it. So a block pays for the planes and
// materials that have weight in it (one or two of each, mostly); every plane was painted
// before, whatever its weight.

// The first of the weights w[k..n) that is not 0, or n.
int next_weighted(float w[6], int k, int n) {
    while (k < n && w[k] == 0.0) ++k;
    return k;
}

// A plane with under 1/256 of the weight is left out (at most one step of an 8-bit colour).
vec3 triplanar(int id, vec3 p, vec3 n) {
    vec3 w = pow(abs(n), vec3(4.0));
    w /= (w.x + w.y + w.z);
    w *= step(vec3(1.0 / 256.0), w);
    w /= (w.x + w.y + w.z);
    float planes[6] = float[6](w.x, w.y, w.z, 0.0, 0.0, 0.0);
    vec3 c = vec3(0.0);
    for (int k = next_weighted(planes, 0, 3); k < 3; k = next_weighted(planes, k + 1, 3))
        c += paint(id, k == 0 ? p.yz : k == 1 ? p.xz : p.xy) * planes[k];
    return c;
}

// The albedo from the weights of grass, soil, rock and snow (`weights`) and of sand and scree
// (`more`). Weights, not material numbers, are interpolated: a number halfway between grass
// (0) and rock (2) would paint soil (1). A vertex has two materials at most: most of the six
// have no weight over a triangle, and are not painted.
vec3 terrain_albedo(vec3 p, vec3 n, vec4 weights, vec2 more) {
    float w[6] = float[6](weights.x, weights.y, weights.z, weights.w, more.x, more.y);
    vec3 albedo = vec3(0.0);
    for (int id = next_weighted(w, 0, 6); id < 6; id = next_weighted(w, id + 1, 6)) albedo += triplanar(id, p, n) * w[id];
    return albedo;
}

// A low warm sun and a cool sky light.
vec3 terrain_lit(vec3 albedo, vec3 n, vec3 sun_direction) {
    float sun = max(dot(n, sun_direction), 0.0);
    vec3 sky_light = mix(vec3(0.23, 0.20, 0.30), vec3(0.55, 0.60, 0.75), n.y * 0.5 + 0.5);
    return albedo * (sky_light * 0.8 + vec3(1.0, 0.85, 0.66) * sun * 1.1);
}

// How much of the sky covers a point `dist` metres away: none before fog_start, all at
// fog_end (0: no fog), smooth between.
float fog_amount(float dist, float fog_start, float fog_end) {
    float fog = fog_end > 0.0 ? clamp((dist - fog_start) / (fog_end - fog_start), 0.0, 1.0) : 0.0;
    return fog * fog * (3.0 - 2.0 * fog);
}

// The sea seen from the eye (`from_eye`: the point minus the eye): deeper blue looking down,
// paler at a glancing angle, a glint of the sun; more opaque at a glance.
vec4 sea_colour(vec3 from_eye, vec3 sun_direction, vec3 sky_colour, float fog) {
    vec3 view = normalize(-from_eye);
    float facing = clamp(view.y, 0.0, 1.0);
    vec3 sea = mix(vec3(0.55, 0.68, 0.80), vec3(0.10, 0.28, 0.45), facing);
    float glint = pow(max(dot(reflect(-sun_direction, vec3(0, 1, 0)), view), 0.0), 64.0);
    return vec4(mix(sea + glint * vec3(1.0, 0.9, 0.7), sky_colour, fog), mix(0.85, 0.6, facing));
}

// A cross-fade between two levels of detail: the appearing chunk (side 1) takes the pixels
// whose dither is below the fade's progress `alpha` (0..1), the going one (side 2) the others,
// so together they cover every pixel once. True where this chunk leaves the pixel to the other.
bool fade_hides(float side, float alpha) {
    float d = fract(52.9829189 * fract(dot(gl_FragCoord.xy, vec2(0.06711056, 0.00583715))));
    return (side == 1.0) == (d >= alpha);
}
