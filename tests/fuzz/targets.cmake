# The libFuzzer targets, each tests/fuzz/fuzz_<name>.cpp with seeds in corpus/<name>/. Shared
# by the fuzz build (which builds them) and the normal tests (which run them when present).
set(SBX_FUZZ_TARGETS request multipart terminalframe vtoutput logframes status terminalemulation
  vtparser
  filelisting)
