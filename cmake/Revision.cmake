# The revision `ropelens --version` prints. A target that runs at every build asks git for it and rewrites one
# generated source only when the answer changes, so a commit recompiles that file and relinks, nothing more.
function(add_revision_source output)
  add_custom_target(ropelens_revision
    COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR} -DOUTPUT=${output}
            -DVERSION=${PROJECT_VERSION} -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/RevisionScript.cmake
    BYPRODUCTS ${output}
    COMMENT "Reading the git revision"
    VERBATIM)
endfunction()
