# Codecs: pure buffer -> buffer functions, each with its known-answer tests.
libnmodel_a_SOURCES += \
	src/codec/pica.h src/codec/pica.c src/codec/pica_encode.c src/codec/pica_internal.h \
	src/codec/etc1.h src/codec/etc1.c src/codec/quantize.h \
	src/codec/gx.h src/codec/gx.c src/codec/gx_cmpr.c src/codec/gx_internal.h \
	src/codec/gx_encode.c src/codec/gx_palette.c \
	src/codec/lzss_retro.h src/codec/lzss_retro.c \
	src/codec/arith_retro.h src/codec/arith_retro.c \
	src/codec/gpu_buffer.h src/codec/gpu_buffer.c \
	src/codec/inflate.h src/codec/inflate.c \
	src/codec/tegra_swizzle.h src/codec/tegra_swizzle.c \
	src/codec/astc.h src/codec/astc.cpp \
	src/codec/bcn.h src/codec/bcn.c src/codec/bc7.c src/codec/bcn_squish.cpp \
	src/codec/bcn_encode.c src/codec/mip.h src/codec/mip.c \
	src/codec/lz_common.h src/codec/lz_common.c \
	src/codec/yaz0.h src/codec/yaz0.c src/codec/yay0.h src/codec/yay0.c \
	src/codec/lz_cx.h src/codec/lz_cx.c src/codec/lzs.h src/codec/lzs.c

check_PROGRAMS += tests/test_codec_pica tests/test_codec_etc1 \
	tests/test_codec_gx tests/test_codec_compress \
	tests/test_codec_gpu tests/test_codec_tegra tests/test_codec_astc tests/test_codec_bcn \
	tests/test_codec_lz tests/test_codec_encode
TESTS += tests/test_codec_pica tests/test_codec_etc1 \
	tests/test_codec_gx tests/test_codec_compress \
	tests/test_codec_gpu tests/test_codec_tegra tests/test_codec_astc tests/test_codec_bcn \
	tests/test_codec_lz tests/test_codec_encode
tests_test_codec_pica_SOURCES = tests/test_codec_pica.c
tests_test_codec_pica_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_codec_pica_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
tests_test_codec_etc1_SOURCES = tests/test_codec_etc1.c
tests_test_codec_etc1_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_codec_etc1_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
tests_test_codec_gx_SOURCES = tests/test_codec_gx.c
tests_test_codec_gx_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_codec_gx_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
tests_test_codec_compress_SOURCES = tests/test_codec_compress.c
tests_test_codec_compress_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_codec_compress_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
tests_test_codec_gpu_SOURCES = tests/test_codec_gpu.c
tests_test_codec_gpu_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_codec_gpu_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
tests_test_codec_tegra_SOURCES = tests/test_codec_tegra.c
tests_test_codec_tegra_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_codec_tegra_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
tests_test_codec_astc_SOURCES = tests/test_codec_astc.c
tests_test_codec_astc_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_codec_astc_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
tests_test_codec_bcn_SOURCES = tests/test_codec_bcn.c
tests_test_codec_bcn_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_codec_bcn_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
tests_test_codec_lz_SOURCES = tests/test_codec_lz.c
tests_test_codec_lz_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_codec_lz_LDADD = $(LDADD_COMMON) $(CHECK_LIBS)
tests_test_codec_encode_SOURCES = tests/test_codec_encode.c
tests_test_codec_encode_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_codec_encode_LDADD = $(LDADD_COMMON) $(CHECK_LIBS) -lm
