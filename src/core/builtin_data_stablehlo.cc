// Option parsers of the operators whose options live in builtin_options_2
// (StableHLO and REDUCE_WINDOW) (see builtin_data.h).
#include <cstddef>
#include <cstdint>

#include "src/core/builtin_data_parse.h"

namespace tflite_c {
namespace builtin_data_internal {
namespace {

TfLiteStatus ParseStablehloScatter(const Ctx& c, void** r) {
  using O = tflite::StablehloScatterOptions;
  return Parse<TfLiteStablehloScatterParams, O>(
      c, r, [&](const O& o, TfLiteStablehloScatterParams* p) {
        p->indices_are_sorted = o.indices_are_sorted();
        if (const auto* v = o.update_window_dims()) {
          TFLC_TRY(CopyArray(c, v, p->update_window_dims, "update_window_dims"));
          p->num_update_window_dims = static_cast<int>(v->size());
        }
        if (const auto* v = o.inserted_window_dims()) {
          TFLC_TRY(CopyArray(c, v, p->inserted_window_dims, "inserted_window_dims"));
          p->num_inserted_window_dims = static_cast<int>(v->size());
        }
        if (const auto* v = o.scatter_dims_to_operand_dims()) {
          TFLC_TRY(CopyArray(c, v, p->scatter_dims_to_operand_dims,
                             "scatter_dims_to_operand_dims"));
          p->num_scatter_dims_to_operand_dims = static_cast<int>(v->size());
        }
        p->index_vector_dim = o.index_vector_dim();
        p->unique_indices = o.unique_indices();
        p->update_computation_subgraph_index = o.update_computation_subgraph_index();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseStablehloGather(const Ctx& c, void** r) {
  using O = tflite::StablehloGatherOptions;
  return Parse<TfLiteStablehloGatherParams, O>(
      c, r, [&](const O& o, TfLiteStablehloGatherParams* p) {
        if (const auto* v = o.offset_dims()) {
          TFLC_TRY(CopyArray(c, v, p->offset_dims, "offset_dims"));
          p->num_offset_dims = static_cast<int>(v->size());
        }
        if (const auto* v = o.collapsed_slice_dims()) {
          TFLC_TRY(CopyArray(c, v, p->collapsed_slice_dims, "collapsed_slice_dims"));
          p->num_collapsed_slice_dims = static_cast<int>(v->size());
        }
        if (const auto* v = o.start_index_map()) {
          TFLC_TRY(CopyArray(c, v, p->start_index_map, "start_index_map"));
          p->num_start_index_map = static_cast<int>(v->size());
        }
        p->index_vector_dim = o.index_vector_dim();
        if (const auto* v = o.slice_sizes()) {
          TFLC_TRY(CopyArray(c, v, p->slice_sizes, "slice_sizes"));
          p->num_slice_sizes = static_cast<int>(v->size());
        }
        p->indices_are_sorted = o.indices_are_sorted();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseStablehloRngBitGenerator(const Ctx& c, void** r) {
  using O = tflite::StablehloRngBitGeneratorOptions;
  return Parse<TfLiteStablehloRngBitGeneratorParams, O>(
      c, r, [&](const O& o, TfLiteStablehloRngBitGeneratorParams* p) {
        if (!ToRngAlgorithm(o.algorithm(), &p->algorithm))
          return BadEnum(c, "algorithm", o.algorithm());
        return kTfLiteOk;
      });
}

// Fills one reduce_window attribute: an absent/empty vector means "all
// `fill`", otherwise it must have exactly `expected` entries.
template <size_t N>
TfLiteStatus WindowAttr(const Ctx& c, const flatbuffers::Vector<int64_t>* v, int64_t (&dst)[N],
                        size_t expected, int64_t fill, const char* field) {
  if (v == nullptr || v->size() == 0) {
    for (size_t i = 0; i < N; ++i) dst[i] = fill;
    return kTfLiteOk;
  }
  if (v->size() != expected) {
    c.reporter->Reportf("%s: option '%s' has %u entries, expected %zu.", c.name(), field,
                        static_cast<unsigned>(v->size()), expected);
    return kTfLiteError;
  }
  return CopyArray(c, v, dst, field);
}

TfLiteStatus ParseStablehloReduceWindow(const Ctx& c, void** r) {
  using O = tflite::StablehloReduceWindowOptions;
  using P = TfLiteStablehloReduceWindowParams;
  return Parse<P, O>(
      c, r, [&](const O& o, P* p) {
        const auto* dims = o.window_dimensions();
        if (dims == nullptr || dims->size() == 0) {
          c.reporter->Reportf("%s: option 'window_dimensions' is required and must be non-empty.",
                              c.name());
          return kTfLiteError;
        }
        const size_t rank = dims->size();
        TFLC_TRY(WindowAttr(c, dims, p->window_dimensions, rank, 1, "window_dimensions"));
        TFLC_TRY(WindowAttr(c, o.window_strides(), p->window_strides, rank, 1, "window_strides"));
        TFLC_TRY(WindowAttr(c, o.base_dilations(), p->base_dilations, rank, 1, "base_dilations"));
        TFLC_TRY(WindowAttr(c, o.window_dilations(), p->window_dilations, rank, 1,
                            "window_dilations"));
        TFLC_TRY(WindowAttr(c, o.padding(), p->padding, 2 * rank, 0, "padding"));
        p->body_subgraph_index = o.body_subgraph_index();
        return kTfLiteOk;
      });
}

TfLiteStatus ParseReduceWindow(const Ctx& c, void** r) {
  return Parse<TfLiteReduceWindowParams, tflite::ReduceWindowOptions>(
      c, r, [&](const tflite::ReduceWindowOptions& o, TfLiteReduceWindowParams* p) {
        if (!ToReduceWindowFunction(o.reduce_function(), &p->reduce_function))
          return BadEnum(c, "reduce_function", o.reduce_function());
        return kTfLiteOk;
      });
}

TfLiteStatus ParseStablehloPad(const Ctx& c, void** r) {
  using O = tflite::StablehloPadOptions;
  return Parse<TfLiteStablehloPadParams, O>(
      c, r, [&](const O& o, TfLiteStablehloPadParams* p) {
        const auto* lo = o.edge_padding_low();
        const auto* hi = o.edge_padding_high();
        const auto* in = o.interior_padding();
        if (lo == nullptr || hi == nullptr || in == nullptr) {
          c.reporter->Reportf(
              "%s: options 'edge_padding_low', 'edge_padding_high' and 'interior_padding' are "
              "all required.",
              c.name());
          return kTfLiteError;
        }
        if (lo->size() != hi->size() || lo->size() != in->size()) {
          c.reporter->Reportf("%s: padding option arrays differ in length (%u, %u, %u).", c.name(),
                              static_cast<unsigned>(lo->size()), static_cast<unsigned>(hi->size()),
                              static_cast<unsigned>(in->size()));
          return kTfLiteError;
        }
        TFLC_TRY(CopyArray(c, lo, p->edge_padding_low, "edge_padding_low"));
        TFLC_TRY(CopyArray(c, hi, p->edge_padding_high, "edge_padding_high"));
        return CopyArray(c, in, p->interior_padding, "interior_padding");
      });
}

TfLiteStatus ParseStablehloComposite(const Ctx& c, void** r) {
  using O = tflite::StableHLOCompositeOptions;
  return Parse<TfLiteStablehloCompositeParams, O>(
      c, r, [&](const O& o, TfLiteStablehloCompositeParams* p) {
        if (o.name() == nullptr || o.composite_attributes() == nullptr) {
          c.reporter->Reportf("%s: options 'name' and 'composite_attributes' are required.",
                              c.name());
          return kTfLiteError;
        }
        // Name and attribute bytes point into the model.
        p->name = o.name()->c_str();
        p->version = o.version();
        p->subgraph_index = o.decomposition_subgraph_index();
        p->attributes = o.composite_attributes()->data();
        p->attributes_size = o.composite_attributes()->size();
        return kTfLiteOk;
      });
}

#ifdef TFLITE_STABLEHLO_CASE_PARAMS_MAX_BRANCHES_COUNT
TfLiteStatus ParseStablehloCase(const Ctx& c, void** r) {
  using O = tflite::StablehloCaseOptions;
  return Parse<TfLiteStablehloCaseParams, O>(
      c, r, [&](const O& o, TfLiteStablehloCaseParams* p) {
        const auto* v = o.branch_subgraph_indices();
        if (v == nullptr) {
          c.reporter->Reportf("%s: option 'branch_subgraph_indices' is required.", c.name());
          return kTfLiteError;
        }
        TFLC_TRY(CopyArray(c, v, p->branch_subgraph_indices, "branch_subgraph_indices"));
        p->num_branches = v->size();
        return kTfLiteOk;
      });
}
#endif

}  // namespace

ParserFn StablehloParser(tflite::BuiltinOperator code) {
  switch (code) {
    case tflite::BuiltinOperator_STABLEHLO_SCATTER: return ParseStablehloScatter;
    case tflite::BuiltinOperator_STABLEHLO_GATHER: return ParseStablehloGather;
    case tflite::BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR:
      return ParseStablehloRngBitGenerator;
    case tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW: return ParseStablehloReduceWindow;
    case tflite::BuiltinOperator_REDUCE_WINDOW: return ParseReduceWindow;
    case tflite::BuiltinOperator_STABLEHLO_PAD: return ParseStablehloPad;
    case tflite::BuiltinOperator_STABLEHLO_COMPOSITE: return ParseStablehloComposite;
#ifdef TFLITE_STABLEHLO_CASE_PARAMS_MAX_BRANCHES_COUNT
    case tflite::BuiltinOperator_STABLEHLO_CASE: return ParseStablehloCase;
#endif
    default: return nullptr;
  }
}

}  // namespace builtin_data_internal
}  // namespace tflite_c
