# Embeds every rule's markdown doc into the binary, so `ropelens explain` works offline.
set(ROPELENS_EMBED_DOCS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/EmbedDocsScript.cmake)
function(embed_rule_docs output)
  set(docs ${ARGN})
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DDOCS=${docs}" -P ${ROPELENS_EMBED_DOCS_SCRIPT}
    DEPENDS ${docs} ${ROPELENS_EMBED_DOCS_SCRIPT}
    COMMENT "Embedding rule docs"
    VERBATIM)
endfunction()
