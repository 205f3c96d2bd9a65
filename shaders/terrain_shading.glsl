// The terrain's look, shared by the native renderer (terrain_renderer.cpp) and the web page
// (web/src/terrain_view.js): functions only, in the GLSL common to OpenGL 3.3 and WebGL 2.
//
// Each material is a base colour with detail noise in its own scale, sampled on the three
// axis planes and blended by the normal (triplanar), so steep faces are not stretched.
// Value noise repeats every `period` cells (an integer), so the detail repeats every 1000 m
// in the world (every frequency below times 1000 is an integer) and texture coordinates can
// wrap there without a seam.
float hash(vec2 p) { return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453); }
float value_noise(vec2 p, float period) {
    vec2 i = floor(p), f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    vec2 a = mod(i, period), b = mod(i + 1.0, period);
    return mix(mix(hash(a), hash(vec2(b.x, a.y)), u.x), mix(hash(vec2(a.x, b.y)), hash(b), u.x), u.y);
}
float detail(vec2 p, float f) { return 0.6 * value_noise(p * f, floor(1000.0 * f + 0.5)) + 0.4 * value_noise(p * f * 3.7, floor(3700.0 * f + 0.5)); }

vec3 paint(int id, vec2 p) {
    if (id == 0) return mix(vec3(0.22, 0.42, 0.14), vec3(0.36, 0.55, 0.20), detail(p, 0.7));  // grass
    if (id == 1) return mix(vec3(0.36, 0.25, 0.16), vec3(0.50, 0.37, 0.24), detail(p, 1.3));  // soil
    if (id == 2) return mix(vec3(0.38, 0.37, 0.36), vec3(0.60, 0.58, 0.55), detail(p, 0.4));  // rock
    if (id == 3) return mix(vec3(0.86, 0.89, 0.95), vec3(0.98, 0.99, 1.0), detail(p, 0.9));  // snow
    if (id == 4) return mix(vec3(0.72, 0.64, 0.45), vec3(0.86, 0.79, 0.60), detail(p, 2.1));  // sand
    return mix(vec3(0.42, 0.40, 0.38), vec3(0.64, 0.61, 0.57), detail(p, 3.3));              // scree: fine stones
}

vec3 triplanar(int id, vec3 p, vec3 n) {
    vec3 w = pow(abs(n), vec3(4.0));
    w /= (w.x + w.y + w.z);
    return paint(id, p.yz) * w.x + paint(id, p.xz) * w.y + paint(id, p.xy) * w.z;
}

// The albedo from the weights of grass, soil, rock and snow (`weights`) and of sand and scree
// (`more`). Weights, not material numbers, are interpolated: a number halfway between grass
// (0) and rock (2) would paint soil (1). A material with no weight here is not painted (a
// vertex has two materials at most: most of the six are 0 over a triangle).
vec3 terrain_albedo(vec3 p, vec3 n, vec4 weights, vec2 more) {
    vec3 albedo = vec3(0.0);
    if (weights.x > 0.0) albedo += triplanar(0, p, n) * weights.x;
    if (weights.y > 0.0) albedo += triplanar(1, p, n) * weights.y;
    if (weights.z > 0.0) albedo += triplanar(2, p, n) * weights.z;
    if (weights.w > 0.0) albedo += triplanar(3, p, n) * weights.w;
    if (more.x > 0.0) albedo += triplanar(4, p, n) * more.x;
    if (more.y > 0.0) albedo += triplanar(5, p, n) * more.y;
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
