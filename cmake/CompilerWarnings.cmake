# One INTERFACE target carrying warnings, defines and sanitizer flags; every target links it.
add_library(sbx_options INTERFACE)
target_compile_options(sbx_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
target_compile_definitions(sbx_options INTERFACE
  QT_NO_CAST_FROM_ASCII
  QT_NO_URL_CAST_FROM_STRING
  QT_NO_CAST_TO_ASCII
  QT_USE_QSTRINGBUILDER)
# The repository root is the one include root: includes read "client/transport/endpoint.h".
target_include_directories(sbx_options INTERFACE ${PROJECT_SOURCE_DIR})
if(SBX_SANITIZE)
  target_compile_options(sbx_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(sbx_options INTERFACE -fsanitize=address,undefined)
endif()
if(SBX_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SBX_FUZZ needs clang (libFuzzer): configure with CMAKE_CXX_COMPILER=clang++-14")
  endif()
  # Coverage for libFuzzer in every library; the fuzz targets add -fsanitize=fuzzer (the main).
  # UB aborts instead of printing and going on, so the fuzzer reports it as a crash.
  target_compile_options(sbx_options INTERFACE -fsanitize=fuzzer-no-link,address,undefined
    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(sbx_options INTERFACE -fsanitize=address,undefined)
endif()
