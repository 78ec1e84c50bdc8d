# Warnings for ropelens' own targets only (linked PRIVATE), so packagers' compilers never break on them.
add_library(ropelens_warnings INTERFACE)
target_compile_options(ropelens_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wdouble-promotion)
if(ROPELENS_WERROR)
  target_compile_options(ropelens_warnings INTERFACE -Werror)
endif()
