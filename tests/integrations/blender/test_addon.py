"""Runs inside Debian's Blender (blender -b --factory-startup --python-exit-code 1 --python
this): installs the add-on from a zip of integrations/blender/isoterra_terrain, enables it,
adds an isoterra terrain through its operator and checks it against `isoterra mesh` of the
box the add-on meshed (vertex and face counts, bounds), then regenerates it with another
mesher and shows a world file's edit. Arguments after "--": SOURCE_DIR BUILD_DIR WORK_DIR."""
import os
import struct
import subprocess
import sys
import zipfile

import bpy

source, build, work = sys.argv[sys.argv.index("--") + 1:][:3]
sys.path.insert(0, os.path.join(build, "python"))  # the module, as the add-on's preference would

addon = os.path.join(work, "isoterra_terrain.zip")
with zipfile.ZipFile(addon, "w") as z:
    folder = os.path.join(source, "integrations", "blender", "isoterra_terrain")
    for name in os.listdir(folder):
        if name.endswith(".py"):
            z.write(os.path.join(folder, name), os.path.join("isoterra_terrain", name))
bpy.ops.preferences.addon_install(filepath=addon)
bpy.ops.preferences.addon_enable(module="isoterra_terrain")
assert hasattr(bpy.types, "MESH_OT_isoterra_terrain_add"), "the operator is registered"
assert any(f.__module__ == "isoterra_terrain" for f in bpy.types.VIEW3D_MT_mesh_add.draw._draw_funcs), "Add > Mesh has the entry"
# The mesher menu is the library's registry, in its order.
import isoterra_terrain  # noqa: E402 - installed just above
import isoterra  # noqa: E402 - the module the add-on found
meshers = [item[0] for item in isoterra_terrain.mesher_items(None, bpy.context)]
assert meshers == list(isoterra.MESHERS) and meshers[0] == "marching-cubes", meshers


def program_mesh(lo, hi, mesher, *flags):
    out = os.path.join(work, "reference.ply")
    subprocess.run([os.path.join(build, "isoterra"), "mesh", *flags, "--from", ",".join(map(repr, lo)), "--to",
                    ",".join(map(repr, hi)), "--mesher", mesher, "-o", out, "--quiet"], check=True)
    data = open(out, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode()
    nv = int(header.split("element vertex ")[1].split()[0])
    nf = int(header.split("element face ")[1].split()[0])
    xs = [struct.unpack_from("<3f", data, end + 27 * i) for i in range(nv)]
    return nv, nf, [min(p[a] for p in xs) for a in range(3)], [max(p[a] for p in xs) for a in range(3)]


def check(obj, mesher, *flags):
    lo, hi = list(obj["isoterra_lo"]), list(obj["isoterra_hi"])
    nv, nf, pmin, pmax = program_mesh(lo, hi, mesher, *flags)
    mesh = obj.data
    assert len(mesh.vertices) == nv, (len(mesh.vertices), nv)
    assert len(mesh.polygons) == nf, (len(mesh.polygons), nf)
    assert nf > 1000, nf
    # Blender (x, y, z) is isoterra (x, -z, y).
    xs = [v.co.x for v in mesh.vertices]
    ys = [v.co.y for v in mesh.vertices]
    zs = [v.co.z for v in mesh.vertices]
    for got, want in ((min(xs), pmin[0]), (max(xs), pmax[0]), (min(zs), pmin[1]), (max(zs), pmax[1]),
                      (min(ys), -pmax[2]), (max(ys), -pmin[2])):
        assert abs(got - want) < 1e-3, (got, want)
    assert len(mesh.materials) == 6 and mesh.materials[2].name.startswith("isoterra rock")
    assert "isoterra_colour" in mesh.color_attributes
    return nv, nf


result = bpy.ops.mesh.isoterra_terrain_add(preset="alpine", seed=-1, size_m=96.0, centre_x=10.0, centre_z=40.0,
                                           mesher="marching-cubes")
assert result == {"FINISHED"}, result
terrain = bpy.context.active_object
assert terrain.name.startswith("isoterra terrain")
print("blender: marching cubes", check(terrain, "marching-cubes", "--preset", "alpine"))

# Regenerate from the panel's settings with another mesher and seed.
terrain["isoterra_mesher"] = "surface-nets"
terrain["isoterra_seed"] = 7
assert bpy.ops.object.isoterra_terrain_regenerate() == {"FINISHED"}
print("blender: surface nets, seed 7", check(terrain, "surface-nets", "--preset", "alpine", "--seed", "7"))

# A world file's edit shows: carve with the program, then add the world file's terrain.
world = os.path.join(work, "edited.db")
import isoterra  # noqa: E402 - on the path set above
import numpy as np  # noqa: E402

ground = isoterra.Field.preset("tutorial").ground(np.array([[0.0, 0.0]]))[0]
subprocess.run([os.path.join(build, "isoterra"), "edit", "--world", world, "--preset", "tutorial", "sphere",
                "--at", f"0,{ground!r},0", "--radius", "12"], check=True, capture_output=True)
assert bpy.ops.mesh.isoterra_terrain_add(preset="tutorial", size_m=64.0, world_file=world) == {"FINISHED"}
edited = bpy.context.active_object
print("blender: world file", check(edited, "marching-cubes", "--world", world))
plain = isoterra.mesh(isoterra.Field.preset("tutorial"), list(edited["isoterra_lo"]), list(edited["isoterra_hi"]))
assert len(plain.faces) != len(edited.data.polygons), "the edit shows"

# A bad preset reports an error and adds nothing.
count = len(bpy.data.objects)
try:
    bpy.ops.mesh.isoterra_terrain_add(preset="no-such-preset")
    raise AssertionError("a bad preset was accepted")
except RuntimeError as e:
    assert "no-such-preset" in str(e), e
assert len(bpy.data.objects) == count
print("blender: all checks passed")
