# rfrm driver (Donkey Kong Country: Tropical Freeze RFRM assets, CMDL/SMDL/WMDL models,
# TXTR textures, PAK archives): sources and tests.
libnmodel_a_SOURCES += \
	src/formats/rfrm/rfrm.h src/formats/rfrm/driver.c src/formats/rfrm/chunks.c \
	src/formats/rfrm/vertex_formats.c src/formats/rfrm/parse_model.c \
	src/formats/rfrm/parse_head.c src/formats/rfrm/parse_mtrl.c src/formats/rfrm/model_textures.c \
	src/formats/rfrm/parse_buffers.c src/formats/rfrm/gpu.c \
	src/formats/rfrm/tree_model.c src/formats/rfrm/tree_buffers.c \
	src/formats/rfrm/obj.c src/formats/rfrm/parse_pak.c src/formats/rfrm/tree_pak.c src/formats/rfrm/pak_asset.c \
	src/formats/rfrm/repack.c src/formats/rfrm/gpu_stream.c src/formats/rfrm/meta_rewrite.c \
	src/formats/rfrm/model_stream.c \
	src/formats/rfrm/txtr.h src/formats/rfrm/txtr_formats.c src/formats/rfrm/parse_txtr.c \
	src/formats/rfrm/txtr_surface.c src/formats/rfrm/txtr_decode.c src/formats/rfrm/tree_txtr.c \
	src/formats/rfrm/txtr_inverse.c src/formats/rfrm/mesh_record.c \
	src/formats/rfrm/vertex_edit.c src/formats/rfrm/model_repack.c
libnmodel_a_SOURCES += src/formats/rfrm/gltf.c

# The PAK scripts/bench mounts, with its textures (tests/fixtures/bench_pak.h).
BENCH_PAK_SRC = tests/fixtures/bench_pak.h tests/fixtures/bench_pak.c \
	tests/fixtures/txtr_writer.h tests/fixtures/txtr_writer.c
check_PROGRAMS += tests/test_rfrm tests/mkpak
TESTS += tests/test_rfrm
tests_test_rfrm_SOURCES = tests/test_rfrm.c tests/walk.h tests/walk.c \
	tests/fixtures/rfrm_writer.h tests/fixtures/rfrm_writer.c $(BENCH_PAK_SRC)
tests_test_rfrm_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_rfrm_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
tests_mkpak_SOURCES = tests/fixtures/mkpak.c tests/fixtures/rfrm_writer.h tests/fixtures/rfrm_writer.c \
	$(BENCH_PAK_SRC)
tests_mkpak_LDADD = $(LDADD_COMMON)
check_PROGRAMS += tests/test_txtr
TESTS += tests/test_txtr
tests_test_txtr_SOURCES = tests/test_txtr.c tests/walk.h tests/walk.c \
	tests/fixtures/rfrm_writer.h tests/fixtures/rfrm_writer.c \
	tests/fixtures/txtr_writer.h tests/fixtures/txtr_writer.c
tests_test_txtr_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_txtr_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
# Model record edits written back (doc/apply.md): fixture, fixture PAK and corpus.
check_PROGRAMS += tests/test_rfrm_apply
TESTS += tests/test_rfrm_apply
tests_test_rfrm_apply_SOURCES = tests/test_rfrm_apply.c tests/walk.h tests/walk.c \
	tests/apply_util.h tests/apply_util.c \
	tests/fixtures/rfrm_writer.h tests/fixtures/rfrm_writer.c
tests_test_rfrm_apply_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_rfrm_apply_LDADD = $(LDADD_COMMON) $(CHECK_LIBS) -lm
