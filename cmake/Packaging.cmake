# Installs ropelens like a package: the binary, a man page and bash/zsh/fish completions generated from the
# command line's own definitions (`ropelens --generate …`), and the docs. CPack makes a .deb of the same files.
include(GNUInstallDirs)

set(ROPELENS_ZSH_COMPLETION_DIR "${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions"
    CACHE STRING "Where the zsh completion is installed (relative to the prefix; Debian's zsh reads vendor-completions)")

find_program(ROPELENS_GZIP gzip)
set(generated ${CMAKE_CURRENT_BINARY_DIR}/generated)
set(man_page ${generated}/ropelens.1)
set(bash_completion ${generated}/completions/ropelens.bash)
set(zsh_completion ${generated}/completions/_ropelens)
set(fish_completion ${generated}/completions/ropelens.fish)

function(generate_from_cli what output)
  set(gzip_option "")
  if(what STREQUAL "man" AND ROPELENS_GZIP)
    set(gzip_option -DGZIP=${ROPELENS_GZIP})
    set(compressed ${output}.gz)
  endif()
  add_custom_command(
    OUTPUT ${output} ${compressed}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${generated}/completions
    COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:ropelens> -DWHAT=${what} -DOUTPUT=${output} ${gzip_option}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/GenerateFromCliScript.cmake
    DEPENDS ropelens ${CMAKE_CURRENT_SOURCE_DIR}/cmake/GenerateFromCliScript.cmake
    COMMENT "Generating ${output} from the command line's definitions"
    VERBATIM)
endfunction()
generate_from_cli(man ${man_page})
generate_from_cli(bash ${bash_completion})
generate_from_cli(zsh ${zsh_completion})
generate_from_cli(fish ${fish_completion})
add_custom_target(ropelens_docs ALL DEPENDS ${man_page} ${bash_completion} ${zsh_completion} ${fish_completion})

install(TARGETS ropelens RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(ROPELENS_GZIP)
  install(FILES ${man_page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  install(FILES ${man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(FILES ${bash_completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME ropelens)
install(FILES ${zsh_completion} DESTINATION ${ROPELENS_ZSH_COMPLETION_DIR})
install(FILES ${fish_completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
install(FILES README.md CHANGELOG.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

# `cpack -G DEB` in the build directory (or `make deb`). dpkg-shlibdeps (package dpkg-dev, with `file`), when
# installed, reads the Depends line off the binary; otherwise it is the line it reads on Debian 12.
set(CPACK_PACKAGE_NAME ropelens)
set(CPACK_PACKAGE_VENDOR ropelens)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "ropelens reads a model's config.json or GGUF header, normalizes its positional-encoding settings, computes \
the exact per-pair RoPE frequencies, and audits what the model can do at a given context length.")
set(CPACK_PACKAGE_CONTACT "ropelens maintainers <ropelens@users.noreply.github.com>" CACHE STRING "Debian Maintainer field")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
find_program(ROPELENS_DPKG_SHLIBDEPS dpkg-shlibdeps)
find_program(ROPELENS_FILE file)
if(ROPELENS_DPKG_SHLIBDEPS AND ROPELENS_FILE)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  # A static-pie command needs no shared library; one linked with the C++ runtime alone needs libc. The Python
  # module uses the shared runtime.
  set(ropelens_depends "")
  if(ROPELENS_PYTHON)
    list(APPEND ropelens_depends "libc6 (>= 2.34)" "libgcc-s1 (>= 3.4)" "libstdc++6 (>= 12)")
  elseif(NOT ROPELENS_COMMAND_LINKAGE STREQUAL "static-pie")
    list(APPEND ropelens_depends "libc6 (>= 2.34)")
  endif()
  list(JOIN ropelens_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
endif()
# The Python module is built for one interpreter's ABI (Debian 12: 3.11). The command works without Python, so the
# package recommends that interpreter instead of depending on it.
if(ROPELENS_PYTHON)
  set(python_abi "${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
  math(EXPR python_next_minor "${Python3_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
      "python3 (>= ${python_abi}~), python3 (<< ${Python3_VERSION_MAJOR}.${python_next_minor})")
endif()
include(CPack)
