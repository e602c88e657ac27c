# Fuzzing. `./configure CC=clang --enable-fuzzing` builds a libFuzzer target per driver
# and per codec (`make fuzz`; scripts/fuzz runs them); `--enable-fuzzing=engine` links
# them with $LIB_FUZZING_ENGINE instead (.clusterfuzzlite/build.sh, OSS-Fuzz). Every build replays the inputs
# kept in tests/fuzz/regressions/TARGET/ through the same functions (make check).

FUZZ_RUN_SRC = tests/fuzz/run_driver.h tests/fuzz/run_driver.c tests/walk.h tests/walk.c \
	tests/fuzz/sanitizer_options.c
FUZZ_DRIVER_SRC = tests/fuzz/fuzz_driver.c $(FUZZ_RUN_SRC)
FUZZ_CODEC_SRC = tests/fuzz/fuzz_codec.c tests/fuzz/sanitizer_options.c
# J3D recipes: the fixture writer makes a valid file of each (structure-aware).
FUZZ_J3D_STRUCT_SRC = tests/fuzz/fuzz_j3d_struct.c tests/fixtures/j3d_writer.h \
	tests/fixtures/j3d_writer.c $(FUZZ_RUN_SRC)
# TXTR recipes: the fixture writer makes a texture of each, around the fuzzed surface.
FUZZ_TXTR_STRUCT_SRC = tests/fuzz/fuzz_txtr_struct.c tests/fixtures/txtr_writer.h \
	tests/fixtures/txtr_writer.c tests/fixtures/rfrm_writer.h tests/fixtures/rfrm_writer.c \
	$(FUZZ_RUN_SRC)
# Edits written back: a recipe for one edited file of apply's fixture CMB, a J3D fixture
# model, a CMB with textures or a stored TXTR.
FUZZ_APPLY_SRC = tests/fuzz/fuzz_apply.c tests/fixtures/cmb_writer.h tests/fixtures/cmb_writer.c \
	tests/fixtures/j3d_writer.h tests/fixtures/j3d_writer.c \
	tests/fixtures/txtr_writer.h tests/fixtures/txtr_writer.c tests/fixtures/rfrm_writer.h \
	tests/fixtures/rfrm_writer.c tests/walk.h tests/walk.c tests/fuzz/sanitizer_options.c

# ASCII CMOD: the reader, the round trip through model.ascii.cmod's spelling, the tree.
FUZZ_CMOD_ASCII_SRC = tests/fuzz/fuzz_cmod_ascii.c $(FUZZ_RUN_SRC)

if FUZZING
FUZZ_TARGETS = tests/fuzz/fuzz_cmod tests/fuzz/fuzz_cmb tests/fuzz/fuzz_j3d \
	tests/fuzz/fuzz_cmod_full tests/fuzz/fuzz_cmb_full tests/fuzz/fuzz_j3d_full tests/fuzz/fuzz_rfrm_full \
	tests/fuzz/fuzz_j3d_struct tests/fuzz/fuzz_rfrm tests/fuzz/fuzz_pak \
	tests/fuzz/fuzz_pica tests/fuzz/fuzz_gx tests/fuzz/fuzz_lzss tests/fuzz/fuzz_inflate \
	tests/fuzz/fuzz_gpu tests/fuzz/fuzz_tegra tests/fuzz/fuzz_astc tests/fuzz/fuzz_bcn \
	tests/fuzz/fuzz_txtr_struct tests/fuzz/fuzz_yaz0 tests/fuzz/fuzz_yay0 tests/fuzz/fuzz_lz_cx \
	tests/fuzz/fuzz_lzs tests/fuzz/fuzz_bti tests/fuzz/fuzz_grezzo_anim \
	tests/fuzz/fuzz_rarc tests/fuzz/fuzz_zar tests/fuzz/fuzz_gar tests/fuzz/fuzz_yaz0_wrap \
	tests/fuzz/fuzz_lzs_wrap tests/fuzz/fuzz_lz_cx_wrap tests/fuzz/fuzz_j3danim tests/fuzz/fuzz_apply \
	tests/fuzz/fuzz_cmod_ascii tests/fuzz/fuzz_ctxb
EXTRA_PROGRAMS = $(FUZZ_TARGETS)
fuzz: $(FUZZ_TARGETS)
FUZZ_LD = @NM_FUZZ_LD@
else
fuzz:
	@echo "configure with CC=clang --enable-fuzzing to build the fuzz targets"; exit 1
endif
.PHONY: fuzz

# One program per target; the name of the driver or codec is all that differs.
tests_fuzz_fuzz_cmod_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_cmod_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"cmod"'
tests_fuzz_fuzz_cmod_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_cmod_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_cmb_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_cmb_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"cmb"'
tests_fuzz_fuzz_cmb_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_cmb_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_ctxb_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_ctxb_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"ctxb"'
tests_fuzz_fuzz_ctxb_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_ctxb_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_j3d_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_j3d_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"j3d"'
tests_fuzz_fuzz_j3d_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_j3d_LDFLAGS = $(FUZZ_LD)
# The ASCII CMOD reader: what it accepts reads back bit for bit; then the driver's tree.
tests_fuzz_fuzz_cmod_ascii_SOURCES = $(FUZZ_CMOD_ASCII_SRC)
tests_fuzz_fuzz_cmod_ascii_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_cmod_ascii_LDFLAGS = $(FUZZ_LD)
# The model drivers again, reading every file of small inputs (run_driver.h).
tests_fuzz_fuzz_cmod_full_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_cmod_full_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"cmod"' -DNM_FUZZ_FULL=1
tests_fuzz_fuzz_cmod_full_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_cmod_full_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_cmb_full_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_cmb_full_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"cmb"' -DNM_FUZZ_FULL=1
tests_fuzz_fuzz_cmb_full_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_cmb_full_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_j3d_full_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_j3d_full_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"j3d"' -DNM_FUZZ_FULL=1
tests_fuzz_fuzz_j3d_full_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_j3d_full_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_rfrm_full_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_rfrm_full_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"rfrm"' -DNM_FUZZ_FULL=1
tests_fuzz_fuzz_rfrm_full_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_rfrm_full_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_j3danim_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_j3danim_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"j3danim"'
tests_fuzz_fuzz_j3danim_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_j3danim_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_j3d_struct_SOURCES = $(FUZZ_J3D_STRUCT_SRC)
tests_fuzz_fuzz_j3d_struct_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_j3d_struct_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_rfrm_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_rfrm_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"rfrm"'
tests_fuzz_fuzz_rfrm_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_rfrm_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_pak_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_pak_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"pak"'
tests_fuzz_fuzz_pak_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_pak_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_pica_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_pica_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=1
tests_fuzz_fuzz_pica_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_pica_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_gx_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_gx_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=2
tests_fuzz_fuzz_gx_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_gx_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_lzss_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_lzss_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=3
tests_fuzz_fuzz_lzss_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_lzss_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_inflate_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_inflate_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=4
tests_fuzz_fuzz_inflate_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_inflate_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_gpu_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_gpu_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=5
tests_fuzz_fuzz_gpu_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_gpu_LDFLAGS = $(FUZZ_LD)

tests_fuzz_fuzz_tegra_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_tegra_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=6
tests_fuzz_fuzz_tegra_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_tegra_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_astc_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_astc_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=7
tests_fuzz_fuzz_astc_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_astc_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_bcn_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_bcn_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=8
tests_fuzz_fuzz_bcn_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_bcn_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_bti_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_bti_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"bti"'
tests_fuzz_fuzz_bti_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_bti_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_yaz0_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_yaz0_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=9
tests_fuzz_fuzz_yaz0_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_yaz0_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_yay0_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_yay0_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=10
tests_fuzz_fuzz_yay0_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_yay0_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_lz_cx_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_lz_cx_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=11
tests_fuzz_fuzz_lz_cx_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_lz_cx_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_lzs_SOURCES = $(FUZZ_CODEC_SRC)
tests_fuzz_fuzz_lzs_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_CODEC=12
tests_fuzz_fuzz_lzs_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_lzs_LDFLAGS = $(FUZZ_LD)
# Containers and whole-file wrappers (src/formats/container): run by driver name.
tests_fuzz_fuzz_rarc_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_rarc_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"rarc"'
tests_fuzz_fuzz_rarc_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_rarc_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_grezzo_anim_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_grezzo_anim_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"grezzo_anim"'
tests_fuzz_fuzz_grezzo_anim_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_grezzo_anim_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_zar_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_zar_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"zar"'
tests_fuzz_fuzz_zar_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_zar_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_gar_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_gar_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"gar"'
tests_fuzz_fuzz_gar_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_gar_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_yaz0_wrap_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_yaz0_wrap_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"yaz0_wrap"'
tests_fuzz_fuzz_yaz0_wrap_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_yaz0_wrap_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_lzs_wrap_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_lzs_wrap_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"lzs_wrap"'
tests_fuzz_fuzz_lzs_wrap_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_lzs_wrap_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_lz_cx_wrap_SOURCES = $(FUZZ_DRIVER_SRC)
tests_fuzz_fuzz_lz_cx_wrap_CPPFLAGS = $(AM_CPPFLAGS) -DNM_FUZZ_DRIVER='"lz_cx_wrap"'
tests_fuzz_fuzz_lz_cx_wrap_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_lz_cx_wrap_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_txtr_struct_SOURCES = $(FUZZ_TXTR_STRUCT_SRC)
tests_fuzz_fuzz_txtr_struct_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_txtr_struct_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_apply_SOURCES = $(FUZZ_APPLY_SRC)
tests_fuzz_fuzz_apply_LDADD = $(LDADD_COMMON)
tests_fuzz_fuzz_apply_LDFLAGS = $(FUZZ_LD)

# Replays, in every build: the target chosen on the command line.
check_PROGRAMS += tests/fuzz/replay_drivers tests/fuzz/replay_codecs tests/fuzz/replay_j3d_struct \
	tests/fuzz/replay_txtr_struct tests/fuzz/replay_apply tests/fuzz/replay_cmod_ascii
tests_fuzz_replay_drivers_SOURCES = $(FUZZ_DRIVER_SRC) tests/fuzz/replay.c
tests_fuzz_replay_drivers_CPPFLAGS = $(AM_CPPFLAGS) -DNM_REPLAY
tests_fuzz_replay_drivers_LDADD = $(LDADD_COMMON)
tests_fuzz_replay_codecs_SOURCES = $(FUZZ_CODEC_SRC) tests/fuzz/replay.c
tests_fuzz_replay_codecs_CPPFLAGS = $(AM_CPPFLAGS) -DNM_REPLAY
tests_fuzz_replay_codecs_LDADD = $(LDADD_COMMON)
tests_fuzz_replay_j3d_struct_SOURCES = $(FUZZ_J3D_STRUCT_SRC) tests/fuzz/replay.c
tests_fuzz_replay_j3d_struct_CPPFLAGS = $(AM_CPPFLAGS) -DNM_REPLAY
tests_fuzz_replay_j3d_struct_LDADD = $(LDADD_COMMON)
tests_fuzz_replay_txtr_struct_SOURCES = $(FUZZ_TXTR_STRUCT_SRC) tests/fuzz/replay.c
tests_fuzz_replay_txtr_struct_CPPFLAGS = $(AM_CPPFLAGS) -DNM_REPLAY
tests_fuzz_replay_txtr_struct_LDADD = $(LDADD_COMMON)
tests_fuzz_replay_apply_SOURCES = $(FUZZ_APPLY_SRC) tests/fuzz/replay.c
tests_fuzz_replay_apply_CPPFLAGS = $(AM_CPPFLAGS) -DNM_REPLAY
tests_fuzz_replay_apply_LDADD = $(LDADD_COMMON)
tests_fuzz_replay_cmod_ascii_SOURCES = $(FUZZ_CMOD_ASCII_SRC) tests/fuzz/replay.c
tests_fuzz_replay_cmod_ascii_CPPFLAGS = $(AM_CPPFLAGS) -DNM_REPLAY
tests_fuzz_replay_cmod_ascii_LDADD = $(LDADD_COMMON)
TESTS += tests/fuzz/regress.sh
EXTRA_DIST += tests/fuzz/regress.sh tests/fuzz/seeds.sh tests/fuzz/dict tests/fuzz/regressions \
	tests/fuzz/coverage-ignore.txt tests/fuzz/max-len.sh
