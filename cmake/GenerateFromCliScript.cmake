# Runs BINARY --generate WHAT and writes its stdout to OUTPUT (and OUTPUT.gz, compressed as Debian packages ship
# man pages, when GZIP is given).
execute_process(COMMAND ${BINARY} --generate ${WHAT} OUTPUT_FILE ${OUTPUT}.tmp RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${BINARY} --generate ${WHAT} failed: ${status}")
endif()
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
if(GZIP)
  execute_process(COMMAND ${GZIP} -9 -n -c ${OUTPUT} OUTPUT_FILE ${OUTPUT}.gz RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "gzip ${OUTPUT} failed: ${status}")
  endif()
endif()
