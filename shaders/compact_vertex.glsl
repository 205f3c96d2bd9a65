// The compact vertex's normal and materials, decoded the same way by the native renderer's
// vertex shader (apps/isoterra/render/terrain_shaders.cpp) and the web page's
// (web/src/terrain_view.js): functions only, in the GLSL common to OpenGL 3.3 and WebGL 2.
// Each reads its attributes in its own way (the native one as integers, the page's as
// floats) and passes what they hold here.

// The unit normal of octahedral coordinates `e` in [-1, 1] (CompactVertex::normal).
vec3 octahedral_normal(vec2 e) {
    vec3 n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
    float t = max(-n.z, 0.0);
    n.x += n.x >= 0.0 ? -t : t;
    n.y += n.y >= 0.0 ? -t : t;
    return normalize(n);
}

// The weights of grass, soil, rock and snow (`material`) and of sand and scree (`more`) of a
// vertex whose primary and secondary materials (their numbers, 0-5) blend by `blend` (0..1,
// the secondary's share). Weights, not material numbers, are what the fragments interpolate.
void material_weights(float primary, float secondary, float blend, out vec4 material, out vec2 more) {
    material = (1.0 - blend) * vec4(equal(vec4(primary), vec4(0.0, 1.0, 2.0, 3.0))) +
               blend * vec4(equal(vec4(secondary), vec4(0.0, 1.0, 2.0, 3.0)));
    more = (1.0 - blend) * vec2(equal(vec2(primary), vec2(4.0, 5.0))) + blend * vec2(equal(vec2(secondary), vec2(4.0, 5.0)));
}
