"""Renders the picture in docs/guides/blender.md: the add-on's alpine terrain in Blender's
Workbench, coloured by the isoterra colour attribute. Run headless:
    HOME=$(mktemp -d) blender -b --factory-startup --python integrations/blender/render_example.py -- \
        build/python docs/images/blender_alpine.png"""
import math
import os
import sys

import bpy

module_dir, out = sys.argv[sys.argv.index("--") + 1:][:2]
sys.path.insert(0, os.path.abspath(module_dir))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
import isoterra_terrain  # noqa: E402 - the add-on, from its folder

isoterra_terrain.register()
for obj in list(bpy.data.objects):
    bpy.data.objects.remove(obj)
assert bpy.ops.mesh.isoterra_terrain_add(preset="alpine", size_m=1024.0, centre_x=0.0, centre_z=0.0, lod=1) == {"FINISHED"}
terrain = bpy.context.active_object
lo, hi = terrain["isoterra_lo"], terrain["isoterra_hi"]
mid_height = (lo[1] + hi[1]) / 2.0

camera = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
bpy.context.collection.objects.link(camera)
camera.location = (-950.0, -950.0, mid_height + 650.0)  # south-west of the square, above it
camera.rotation_euler = (math.radians(62.0), 0.0, math.radians(-45.0))
camera.data.lens = 30.0
camera.data.clip_end = 10000.0
scene = bpy.context.scene
scene.camera = camera
scene.render.engine = "BLENDER_WORKBENCH"
scene.display.shading.light = "STUDIO"
scene.display.shading.color_type = "VERTEX"
scene.display.shading.show_cavity = True
scene.render.resolution_x, scene.render.resolution_y = 1280, 720
scene.render.filepath = os.path.abspath(out)
bpy.ops.render.render(write_still=True)
print("wrote", out)
