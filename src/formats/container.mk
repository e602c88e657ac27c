# The container layer every archive, compression wrapper and folder mount shares
# (src/formats/container/container.h), and the wrapper drivers (src/formats/packed/).
libnmodel_a_SOURCES += \
	src/formats/container/container.h src/formats/container/unpack.c \
	src/formats/container/member.c src/formats/container/entries.c \
	src/formats/container/archive.c src/formats/container/folder.c \
	src/formats/container/pairing.c src/formats/container/layout.c
libnmodel_a_SOURCES += src/formats/packed/driver.c

check_PROGRAMS += tests/test_archive
TESTS += tests/test_archive
tests_test_archive_SOURCES = tests/test_archive.c tests/walk.h tests/walk.c \
	tests/fixtures/archive_writer.h tests/fixtures/archive_writer.c \
	tests/fixtures/cmod_writer.h tests/fixtures/cmod_writer.c
tests_test_archive_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_archive_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
