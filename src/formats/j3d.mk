# j3d driver: BMD/BDL (J3D2bmd3, J3D2bdl4, J3D2bmd2), BMT (J3D2bmt3); bti: a standalone BTI.
libnmodel_a_SOURCES += \
	src/formats/j3d/j3d.h src/formats/j3d/driver.c src/formats/j3d/name_table.c \
	src/formats/j3d/gx_names.c src/formats/j3d/record_inverse.c src/formats/j3d/joint_edit.c \
	src/formats/j3d/gx_record_names.c src/formats/j3d/vtx1_edit.c \
	src/formats/j3d/parse_inf1.c src/formats/j3d/parse_vtx1.c src/formats/j3d/parse_evp1.c \
	src/formats/j3d/parse_drw1.c src/formats/j3d/parse_jnt1.c src/formats/j3d/parse_shp1.c \
	src/formats/j3d/displaylist.c src/formats/j3d/gx_command.c src/formats/j3d/dl_count.c \
	src/formats/j3d/parse_mat3.c \
	src/formats/j3d/parse_mdl3.c src/formats/j3d/mdl3_text.c src/formats/j3d/tree_mdl3.c \
	src/formats/j3d/parse_tex1.c src/formats/j3d/tree_skeleton.c src/formats/j3d/tree_vtx1.c \
	src/formats/j3d/tree_shp1.c src/formats/j3d/tree_mat3.c src/formats/j3d/tree_tex1.c \
	src/formats/j3d/obj.c src/formats/j3d/gltf.c src/formats/j3d/anim_pair.c src/formats/j3d/anim_gltf.c src/formats/j3d/bti.c

check_PROGRAMS += tests/test_j3d
TESTS += tests/test_j3d
tests_test_j3d_SOURCES = tests/test_j3d.c tests/walk.h tests/walk.c tests/fixtures/j3d_writer.h tests/fixtures/j3d_writer.c
tests_test_j3d_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_test_j3d_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_j3d_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
