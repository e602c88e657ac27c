# The container layer every archive, compression wrapper and folder mount shares
# (src/formats/container/container.h), and the wrapper drivers (src/formats/packed/).
libnmodel_a_SOURCES += \
	src/formats/container/container.h src/formats/container/unpack.c \
	src/formats/container/member.c src/formats/container/entries.c \
	src/formats/container/archive.c src/formats/container/folder.c
libnmodel_a_SOURCES += src/formats/packed/driver.c
