# j3d driver: sources and tests are added here (see Makefile.am).
