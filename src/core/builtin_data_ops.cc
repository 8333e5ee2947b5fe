// Option parsers of the recurrent, lookup, control-flow, resource and
// remaining classic operators (see builtin_data.h).
#include <cstddef>
#include <cstdint>

#include "src/core/builtin_data_parse.h"

namespace tflite_c {
namespace builtin_data_internal {
namespace {

TfLiteStatus ParseLstm(const Ctx& c, void** r) {
  return Parse<TfLiteLSTMParams, tflite::LSTMOptions>(
      c, r, [&](const tflite::LSTMOptions& o, TfLiteLSTMParams* p) {
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        p->cell_clip = o.cell_clip();
        p->proj_clip = o.proj_clip();
        if (!ToLstmKernel(o.kernel_type(), &p->kernel_type))
          return BadEnum(c, "kernel_type", o.kernel_type());
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseUnidirectionalSequenceLstm(const Ctx& c, void** r) {
  using O = tflite::UnidirectionalSequenceLSTMOptions;
  return Parse<TfLiteUnidirectionalSequenceLSTMParams, O>(
      c, r, [&](const O& o, TfLiteUnidirectionalSequenceLSTMParams* p) {
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        p->cell_clip = o.cell_clip();
        p->proj_clip = o.proj_clip();
        p->time_major = o.time_major();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        p->diagonal_recurrent_tensors = o.diagonal_recurrent_tensors();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseBidirectionalSequenceLstm(const Ctx& c, void** r) {
  using O = tflite::BidirectionalSequenceLSTMOptions;
  return Parse<TfLiteBidirectionalSequenceLSTMParams, O>(
      c, r, [&](const O& o, TfLiteBidirectionalSequenceLSTMParams* p) {
        TFLC_TRY(Activation(c, o.fused_activation_function(), &p->activation));
        p->cell_clip = o.cell_clip();
        p->proj_clip = o.proj_clip();
        p->merge_outputs = o.merge_outputs();
        p->time_major = o.time_major();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseRnn(const Ctx& c, void** r) {
  return Parse<TfLiteRNNParams, tflite::RNNOptions>(
      c, r, [&](const tflite::RNNOptions& o, TfLiteRNNParams* p) {
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return Activation(c, o.fused_activation_function(), &p->activation);
      });
}

TfLiteStatus ParseSequenceRnn(const Ctx& c, void** r) {
  return Parse<TfLiteSequenceRNNParams, tflite::SequenceRNNOptions>(
      c, r, [&](const tflite::SequenceRNNOptions& o, TfLiteSequenceRNNParams* p) {
        p->time_major = o.time_major();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return Activation(c, o.fused_activation_function(), &p->activation);
      });
}

TfLiteStatus ParseBidirectionalSequenceRnn(const Ctx& c, void** r) {
  using O = tflite::BidirectionalSequenceRNNOptions;
  return Parse<TfLiteBidirectionalSequenceRNNParams, O>(
      c, r, [&](const O& o, TfLiteBidirectionalSequenceRNNParams* p) {
        p->time_major = o.time_major();
        p->merge_outputs = o.merge_outputs();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return Activation(c, o.fused_activation_function(), &p->activation);
      });
}

TfLiteStatus ParseSvdf(const Ctx& c, void** r) {
  return Parse<TfLiteSVDFParams, tflite::SVDFOptions>(
      c, r, [&](const tflite::SVDFOptions& o, TfLiteSVDFParams* p) {
        p->rank = o.rank();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return Activation(c, o.fused_activation_function(), &p->activation);
      });
}

TfLiteStatus ParseLshProjection(const Ctx& c, void** r) {
  return Parse<TfLiteLSHProjectionParams, tflite::LSHProjectionOptions>(
      c, r, [&](const tflite::LSHProjectionOptions& o, TfLiteLSHProjectionParams* p) {
        if (!ToLshType(o.type(), &p->type)) return BadEnum(c, "type", o.type());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseEmbeddingLookupSparse(const Ctx& c, void** r) {
  using O = tflite::EmbeddingLookupSparseOptions;
  return Parse<TfLiteEmbeddingLookupSparseParams, O>(
      c, r, [&](const O& o, TfLiteEmbeddingLookupSparseParams* p) {
        if (!ToCombiner(o.combiner(), &p->combiner)) return BadEnum(c, "combiner", o.combiner());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseSkipGram(const Ctx& c, void** r) {
  return Parse<TfLiteSkipGramParams, tflite::SkipGramOptions>(
      c, r, [](const tflite::SkipGramOptions& o, TfLiteSkipGramParams* p) {
        p->ngram_size = o.ngram_size();
        p->max_skip_size = o.max_skip_size();
        p->include_all_ngrams = o.include_all_ngrams();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseShape(const Ctx& c, void** r) {
  return Parse<TfLiteShapeParams, tflite::ShapeOptions>(
      c, r, [&](const tflite::ShapeOptions& o, TfLiteShapeParams* p) {
        return TypeOf(c, o.out_type(), "out_type", &p->out_type);
      });
}

TfLiteStatus ParseCast(const Ctx& c, void** r) {
  return Parse<TfLiteCastParams, tflite::CastOptions>(
      c, r, [&](const tflite::CastOptions& o, TfLiteCastParams* p) {
        TFLC_TRY(TypeOf(c, o.in_data_type(), "in_data_type", &p->in_data_type));
        return TypeOf(c, o.out_data_type(), "out_data_type", &p->out_data_type);
      });
}

TfLiteStatus ParseArgMax(const Ctx& c, void** r) {
  return Parse<TfLiteArgMaxParams, tflite::ArgMaxOptions>(
      c, r, [&](const tflite::ArgMaxOptions& o, TfLiteArgMaxParams* p) {
        return TypeOf(c, o.output_type(), "output_type", &p->output_type);
      });
}

TfLiteStatus ParseArgMin(const Ctx& c, void** r) {
  return Parse<TfLiteArgMinParams, tflite::ArgMinOptions>(
      c, r, [&](const tflite::ArgMinOptions& o, TfLiteArgMinParams* p) {
        return TypeOf(c, o.output_type(), "output_type", &p->output_type);
      });
}

TfLiteStatus ParseLeakyRelu(const Ctx& c, void** r) {
  return Parse<TfLiteLeakyReluParams, tflite::LeakyReluOptions>(
      c, r, [](const tflite::LeakyReluOptions& o, TfLiteLeakyReluParams* p) {
        p->alpha = o.alpha();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseMirrorPad(const Ctx& c, void** r) {
  return Parse<TfLiteMirrorPaddingParams, tflite::MirrorPadOptions>(
      c, r, [&](const tflite::MirrorPadOptions& o, TfLiteMirrorPaddingParams* p) {
        if (!ToMirrorPadding(o.mode(), &p->mode)) return BadEnum(c, "mode", o.mode());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseOneHot(const Ctx& c, void** r) {
  return Parse<TfLiteOneHotParams, tflite::OneHotOptions>(
      c, r, [](const tflite::OneHotOptions& o, TfLiteOneHotParams* p) {
        p->axis = o.axis();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseCumsum(const Ctx& c, void** r) {
  return Parse<TfLiteCumsumParams, tflite::CumsumOptions>(
      c, r, [](const tflite::CumsumOptions& o, TfLiteCumsumParams* p) {
        p->exclusive = o.exclusive();
        p->reverse = o.reverse();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseGelu(const Ctx& c, void** r) {
  return Parse<TfLiteGeluParams, tflite::GeluOptions>(
      c, r, [](const tflite::GeluOptions& o, TfLiteGeluParams* p) {
        p->approximate = o.approximate();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseBatchMatMul(const Ctx& c, void** r) {
  return Parse<TfLiteBatchMatMulParams, tflite::BatchMatMulOptions>(
      c, r, [](const tflite::BatchMatMulOptions& o, TfLiteBatchMatMulParams* p) {
        p->adj_x = o.adj_x();
        p->adj_y = o.adj_y();
        p->asymmetric_quantize_inputs = o.asymmetric_quantize_inputs();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseSparseToDense(const Ctx& c, void** r) {
  return Parse<TfLiteSparseToDenseParams, tflite::SparseToDenseOptions>(
      c, r, [](const tflite::SparseToDenseOptions& o, TfLiteSparseToDenseParams* p) {
        p->validate_indices = o.validate_indices();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseFakeQuant(const Ctx& c, void** r) {
  return Parse<TfLiteFakeQuantParams, tflite::FakeQuantOptions>(
      c, r, [](const tflite::FakeQuantOptions& o, TfLiteFakeQuantParams* p) {
        p->min = o.min();
        p->max = o.max();
        p->num_bits = o.num_bits();
        p->narrow_range = o.narrow_range();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseUnique(const Ctx& c, void** r) {
  return Parse<TfLiteUniqueParams, tflite::UniqueOptions>(
      c, r, [](const tflite::UniqueOptions& o, TfLiteUniqueParams* p) {
        // Only int32 and int64 index outputs exist; anything else means int32.
        p->index_out_type =
            o.idx_out_type() == tflite::TensorType_INT64 ? kTfLiteInt64 : kTfLiteInt32;
        return kTfLiteOk;
      });
}

TfLiteStatus ParseReverseSequence(const Ctx& c, void** r) {
  return Parse<TfLiteReverseSequenceParams, tflite::ReverseSequenceOptions>(
      c, r, [](const tflite::ReverseSequenceOptions& o, TfLiteReverseSequenceParams* p) {
        p->seq_dim = o.seq_dim();
        p->batch_dim = o.batch_dim();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseIf(const Ctx& c, void** r) {
  return Parse<TfLiteIfParams, tflite::IfOptions>(
      c, r, [](const tflite::IfOptions& o, TfLiteIfParams* p) {
        p->then_subgraph_index = o.then_subgraph_index();
        p->else_subgraph_index = o.else_subgraph_index();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseWhile(const Ctx& c, void** r) {
  return Parse<TfLiteWhileParams, tflite::WhileOptions>(
      c, r, [](const tflite::WhileOptions& o, TfLiteWhileParams* p) {
        p->cond_subgraph_index = o.cond_subgraph_index();
        p->body_subgraph_index = o.body_subgraph_index();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseCallOnce(const Ctx& c, void** r) {
  return Parse<TfLiteCallOnceParams, tflite::CallOnceOptions>(
      c, r, [](const tflite::CallOnceOptions& o, TfLiteCallOnceParams* p) {
        p->init_subgraph_index = o.init_subgraph_index();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseHashtable(const Ctx& c, void** r) {
  return Parse<TfLiteHashtableParams, tflite::HashtableOptions>(
      c, r, [&](const tflite::HashtableOptions& o, TfLiteHashtableParams* p) {
        p->table_id = o.table_id();
        TFLC_TRY(TypeOf(c, o.key_dtype(), "key_dtype", &p->key_dtype));
        return TypeOf(c, o.value_dtype(), "value_dtype", &p->value_dtype);
      });
}

TfLiteStatus ParseVarHandle(const Ctx& c, void** r) {
  return Parse<TfLiteVarHandleParams, tflite::VarHandleOptions>(
      c, r, [](const tflite::VarHandleOptions& o, TfLiteVarHandleParams* p) {
        // Both strings stay inside the model's flatbuffer.
        p->container = o.container() ? o.container()->c_str() : nullptr;
        p->shared_name = o.shared_name() ? o.shared_name()->c_str() : nullptr;
        return kTfLiteOk;
      });
}

TfLiteStatus ParseRandom(const Ctx& c, void** r) {
  return Parse<TfLiteRandomParams, tflite::RandomOptions>(
      c, r, [](const tflite::RandomOptions& o, TfLiteRandomParams* p) {
        // The schema stores 64-bit seeds; the C struct holds ints.
        p->seed = static_cast<int>(o.seed());
        p->seed2 = static_cast<int>(o.seed2());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseBucketize(const Ctx& c, void** r) {
  return Parse<TfLiteBucketizeParams, tflite::BucketizeOptions>(
      c, r, [&](const tflite::BucketizeOptions& o, TfLiteBucketizeParams* p) {
        const auto* b = o.boundaries();
        if (b == nullptr) {
          c.reporter->Reportf("%s: option 'boundaries' is missing.", c.name());
          return kTfLiteError;
        }
        p->num_boundaries = static_cast<int>(b->size());
        p->boundaries = b->data();  // points into the model
        return kTfLiteOk;
      });
}

}  // namespace

ParserFn OpParser(tflite::BuiltinOperator code) {
  switch (code) {
    case tflite::BuiltinOperator_LSTM: return ParseLstm;
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM:
      return ParseUnidirectionalSequenceLstm;
    case tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM:
      return ParseBidirectionalSequenceLstm;
    case tflite::BuiltinOperator_RNN: return ParseRnn;
    case tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN: return ParseSequenceRnn;
    case tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN:
      return ParseBidirectionalSequenceRnn;
    case tflite::BuiltinOperator_SVDF: return ParseSvdf;
    case tflite::BuiltinOperator_LSH_PROJECTION: return ParseLshProjection;
    case tflite::BuiltinOperator_EMBEDDING_LOOKUP_SPARSE: return ParseEmbeddingLookupSparse;
    case tflite::BuiltinOperator_SKIP_GRAM: return ParseSkipGram;
    case tflite::BuiltinOperator_SHAPE: return ParseShape;
    case tflite::BuiltinOperator_CAST: return ParseCast;
    case tflite::BuiltinOperator_ARG_MAX: return ParseArgMax;
    case tflite::BuiltinOperator_ARG_MIN: return ParseArgMin;
    case tflite::BuiltinOperator_LEAKY_RELU: return ParseLeakyRelu;
    case tflite::BuiltinOperator_MIRROR_PAD: return ParseMirrorPad;
    case tflite::BuiltinOperator_ONE_HOT: return ParseOneHot;
    case tflite::BuiltinOperator_CUMSUM: return ParseCumsum;
    case tflite::BuiltinOperator_GELU: return ParseGelu;
    case tflite::BuiltinOperator_BATCH_MATMUL: return ParseBatchMatMul;
    case tflite::BuiltinOperator_SPARSE_TO_DENSE: return ParseSparseToDense;
    case tflite::BuiltinOperator_FAKE_QUANT: return ParseFakeQuant;
    case tflite::BuiltinOperator_UNIQUE: return ParseUnique;
    case tflite::BuiltinOperator_REVERSE_SEQUENCE: return ParseReverseSequence;
    case tflite::BuiltinOperator_IF: return ParseIf;
    case tflite::BuiltinOperator_WHILE: return ParseWhile;
    case tflite::BuiltinOperator_CALL_ONCE: return ParseCallOnce;
    case tflite::BuiltinOperator_HASHTABLE: return ParseHashtable;
    case tflite::BuiltinOperator_VAR_HANDLE: return ParseVarHandle;
    case tflite::BuiltinOperator_MULTINOMIAL:
    case tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL:
    case tflite::BuiltinOperator_RANDOM_UNIFORM: return ParseRandom;
    case tflite::BuiltinOperator_BUCKETIZE: return ParseBucketize;
    default: return nullptr;
  }
}

}  // namespace builtin_data_internal
}  // namespace tflite_c
