"""isoterra terrain for Blender: Add > Mesh > isoterra terrain.

Meshes a square of an isoterra terrain (a built-in preset, or a preset or field graph file,
with a seed, and optionally the edits of a world file) through the `isoterra` Python module
and builds the Blender mesh from its arrays: material colours as a colour attribute, one
material slot per isoterra material. The terrain is regenerated from the panel (View3D >
Sidebar > isoterra) with the settings kept on the object.

isoterra is Y up; Blender is Z up: a point (x, y, z) of isoterra is (x, -z, y) here.
"""

bl_info = {
    "name": "isoterra terrain",
    "author": "isoterra",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "View3D > Add > Mesh > isoterra terrain; View3D > Sidebar > isoterra",
    "description": "Procedural smooth voxel terrain from isoterra presets, graph files and world files",
    "category": "Add Mesh",
}

import os
import sys

import bpy
import numpy as np
from bpy.props import EnumProperty, FloatProperty, IntProperty, StringProperty

# isoterra's materials in its palette order, with the linear colours of `isoterra mesh`.
MATERIAL_NAMES = ("grass", "soil", "rock", "snow", "sand", "scree")
SETTINGS = ("preset", "seed", "size_m", "centre_x", "centre_z", "mesher", "lod", "world_file")


def _module_folder():
    prefs = bpy.context.preferences.addons.get(__name__)
    return prefs.preferences.module_path if prefs else ""


def import_isoterra():
    """The isoterra module: on sys.path already (installed), or from the add-on's preference."""
    folder = _module_folder() or os.environ.get("ISOTERRA_PYTHONPATH", "")
    if folder and folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        import isoterra  # noqa: PLC0415 - found at run time, after the path is set
    except ImportError as e:
        raise RuntimeError(
            "the isoterra Python module was not found: install it (cmake --install build) or set its folder "
            "(build/python) in the add-on's preferences") from e
    return isoterra


_mesher_items = []  # Blender reads the strings of a dynamic enum after the call: keep them


def mesher_items(_self, _context):
    """The library's meshers in its menu order (the first is the default): isoterra.MESHERS."""
    if not _mesher_items:
        try:
            isoterra = import_isoterra()
        except RuntimeError:
            return []  # the Add operator then says why the module is missing
        _mesher_items.extend((name, label.capitalize(), f"isoterra's {label} ({name})")
                             for name, label in zip(isoterra.MESHERS, isoterra.MESHER_LABELS))
    return _mesher_items


def terrain_field(isoterra, settings):
    seed = None if settings["seed"] < 0 else settings["seed"]
    if settings["world_file"]:
        return isoterra.Editor(bpy.path.abspath(settings["world_file"]), terrain=settings["preset"], seed=seed).field
    source = settings["preset"]
    if source.endswith(".toml"):
        return isoterra.Field.from_file(bpy.path.abspath(source), seed=seed)
    return isoterra.Field.preset(source, seed=seed)


def terrain_box(field, settings):
    """The region meshed: the square of size_m around the centre, from below its lowest ground
    to above its highest (the heights 64 samples apart, with a margin of 64 m and two cells)."""
    half = settings["size_m"] / 2.0
    x0, z0 = settings["centre_x"] - half, settings["centre_z"] - half
    x1, z1 = settings["centre_x"] + half, settings["centre_z"] + half
    step = max(settings["size_m"] / 64.0, 1.0)
    margin = 64.0 + 2.0 * 2 ** settings["lod"]
    try:
        heights = field.heightmap((x0, z0), (x1, z1), step)
        y0, y1 = float(heights.min()) - margin, float(heights.max()) + margin
    except ValueError:  # a graph without a ground height: a fixed band
        y0, y1 = -256.0, 512.0
    return (x0, y0, z0), (x1, y1, z1)


def build_mesh(isoterra, name, settings):
    """Meshes the terrain and returns a new Blender mesh and the box it covers."""
    field = terrain_field(isoterra, settings)
    lo, hi = terrain_box(field, settings)
    m = isoterra.mesh(field, lo, hi, mesher=settings["mesher"], lod=settings["lod"])
    verts, faces, colours, materials = m.vertices, m.faces, m.colours, m.materials
    mesh = bpy.data.meshes.new(name)
    n_v, n_f = len(verts), len(faces)
    mesh.vertices.add(n_v)
    # Y up to Z up: (x, y, z) -> (x, -z, y), a rotation, so windings stay counter-clockwise.
    blender_co = verts[:, [0, 2, 1]].copy()
    blender_co[:, 1] *= -1.0
    mesh.vertices.foreach_set("co", blender_co.ravel())
    mesh.loops.add(3 * n_f)
    mesh.loops.foreach_set("vertex_index", faces.ravel().astype("int32"))
    mesh.polygons.add(n_f)
    mesh.polygons.foreach_set("loop_start", (3 * np.arange(n_f, dtype="int32")))
    mesh.polygons.foreach_set("loop_total", np.full(n_f, 3, dtype="int32"))
    # Each face takes the material of its first vertex; colours per vertex.
    mesh.polygons.foreach_set("material_index", materials[faces[:, 0]].astype("int32"))
    rgba = np.ones((n_v, 4), dtype="float32")
    rgba[:, :3] = colours
    attribute = mesh.color_attributes.new("isoterra_colour", "FLOAT_COLOR", "POINT")
    attribute.data.foreach_set("color", rgba.ravel())
    mesh.polygons.foreach_set("use_smooth", np.ones(n_f, dtype=bool))
    mesh.update(calc_edges=True)
    mesh.validate()
    for material_name in MATERIAL_NAMES:
        mesh.materials.append(terrain_material(material_name))
    return mesh, lo, hi


def terrain_material(material_name):
    """One Blender material per isoterra material, shared between terrains; it shows the
    colour attribute, so blends between materials show too."""
    name = "isoterra " + material_name
    mat = bpy.data.materials.get(name)
    if mat is None:
        mat = bpy.data.materials.new(name)
        mat.use_nodes = True
        nodes = mat.node_tree.nodes
        bsdf = nodes.get("Principled BSDF")
        colour = nodes.new("ShaderNodeVertexColor")
        colour.layer_name = "isoterra_colour"
        if bsdf is not None:
            mat.node_tree.links.new(colour.outputs["Color"], bsdf.inputs["Base Color"])
            bsdf.inputs["Roughness"].default_value = 0.9
    return mat


def settings_of(owner):
    return {key: getattr(owner, key) for key in SETTINGS}


def store_settings(obj, settings, lo, hi):
    for key, value in settings.items():
        obj["isoterra_" + key] = value
    obj["isoterra_lo"] = list(lo)
    obj["isoterra_hi"] = list(hi)


class IsoterraTerrainSettings:
    preset: StringProperty(name="Terrain", default="alpine",
                           description="A built-in preset's name (tutorial, alpine, islands, rivers, canyons, ...) or a "
                                       "preset or graph file (.toml); with a world file, its terrain when the file is new")
    seed: IntProperty(name="Seed", default=-1, min=-1, description="The world seed; -1: the terrain's own")
    size_m: FloatProperty(name="Size", default=256.0, min=16.0, max=8192.0, unit="LENGTH",
                          description="The side of the square meshed, metres")
    centre_x: FloatProperty(name="Centre X", default=0.0, description="The square's centre, isoterra x (Blender X)")
    centre_z: FloatProperty(name="Centre Z", default=0.0, description="The square's centre, isoterra z (Blender -Y)")
    mesher: EnumProperty(name="Mesher", items=mesher_items, default=0)
    lod: IntProperty(name="Level of detail", default=0, min=0, max=6,
                     description="Samples 2^lod metres apart: 0 is the finest")
    world_file: StringProperty(name="World file", default="", subtype="FILE_PATH",
                               description="An isoterra world file (.db) whose edits to show (optional)")


class MESH_OT_isoterra_terrain_add(bpy.types.Operator, IsoterraTerrainSettings):
    """Add an isoterra terrain: a square of a preset, graph file or world file, meshed"""
    bl_idname = "mesh.isoterra_terrain_add"
    bl_label = "isoterra terrain"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        try:
            isoterra = import_isoterra()
            settings = settings_of(self)
            mesh, lo, hi = build_mesh(isoterra, "isoterra terrain", settings)
        except (RuntimeError, ValueError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        obj = bpy.data.objects.new("isoterra terrain", mesh)
        context.collection.objects.link(obj)
        store_settings(obj, settings, lo, hi)
        for other in context.selected_objects:
            other.select_set(False)
        obj.select_set(True)
        context.view_layer.objects.active = obj
        self.report({"INFO"}, f"isoterra terrain: {len(mesh.vertices)} vertices, {len(mesh.polygons)} triangles")
        return {"FINISHED"}


class OBJECT_OT_isoterra_terrain_regenerate(bpy.types.Operator):
    """Mesh the active isoterra terrain again with the settings in the panel"""
    bl_idname = "object.isoterra_terrain_regenerate"
    bl_label = "Regenerate"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context):
        return context.active_object is not None and "isoterra_preset" in context.active_object

    def execute(self, context):
        obj = context.active_object
        settings = {key: obj["isoterra_" + key] for key in SETTINGS}
        try:
            mesh, lo, hi = build_mesh(import_isoterra(), obj.data.name, settings)
        except (RuntimeError, ValueError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        old = obj.data
        obj.data = mesh
        if old.users == 0:
            bpy.data.meshes.remove(old)
        store_settings(obj, settings, lo, hi)
        return {"FINISHED"}


class VIEW3D_PT_isoterra_terrain(bpy.types.Panel):
    bl_label = "isoterra"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "isoterra"

    def draw(self, context):
        obj = context.active_object
        if obj is None or "isoterra_preset" not in obj:
            self.layout.operator(MESH_OT_isoterra_terrain_add.bl_idname, icon="MESH_GRID")
            return
        for key in SETTINGS:
            self.layout.prop(obj, f'["isoterra_{key}"]', text=key.replace("_", " "))
        self.layout.operator(OBJECT_OT_isoterra_terrain_regenerate.bl_idname, icon="FILE_REFRESH")


class IsoterraPreferences(bpy.types.AddonPreferences):
    bl_idname = __name__
    module_path: StringProperty(name="isoterra module folder", subtype="DIR_PATH", default="",
                                description="The folder holding the isoterra Python module (build/python), "
                                            "when it is not installed")

    def draw(self, context):
        self.layout.prop(self, "module_path")


def menu_entry(self, context):
    self.layout.operator(MESH_OT_isoterra_terrain_add.bl_idname, text="isoterra terrain", icon="MESH_GRID")


CLASSES = (MESH_OT_isoterra_terrain_add, OBJECT_OT_isoterra_terrain_regenerate, VIEW3D_PT_isoterra_terrain,
           IsoterraPreferences)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.VIEW3D_MT_mesh_add.append(menu_entry)


def unregister():
    bpy.types.VIEW3D_MT_mesh_add.remove(menu_entry)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
