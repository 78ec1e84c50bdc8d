if(ROPELENS_SANITIZE)
  # g++'s -fsanitize=undefined leaves out float-cast-overflow (a double too large for the integer it is converted to),
  # which clang's includes; the fuzz builds found one such conversion.
  add_compile_options(-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all)
  add_compile_definitions(_GLIBCXX_ASSERTIONS)
endif()
