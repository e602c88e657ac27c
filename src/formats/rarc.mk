# rarc driver: RARC archives (GameCube/Wii); doc/rarc.md.
libnmodel_a_SOURCES += \
	src/formats/rarc/rarc.h src/formats/rarc/driver.c src/formats/rarc/parse_rarc.c \
	src/formats/rarc/repack.c
