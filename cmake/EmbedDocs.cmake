# Embeds every rule's markdown doc into the binary, so `ropelens explain` works offline.
function(embed_rule_docs output)
  set(docs ${ARGN})
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DDOCS=${docs}" -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/EmbedDocsScript.cmake
    DEPENDS ${docs} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/EmbedDocsScript.cmake
    COMMENT "Embedding rule docs"
    VERBATIM)
endfunction()
