# cmod driver: Celestia binary CMOD; doc/cmod.md. Its tests (test_cmod, test_cmod_damaged)
# are listed in Makefile.am with the core tests.
libnmodel_a_SOURCES += \
	src/formats/cmod/cmod.h src/formats/cmod/driver.c src/formats/cmod/parse_binary.c \
	src/formats/cmod/notes.c src/formats/cmod/tree_mesh.c src/formats/cmod/tree_ascii.c \
	src/formats/cmod/obj.c src/formats/cmod/gltf.c src/formats/cmod/parse_ascii.c \
	src/formats/cmod/write_binary.c
