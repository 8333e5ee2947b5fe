// Target 2: structure-aware. Every input is a .tflite model; the custom
// mutator parses it with the generated flatbuffers object API (ModelT),
// changes one to three fields the runtime acts on, and serializes it again,
// so mutants stay valid flatbuffers and reach the model checker, Prepare and
// Eval instead of dying in the verifier:
//   operator tensor indices, opcode indices, subgraph inputs/outputs, the
//   order of operators; tensor shapes, types, buffers, variable flags;
//   quantization scales / zero points / quantized dimension; buffer sizes;
//   signature defs (tensor indices, subgraph index, keys); WHILE / IF /
//   CALL_ONCE / STABLEHLO_WHILE subgraph indices; operator codes and
//   versions; custom options bytes; and, after packing, words and bytes of
//   an operator's builtin options table (any option, any type).
// Inputs that do not parse (e.g. from a crash file) are mutated as bytes.
//
// Each input runs through the C API like target 1, a quarter of them (by a
// hash of the bytes) with XNNPACK.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "fuzz/fuzz_common.h"
#include "schema_generated.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using Rng = std::mt19937;

uint32_t Below(Rng& rng, size_t n) { return n == 0 ? 0 : static_cast<uint32_t>(rng() % n); }

// Values that break naive arithmetic, plus neighbours of the old value.
int64_t HostileInt(Rng& rng, int64_t old) {
  switch (rng() % 16) {
    case 0: return 0;
    case 1: return -1;
    case 2: return 1;
    case 3: return 2;
    case 4: return 1 << 30;
    case 5: return INT_MIN;
    case 6: return INT_MAX;
    case 7: return old + 1;
    case 8: return old - 1;
    case 9: return old * 2;
    case 10: return 65536;
    case 11: return 100000;
    case 12: return -2;
    case 13: return static_cast<int64_t>(rng() % 8);
    default: return static_cast<int32_t>(rng());
  }
}

float HostileFloat(Rng& rng, float old) {
  switch (rng() % 10) {
    case 0: return 0.0f;
    case 1: return -old;
    case 2: return __builtin_nanf("");
    case 3: return __builtin_inff();
    case 4: return 1e-30f;
    case 5: return 3e38f;
    case 6: return old * 256.0f;
    case 7: return old / 256.0f;
    case 8: return -1.0f;
    default: return static_cast<float>(rng() % 1000) / 100.0f;
  }
}

template <typename T>
void MutateIntVector(Rng& rng, std::vector<T>& v, int64_t index_bound) {
  const unsigned kind = rng() % 8;
  if (v.empty() || kind == 0) {
    v.push_back(static_cast<T>(index_bound > 0 ? Below(rng, index_bound) : HostileInt(rng, 0)));
  } else if (kind == 1) {
    v.pop_back();
  } else if (kind == 2) {
    v.erase(v.begin() + Below(rng, v.size()));
  } else if (kind < 5 && index_bound > 0) {
    v[Below(rng, v.size())] = static_cast<T>(static_cast<int64_t>(Below(rng, index_bound + 2)) - 1);
  } else {
    T& x = v[Below(rng, v.size())];
    x = static_cast<T>(HostileInt(rng, x));
  }
}

void MutateQuantization(Rng& rng, tflite::TensorT& t) {
  if (!t.quantization) t.quantization = std::make_unique<tflite::QuantizationParametersT>();
  tflite::QuantizationParametersT& q = *t.quantization;
  switch (rng() % 6) {
    case 0:
      if (q.scale.empty()) q.scale.push_back(0.5f);
      for (float& s : q.scale) {
        if (rng() % 2) s = HostileFloat(rng, s);
      }
      break;
    case 1:
      if (q.zero_point.empty()) q.zero_point.push_back(0);
      q.zero_point[Below(rng, q.zero_point.size())] = HostileInt(rng, q.zero_point[0]);
      break;
    case 2:
      q.quantized_dimension = static_cast<int32_t>(HostileInt(rng, q.quantized_dimension) % 8);
      break;
    case 3:  // per-channel arrays of the wrong length
      if (rng() % 2) {
        q.scale.push_back(0.25f);
      } else if (!q.scale.empty()) {
        q.scale.pop_back();
      }
      break;
    case 4:
      if (rng() % 2) {
        q.zero_point.push_back(1);
      } else if (!q.zero_point.empty()) {
        q.zero_point.pop_back();
      }
      break;
    default:
      t.quantization.reset();
      break;
  }
}

void MutateTensor(Rng& rng, tflite::ModelT& m, tflite::TensorT& t) {
  switch (rng() % 9) {
    case 0:
    case 1: {  // a dimension, or the rank
      MutateIntVector(rng, t.shape, 0);
      if (rng() % 2) t.shape_signature = t.shape;
      break;
    }
    case 2:
      t.type = static_cast<tflite::TensorType>(Below(rng, tflite::TensorType_MAX + 2));
      break;
    case 3:
      MutateQuantization(rng, t);
      break;
    case 4:
      t.buffer = Below(rng, m.buffers.size() + 1);
      break;
    case 5:
      t.is_variable = !t.is_variable;
      break;
    case 6:
      MutateIntVector(rng, t.shape_signature, 0);
      break;
    case 7: {  // its constant data
      if (t.buffer == 0 || t.buffer >= m.buffers.size() || !m.buffers[t.buffer]) break;
      std::vector<uint8_t>& d = m.buffers[t.buffer]->data;
      if (d.empty() || rng() % 4 == 0) {
        d.resize(Below(rng, 64));
      } else if (rng() % 2) {
        d.resize(d.size() - 1 - Below(rng, d.size()));  // truncated
      } else {
        for (int k = 0; k < 4; ++k) d[Below(rng, d.size())] = static_cast<uint8_t>(rng());
      }
      break;
    }
    default:
      MutateQuantization(rng, t);
      break;
  }
}

void MutateControlFlow(Rng& rng, tflite::OperatorT& op, int64_t subgraphs) {
  auto pick = [&](int32_t old) {
    return rng() % 3 ? static_cast<int32_t>(Below(rng, subgraphs + 1))
                     : static_cast<int32_t>(HostileInt(rng, old));
  };
  if (auto* w = op.builtin_options.AsWhileOptions()) {
    (rng() % 2 ? w->cond_subgraph_index : w->body_subgraph_index) =
        pick(w->cond_subgraph_index);
  } else if (auto* i = op.builtin_options.AsIfOptions()) {
    (rng() % 2 ? i->then_subgraph_index : i->else_subgraph_index) = pick(i->then_subgraph_index);
  } else if (auto* c = op.builtin_options.AsCallOnceOptions()) {
    c->init_subgraph_index = pick(c->init_subgraph_index);
  } else if (auto* s = op.builtin_options_2.AsStablehloWhileOptions()) {
    (rng() % 2 ? s->cond_subgraph_index : s->body_subgraph_index) = pick(s->cond_subgraph_index);
  }
}

void MutateOperator(Rng& rng, tflite::ModelT& m, tflite::SubGraphT& sg, size_t index) {
  tflite::OperatorT& op = *sg.operators[index];
  const int64_t tensors = static_cast<int64_t>(sg.tensors.size());
  switch (rng() % 10) {
    case 0:
    case 1:
      MutateIntVector(rng, op.inputs, tensors);
      break;
    case 2:
      MutateIntVector(rng, op.outputs, tensors);
      break;
    case 3:
      op.opcode_index = Below(rng, m.operator_codes.size() + 1);
      break;
    case 4:
      MutateControlFlow(rng, op, static_cast<int64_t>(m.subgraphs.size()));
      break;
    case 5:
      if (!op.custom_options.empty()) {
        for (int k = 0; k < 3; ++k) {
          op.custom_options[Below(rng, op.custom_options.size())] ^=
              static_cast<uint8_t>(1u << (rng() % 8));
        }
      } else {
        MutateIntVector(rng, op.intermediates, tensors);
      }
      break;
    case 6:  // run order: swap with a neighbour
      if (sg.operators.size() > 1) {
        const size_t other = index + 1 < sg.operators.size() ? index + 1 : index - 1;
        std::swap(sg.operators[index], sg.operators[other]);
      }
      break;
    case 7: {  // an input that is its own output, or a loop with a later op
      if (!op.outputs.empty() && !op.inputs.empty()) {
        op.inputs[Below(rng, op.inputs.size())] = op.outputs[Below(rng, op.outputs.size())];
      }
      break;
    }
    case 8:
      if (!sg.operators.empty() && sg.operators.size() < 64) {
        auto copy = std::make_unique<tflite::OperatorT>(op);
        sg.operators.insert(sg.operators.begin() + Below(rng, sg.operators.size() + 1),
                            std::move(copy));
      }
      break;
    default:
      sg.operators.erase(sg.operators.begin() + index);
      break;
  }
}

void MutateSignature(Rng& rng, tflite::ModelT& m) {
  if (m.signature_defs.empty()) {
    auto def = std::make_unique<tflite::SignatureDefT>();
    def->signature_key = "fuzz";
    def->subgraph_index = Below(rng, m.subgraphs.size() + 1);
    m.signature_defs.push_back(std::move(def));
    return;
  }
  tflite::SignatureDefT& def = *m.signature_defs[Below(rng, m.signature_defs.size())];
  switch (rng() % 6) {
    case 0:
      def.subgraph_index = rng() % 4 ? Below(rng, m.subgraphs.size() + 1)
                                     : static_cast<uint32_t>(HostileInt(rng, def.subgraph_index));
      break;
    case 1:
    case 2: {
      auto& maps = rng() % 2 ? def.inputs : def.outputs;
      if (maps.empty() || rng() % 4 == 0) {
        auto t = std::make_unique<tflite::TensorMapT>();
        t->name = maps.empty() ? "x" : maps[0]->name;  // a duplicate name
        maps.push_back(std::move(t));
      }
      tflite::TensorMapT& t = *maps[Below(rng, maps.size())];
      t.tensor_index = rng() % 4 ? Below(rng, 64) : static_cast<uint32_t>(HostileInt(rng, 0));
      break;
    }
    case 3:
      def.signature_key = m.signature_defs[0]->signature_key;  // duplicate keys
      break;
    case 4: {
      auto& maps = rng() % 2 ? def.inputs : def.outputs;
      if (!maps.empty()) maps.erase(maps.begin() + Below(rng, maps.size()));
      break;
    }
    default:
      m.signature_defs.push_back(std::make_unique<tflite::SignatureDefT>(def));
      break;
  }
}

void MutateModel(Rng& rng, tflite::ModelT& m) {
  if (m.subgraphs.empty()) return;
  tflite::SubGraphT& sg = *m.subgraphs[Below(rng, m.subgraphs.size())];
  const unsigned kind = rng() % 20;
  if (kind < 7 && !sg.tensors.empty()) {
    MutateTensor(rng, m, *sg.tensors[Below(rng, sg.tensors.size())]);
  } else if (kind < 13 && !sg.operators.empty()) {
    MutateOperator(rng, m, sg, Below(rng, sg.operators.size()));
  } else if (kind < 15) {
    MutateIntVector(rng, rng() % 2 ? sg.inputs : sg.outputs,
                    static_cast<int64_t>(sg.tensors.size()));
  } else if (kind < 17) {
    MutateSignature(rng, m);
  } else if (kind < 19 && !m.operator_codes.empty()) {
    tflite::OperatorCodeT& code = *m.operator_codes[Below(rng, m.operator_codes.size())];
    if (rng() % 2) {
      code.version = static_cast<int32_t>(rng() % 3 ? 1 + rng() % 8 : HostileInt(rng, 1));
    } else {
      code.builtin_code = static_cast<tflite::BuiltinOperator>(
          Below(rng, tflite::BuiltinOperator_MAX + 2));
      code.deprecated_builtin_code = static_cast<int8_t>(
          code.builtin_code < 127 ? code.builtin_code : 127);
    }
  } else {
    // Control flow anywhere in the model.
    for (auto& g : m.subgraphs) {
      for (auto& op : g->operators) {
        if (rng() % 2) MutateControlFlow(rng, *op, static_cast<int64_t>(m.subgraphs.size()));
      }
    }
  }
}

// After packing: a word or a byte inside one operator's builtin options
// table (whatever options type it has), or its options type byte.
void MutateOptionsBytes(Rng& rng, uint8_t* data, size_t size) {
  const tflite::Model* model = tflite::GetModel(data);
  if (!model->subgraphs() || model->subgraphs()->size() == 0) return;
  const tflite::SubGraph* sg = model->subgraphs()->Get(Below(rng, model->subgraphs()->size()));
  if (!sg->operators() || sg->operators()->size() == 0) return;
  const tflite::Operator* op = sg->operators()->Get(Below(rng, sg->operators()->size()));
  if (rng() % 6 == 0) {
    const auto* t = reinterpret_cast<const flatbuffers::Table*>(op);
    const flatbuffers::voffset_t off = t->GetOptionalFieldOffset(tflite::Operator::VT_BUILTIN_OPTIONS_TYPE);
    if (off == 0) return;
    const size_t at = static_cast<size_t>(reinterpret_cast<const uint8_t*>(t) + off - data);
    if (at < size) data[at] = static_cast<uint8_t>(Below(rng, tflite::BuiltinOptions_MAX + 2));
    return;
  }
  const void* options = rng() % 4 ? op->builtin_options() : op->builtin_options_2();
  if (options == nullptr) options = op->builtin_options();
  if (options == nullptr) return;
  const auto* t = static_cast<const flatbuffers::Table*>(options);
  const uint8_t* vtable = t->GetVTable();
  const uint16_t object_size = flatbuffers::ReadScalar<uint16_t>(vtable + 2);
  if (object_size <= 4) return;
  const size_t begin = static_cast<size_t>(reinterpret_cast<const uint8_t*>(t) + 4 - data);
  const size_t length = object_size - 4u;
  if (begin >= size || length > size - begin) return;
  if (length >= 4 && rng() % 2) {
    const size_t at = begin + 4 * Below(rng, length / 4);
    int32_t old;
    std::memcpy(&old, data + at, 4);
    const int32_t v = static_cast<int32_t>(HostileInt(rng, old));
    std::memcpy(data + at, &v, 4);
  } else {
    static const uint8_t kBytes[] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 16, 0x7f, 0x80, 0xff};
    data[begin + Below(rng, length)] = kBytes[rng() % sizeof(kBytes)];
  }
}

// A union whose type is set but whose table is absent verifies (and our
// loader sees exactly that), but the object API cannot pack it: Pack
// dereferences the missing table, and so does copying the operator (the
// union's copy constructor). Such a union becomes NONE after unpacking and
// before packing. (MutateOptionsBytes makes these by rewriting a type byte.)
template <typename Union>
void DropEmpty(Union& u) {
  if (u.value == nullptr) u.Reset();
}

void DropEmptyUnions(tflite::ModelT& m) {
  for (auto& g : m.subgraphs) {
    if (!g) continue;
    for (auto& op : g->operators) {
      if (!op) continue;
      DropEmpty(op->builtin_options);
      DropEmpty(op->builtin_options_2);
    }
    for (auto& t : g->tensors) {
      if (!t || !t->sparsity) continue;
      for (auto& dim : t->sparsity->dim_metadata) {
        if (!dim) continue;
        DropEmpty(dim->array_segments);
        DropEmpty(dim->array_indices);
      }
    }
  }
}

bool Parses(const uint8_t* data, size_t size) {
  flatbuffers::Verifier verifier(data, size);
  return tflite::VerifyModelBuffer(verifier);
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  Rng rng(seed);
  // The input may be unaligned in libFuzzer's buffer: verify an aligned copy.
  std::vector<uint8_t> bytes(data, data + size);
  if (size == 0 || !Parses(bytes.data(), bytes.size()) || rng() % 64 == 0) {
    return LLVMFuzzerMutate(data, size, max_size);
  }
  std::unique_ptr<tflite::ModelT> model = tflite::UnPackModel(bytes.data());
  DropEmptyUnions(*model);  // before MutateOperator copies an operator, too
  const int count = 1 + static_cast<int>(rng() % 3);
  const bool options_bytes = rng() % 4 == 0;
  for (int i = 0; i < count - (options_bytes ? 1 : 0); ++i) MutateModel(rng, *model);
  DropEmptyUnions(*model);
  flatbuffers::FlatBufferBuilder fbb;
  tflite::FinishModelBuffer(fbb, tflite::Model::Pack(fbb, model.get()));
  if (fbb.GetSize() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, fbb.GetBufferPointer(), fbb.GetSize());
  if (options_bytes) MutateOptionsBytes(rng, data, fbb.GetSize());
  return fbb.GetSize();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  uint32_t hash = 2166136261u;  // FNV-1a: which path, and the input values
  for (size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 16777619u;
  const uint8_t fill[4] = {static_cast<uint8_t>(hash >> 8), static_cast<uint8_t>(hash >> 16),
                           static_cast<uint8_t>(hash >> 24), 0};
  tflite_c::fuzz::RunModel(data, size, (hash & 3) == 0, fill, sizeof(fill));
  return 0;
}
