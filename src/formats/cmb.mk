# cmb driver: Grezzo CMB (3DS), FORMATS.md section 4, and the CTXB textures Luigi's Mansion 3D
# rooms keep their data in (ctxb.c); doc/cmb.md.
libnmodel_a_SOURCES += \
	src/formats/cmb/cmb.h src/formats/cmb/names.h src/formats/cmb/names.c \
	src/formats/cmb/driver.c src/formats/cmb/parse_header.c src/formats/cmb/parse_skl.c \
	src/formats/cmb/parse_qtrs.c src/formats/cmb/parse_mats.c src/formats/cmb/parse_tex.c \
	src/formats/cmb/parse_vatr.c src/formats/cmb/parse_sklm.c src/formats/cmb/parse_luts.c \
	src/formats/cmb/sepd_data.c src/formats/cmb/tree_skl.c src/formats/cmb/tree_mats.c \
	src/formats/cmb/tree_tex.c src/formats/cmb/tree_sklm.c src/formats/cmb/tree_sepd.c \
	src/formats/cmb/tree_misc.c src/formats/cmb/obj.c \
	src/formats/cmb/material_texture.c src/formats/cmb/gltf.c src/formats/cmb/anim_pair.c src/formats/cmb/anim_gltf.c \
	src/formats/cmb/record_inverse.c src/formats/cmb/ctxb.c

check_PROGRAMS += tests/test_cmb
TESTS += tests/test_cmb
tests_test_cmb_SOURCES = tests/test_cmb.c tests/walk.h tests/walk.c tests/fixtures/cmb_writer.h tests/fixtures/cmb_writer.c
tests_test_cmb_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_cmb_LDADD = $(LDADD_COMMON) $(CHECK_LIBS) -lm

check_PROGRAMS += tests/test_cmb_damaged
TESTS += tests/test_cmb_damaged
tests_test_cmb_damaged_SOURCES = tests/test_cmb_damaged.c tests/walk.h tests/walk.c \
	tests/apply_util.h tests/apply_util.c \
	tests/fixtures/cmb_writer.h tests/fixtures/cmb_writer.c \
	tests/fixtures/archive_writer.h tests/fixtures/archive_writer.c
tests_test_cmb_damaged_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_cmb_damaged_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
