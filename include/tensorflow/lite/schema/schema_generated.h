// tflite::BuiltinOperator with all of its enumerators (BuiltinOperator_ADD,
// ...), as upstream programs use it with op resolvers:
//
//   resolver.AddBuiltin(tflite::BuiltinOperator_ADD, registration);
//
// Upstream ships the whole flatc-generated schema under this path; tflite-c
// ships only this enum (values from schema/schema.fbs, checked against the
// generated schema by tests/cc/builtin_operator_test.cc) and its names, so
// that programs need no flatbuffers headers. Code that reads models through
// the generated flatbuffer API (tflite::GetModel, ...) needs the full schema
// from flatc. Inside the tflite-c build, where that generated schema is on the
// include path, this header defers to it.
#ifndef TENSORFLOW_LITE_SCHEMA_SCHEMA_GENERATED_H_
#define TENSORFLOW_LITE_SCHEMA_SCHEMA_GENERATED_H_

#include <cstdint>

#if !defined(FLATBUFFERS_GENERATED_SCHEMA_TFLITE_H_) && defined(TFL_COMPILE_LIBRARY) && \
    __has_include(<schema_generated.h>)
#include <schema_generated.h>
#endif

#ifndef FLATBUFFERS_GENERATED_SCHEMA_TFLITE_H_

namespace tflite {

enum BuiltinOperator : int32_t {
  BuiltinOperator_ADD = 0,
  BuiltinOperator_AVERAGE_POOL_2D = 1,
  BuiltinOperator_CONCATENATION = 2,
  BuiltinOperator_CONV_2D = 3,
  BuiltinOperator_DEPTHWISE_CONV_2D = 4,
  BuiltinOperator_DEPTH_TO_SPACE = 5,
  BuiltinOperator_DEQUANTIZE = 6,
  BuiltinOperator_EMBEDDING_LOOKUP = 7,
  BuiltinOperator_FLOOR = 8,
  BuiltinOperator_FULLY_CONNECTED = 9,
  BuiltinOperator_HASHTABLE_LOOKUP = 10,
  BuiltinOperator_L2_NORMALIZATION = 11,
  BuiltinOperator_L2_POOL_2D = 12,
  BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION = 13,
  BuiltinOperator_LOGISTIC = 14,
  BuiltinOperator_LSH_PROJECTION = 15,
  BuiltinOperator_LSTM = 16,
  BuiltinOperator_MAX_POOL_2D = 17,
  BuiltinOperator_MUL = 18,
  BuiltinOperator_RELU = 19,
  BuiltinOperator_RELU_N1_TO_1 = 20,
  BuiltinOperator_RELU6 = 21,
  BuiltinOperator_RESHAPE = 22,
  BuiltinOperator_RESIZE_BILINEAR = 23,
  BuiltinOperator_RNN = 24,
  BuiltinOperator_SOFTMAX = 25,
  BuiltinOperator_SPACE_TO_DEPTH = 26,
  BuiltinOperator_SVDF = 27,
  BuiltinOperator_TANH = 28,
  BuiltinOperator_CONCAT_EMBEDDINGS = 29,
  BuiltinOperator_SKIP_GRAM = 30,
  BuiltinOperator_CALL = 31,
  BuiltinOperator_CUSTOM = 32,
  BuiltinOperator_EMBEDDING_LOOKUP_SPARSE = 33,
  BuiltinOperator_PAD = 34,
  BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN = 35,
  BuiltinOperator_GATHER = 36,
  BuiltinOperator_BATCH_TO_SPACE_ND = 37,
  BuiltinOperator_SPACE_TO_BATCH_ND = 38,
  BuiltinOperator_TRANSPOSE = 39,
  BuiltinOperator_MEAN = 40,
  BuiltinOperator_SUB = 41,
  BuiltinOperator_DIV = 42,
  BuiltinOperator_SQUEEZE = 43,
  BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM = 44,
  BuiltinOperator_STRIDED_SLICE = 45,
  BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN = 46,
  BuiltinOperator_EXP = 47,
  BuiltinOperator_TOPK_V2 = 48,
  BuiltinOperator_SPLIT = 49,
  BuiltinOperator_LOG_SOFTMAX = 50,
  BuiltinOperator_DELEGATE = 51,
  BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM = 52,
  BuiltinOperator_CAST = 53,
  BuiltinOperator_PRELU = 54,
  BuiltinOperator_MAXIMUM = 55,
  BuiltinOperator_ARG_MAX = 56,
  BuiltinOperator_MINIMUM = 57,
  BuiltinOperator_LESS = 58,
  BuiltinOperator_NEG = 59,
  BuiltinOperator_PADV2 = 60,
  BuiltinOperator_GREATER = 61,
  BuiltinOperator_GREATER_EQUAL = 62,
  BuiltinOperator_LESS_EQUAL = 63,
  BuiltinOperator_SELECT = 64,
  BuiltinOperator_SLICE = 65,
  BuiltinOperator_SIN = 66,
  BuiltinOperator_TRANSPOSE_CONV = 67,
  BuiltinOperator_SPARSE_TO_DENSE = 68,
  BuiltinOperator_TILE = 69,
  BuiltinOperator_EXPAND_DIMS = 70,
  BuiltinOperator_EQUAL = 71,
  BuiltinOperator_NOT_EQUAL = 72,
  BuiltinOperator_LOG = 73,
  BuiltinOperator_SUM = 74,
  BuiltinOperator_SQRT = 75,
  BuiltinOperator_RSQRT = 76,
  BuiltinOperator_SHAPE = 77,
  BuiltinOperator_POW = 78,
  BuiltinOperator_ARG_MIN = 79,
  BuiltinOperator_FAKE_QUANT = 80,
  BuiltinOperator_REDUCE_PROD = 81,
  BuiltinOperator_REDUCE_MAX = 82,
  BuiltinOperator_PACK = 83,
  BuiltinOperator_LOGICAL_OR = 84,
  BuiltinOperator_ONE_HOT = 85,
  BuiltinOperator_LOGICAL_AND = 86,
  BuiltinOperator_LOGICAL_NOT = 87,
  BuiltinOperator_UNPACK = 88,
  BuiltinOperator_REDUCE_MIN = 89,
  BuiltinOperator_FLOOR_DIV = 90,
  BuiltinOperator_REDUCE_ANY = 91,
  BuiltinOperator_SQUARE = 92,
  BuiltinOperator_ZEROS_LIKE = 93,
  BuiltinOperator_FILL = 94,
  BuiltinOperator_FLOOR_MOD = 95,
  BuiltinOperator_RANGE = 96,
  BuiltinOperator_RESIZE_NEAREST_NEIGHBOR = 97,
  BuiltinOperator_LEAKY_RELU = 98,
  BuiltinOperator_SQUARED_DIFFERENCE = 99,
  BuiltinOperator_MIRROR_PAD = 100,
  BuiltinOperator_ABS = 101,
  BuiltinOperator_SPLIT_V = 102,
  BuiltinOperator_UNIQUE = 103,
  BuiltinOperator_CEIL = 104,
  BuiltinOperator_REVERSE_V2 = 105,
  BuiltinOperator_ADD_N = 106,
  BuiltinOperator_GATHER_ND = 107,
  BuiltinOperator_COS = 108,
  BuiltinOperator_WHERE = 109,
  BuiltinOperator_RANK = 110,
  BuiltinOperator_ELU = 111,
  BuiltinOperator_REVERSE_SEQUENCE = 112,
  BuiltinOperator_MATRIX_DIAG = 113,
  BuiltinOperator_QUANTIZE = 114,
  BuiltinOperator_MATRIX_SET_DIAG = 115,
  BuiltinOperator_ROUND = 116,
  BuiltinOperator_HARD_SWISH = 117,
  BuiltinOperator_IF = 118,
  BuiltinOperator_WHILE = 119,
  BuiltinOperator_NON_MAX_SUPPRESSION_V4 = 120,
  BuiltinOperator_NON_MAX_SUPPRESSION_V5 = 121,
  BuiltinOperator_SCATTER_ND = 122,
  BuiltinOperator_SELECT_V2 = 123,
  BuiltinOperator_DENSIFY = 124,
  BuiltinOperator_SEGMENT_SUM = 125,
  BuiltinOperator_BATCH_MATMUL = 126,
  BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES = 127,
  BuiltinOperator_CUMSUM = 128,
  BuiltinOperator_CALL_ONCE = 129,
  BuiltinOperator_BROADCAST_TO = 130,
  BuiltinOperator_RFFT2D = 131,
  BuiltinOperator_CONV_3D = 132,
  BuiltinOperator_IMAG = 133,
  BuiltinOperator_REAL = 134,
  BuiltinOperator_COMPLEX_ABS = 135,
  BuiltinOperator_HASHTABLE = 136,
  BuiltinOperator_HASHTABLE_FIND = 137,
  BuiltinOperator_HASHTABLE_IMPORT = 138,
  BuiltinOperator_HASHTABLE_SIZE = 139,
  BuiltinOperator_REDUCE_ALL = 140,
  BuiltinOperator_CONV_3D_TRANSPOSE = 141,
  BuiltinOperator_VAR_HANDLE = 142,
  BuiltinOperator_READ_VARIABLE = 143,
  BuiltinOperator_ASSIGN_VARIABLE = 144,
  BuiltinOperator_BROADCAST_ARGS = 145,
  BuiltinOperator_RANDOM_STANDARD_NORMAL = 146,
  BuiltinOperator_BUCKETIZE = 147,
  BuiltinOperator_RANDOM_UNIFORM = 148,
  BuiltinOperator_MULTINOMIAL = 149,
  BuiltinOperator_GELU = 150,
  BuiltinOperator_DYNAMIC_UPDATE_SLICE = 151,
  BuiltinOperator_RELU_0_TO_1 = 152,
  BuiltinOperator_UNSORTED_SEGMENT_PROD = 153,
  BuiltinOperator_UNSORTED_SEGMENT_MAX = 154,
  BuiltinOperator_UNSORTED_SEGMENT_SUM = 155,
  BuiltinOperator_ATAN2 = 156,
  BuiltinOperator_UNSORTED_SEGMENT_MIN = 157,
  BuiltinOperator_SIGN = 158,
  BuiltinOperator_BITCAST = 159,
  BuiltinOperator_BITWISE_XOR = 160,
  BuiltinOperator_RIGHT_SHIFT = 161,
  BuiltinOperator_STABLEHLO_LOGISTIC = 162,
  BuiltinOperator_STABLEHLO_ADD = 163,
  BuiltinOperator_STABLEHLO_DIVIDE = 164,
  BuiltinOperator_STABLEHLO_MULTIPLY = 165,
  BuiltinOperator_STABLEHLO_MAXIMUM = 166,
  BuiltinOperator_STABLEHLO_RESHAPE = 167,
  BuiltinOperator_STABLEHLO_CLAMP = 168,
  BuiltinOperator_STABLEHLO_CONCATENATE = 169,
  BuiltinOperator_STABLEHLO_BROADCAST_IN_DIM = 170,
  BuiltinOperator_STABLEHLO_CONVOLUTION = 171,
  BuiltinOperator_STABLEHLO_SLICE = 172,
  BuiltinOperator_STABLEHLO_CUSTOM_CALL = 173,
  BuiltinOperator_STABLEHLO_REDUCE = 174,
  BuiltinOperator_STABLEHLO_ABS = 175,
  BuiltinOperator_STABLEHLO_AND = 176,
  BuiltinOperator_STABLEHLO_COSINE = 177,
  BuiltinOperator_STABLEHLO_EXPONENTIAL = 178,
  BuiltinOperator_STABLEHLO_FLOOR = 179,
  BuiltinOperator_STABLEHLO_LOG = 180,
  BuiltinOperator_STABLEHLO_MINIMUM = 181,
  BuiltinOperator_STABLEHLO_NEGATE = 182,
  BuiltinOperator_STABLEHLO_OR = 183,
  BuiltinOperator_STABLEHLO_POWER = 184,
  BuiltinOperator_STABLEHLO_REMAINDER = 185,
  BuiltinOperator_STABLEHLO_RSQRT = 186,
  BuiltinOperator_STABLEHLO_SELECT = 187,
  BuiltinOperator_STABLEHLO_SUBTRACT = 188,
  BuiltinOperator_STABLEHLO_TANH = 189,
  BuiltinOperator_STABLEHLO_SCATTER = 190,
  BuiltinOperator_STABLEHLO_COMPARE = 191,
  BuiltinOperator_STABLEHLO_CONVERT = 192,
  BuiltinOperator_STABLEHLO_DYNAMIC_SLICE = 193,
  BuiltinOperator_STABLEHLO_DYNAMIC_UPDATE_SLICE = 194,
  BuiltinOperator_STABLEHLO_PAD = 195,
  BuiltinOperator_STABLEHLO_IOTA = 196,
  BuiltinOperator_STABLEHLO_DOT_GENERAL = 197,
  BuiltinOperator_STABLEHLO_REDUCE_WINDOW = 198,
  BuiltinOperator_STABLEHLO_SORT = 199,
  BuiltinOperator_STABLEHLO_WHILE = 200,
  BuiltinOperator_STABLEHLO_GATHER = 201,
  BuiltinOperator_STABLEHLO_TRANSPOSE = 202,
  BuiltinOperator_DILATE = 203,
  BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR = 204,
  BuiltinOperator_REDUCE_WINDOW = 205,
  BuiltinOperator_STABLEHLO_COMPOSITE = 206,
  BuiltinOperator_STABLEHLO_SHIFT_LEFT = 207,
  BuiltinOperator_STABLEHLO_CBRT = 208,
  BuiltinOperator_STABLEHLO_CASE = 209,
  BuiltinOperator_MIN = BuiltinOperator_ADD,
  BuiltinOperator_MAX = BuiltinOperator_STABLEHLO_CASE
};

// The schema's name of `op` ("ADD", ...); "" for a value the schema lacks.
inline const char* EnumNameBuiltinOperator(BuiltinOperator op) {
  switch (op) {
    case BuiltinOperator_ADD: return "ADD";
    case BuiltinOperator_AVERAGE_POOL_2D: return "AVERAGE_POOL_2D";
    case BuiltinOperator_CONCATENATION: return "CONCATENATION";
    case BuiltinOperator_CONV_2D: return "CONV_2D";
    case BuiltinOperator_DEPTHWISE_CONV_2D: return "DEPTHWISE_CONV_2D";
    case BuiltinOperator_DEPTH_TO_SPACE: return "DEPTH_TO_SPACE";
    case BuiltinOperator_DEQUANTIZE: return "DEQUANTIZE";
    case BuiltinOperator_EMBEDDING_LOOKUP: return "EMBEDDING_LOOKUP";
    case BuiltinOperator_FLOOR: return "FLOOR";
    case BuiltinOperator_FULLY_CONNECTED: return "FULLY_CONNECTED";
    case BuiltinOperator_HASHTABLE_LOOKUP: return "HASHTABLE_LOOKUP";
    case BuiltinOperator_L2_NORMALIZATION: return "L2_NORMALIZATION";
    case BuiltinOperator_L2_POOL_2D: return "L2_POOL_2D";
    case BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION: return "LOCAL_RESPONSE_NORMALIZATION";
    case BuiltinOperator_LOGISTIC: return "LOGISTIC";
    case BuiltinOperator_LSH_PROJECTION: return "LSH_PROJECTION";
    case BuiltinOperator_LSTM: return "LSTM";
    case BuiltinOperator_MAX_POOL_2D: return "MAX_POOL_2D";
    case BuiltinOperator_MUL: return "MUL";
    case BuiltinOperator_RELU: return "RELU";
    case BuiltinOperator_RELU_N1_TO_1: return "RELU_N1_TO_1";
    case BuiltinOperator_RELU6: return "RELU6";
    case BuiltinOperator_RESHAPE: return "RESHAPE";
    case BuiltinOperator_RESIZE_BILINEAR: return "RESIZE_BILINEAR";
    case BuiltinOperator_RNN: return "RNN";
    case BuiltinOperator_SOFTMAX: return "SOFTMAX";
    case BuiltinOperator_SPACE_TO_DEPTH: return "SPACE_TO_DEPTH";
    case BuiltinOperator_SVDF: return "SVDF";
    case BuiltinOperator_TANH: return "TANH";
    case BuiltinOperator_CONCAT_EMBEDDINGS: return "CONCAT_EMBEDDINGS";
    case BuiltinOperator_SKIP_GRAM: return "SKIP_GRAM";
    case BuiltinOperator_CALL: return "CALL";
    case BuiltinOperator_CUSTOM: return "CUSTOM";
    case BuiltinOperator_EMBEDDING_LOOKUP_SPARSE: return "EMBEDDING_LOOKUP_SPARSE";
    case BuiltinOperator_PAD: return "PAD";
    case BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN: return "UNIDIRECTIONAL_SEQUENCE_RNN";
    case BuiltinOperator_GATHER: return "GATHER";
    case BuiltinOperator_BATCH_TO_SPACE_ND: return "BATCH_TO_SPACE_ND";
    case BuiltinOperator_SPACE_TO_BATCH_ND: return "SPACE_TO_BATCH_ND";
    case BuiltinOperator_TRANSPOSE: return "TRANSPOSE";
    case BuiltinOperator_MEAN: return "MEAN";
    case BuiltinOperator_SUB: return "SUB";
    case BuiltinOperator_DIV: return "DIV";
    case BuiltinOperator_SQUEEZE: return "SQUEEZE";
    case BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM: return "UNIDIRECTIONAL_SEQUENCE_LSTM";
    case BuiltinOperator_STRIDED_SLICE: return "STRIDED_SLICE";
    case BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN: return "BIDIRECTIONAL_SEQUENCE_RNN";
    case BuiltinOperator_EXP: return "EXP";
    case BuiltinOperator_TOPK_V2: return "TOPK_V2";
    case BuiltinOperator_SPLIT: return "SPLIT";
    case BuiltinOperator_LOG_SOFTMAX: return "LOG_SOFTMAX";
    case BuiltinOperator_DELEGATE: return "DELEGATE";
    case BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM: return "BIDIRECTIONAL_SEQUENCE_LSTM";
    case BuiltinOperator_CAST: return "CAST";
    case BuiltinOperator_PRELU: return "PRELU";
    case BuiltinOperator_MAXIMUM: return "MAXIMUM";
    case BuiltinOperator_ARG_MAX: return "ARG_MAX";
    case BuiltinOperator_MINIMUM: return "MINIMUM";
    case BuiltinOperator_LESS: return "LESS";
    case BuiltinOperator_NEG: return "NEG";
    case BuiltinOperator_PADV2: return "PADV2";
    case BuiltinOperator_GREATER: return "GREATER";
    case BuiltinOperator_GREATER_EQUAL: return "GREATER_EQUAL";
    case BuiltinOperator_LESS_EQUAL: return "LESS_EQUAL";
    case BuiltinOperator_SELECT: return "SELECT";
    case BuiltinOperator_SLICE: return "SLICE";
    case BuiltinOperator_SIN: return "SIN";
    case BuiltinOperator_TRANSPOSE_CONV: return "TRANSPOSE_CONV";
    case BuiltinOperator_SPARSE_TO_DENSE: return "SPARSE_TO_DENSE";
    case BuiltinOperator_TILE: return "TILE";
    case BuiltinOperator_EXPAND_DIMS: return "EXPAND_DIMS";
    case BuiltinOperator_EQUAL: return "EQUAL";
    case BuiltinOperator_NOT_EQUAL: return "NOT_EQUAL";
    case BuiltinOperator_LOG: return "LOG";
    case BuiltinOperator_SUM: return "SUM";
    case BuiltinOperator_SQRT: return "SQRT";
    case BuiltinOperator_RSQRT: return "RSQRT";
    case BuiltinOperator_SHAPE: return "SHAPE";
    case BuiltinOperator_POW: return "POW";
    case BuiltinOperator_ARG_MIN: return "ARG_MIN";
    case BuiltinOperator_FAKE_QUANT: return "FAKE_QUANT";
    case BuiltinOperator_REDUCE_PROD: return "REDUCE_PROD";
    case BuiltinOperator_REDUCE_MAX: return "REDUCE_MAX";
    case BuiltinOperator_PACK: return "PACK";
    case BuiltinOperator_LOGICAL_OR: return "LOGICAL_OR";
    case BuiltinOperator_ONE_HOT: return "ONE_HOT";
    case BuiltinOperator_LOGICAL_AND: return "LOGICAL_AND";
    case BuiltinOperator_LOGICAL_NOT: return "LOGICAL_NOT";
    case BuiltinOperator_UNPACK: return "UNPACK";
    case BuiltinOperator_REDUCE_MIN: return "REDUCE_MIN";
    case BuiltinOperator_FLOOR_DIV: return "FLOOR_DIV";
    case BuiltinOperator_REDUCE_ANY: return "REDUCE_ANY";
    case BuiltinOperator_SQUARE: return "SQUARE";
    case BuiltinOperator_ZEROS_LIKE: return "ZEROS_LIKE";
    case BuiltinOperator_FILL: return "FILL";
    case BuiltinOperator_FLOOR_MOD: return "FLOOR_MOD";
    case BuiltinOperator_RANGE: return "RANGE";
    case BuiltinOperator_RESIZE_NEAREST_NEIGHBOR: return "RESIZE_NEAREST_NEIGHBOR";
    case BuiltinOperator_LEAKY_RELU: return "LEAKY_RELU";
    case BuiltinOperator_SQUARED_DIFFERENCE: return "SQUARED_DIFFERENCE";
    case BuiltinOperator_MIRROR_PAD: return "MIRROR_PAD";
    case BuiltinOperator_ABS: return "ABS";
    case BuiltinOperator_SPLIT_V: return "SPLIT_V";
    case BuiltinOperator_UNIQUE: return "UNIQUE";
    case BuiltinOperator_CEIL: return "CEIL";
    case BuiltinOperator_REVERSE_V2: return "REVERSE_V2";
    case BuiltinOperator_ADD_N: return "ADD_N";
    case BuiltinOperator_GATHER_ND: return "GATHER_ND";
    case BuiltinOperator_COS: return "COS";
    case BuiltinOperator_WHERE: return "WHERE";
    case BuiltinOperator_RANK: return "RANK";
    case BuiltinOperator_ELU: return "ELU";
    case BuiltinOperator_REVERSE_SEQUENCE: return "REVERSE_SEQUENCE";
    case BuiltinOperator_MATRIX_DIAG: return "MATRIX_DIAG";
    case BuiltinOperator_QUANTIZE: return "QUANTIZE";
    case BuiltinOperator_MATRIX_SET_DIAG: return "MATRIX_SET_DIAG";
    case BuiltinOperator_ROUND: return "ROUND";
    case BuiltinOperator_HARD_SWISH: return "HARD_SWISH";
    case BuiltinOperator_IF: return "IF";
    case BuiltinOperator_WHILE: return "WHILE";
    case BuiltinOperator_NON_MAX_SUPPRESSION_V4: return "NON_MAX_SUPPRESSION_V4";
    case BuiltinOperator_NON_MAX_SUPPRESSION_V5: return "NON_MAX_SUPPRESSION_V5";
    case BuiltinOperator_SCATTER_ND: return "SCATTER_ND";
    case BuiltinOperator_SELECT_V2: return "SELECT_V2";
    case BuiltinOperator_DENSIFY: return "DENSIFY";
    case BuiltinOperator_SEGMENT_SUM: return "SEGMENT_SUM";
    case BuiltinOperator_BATCH_MATMUL: return "BATCH_MATMUL";
    case BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES: return "PLACEHOLDER_FOR_GREATER_OP_CODES";
    case BuiltinOperator_CUMSUM: return "CUMSUM";
    case BuiltinOperator_CALL_ONCE: return "CALL_ONCE";
    case BuiltinOperator_BROADCAST_TO: return "BROADCAST_TO";
    case BuiltinOperator_RFFT2D: return "RFFT2D";
    case BuiltinOperator_CONV_3D: return "CONV_3D";
    case BuiltinOperator_IMAG: return "IMAG";
    case BuiltinOperator_REAL: return "REAL";
    case BuiltinOperator_COMPLEX_ABS: return "COMPLEX_ABS";
    case BuiltinOperator_HASHTABLE: return "HASHTABLE";
    case BuiltinOperator_HASHTABLE_FIND: return "HASHTABLE_FIND";
    case BuiltinOperator_HASHTABLE_IMPORT: return "HASHTABLE_IMPORT";
    case BuiltinOperator_HASHTABLE_SIZE: return "HASHTABLE_SIZE";
    case BuiltinOperator_REDUCE_ALL: return "REDUCE_ALL";
    case BuiltinOperator_CONV_3D_TRANSPOSE: return "CONV_3D_TRANSPOSE";
    case BuiltinOperator_VAR_HANDLE: return "VAR_HANDLE";
    case BuiltinOperator_READ_VARIABLE: return "READ_VARIABLE";
    case BuiltinOperator_ASSIGN_VARIABLE: return "ASSIGN_VARIABLE";
    case BuiltinOperator_BROADCAST_ARGS: return "BROADCAST_ARGS";
    case BuiltinOperator_RANDOM_STANDARD_NORMAL: return "RANDOM_STANDARD_NORMAL";
    case BuiltinOperator_BUCKETIZE: return "BUCKETIZE";
    case BuiltinOperator_RANDOM_UNIFORM: return "RANDOM_UNIFORM";
    case BuiltinOperator_MULTINOMIAL: return "MULTINOMIAL";
    case BuiltinOperator_GELU: return "GELU";
    case BuiltinOperator_DYNAMIC_UPDATE_SLICE: return "DYNAMIC_UPDATE_SLICE";
    case BuiltinOperator_RELU_0_TO_1: return "RELU_0_TO_1";
    case BuiltinOperator_UNSORTED_SEGMENT_PROD: return "UNSORTED_SEGMENT_PROD";
    case BuiltinOperator_UNSORTED_SEGMENT_MAX: return "UNSORTED_SEGMENT_MAX";
    case BuiltinOperator_UNSORTED_SEGMENT_SUM: return "UNSORTED_SEGMENT_SUM";
    case BuiltinOperator_ATAN2: return "ATAN2";
    case BuiltinOperator_UNSORTED_SEGMENT_MIN: return "UNSORTED_SEGMENT_MIN";
    case BuiltinOperator_SIGN: return "SIGN";
    case BuiltinOperator_BITCAST: return "BITCAST";
    case BuiltinOperator_BITWISE_XOR: return "BITWISE_XOR";
    case BuiltinOperator_RIGHT_SHIFT: return "RIGHT_SHIFT";
    case BuiltinOperator_STABLEHLO_LOGISTIC: return "STABLEHLO_LOGISTIC";
    case BuiltinOperator_STABLEHLO_ADD: return "STABLEHLO_ADD";
    case BuiltinOperator_STABLEHLO_DIVIDE: return "STABLEHLO_DIVIDE";
    case BuiltinOperator_STABLEHLO_MULTIPLY: return "STABLEHLO_MULTIPLY";
    case BuiltinOperator_STABLEHLO_MAXIMUM: return "STABLEHLO_MAXIMUM";
    case BuiltinOperator_STABLEHLO_RESHAPE: return "STABLEHLO_RESHAPE";
    case BuiltinOperator_STABLEHLO_CLAMP: return "STABLEHLO_CLAMP";
    case BuiltinOperator_STABLEHLO_CONCATENATE: return "STABLEHLO_CONCATENATE";
    case BuiltinOperator_STABLEHLO_BROADCAST_IN_DIM: return "STABLEHLO_BROADCAST_IN_DIM";
    case BuiltinOperator_STABLEHLO_CONVOLUTION: return "STABLEHLO_CONVOLUTION";
    case BuiltinOperator_STABLEHLO_SLICE: return "STABLEHLO_SLICE";
    case BuiltinOperator_STABLEHLO_CUSTOM_CALL: return "STABLEHLO_CUSTOM_CALL";
    case BuiltinOperator_STABLEHLO_REDUCE: return "STABLEHLO_REDUCE";
    case BuiltinOperator_STABLEHLO_ABS: return "STABLEHLO_ABS";
    case BuiltinOperator_STABLEHLO_AND: return "STABLEHLO_AND";
    case BuiltinOperator_STABLEHLO_COSINE: return "STABLEHLO_COSINE";
    case BuiltinOperator_STABLEHLO_EXPONENTIAL: return "STABLEHLO_EXPONENTIAL";
    case BuiltinOperator_STABLEHLO_FLOOR: return "STABLEHLO_FLOOR";
    case BuiltinOperator_STABLEHLO_LOG: return "STABLEHLO_LOG";
    case BuiltinOperator_STABLEHLO_MINIMUM: return "STABLEHLO_MINIMUM";
    case BuiltinOperator_STABLEHLO_NEGATE: return "STABLEHLO_NEGATE";
    case BuiltinOperator_STABLEHLO_OR: return "STABLEHLO_OR";
    case BuiltinOperator_STABLEHLO_POWER: return "STABLEHLO_POWER";
    case BuiltinOperator_STABLEHLO_REMAINDER: return "STABLEHLO_REMAINDER";
    case BuiltinOperator_STABLEHLO_RSQRT: return "STABLEHLO_RSQRT";
    case BuiltinOperator_STABLEHLO_SELECT: return "STABLEHLO_SELECT";
    case BuiltinOperator_STABLEHLO_SUBTRACT: return "STABLEHLO_SUBTRACT";
    case BuiltinOperator_STABLEHLO_TANH: return "STABLEHLO_TANH";
    case BuiltinOperator_STABLEHLO_SCATTER: return "STABLEHLO_SCATTER";
    case BuiltinOperator_STABLEHLO_COMPARE: return "STABLEHLO_COMPARE";
    case BuiltinOperator_STABLEHLO_CONVERT: return "STABLEHLO_CONVERT";
    case BuiltinOperator_STABLEHLO_DYNAMIC_SLICE: return "STABLEHLO_DYNAMIC_SLICE";
    case BuiltinOperator_STABLEHLO_DYNAMIC_UPDATE_SLICE: return "STABLEHLO_DYNAMIC_UPDATE_SLICE";
    case BuiltinOperator_STABLEHLO_PAD: return "STABLEHLO_PAD";
    case BuiltinOperator_STABLEHLO_IOTA: return "STABLEHLO_IOTA";
    case BuiltinOperator_STABLEHLO_DOT_GENERAL: return "STABLEHLO_DOT_GENERAL";
    case BuiltinOperator_STABLEHLO_REDUCE_WINDOW: return "STABLEHLO_REDUCE_WINDOW";
    case BuiltinOperator_STABLEHLO_SORT: return "STABLEHLO_SORT";
    case BuiltinOperator_STABLEHLO_WHILE: return "STABLEHLO_WHILE";
    case BuiltinOperator_STABLEHLO_GATHER: return "STABLEHLO_GATHER";
    case BuiltinOperator_STABLEHLO_TRANSPOSE: return "STABLEHLO_TRANSPOSE";
    case BuiltinOperator_DILATE: return "DILATE";
    case BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR: return "STABLEHLO_RNG_BIT_GENERATOR";
    case BuiltinOperator_REDUCE_WINDOW: return "REDUCE_WINDOW";
    case BuiltinOperator_STABLEHLO_COMPOSITE: return "STABLEHLO_COMPOSITE";
    case BuiltinOperator_STABLEHLO_SHIFT_LEFT: return "STABLEHLO_SHIFT_LEFT";
    case BuiltinOperator_STABLEHLO_CBRT: return "STABLEHLO_CBRT";
    case BuiltinOperator_STABLEHLO_CASE: return "STABLEHLO_CASE";
  }
  return "";
}

}  // namespace tflite

#endif  // FLATBUFFERS_GENERATED_SCHEMA_TFLITE_H_

#endif  // TENSORFLOW_LITE_SCHEMA_SCHEMA_GENERATED_H_
