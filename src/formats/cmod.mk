# cmod driver: Celestia binary CMOD; doc/cmod.md. Its tests (test_cmod, test_cmod_damaged)
# are listed in Makefile.am with the core tests.
libnmodel_a_SOURCES += \
	src/formats/cmod/cmod.h src/formats/cmod/driver.c src/formats/cmod/parse_binary.c \
	src/formats/cmod/notes.c src/formats/cmod/tree_mesh.c src/formats/cmod/tree_ascii.c \
	src/formats/cmod/obj.c src/formats/cmod/gltf.c src/formats/cmod/parse_ascii.c \
	src/formats/cmod/write_binary.c

# ASCII CMOD: the spellings read back bit for bit, refusals name file, line and token.
check_PROGRAMS += tests/test_cmod_ascii
TESTS += tests/test_cmod_ascii
tests_test_cmod_ascii_SOURCES = tests/test_cmod_ascii.c tests/walk.h tests/walk.c
tests_test_cmod_ascii_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_cmod_ascii_LDADD = $(LDADD_COMMON) $(CHECK_LIBS) -lm
# The corpus's ASCII files against their binary form, edits of model.ascii.cmod, refusals.
TESTS += tests/cmod_ascii.sh
EXTRA_DIST += tests/cmod_ascii.sh
