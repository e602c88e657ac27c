#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build (run by the base image's `compile`, from $SRC/nmodelfs,
# with CC, CXX, CFLAGS, CXXFLAGS, LIB_FUZZING_ENGINE, OUT and WORK set): every fuzz target
# built with $CC $CFLAGS and linked with $LIB_FUZZING_ENGINE, into $OUT with its seeds
# (NAME_seed_corpus.zip, written by the project's fixture writers: tests/fuzz/seeds.sh),
# its dictionary (NAME.dict) and its options (NAME.options). scripts/fuzz-oss runs this
# file here the same way and then each target for a few seconds.
cd "${NM_SRC:-$SRC/nmodelfs}"
# The two C++ wrappers (src/codec/astc.cpp, bcn_squish.cpp) are built without RTTI and
# linked without the C++ library: UBSan's C++-only checks, which OSS-Fuzz's undefined
# build turns on, need both.
export CXXFLAGS="$CXXFLAGS -fno-sanitize=vptr,function"
autoreconf -fi
./configure --enable-fuzzing=engine
make -j"$(nproc)" fuzz
# The fixture writers, built with the same flags, write the seeds.
make -j"$(nproc)" tests/mkfixture tests/mkpak
seeds=$WORK/nmodelfs-seeds
rm -rf "$seeds"
tests/fuzz/seeds.sh "$seeds" .
for bin in tests/fuzz/fuzz_*; do
	[ -x "$bin" ] && [ ! -d "$bin" ] || continue
	target=$(basename "$bin")
	name=${target#fuzz_}
	cp "$bin" "$OUT/"
	if [ -n "$(ls "$seeds/$name" 2>/dev/null)" ]; then
		(cd "$seeds/$name" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
	fi
	dict=tests/fuzz/dict/${name%_full}.dict
	[ -f "$dict" ] && cp "$dict" "$OUT/$target.dict"
	max_len=$(tests/fuzz/max-len.sh "$name")
	printf '[libfuzzer]\nmax_len = %s\n' "$max_len" > "$OUT/$target.options"
done
