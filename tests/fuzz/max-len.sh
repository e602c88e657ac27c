#!/bin/sh
# tests/fuzz/max-len.sh NAME: the longest input fuzz target NAME (without fuzz_) is given,
# for scripts/fuzz and .clusterfuzzlite/build.sh (NAME.options) alike.
# - _full and cmod_ascii keep an input's first 16 KiB themselves (run_driver.h): no longer.
# - j3d: 32 KiB. Its cost is its records (every joint's matrices and material's fields
#   formatted at build), so a long input repeats the same code per record: at 256 KiB
#   it ran ~500 executions a second, at 32 KiB ~1,500, with the same coverage after 30 s
#   (2,796 edges against 2,790). Every chunk kind still fits: the fixture writer's
#   models are 5 KiB, and j3d_full and j3d_struct read them whole.
# - cmb: 64 KiB, every real CMB here whole (30-50 KiB), none of the repeats of a
#   mutation grown past it: ~1,150 executions a CPU-second instead of ~1,000.
# - yaz0_wrap, lzs_wrap: 16 KiB. Seeded with real compressed archives, an execution
#   decompressed and built every member model (2 to 120 a CPU-second); the members'
#   formats have targets of their own, the wrapper needs a stream and an archive's
#   tables. A cut stream now keeps its members before the cut, so run_driver.c also
#   leaves the members unbuilt (max_depth 1): ~1,200-3,900 a CPU-second on the seeds.
# - zar: 16 KiB. The real ZAR (255 KiB of CMABs with their textures) and the corpus
#   grown from it made an execution build and walk hundreds of members, and nested
#   archives of them: ~120 executions a CPU-second, a third of it making member nodes
#   and error files. The members have targets of their own (grezzo_anim, cmb); ZAR's
#   header and tables and a few members fit in 16 KiB.
# - the others: 256 KiB, whole real models.
case $1 in
*_full | cmod_ascii | yaz0_wrap | lzs_wrap | zar) echo 16384 ;;
j3d) echo 32768 ;;
cmb) echo 65536 ;;
*) echo 262144 ;;
esac
