# Renders a model.glb with Blender (Cycles on the CPU: no GPU needed), front view,
# optionally with one joint rotated, to check a skeleton and its skin by eye: at rest
# the model must look as mesh.obj does; a rotated joint must carry its part of the mesh
# with it, and envelopes must bend the mesh around it smoothly.
#   blender -b --factory-startup --python scripts/render-glb.py -- MODEL.glb OUT.png \
#       [JOINT DEGREES [side]]
#   ... -- MODEL.glb OUT.png @ACTION FRAME [side]   (the glb's animation ACTION at FRAME)
# Prints the joint names (and the actions), so that a second run can pick one.
import math
import sys

import bpy
import numpy
from mathutils import Euler, Vector

# Debian 12's Blender 3.4 glTF importer still uses numpy.bool, which numpy 1.24 removed.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

args = sys.argv[sys.argv.index("--") + 1:]
glb, out = args[0], args[1]
joint, degrees = (args[2], float(args[3])) if len(args) > 3 else ("", 0.0)
action = joint[1:] if joint.startswith("@") else ""
if action:
    joint = ""
side = len(args) > 4 and args[4] == "side"
if joint == "-":
    joint = ""
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=glb)
arm = next((o for o in bpy.data.objects if o.type == "ARMATURE"), None)
if arm:
    print("JOINTS", " ".join(b.name for b in arm.data.bones))
    print("ACTIONS", " ".join(a.name for a in bpy.data.actions))
    if action:
        # The importer names an armature's action "ANIMATION_ARMATURE" (or ANIMATION).
        arm.animation_data_create()
        arm.animation_data.action = next(a for a in bpy.data.actions
                                         if a.name == action or a.name.startswith(action + "_"))
        bpy.context.scene.frame_set(int(degrees))
    if joint:
        pose = arm.pose.bones[joint]
        pose.rotation_mode = "XYZ"
        pose.rotation_euler = Euler((0, 0, math.radians(degrees)))
bpy.context.view_layer.update()
depsgraph = bpy.context.evaluated_depsgraph_get()
points = []
for o in bpy.data.objects:
    if o.type == "MESH":
        e = o.evaluated_get(depsgraph)
        points += [e.matrix_world @ v.co for v in e.to_mesh().vertices]
lo = Vector([min(p[i] for p in points) for i in range(3)])
hi = Vector([max(p[i] for p in points) for i in range(3)])
centre, size = (lo + hi) / 2, max(hi - lo)
scene = bpy.context.scene
cam = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
scene.collection.objects.link(cam)
scene.camera = cam
cam.data.type = "ORTHO"
cam.data.ortho_scale = size * 1.3
cam.data.clip_end = size * 10
if side:
    cam.location = centre + Vector((size * 3, 0, 0))
    cam.rotation_euler = Euler((math.radians(90), 0, math.radians(90)))
else:
    cam.location = centre + Vector((0, -size * 3, 0))
    cam.rotation_euler = Euler((math.radians(90), 0, 0))
scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.samples = 16
scene.cycles.use_denoising = False
scene.view_layers[0].cycles.use_denoising = False
scene.world = bpy.data.worlds.new("world")
scene.world.use_nodes = True
scene.world.node_tree.nodes["Background"].inputs[1].default_value = 1.5
scene.render.resolution_x = scene.render.resolution_y = 400
scene.render.filepath = out
bpy.ops.render.render(write_still=True)
