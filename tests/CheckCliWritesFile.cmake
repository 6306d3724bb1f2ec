# Runs nestor-cli and checks that it succeeds and that the file it wrote matches a pattern.
# Inputs: CLI (nestor-cli), ARGS (its arguments separated by "::"), FILE (what it writes; removed
# first), PATTERN (regex on the file's text, newlines kept).
string(REPLACE "::" ";" args "${ARGS}")
file(REMOVE "${FILE}")
execute_process(COMMAND ${CLI} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit status ${rc}\n${out}${err}")
endif()
if(NOT EXISTS "${FILE}")
  message(FATAL_ERROR "${FILE} was not written\n${out}${err}")
endif()
file(READ "${FILE}" text)
if(NOT text MATCHES "${PATTERN}")
  message(FATAL_ERROR "${FILE} does not match '${PATTERN}':\n${text}")
endif()
message(STATUS "${FILE} written as expected")
