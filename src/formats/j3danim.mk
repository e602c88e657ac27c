# j3danim driver: J3D animations (BCK, BCA, BTK, BRK, BPK, BTP, BVA, BLK, BLA).
libnmodel_a_SOURCES += \
	src/formats/j3danim/j3danim.h src/formats/j3danim/driver.c \
	src/formats/j3danim/parse_block.c src/formats/j3danim/parse_transform.c \
	src/formats/j3danim/parse_material.c src/formats/j3danim/parse_other.c \
	src/formats/j3danim/keys.c src/formats/j3danim/tree_info.c \
	src/formats/j3danim/tree_targets.c

TESTS += tests/j3danim_corpus.sh
EXTRA_DIST += tests/j3danim_corpus.sh
