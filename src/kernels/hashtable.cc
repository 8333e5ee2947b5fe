// HASHTABLE, HASHTABLE_FIND, HASHTABLE_IMPORT, HASHTABLE_SIZE: static lookup
// tables held as per-interpreter resources, next to the resource variables
// (src/core/subgraph_access.h).
//
// HASHTABLE outputs the table's resource id (HashtableOptions.table_id) and
// creates an empty table under that id the first time it runs. The table maps
// INT64 keys to STRING values or STRING keys to INT64 values.
// HASHTABLE_IMPORT fills it once: later imports are ignored, as upstream
// (converted models run their initializer more than once), and when a key
// repeats within the import the first value wins. HASHTABLE_FIND looks keys
// up, yielding the first element of its default-value input for missing
// keys; it fails on a table nothing was imported into. HASHTABLE_SIZE yields
// the number of entries as one INT64.
//
// Table ids share the id space of VAR_HANDLE's variables, as upstream: an id
// held by a variable cannot name a table, and the other way round.
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/core/string_util.h"
#include "src/core/subgraph_access.h"
#include "src/kernels/internal/kernel_util.h"
#include "src/kernels/register.h"
#include "tensorflow/lite/core/c/builtin_op_data.h"

namespace tflite_c {
namespace kernels {
namespace {

// The two key -> value directions upstream supports.
bool SupportedTypes(TfLiteType key, TfLiteType value) {
  return (key == kTfLiteInt64 && value == kTfLiteString) ||
         (key == kTfLiteString && value == kTfLiteInt64);
}

TfLiteStatus UnsupportedTypes(TfLiteContext* context, const char* op, TfLiteType key,
                              TfLiteType value) {
  TF_LITE_KERNEL_LOG(context,
                     "%s: a table from %s to %s is not supported (only INT64 -> STRING and "
                     "STRING -> INT64)",
                     op, TfLiteTypeGetName(key), TfLiteTypeGetName(value));
  return kTfLiteError;
}

class HashTable : public Resource {
 public:
  HashTable(TfLiteType key_type, TfLiteType value_type)
      : key_type_(key_type), value_type_(value_type) {}

  TfLiteType key_type() const { return key_type_; }
  TfLiteType value_type() const { return value_type_; }
  bool initialized() const { return initialized_; }
  size_t size() const { return key_type_ == kTfLiteInt64 ? by_int_.size() : by_string_.size(); }

  // Adds the entries (first one wins for a repeated key) and marks the table
  // initialized. The caller has checked types and element counts.
  TfLiteStatus Import(TfLiteContext* context, const char* op, const TfLiteTensor* keys,
                      const TfLiteTensor* values, int64_t count) {
    for (int64_t i = 0; i < count; ++i) {
      const int index = static_cast<int>(i);
      const char* str;
      int len;
      if (!StringTensorGet(key_type_ == kTfLiteString ? keys : values, index, &str, &len)) {
        TF_LITE_KERNEL_LOG(context, "%s: string %lld of the %s is malformed", op,
                           static_cast<long long>(i),
                           key_type_ == kTfLiteString ? "keys" : "values");
        return kTfLiteError;
      }
      if (key_type_ == kTfLiteInt64) {
        by_int_.emplace(keys->data.i64[i], std::string(str, len));
      } else {
        by_string_.emplace(std::string(str, len), values->data.i64[i]);
      }
    }
    initialized_ = true;
    return kTfLiteOk;
  }

  // INT64 keys -> strings: fills `strings`/`lengths` (pointing into the table
  // or into `fallback`).
  void Find(const int64_t* keys, int64_t count, const char* fallback, int fallback_len,
            std::vector<const char*>* strings, std::vector<int>* lengths) const {
    strings->resize(count);
    lengths->resize(count);
    for (int64_t i = 0; i < count; ++i) {
      auto it = by_int_.find(keys[i]);
      if (it == by_int_.end()) {
        (*strings)[i] = fallback;
        (*lengths)[i] = fallback_len;
      } else {
        (*strings)[i] = it->second.data();
        (*lengths)[i] = static_cast<int>(it->second.size());
      }
    }
  }

  // A string key -> its value, or `fallback`.
  int64_t Find(const char* key, int len, int64_t fallback) const {
    auto it = by_string_.find(std::string(key, len));
    return it == by_string_.end() ? fallback : it->second;
  }

 private:
  TfLiteType key_type_;
  TfLiteType value_type_;
  bool initialized_ = false;
  std::unordered_map<int64_t, std::string> by_int_;
  std::unordered_map<std::string, int64_t> by_string_;
};

// ---- resource handles -------------------------------------------------------

// Input 0 of FIND / IMPORT / SIZE: one resource id (RESOURCE, or INT32 as
// resource ids may travel between subgraphs).
TfLiteStatus CheckHandle(TfLiteContext* context, const char* op, const TfLiteTensor* handle) {
  if ((handle->type != kTfLiteResource && handle->type != kTfLiteInt32) ||
      handle->dims == nullptr || internal::NumElements(handle) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: input 0 must be one table id (RESOURCE of shape [1])", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// The table the handle names; reports and returns nullptr when there is none.
HashTable* TableOf(TfLiteContext* context, const char* op, const TfLiteTensor* handle) {
  if (handle->data.raw_const == nullptr || handle->bytes < sizeof(int32_t)) {
    TF_LITE_KERNEL_LOG(context, "%s: table id tensor has no value", op);
    return nullptr;
  }
  int32_t id;
  std::memcpy(&id, handle->data.raw_const, sizeof(id));
  ControlFlowState* state = ControlFlowStateOf(context);
  if (state == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: not run by an interpreter", op);
    return nullptr;
  }
  auto it = state->resources.find(id);
  auto* table = it == state->resources.end() ? nullptr : dynamic_cast<HashTable*>(it->second.get());
  if (table == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: resource %d is not a hash table (no HASHTABLE op created it)",
                       op, id);
  }
  return table;
}

TfLiteStatus CheckTableTypes(TfLiteContext* context, const char* op, const HashTable& table,
                             TfLiteType key, TfLiteType value) {
  if (table.key_type() != key || table.value_type() != value) {
    TF_LITE_KERNEL_LOG(context, "%s: the table maps %s to %s, the op uses %s to %s", op,
                       TfLiteTypeGetName(table.key_type()), TfLiteTypeGetName(table.value_type()),
                       TfLiteTypeGetName(key), TfLiteTypeGetName(value));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// A STRING tensor must hold exactly as many strings as its shape says.
TfLiteStatus CheckStringCount(TfLiteContext* context, const char* op, const char* what,
                              const TfLiteTensor* t) {
  const int count = StringTensorCount(t);
  if (count < 0 || count != internal::NumElements(t)) {
    TF_LITE_KERNEL_LOG(context, "%s: %s hold %d strings but have %lld elements (malformed buffer)",
                       op, what, count, static_cast<long long>(internal::NumElements(t)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

// ---- HASHTABLE ----------------------------------------------------------------

constexpr char kHashtable[] = "HASHTABLE";

TfLiteStatus WriteTableId(TfLiteTensor* output, int32_t id) {
  std::memcpy(output->data.raw, &id, sizeof(id));
  return kTfLiteOk;
}

TfLiteStatus HashtablePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kHashtable, 0, 0, 1));
  TF_LITE_ENSURE_OK(context, internal::RequireParams(context, node, kHashtable));
  const auto* params = static_cast<const TfLiteHashtableParams*>(node->builtin_data);
  if (!SupportedTypes(params->key_dtype, params->value_dtype)) {
    return UnsupportedTypes(context, kHashtable, params->key_dtype, params->value_dtype);
  }
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kHashtable, &output));
  if (output->type != kTfLiteResource) {
    return internal::UnsupportedType(context, kHashtable, "output", output->type);
  }
  // The id is known now; like VAR_HANDLE, hold it in memory of the output's
  // own so that kernels preparing later can already read it.
  TfLiteIntArray* dims = TfLiteIntArrayCreate(1);
  if (dims == nullptr) return kTfLiteError;
  dims->data[0] = 1;
  TF_LITE_ENSURE_OK(context, context->ResizeTensor(context, output, dims));
  internal::SetTensorToDynamic(output);
  TF_LITE_ENSURE_OK(context, TfLiteTensorRealloc(sizeof(int32_t), output));
  output->bytes = sizeof(int32_t);
  return WriteTableId(output, params->table_id);
}

TfLiteStatus HashtableEval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteHashtableParams*>(node->builtin_data);
  ControlFlowState* state = ControlFlowStateOf(context);
  if (state == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: not run by an interpreter", kHashtable);
    return kTfLiteError;
  }
  auto it = state->resources.find(params->table_id);
  if (it == state->resources.end()) {
    state->resources.emplace(params->table_id,
                             std::make_unique<HashTable>(params->key_dtype, params->value_dtype));
  } else {
    const auto* table = dynamic_cast<const HashTable*>(it->second.get());
    if (table == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: resource id %d already names a variable", kHashtable,
                         params->table_id);
      return kTfLiteError;
    }
    TF_LITE_ENSURE_OK(context, CheckTableTypes(context, kHashtable, *table, params->key_dtype,
                                               params->value_dtype));
  }
  return WriteTableId(internal::OutputAt(context, node, 0), params->table_id);
}

// ---- HASHTABLE_FIND -------------------------------------------------------------

constexpr char kFind[] = "HASHTABLE_FIND";

TfLiteStatus FindPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kFind, 3, 3, 1));
  const TfLiteTensor* handle;
  const TfLiteTensor* keys;
  const TfLiteTensor* fallback;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kFind, &handle));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kFind, &keys));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kFind, &fallback));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kFind, &output));
  TF_LITE_ENSURE_OK(context, CheckHandle(context, kFind, handle));
  if (fallback->type != output->type) {
    return internal::TypeMismatch(context, kFind, "default value", fallback->type, "output",
                                  output->type);
  }
  if (!SupportedTypes(keys->type, output->type)) {
    return UnsupportedTypes(context, kFind, keys->type, output->type);
  }
  if (fallback->dims == nullptr || internal::NumElements(fallback) < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: the default value must hold at least one element", kFind);
    return kTfLiteError;
  }
  if (output->type == kTfLiteString) {
    // Strings are sized by their content: written at Eval.
    internal::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return internal::ResizeOutputLike(context, output, keys->dims);
}

TfLiteStatus FindEval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* keys = internal::InputAt(context, node, 1);
  const TfLiteTensor* fallback = internal::InputAt(context, node, 2);
  TfLiteTensor* output = internal::OutputAt(context, node, 0);
  HashTable* table = TableOf(context, kFind, internal::InputAt(context, node, 0));
  if (table == nullptr) return kTfLiteError;
  TF_LITE_ENSURE_OK(context, CheckTableTypes(context, kFind, *table, keys->type, output->type));
  if (!table->initialized()) {
    TF_LITE_KERNEL_LOG(context, "%s: the table is empty: HASHTABLE_IMPORT must run first", kFind);
    return kTfLiteError;
  }
  const int64_t count = internal::NumElements(keys);
  if (keys->type == kTfLiteInt64) {
    const char* fallback_str;
    int fallback_len;
    if (!StringTensorGet(fallback, 0, &fallback_str, &fallback_len)) {
      TF_LITE_KERNEL_LOG(context, "%s: the default value is a malformed string tensor", kFind);
      return kTfLiteError;
    }
    if (count > 0 && keys->data.i64 == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: keys have no data", kFind);
      return kTfLiteError;
    }
    std::vector<const char*> strings;
    std::vector<int> lengths;
    table->Find(keys->data.i64, count, fallback_str, fallback_len, &strings, &lengths);
    TfLiteIntArray* dims = TfLiteIntArrayCopy(keys->dims);
    if (dims == nullptr) return kTfLiteError;
    if (StringTensorWrite(output, strings.data(), lengths.data(), static_cast<int>(count)) !=
        kTfLiteOk) {
      TfLiteIntArrayFree(dims);
      TF_LITE_KERNEL_LOG(context, "%s: cannot write %lld strings", kFind,
                         static_cast<long long>(count));
      return kTfLiteError;
    }
    TfLiteIntArrayFree(output->dims);
    output->dims = dims;
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_OK(context, CheckStringCount(context, kFind, "keys", keys));
  if (fallback->data.i64 == nullptr || (count > 0 && output->data.i64 == nullptr)) {
    TF_LITE_KERNEL_LOG(context, "%s: tensor without data", kFind);
    return kTfLiteError;
  }
  const int64_t default_value = fallback->data.i64[0];
  for (int64_t i = 0; i < count; ++i) {
    const char* key;
    int len;
    if (!StringTensorGet(keys, static_cast<int>(i), &key, &len)) {
      TF_LITE_KERNEL_LOG(context, "%s: key %lld is a malformed string", kFind,
                         static_cast<long long>(i));
      return kTfLiteError;
    }
    output->data.i64[i] = table->Find(key, len, default_value);
  }
  return kTfLiteOk;
}

// ---- HASHTABLE_IMPORT -------------------------------------------------------------

constexpr char kImport[] = "HASHTABLE_IMPORT";

TfLiteStatus ImportPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kImport, 3, 3, 0));
  const TfLiteTensor* handle;
  const TfLiteTensor* keys;
  const TfLiteTensor* values;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kImport, &handle));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 1, kImport, &keys));
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 2, kImport, &values));
  TF_LITE_ENSURE_OK(context, CheckHandle(context, kImport, handle));
  if (!SupportedTypes(keys->type, values->type)) {
    return UnsupportedTypes(context, kImport, keys->type, values->type);
  }
  if (!internal::SameShape(keys->dims, values->dims)) {
    char a[64], b[64];
    TF_LITE_KERNEL_LOG(context, "%s: keys %s and values %s must have the same shape", kImport,
                       internal::ShapeToString(keys->dims, a, sizeof(a)),
                       internal::ShapeToString(values->dims, b, sizeof(b)));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus ImportEval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* keys = internal::InputAt(context, node, 1);
  const TfLiteTensor* values = internal::InputAt(context, node, 2);
  HashTable* table = TableOf(context, kImport, internal::InputAt(context, node, 0));
  if (table == nullptr) return kTfLiteError;
  TF_LITE_ENSURE_OK(context, CheckTableTypes(context, kImport, *table, keys->type, values->type));
  if (table->initialized()) return kTfLiteOk;
  const TfLiteTensor* strings = keys->type == kTfLiteString ? keys : values;
  const TfLiteTensor* ints = keys->type == kTfLiteString ? values : keys;
  TF_LITE_ENSURE_OK(context, CheckStringCount(context, kImport,
                                              strings == keys ? "keys" : "values", strings));
  const int64_t count = internal::NumElements(keys);
  if (count > 0 && ints->data.i64 == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: tensor without data", kImport);
    return kTfLiteError;
  }
  return table->Import(context, kImport, keys, values, count);
}

// ---- HASHTABLE_SIZE ---------------------------------------------------------------

constexpr char kSize[] = "HASHTABLE_SIZE";

TfLiteStatus SizePrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_OK(context, internal::CheckArity(context, node, kSize, 1, 1, 1));
  const TfLiteTensor* handle;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, internal::GetInput(context, node, 0, kSize, &handle));
  TF_LITE_ENSURE_OK(context, internal::GetOutput(context, node, 0, kSize, &output));
  TF_LITE_ENSURE_OK(context, CheckHandle(context, kSize, handle));
  TF_LITE_ENSURE_OK(context, internal::ExpectType(context, kSize, "output", output, kTfLiteInt64));
  return internal::ResizeOutput(context, output, {1});
}

TfLiteStatus SizeEval(TfLiteContext* context, TfLiteNode* node) {
  HashTable* table = TableOf(context, kSize, internal::InputAt(context, node, 0));
  if (table == nullptr) return kTfLiteError;
  internal::OutputAt(context, node, 0)->data.i64[0] = static_cast<int64_t>(table->size());
  return kTfLiteOk;
}

}  // namespace

const TfLiteRegistration* Register_HASHTABLE() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, HashtablePrepare, HashtableEval);
  return &r;
}

const TfLiteRegistration* Register_HASHTABLE_FIND() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, FindPrepare, FindEval);
  return &r;
}

const TfLiteRegistration* Register_HASHTABLE_IMPORT() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, ImportPrepare, ImportEval);
  return &r;
}

const TfLiteRegistration* Register_HASHTABLE_SIZE() {
  static const TfLiteRegistration r =
      internal::MakeRegistration(nullptr, nullptr, SizePrepare, SizeEval);
  return &r;
}

}  // namespace kernels
}  // namespace tflite_c
