# rfrm driver: sources and tests are added here (see Makefile.am).
