if(ROPELENS_SANITIZE)
  # g++'s -fsanitize=undefined leaves out float-cast-overflow (a double too large for the integer it is converted to),
  # which clang's includes; the fuzz builds found one such conversion.
  add_compile_options(-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all)
  # A position-independent executable carries a million relative relocations under ASan (its global descriptors),
  # which the loader applies at every start: 180 ms a run, against 100 ms linked at a fixed address. The suite starts
  # the program thousands of times.
  add_link_options($<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
  add_compile_definitions(_GLIBCXX_ASSERTIONS)
  # With the sanitizers' instrumentation, g++ 12's -Wmaybe-uninitialized reports libstdc++'s own std::regex and
  # std::function internals (the sanitizer build runs at -O1); GCC's manual warns that this warning is unreliable
  # under sanitizers. The uninstrumented builds keep it as an error.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
endif()
