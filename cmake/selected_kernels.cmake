# Writes the default resolver's registration table of a selective build
# (cmake/selective_build.cmake runs this with cmake -P at build time):
# RegisterBuiltinKernels and RegisterMediaPipeKernels holding only the
# selected operators, each with the whole version range the full table gives
# it. Only the Register_* functions named here are referenced, so the linker
# (--gc-sections) drops every other kernel.
#
#   cmake -DSRC=<source dir> -DOPS=<names, ';' or ','> [-DOPS_FILE=<file>]
#         -DOUT=<file.cc> -P selected_kernels.cmake
#
# Names: schema spelling of builtin operators (CONV_2D) and CUSTOM:<name> for
# custom operators, as "model_inspector --list_ops" prints them. OPS_FILE
# holds more names, one per line. The table is read from the full
# registration table (src/kernels/registrations.inc) and the MediaPipe sources
# (src/kernels/mediapipe/*.cc), so a kernel added there is selectable without
# touching this script.

set(_names ${OPS})
string(REPLACE "," ";" _names "${_names}")
if(OPS_FILE)
  file(STRINGS "${OPS_FILE}" _from_file)
  list(APPEND _names ${_from_file})
endif()
set(_selected)
foreach(_n IN LISTS _names)
  string(STRIP "${_n}" _n)
  if(NOT _n STREQUAL "")
    list(APPEND _selected "${_n}")
  endif()
endforeach()
list(REMOVE_DUPLICATES _selected)
list(SORT _selected)

# Reads `file` with comments dropped and whitespace folded to single spaces
# (none right inside parentheses), so a call spread over lines matches.
function(_read_flat file var)
  file(READ "${file}" _t)
  string(REGEX REPLACE "//[^\n]*" "" _t "${_t}")
  string(REGEX REPLACE "[ \t\r\n]+" " " _t "${_t}")
  string(REPLACE "( " "(" _t "${_t}")
  string(REPLACE " )" ")" _t "${_t}")
  set(${var} "${_t}" PARENT_SCOPE)
endfunction()

# Sets `var` to the matches of `pattern` in `text`; fails (with `what`) unless
# every match of the looser `any` is one, so that no registration goes unseen.
function(_all_understood text any pattern var what)
  string(REGEX MATCHALL "${any}" _all "${text}")
  string(REGEX MATCHALL "${pattern}" _matches "${text}")
  list(LENGTH _all _n_all)
  list(LENGTH _matches _n_matches)
  if(NOT _n_all EQUAL _n_matches)
    message(FATAL_ERROR "selected_kernels: ${what} (${_n_all} found, ${_n_matches} understood); "
            "extend cmake/selected_kernels.cmake")
  endif()
  set(${var} "${_matches}" PARENT_SCOPE)
endfunction()

# Schema names -> codes; builtin_ops.h's kTfLiteBuiltin<Camel> -> codes.
_read_flat("${SRC}/schema/schema.fbs" _fbs)
string(REGEX MATCH "enum BuiltinOperator : [a-z0-9]+ {[^}]*}" _enum "${_fbs}")
string(REGEX MATCHALL "[A-Z][A-Z0-9_]* = -?[0-9]+" _pairs "${_enum}")
foreach(_p IN LISTS _pairs)
  string(REGEX MATCH "^([A-Z0-9_]+) = (-?[0-9]+)$" _ "${_p}")
  set(_code_of_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
endforeach()
file(READ "${SRC}/include/tensorflow/lite/builtin_ops.h" _ops_h)
string(REGEX MATCHALL "kTfLiteBuiltin[A-Za-z0-9]+ = [0-9]+" _pairs "${_ops_h}")
foreach(_p IN LISTS _pairs)
  string(REGEX MATCH "^(kTfLiteBuiltin[A-Za-z0-9]+) = ([0-9]+)$" _ "${_p}")
  set(_code_of_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
endforeach()

# The full table: the TFLC_BUILTIN/TFLC_CUSTOM lines of
# src/kernels/registrations.inc.
set(_table "${SRC}/src/kernels/registrations.inc")
_read_flat("${_table}" _t)
set(_entry "TFLC_(BUILTIN|CUSTOM)\\((kTfLiteBuiltin[A-Za-z0-9]+|\"[^\"]+\"), (Register_[A-Z0-9_]+), ([0-9]+), ([0-9]+)\\)")
_all_understood("${_t}" "TFLC_[A-Z]+\\(" "${_entry}" _entries
  "${_table}: entries not of the form TFLC_BUILTIN(kTfLiteBuiltinX or TFLC_CUSTOM(\"name\", Register_X, min, max)")
foreach(_e IN LISTS _entries)
  string(REGEX MATCH "${_entry}" _ "${_e}")
  set(_key "${CMAKE_MATCH_2}")
  set(_fn "${CMAKE_MATCH_3}")
  set(_min "${CMAKE_MATCH_4}")
  set(_max "${CMAKE_MATCH_5}")
  if(CMAKE_MATCH_1 STREQUAL "CUSTOM")
    set(_kind Custom)
    string(REGEX REPLACE "^\"(.*)\"$" "\\1" _custom "${_key}")
    set(_name "CUSTOM:${_custom}")
  else()
    set(_kind Builtin)
    if(NOT DEFINED _code_of_${_key})
      message(FATAL_ERROR "selected_kernels: ${_key} (${_table}) is not in builtin_ops.h")
    endif()
    set(_name "#${_code_of_${_key}}")
  endif()
  string(APPEND _lines_${_name}
    "  resolver->Add${_kind}(${_key}, kernels::${_fn}(), ${_min}, ${_max});\n")
endforeach()

# MediaPipe's operators: Register_X() { static ... op = MakeCustomOperator(kName, ...) } or
# { return PoolingOperator<kName, ...>(); }, and Register_X(int version) { return
# VersionedOperator<kNameV1, kNameV2, ...>(version); } (version 1 under the first name, 2 under
# the second).
file(GLOB _mp_sources "${SRC}/src/kernels/mediapipe/*.cc")
foreach(_f IN LISTS _mp_sources)
  _read_flat("${_f}" _t)
  string(REGEX MATCHALL "constexpr char k[A-Za-z0-9]*\\[\\] = \"[^\"]*\"" _consts "${_t}")
  foreach(_c IN LISTS _consts)
    string(REGEX MATCH "(k[A-Za-z0-9]*)\\[\\] = \"([^\"]*)\"" _ "${_c}")
    set(_const_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  endforeach()
  set(_single "(Register_[A-Z0-9_]+)\\(\\) { (static const TfLiteOperator\\* op = MakeCustomOperator\\(|return PoolingOperator<)(k[A-Za-z0-9]+)")
  set(_versioned "(Register_[A-Z0-9_]+)\\(int version\\) { return VersionedOperator<(k[A-Za-z0-9]+), (k[A-Za-z0-9]+)")
  string(REGEX MATCHALL "TfLiteOperator\\* Register_[A-Z0-9_]+\\([a-z ]*\\) {" _all "${_t}")
  string(REGEX MATCHALL "${_single}" _defs "${_t}")
  string(REGEX MATCHALL "${_versioned}" _vdefs "${_t}")
  list(LENGTH _all _n_all)
  list(LENGTH _defs _n_defs)
  list(LENGTH _vdefs _n_vdefs)
  math(EXPR _n_understood "${_n_defs} + ${_n_vdefs}")
  if(NOT _n_all EQUAL _n_understood)
    message(FATAL_ERROR "selected_kernels: ${_f}: Register_* definitions not of the form "
            "MakeCustomOperator(kName, ...), PoolingOperator<kName, ...> or "
            "VersionedOperator<kNameV1, kNameV2, ...> (${_n_all} found, ${_n_understood} "
            "understood); extend cmake/selected_kernels.cmake")
  endif()
  foreach(_d IN LISTS _defs)
    string(REGEX MATCH "${_single}" _ "${_d}")
    set(_name "CUSTOM:${_const_${CMAKE_MATCH_3}}")
    string(APPEND _mp_${_name} "      mediapipe::${CMAKE_MATCH_1}(),\n")
  endforeach()
  foreach(_d IN LISTS _vdefs)
    string(REGEX MATCH "${_versioned}" _ "${_d}")
    set(_fn "${CMAKE_MATCH_1}")
    set(_name1 "CUSTOM:${_const_${CMAKE_MATCH_2}}")
    set(_name2 "CUSTOM:${_const_${CMAKE_MATCH_3}}")
    string(APPEND _mp_${_name1} "      mediapipe::${_fn}(1),\n")
    string(APPEND _mp_${_name2} "      mediapipe::${_fn}(2),\n")
  endforeach()
endforeach()

# The selection.
set(_builtin_code "")
set(_mp_code "")
set(_summary)
set(_missing)
foreach(_n IN LISTS _selected)
  if(_n MATCHES "^CUSTOM:")
    set(_key "${_n}")
  elseif(DEFINED _code_of_${_n})
    set(_key "#${_code_of_${_n}}")
  else()
    message(FATAL_ERROR "selected_kernels: '${_n}' is not an operator name (schema spelling "
            "such as CONV_2D, or CUSTOM:<name>; model_inspector --list_ops prints them)")
  endif()
  if(DEFINED _lines_${_key} OR DEFINED _mp_${_key})
    string(APPEND _builtin_code "${_lines_${_key}}")
    string(APPEND _mp_code "${_mp_${_key}}")
    list(APPEND _summary "${_n}")
  else()
    list(APPEND _missing "${_n}")
  endif()
endforeach()
if(_missing)
  list(JOIN _missing ", " _m)
  message(WARNING "selected_kernels: no kernel in tflite-c for ${_m}; models using them "
          "fail at TfLiteInterpreterCreate, as with the full library")
endif()
list(JOIN _summary " " _summary)

set(_text "// Generated by cmake/selected_kernels.cmake for a selective build; do not edit.
// Selected: ${_summary}
#include \"src/kernels/mediapipe/mediapipe_ops.h\"
#include \"src/kernels/register.h\"
#include \"tensorflow/lite/builtin_ops.h\"

namespace tflite_c {

void RegisterBuiltinKernels(MutableOpResolver* resolver) {
  (void)resolver;
${_builtin_code}}

void RegisterMediaPipeKernels(MutableOpResolver* resolver) {
  const TfLiteOperator* const ops[] = {
      nullptr,
${_mp_code}  };
  mediapipe::AddOperators(resolver, ops, sizeof(ops) / sizeof(ops[0]));
}

}  // namespace tflite_c
")
# Rewritten only when it changes, so an unchanged selection recompiles nothing.
if(EXISTS "${OUT}")
  file(READ "${OUT}" _old)
else()
  set(_old "")
endif()
if(NOT _old STREQUAL _text)
  file(WRITE "${OUT}" "${_text}")
endif()
list(LENGTH _selected _n_sel)
message(STATUS "selected_kernels: ${_n_sel} operators selected: ${_summary}")
