# Run by tests/blender.sh inside Blender: import each .glb given after "--" into an empty
# scene and print one line per file:
#   RESULT PATH armatures N bones N meshes N skinned N actions N seconds S
# (skinned: mesh objects with an armature modifier and vertex groups; actions: the
# animations it made; seconds: how long the import took).
import sys
import time

import bpy
import numpy

# Debian 12's Blender 3.4 glTF importer still uses numpy.bool, which numpy 1.24 removed.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

for path in sys.argv[sys.argv.index("--") + 1:]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    start = time.monotonic()
    bpy.ops.import_scene.gltf(filepath=path)
    seconds = time.monotonic() - start
    arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    skinned = [o for o in meshes
               if any(m.type == "ARMATURE" for m in o.modifiers) and len(o.vertex_groups)]
    bones = sum(len(a.data.bones) for a in arms)
    print("RESULT", path, "armatures", len(arms), "bones", bones, "meshes", len(meshes),
          "skinned", len(skinned), "actions", len(bpy.data.actions),
          "seconds", "%.2f" % seconds)
