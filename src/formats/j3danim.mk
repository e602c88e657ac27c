# j3danim driver: J3D animations (BCK, BCA, BTK, BRK, BPK, BTP, BVA, BLK, BLA).
libnmodel_a_SOURCES += \
	src/formats/j3danim/j3danim.h src/formats/j3danim/driver.c \
	src/formats/j3danim/parse_block.c src/formats/j3danim/parse_transform.c \
	src/formats/j3danim/parse_material.c src/formats/j3danim/parse_other.c \
	src/formats/j3danim/keys.c src/formats/j3danim/tree_info.c \
	src/formats/j3danim/tree_targets.c

TESTS += tests/j3danim_corpus.sh
EXTRA_DIST += tests/j3danim_corpus.sh

check_PROGRAMS += tests/test_j3danim
TESTS += tests/test_j3danim
tests_test_j3danim_SOURCES = tests/test_j3danim.c tests/walk.h tests/walk.c \
	tests/fixtures/j3danim_writer.h tests/fixtures/j3danim_writer.c
tests_test_j3danim_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_test_j3danim_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_j3danim_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
