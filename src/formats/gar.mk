# gar driver: ZAR v1, GAR v2 and v5 archives (Grezzo, 3DS); doc/gar.md.
libnmodel_a_SOURCES += \
	src/formats/gar/gar.h src/formats/gar/driver.c src/formats/gar/parse_gar.c \
	src/formats/gar/repack.c
