# Build time. The heavy library headers (nlohmann/json, fmt, CLI11, Catch2) are parsed once per target through a
# precompiled header instead of once per source file, and a target's sources compile in unity batches, which saves
# parsing the same ropelens headers again in every file. Both are on by default and change no object's behaviour;
# ROPELENS_UNITY_BUILD=OFF builds file by file, and
# ROPELENS_PCH=OFF turns the precompiled headers off.
option(ROPELENS_PCH "Precompile the heavy library headers" ON)
option(ROPELENS_UNITY_BUILD "Compile each target's sources in unity batches" ON)
set(ROPELENS_UNITY_BATCH_SIZE 12 CACHE STRING "Sources per unity batch")

# ropelens_speed_up_build(target pch_header [NO_UNITY]): the target's precompiled header (a file under cmake/pch/
# listing the library headers it includes) and, unless NO_UNITY, its unity batches of BATCH_SIZE sources (default
# ROPELENS_UNITY_BATCH_SIZE). Test files batch too: a helper or constant two of them need lives in tests/support.hpp
# or tests/model_support.hpp, and a file's own helper has a name no other file gives its own.
function(ropelens_speed_up_build target pch_header)
  cmake_parse_arguments(PARSE_ARGV 2 arg "NO_UNITY" "BATCH_SIZE" "")
  if(NOT arg_BATCH_SIZE)
    set(arg_BATCH_SIZE ${ROPELENS_UNITY_BATCH_SIZE})
  endif()
  if(ROPELENS_PCH)
    target_precompile_headers(${target} PRIVATE ${CMAKE_SOURCE_DIR}/${pch_header})
  endif()
  if(ROPELENS_UNITY_BUILD AND NOT arg_NO_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE BATCH
                                               UNITY_BUILD_BATCH_SIZE ${arg_BATCH_SIZE})
    # The registry compiles alone: tools/new-rule's test replaces it with a scratch copy at link time (an object of
    # its own). Every other source shares a batch, so file-local names stay unique across a target: rule files keep
    # their helpers in a namespace named after the rule, and a clash is a compile error naming both definitions.
    get_target_property(sources ${target} SOURCES)
    foreach(source IN LISTS sources)
      if(source MATCHES "/rules/registry\\.cpp$")
        set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
      endif()
    endforeach()
  endif()
endfunction()
