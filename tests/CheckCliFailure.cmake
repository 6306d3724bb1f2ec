# Runs nestor-cli with bad input and checks that it fails with the expected exit status and a
# message matching a pattern (a non-zero exit alone could be a crash).
# Inputs: CLI (nestor-cli), ARGS (its arguments separated by "::", so that values may hold ';',
# ',' or '|'), EXIT (expected exit status), PATTERN (regex on stdout + stderr).
string(REPLACE "::" ";" args "${ARGS}")
execute_process(COMMAND ${CLI} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
string(REPLACE "\n" " " report "${out}${err}")
if(NOT "${rc}" STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXIT}\n${out}${err}")
endif()
if(NOT report MATCHES "${PATTERN}")
  message(FATAL_ERROR "the report does not match '${PATTERN}':\n${out}${err}")
endif()
message(STATUS "exit ${rc} with the expected message")
