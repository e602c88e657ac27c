# grezzo_anim driver: Grezzo CMAB (material) and CSAB (skeletal) animations, FORMATS.md
# 10.11 and 10.12; doc/grezzo_anim.md.
libnmodel_a_SOURCES += \
	src/formats/grezzo_anim/grezzo_anim.h src/formats/grezzo_anim/parse_keys.h \
	src/formats/grezzo_anim/driver.c src/formats/grezzo_anim/anim.c \
	src/formats/grezzo_anim/names.c src/formats/grezzo_anim/parse_keys.c \
	src/formats/grezzo_anim/parse_cmab.c src/formats/grezzo_anim/parse_csab.c \
	src/formats/grezzo_anim/tree_tracks.c src/formats/grezzo_anim/tree_cmab.c \
	src/formats/grezzo_anim/tree_csab.c src/formats/grezzo_anim/tree_txpt.c

check_PROGRAMS += tests/test_grezzo_anim
TESTS += tests/test_grezzo_anim
tests_test_grezzo_anim_SOURCES = tests/test_grezzo_anim.c tests/walk.h tests/walk.c \
	tests/fixtures/grezzo_anim_writer.h tests/fixtures/grezzo_anim_writer.c
tests_test_grezzo_anim_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_grezzo_anim_LDADD = $(LDADD_COMMON) $(CHECK_LIBS) -lm

# mkfixture grezzo KIND OUT writes the samples (the fuzz seeds in tests/fuzz/regressions).
tests_mkfixture_SOURCES += tests/fixtures/grezzo_anim_writer.h tests/fixtures/grezzo_anim_writer.c
