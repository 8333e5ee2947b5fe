# tflite_c_require_listed(<dir> <what to do> [EXCLUDE <regex>] LISTED <file>...)
# Stops configuration naming every .c/.cc file under <dir> that is not among
# the LISTED absolute paths, so a source no list names is caught instead of
# silently left out of the build. The glob compiles nothing;
# CONFIGURE_DEPENDS re-runs it (and so this check) when files come or go.
function(tflite_c_require_listed dir what)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "EXCLUDE" "LISTED")
  file(GLOB_RECURSE _unlisted CONFIGURE_DEPENDS ${dir}/*.c ${dir}/*.cc)
  if(arg_EXCLUDE)
    list(FILTER _unlisted EXCLUDE REGEX "${arg_EXCLUDE}")
  endif()
  foreach(_f IN LISTS arg_LISTED)
    list(REMOVE_ITEM _unlisted "${_f}")
  endforeach()
  if(_unlisted)
    list(TRANSFORM _unlisted REPLACE "^${PROJECT_SOURCE_DIR}/" "")
    list(JOIN _unlisted "\n  " _names)
    file(RELATIVE_PATH _dir ${PROJECT_SOURCE_DIR} ${dir})
    message(FATAL_ERROR "Sources under ${_dir}/ that are in no list (${what}):\n  ${_names}")
  endif()
endfunction()
