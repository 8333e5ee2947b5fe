# Every source file of the libraries built from src/, one explicit list per
# piece, one file per line (paths relative to src/). Adding a .cc file under
# src/ means adding one line here; configuration stops with the name of any
# .cc file under src/ that no list below holds (the check at the end).
#
#   tflite_c_obj (CMakeLists.txt)    core, kernels, C API, MediaPipe custom ops,
#                                    external delegate, XNNPACK delegate (or its
#                                    stub when built without XNNPACK)
#   tflite_cc_obj (src/cc)           the C++ API
#   tflite_c_delegate_utils_obj      the SimpleDelegate framework
#     (src/delegates)
#   tflite_c_xnnpack_plugin          the XNNPACK external delegate library
#     (src/delegates)

# ---- tflite_c_obj -------------------------------------------------------------

set(TFLITE_C_CORE_SOURCES
  core/arena_planner.cc
  core/builtin_data.cc
  core/builtin_data_layers.cc
  core/builtin_data_ops.cc
  core/builtin_data_stablehlo.cc
  core/common.cc
  core/error_reporter.cc
  core/exception_guard.cc
  core/interpreter.cc
  core/interpreter_builder.cc
  core/memory_budget.cc
  core/model.cc
  core/model_checker.cc
  core/op_resolver.cc
  core/partitioner.cc
  core/profiler.cc
  core/string_util.cc
  core/subgraph.cc
  core/subgraph_access.cc
  core/subgraph_context.cc
  core/subgraph_delegation.cc
  core/subgraph_invoke.cc
  core/subgraph_memory.cc
  core/tensor_checker.cc
  core/tensor_util.cc
  core/worker_pool.cc)

# Builtin kernels. register.cc holds the default resolver's table (expanded from
# kernels/registrations.inc); a selective build (cmake/selective_build.cmake)
# replaces it with a generated one.

set(TFLITE_C_KERNEL_SOURCES
  kernels/activations.cc
  kernels/add.cc
  kernels/add_n.cc
  kernels/arg_min_max.cc
  kernels/atan2.cc
  kernels/audio_spectrogram.cc
  kernels/batch_matmul.cc
  kernels/batch_to_space_nd.cc
  kernels/bidirectional_sequence_lstm.cc
  kernels/bidirectional_sequence_rnn.cc
  kernels/bitcast.cc
  kernels/bitwise.cc
  kernels/broadcast_args.cc
  kernels/broadcast_to.cc
  kernels/bucketize.cc
  kernels/cast.cc
  kernels/comparisons.cc
  kernels/complex.cc
  kernels/concatenation.cc
  kernels/control_flow.cc
  kernels/conv.cc
  kernels/conv3d.cc
  kernels/cumsum.cc
  kernels/densify.cc
  kernels/depthwise_conv.cc
  kernels/dequantize.cc
  kernels/detection_postprocess.cc
  kernels/dilate.cc
  kernels/div.cc
  kernels/dynamic_update_slice.cc
  kernels/embedding_lookup.cc
  kernels/embedding_lookup_sparse.cc
  kernels/expand_dims.cc
  kernels/fake_quant.cc
  kernels/fill.cc
  kernels/floor_div_mod.cc
  kernels/fully_connected.cc
  kernels/gather.cc
  kernels/gather_nd.cc
  kernels/hashtable.cc
  kernels/hashtable_lookup.cc
  kernels/local_response_norm.cc
  kernels/logical.cc
  kernels/logistic.cc
  kernels/lsh_projection.cc
  kernels/lstm.cc
  kernels/lstm_basic.cc
  kernels/lstm_float_eval.cc
  kernels/lstm_integer8_eval.cc
  kernels/lstm_integer_eval.cc
  kernels/lut_activations.cc
  kernels/matrix_diag.cc
  kernels/maximum_minimum.cc
  kernels/mfcc.cc
  kernels/mirror_pad.cc
  kernels/mul.cc
  kernels/non_max_suppression.cc
  kernels/numeric_verify.cc
  kernels/one_hot.cc
  kernels/pack.cc
  kernels/pad.cc
  kernels/pooling.cc
  kernels/pow.cc
  kernels/quantize.cc
  kernels/random_ops.cc
  kernels/range.cc
  kernels/rank.cc
  kernels/reduce.cc
  kernels/reduce_window.cc
  kernels/register.cc
  kernels/relu.cc
  kernels/reshape.cc
  kernels/resize.cc
  kernels/resource_variables.cc
  kernels/reverse_sequence.cc
  kernels/reverse_v2.cc
  kernels/rfft2d.cc
  kernels/rnn.cc
  kernels/rowwise_activations.cc
  kernels/scatter_nd.cc
  kernels/segment_sum.cc
  kernels/select.cc
  kernels/shape.cc
  kernels/skip_gram.cc
  kernels/slice.cc
  kernels/softmax.cc
  kernels/space_depth.cc
  kernels/space_to_batch_nd.cc
  kernels/sparse_to_dense.cc
  kernels/split.cc
  kernels/split_v.cc
  kernels/squared_difference.cc
  kernels/squeeze.cc
  kernels/stablehlo_composite.cc
  kernels/stablehlo_elementwise.cc
  kernels/stablehlo_gather.cc
  kernels/stablehlo_pad.cc
  kernels/stablehlo_rng_bit_generator.cc
  kernels/stablehlo_scatter.cc
  kernels/strided_slice.cc
  kernels/sub.cc
  kernels/svdf.cc
  kernels/tile.cc
  kernels/topk_v2.cc
  kernels/transpose.cc
  kernels/transpose_conv.cc
  kernels/unary_math.cc
  kernels/unique.cc
  kernels/unpack.cc
  kernels/where.cc
  kernels/zeros_like.cc)

set(TFLITE_C_KERNEL_INTERNAL_SOURCES
  kernels/internal/activation.cc
  kernels/internal/axis_gather.cc
  kernels/internal/axis_split.cc
  kernels/internal/broadcast.cc
  kernels/internal/checked_math.cc
  kernels/internal/conv_hybrid.cc
  kernels/internal/conv_util.cc
  kernels/internal/counter_rng.cc
  kernels/internal/dequantize_util.cc
  kernels/internal/elementwise_binary.cc
  kernels/internal/elementwise_unary.cc
  kernels/internal/fingerprint64.cc
  kernels/internal/flex_map.cc
  kernels/internal/gemm.cc
  kernels/internal/gemm_avx2.cc
  kernels/internal/hybrid_fc.cc
  kernels/internal/index_util.cc
  kernels/internal/int16_activation.cc
  kernels/internal/kernel_util.cc
  kernels/internal/layout_util.cc
  kernels/internal/lstm_integer.cc
  kernels/internal/lut16.cc
  kernels/internal/padding.cc
  kernels/internal/parallel.cc
  kernels/internal/qgemm.cc
  kernels/internal/quant_binary.cc
  kernels/internal/quant_conv.cc
  kernels/internal/quant_math.cc
  kernels/internal/quant_validate.cc
  kernels/internal/recurrent_util.cc
  kernels/internal/space_batch.cc
  kernels/internal/sparse_fully_connected.cc
  kernels/internal/spectral.cc
  kernels/internal/stablehlo_util.cc
  kernels/internal/string_gather.cc)

# MediaPipe's custom operators; register_mediapipe.cc is their table, which a
# selective build also replaces.

set(TFLITE_C_MEDIAPIPE_SOURCES
  kernels/mediapipe/convolution_2d_transpose_bias.cc
  kernels/mediapipe/landmarks_to_transform_matrix.cc
  kernels/mediapipe/litert_max_unpooling_2d.cc
  kernels/mediapipe/max_pooling_with_argmax_2d.cc
  kernels/mediapipe/max_unpooling_2d.cc
  kernels/mediapipe/mediapipe_common.cc
  kernels/mediapipe/register_mediapipe.cc
  kernels/mediapipe/transform_landmarks.cc
  kernels/mediapipe/transform_tensor_bilinear.cc)

set(TFLITE_C_C_API_SOURCES
  c_api/c_api.cc
  c_api/c_api_options.cc
  c_api/c_api_experimental.cc
  c_api/c_api_opaque.cc
  c_api/c_api_opaque_context.cc
  c_api/c_api_signature.cc
  c_api/c_api_tensor.cc
  c_api/default_xnnpack.cc
  c_api/operator.cc
  c_api/registration_external.cc
  c_api/tflite_c_experimental.cc
  c_api/tflite_c_profiler.cc)

set(TFLITE_C_EXTERNAL_DELEGATE_SOURCES
  delegates/external/external_delegate.cc)

# The XNNPACK delegate (TFLITE_C_WITH_XNNPACK=ON) ...

set(TFLITE_C_XNNPACK_SOURCES
  delegates/xnnpack/allocator.cc
  delegates/xnnpack/kernel.cc
  delegates/xnnpack/op_builder.cc
  delegates/xnnpack/ops_attention.cc
  delegates/xnnpack/ops_compute.cc
  delegates/xnnpack/ops_hybrid.cc
  delegates/xnnpack/ops_layout.cc
  delegates/xnnpack/ops_mediapipe.cc
  delegates/xnnpack/pad_folding.cc
  delegates/xnnpack/precision.cc
  delegates/xnnpack/profiling.cc
  delegates/xnnpack/sparse_weights.cc
  delegates/xnnpack/variables.cc
  delegates/xnnpack/weight_cache.cc
  delegates/xnnpack/weights_cache_api.cc
  delegates/xnnpack/xnnpack_delegate.cc)

# ... or, without it, its C API reporting "not built".
set(TFLITE_C_XNNPACK_DISABLED_SOURCES delegates/xnnpack/xnnpack_disabled.cc)

# ---- the other libraries ----------------------------------------------------------

set(TFLITE_CC_SOURCES
  cc/error_reporter.cc
  cc/interpreter.cc
  cc/interpreter_builder.cc
  cc/model_builder.cc
  cc/op_resolver.cc
  cc/optional_debug_tools.cc
  cc/string_util.cc)

set(TFLITE_C_DELEGATE_UTILS_SOURCES
  delegates/simple_delegate/partition_selector.cc
  delegates/simple_delegate/simple_delegate.cc
  delegates/simple_delegate/simple_opaque_delegate.cc)

set(TFLITE_C_XNNPACK_PLUGIN_SOURCES
  delegates/xnnpack/plugin/xnnpack_plugin.cc)

set(TFLITE_C_SOURCE_LISTS
  TFLITE_C_CORE_SOURCES TFLITE_C_KERNEL_SOURCES TFLITE_C_KERNEL_INTERNAL_SOURCES
  TFLITE_C_MEDIAPIPE_SOURCES TFLITE_C_C_API_SOURCES TFLITE_C_EXTERNAL_DELEGATE_SOURCES
  TFLITE_C_XNNPACK_SOURCES TFLITE_C_XNNPACK_DISABLED_SOURCES
  TFLITE_CC_SOURCES TFLITE_C_DELEGATE_UTILS_SOURCES TFLITE_C_XNNPACK_PLUGIN_SOURCES)
foreach(_list IN LISTS TFLITE_C_SOURCE_LISTS)
  list(TRANSFORM ${_list} PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
endforeach()

# ---- every source in exactly one list -------------------------------------------------
set(_tflite_c_listed "")
foreach(_list IN LISTS TFLITE_C_SOURCE_LISTS)
  list(APPEND _tflite_c_listed ${${_list}})
endforeach()
set(_tflite_c_unique ${_tflite_c_listed})
list(REMOVE_DUPLICATES _tflite_c_unique)
if(NOT _tflite_c_unique STREQUAL _tflite_c_listed)
  message(FATAL_ERROR "src/sources.cmake names a file in two lists")
endif()
tflite_c_require_listed(${CMAKE_CURRENT_LIST_DIR}
  "add each to its library's list in src/sources.cmake" LISTED ${_tflite_c_listed})
