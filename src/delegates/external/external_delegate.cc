// External delegates (tensorflow/lite/delegates/external/external_delegate.h):
// a delegate made by a shared library loaded at run time.
//
// The returned TfLiteDelegate is a thin wrapper: its Prepare and buffer-handle
// callbacks forward to the delegate the library created, passing that
// delegate (not the wrapper), so the library sees exactly the object it made.
// The library's delegate may be a classic TfLiteDelegate or an opaque one
// (opaque_delegate_builder set); both are forwarded.
//
// Every failure names the library path and the cause; dlopen/dlsym failures
// include the dlerror() text. The library stays loaded after Delete, as with
// upstream: code it registered may still be referenced during teardown.
#include "tensorflow/lite/delegates/external/external_delegate.h"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "src/core/error_reporter.h"
#include "src/core/exception_guard.h"
#include "tensorflow/lite/delegates/external/external_delegate_interface.h"

namespace tflite_c {
namespace {

using CreateFn = decltype(&tflite_plugin_create_delegate);
using DestroyFn = decltype(&tflite_plugin_destroy_delegate);

constexpr char kCreateSymbol[] = "tflite_plugin_create_delegate";
constexpr char kDestroySymbol[] = "tflite_plugin_destroy_delegate";

void Fail(const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void Fail(const char* format, ...) {
  va_list args;
  va_start(args, format);
  DefaultErrorReporter()->Report(format, args);
  va_end(args);
}

// The library being asked to create a delegate on this thread, so that the
// report_error callback (a bare function pointer) can name it.
thread_local const char* g_creating_library = nullptr;

void ReportPluginError(const char* message) {
  DefaultErrorReporter()->Reportf("External delegate %s: %s",
                                  g_creating_library ? g_creating_library : "(unknown library)",
                                  message ? message : "(null message)");
}

struct ExternalDelegate {
  TfLiteDelegate wrapper{};
  std::string lib_path;
  DestroyFn destroy = nullptr;
  TfLiteDelegate* inner = nullptr;  // made by the library
};

ExternalDelegate* FromWrapper(TfLiteDelegate* delegate) {
  return static_cast<ExternalDelegate*>(delegate->data_);
}

bool IsOpaque(const TfLiteDelegate* d) { return d->opaque_delegate_builder != nullptr; }

TfLiteOpaqueContext* Opaque(TfLiteContext* c) { return reinterpret_cast<TfLiteOpaqueContext*>(c); }
TfLiteOpaqueDelegate* Opaque(TfLiteDelegate* d) {
  return reinterpret_cast<TfLiteOpaqueDelegate*>(d);
}
TfLiteOpaqueTensor* Opaque(TfLiteTensor* t) { return reinterpret_cast<TfLiteOpaqueTensor*>(t); }

TfLiteStatus ForwardPrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  TfLiteDelegate* inner = FromWrapper(delegate)->inner;
  if (IsOpaque(inner)) {
    const TfLiteOpaqueDelegateBuilder* b = inner->opaque_delegate_builder;
    return b->Prepare ? b->Prepare(Opaque(context), Opaque(inner), b->data) : kTfLiteOk;
  }
  return inner->Prepare ? inner->Prepare(context, inner) : kTfLiteOk;
}

TfLiteStatus ForwardCopyFrom(TfLiteContext* context, TfLiteDelegate* delegate,
                             TfLiteBufferHandle handle, TfLiteTensor* tensor) {
  TfLiteDelegate* inner = FromWrapper(delegate)->inner;
  if (IsOpaque(inner)) {
    const TfLiteOpaqueDelegateBuilder* b = inner->opaque_delegate_builder;
    return b->CopyFromBufferHandle(Opaque(context), Opaque(inner), b->data, handle,
                                   Opaque(tensor));
  }
  return inner->CopyFromBufferHandle(context, inner, handle, tensor);
}

TfLiteStatus ForwardCopyTo(TfLiteContext* context, TfLiteDelegate* delegate,
                           TfLiteBufferHandle handle, TfLiteTensor* tensor) {
  TfLiteDelegate* inner = FromWrapper(delegate)->inner;
  if (IsOpaque(inner)) {
    const TfLiteOpaqueDelegateBuilder* b = inner->opaque_delegate_builder;
    return b->CopyToBufferHandle(Opaque(context), Opaque(inner), b->data, handle,
                                 Opaque(tensor));
  }
  return inner->CopyToBufferHandle(context, inner, handle, tensor);
}

void ForwardFree(TfLiteContext* context, TfLiteDelegate* delegate, TfLiteBufferHandle* handle) {
  TfLiteDelegate* inner = FromWrapper(delegate)->inner;
  if (IsOpaque(inner)) {
    const TfLiteOpaqueDelegateBuilder* b = inner->opaque_delegate_builder;
    b->FreeBufferHandle(Opaque(context), Opaque(inner), b->data, handle);
    return;
  }
  inner->FreeBufferHandle(context, inner, handle);
}

// Installs a forwarder for each callback the library's delegate provides.
void Wire(ExternalDelegate* d) {
  TfLiteDelegate& w = d->wrapper;
  TfLiteDelegate* inner = d->inner;
  w.data_ = d;
  w.Prepare = ForwardPrepare;
  if (IsOpaque(inner)) {
    const TfLiteOpaqueDelegateBuilder* b = inner->opaque_delegate_builder;
    w.flags = b->flags;
    if (b->CopyFromBufferHandle) w.CopyFromBufferHandle = ForwardCopyFrom;
    if (b->CopyToBufferHandle) w.CopyToBufferHandle = ForwardCopyTo;
    if (b->FreeBufferHandle) w.FreeBufferHandle = ForwardFree;
  } else {
    w.flags = inner->flags;
    if (inner->CopyFromBufferHandle) w.CopyFromBufferHandle = ForwardCopyFrom;
    if (inner->CopyToBufferHandle) w.CopyToBufferHandle = ForwardCopyTo;
    if (inner->FreeBufferHandle) w.FreeBufferHandle = ForwardFree;
  }
}

bool ValidOptions(const TfLiteExternalDelegateOptions* options) {
  constexpr char kFn[] = "TfLiteExternalDelegateCreate";
  if (options == nullptr) {
    Fail("%s: options is NULL", kFn);
    return false;
  }
  if (options->lib_path == nullptr || options->lib_path[0] == '\0') {
    Fail("%s: options->lib_path is %s", kFn, options->lib_path ? "empty" : "NULL");
    return false;
  }
  if (options->count < 0 || options->count > kExternalDelegateMaxOptions) {
    Fail("%s: %s: options->count is %d, must be in [0, %d]", kFn, options->lib_path,
         options->count, kExternalDelegateMaxOptions);
    return false;
  }
  for (int i = 0; i < options->count; ++i) {
    if (options->keys[i] == nullptr) {
      Fail("%s: %s: option %d has a NULL key", kFn, options->lib_path, i);
      return false;
    }
    if (options->values[i] == nullptr) {
      Fail("%s: %s: option %d ('%s') has a NULL value", kFn, options->lib_path, i,
           options->keys[i]);
      return false;
    }
  }
  return true;
}

// dlerror() text usually starts with the path already; name it only once.
std::string Cause(const char* lib_path, const char* dl_error) {
  if (dl_error == nullptr) return std::string(lib_path) + ": unknown dynamic loader error";
  if (std::strstr(dl_error, lib_path) != nullptr) return dl_error;
  return std::string(lib_path) + ": " + dl_error;
}

// dlsym, distinguishing "absent" from "present but NULL" through dlerror().
void* Symbol(void* handle, const char* lib_path, const char* name) {
  dlerror();
  void* sym = dlsym(handle, name);
  if (sym == nullptr) {
    const char* err = dlerror();
    Fail("TfLiteExternalDelegateCreate: delegate library %s does not export %s (%s)", lib_path,
         name, err ? err : "the symbol resolves to NULL");
  }
  return sym;
}

TfLiteDelegate* Create(const TfLiteExternalDelegateOptions* options) {
  if (!ValidOptions(options)) return nullptr;
  const char* path = options->lib_path;
  dlerror();
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    Fail("TfLiteExternalDelegateCreate: cannot load delegate library: %s",
         Cause(path, dlerror()).c_str());
    return nullptr;
  }
  auto create = reinterpret_cast<CreateFn>(Symbol(handle, path, kCreateSymbol));
  auto destroy =
      create ? reinterpret_cast<DestroyFn>(Symbol(handle, path, kDestroySymbol)) : nullptr;
  if (create == nullptr || destroy == nullptr) {
    dlclose(handle);
    return nullptr;
  }

  // Owned here until returned, so that nothing leaks if a step throws.
  std::unique_ptr<ExternalDelegate> d(new (std::nothrow) ExternalDelegate);
  if (d == nullptr) {
    Fail("TfLiteExternalDelegateCreate: %s: out of memory", path);
    dlclose(handle);
    return nullptr;
  }
  d->lib_path = path;
  d->destroy = destroy;
  const char* previous = g_creating_library;
  g_creating_library = d->lib_path.c_str();
  d->inner = create(options->count > 0 ? options->keys : nullptr,
                    options->count > 0 ? options->values : nullptr,
                    static_cast<size_t>(options->count), ReportPluginError);
  g_creating_library = previous;
  if (d->inner == nullptr) {
    Fail("TfLiteExternalDelegateCreate: %s: %s returned NULL (%d option%s)", path, kCreateSymbol,
         options->count, options->count == 1 ? "" : "s");
    return nullptr;
  }
  Wire(d.get());
  return &d.release()->wrapper;
}

}  // namespace
}  // namespace tflite_c

extern "C" {

TfLiteStatus TfLiteExternalDelegateOptionsInsert(TfLiteExternalDelegateOptions* options,
                                                 const char* key, const char* value) {
  constexpr char kFn[] = "TfLiteExternalDelegateOptionsInsert";
  if (options == nullptr) {
    tflite_c::Fail("%s: options is NULL", kFn);
    return kTfLiteError;
  }
  if (key == nullptr) {
    tflite_c::Fail("%s: key is NULL", kFn);
    return kTfLiteError;
  }
  if (value == nullptr) {
    tflite_c::Fail("%s: value of '%s' is NULL", kFn, key);
    return kTfLiteError;
  }
  if (options->count < 0 || options->count >= kExternalDelegateMaxOptions) {
    tflite_c::Fail("%s: cannot add '%s': already %d options (at most %d)", kFn, key,
                   options->count, kExternalDelegateMaxOptions);
    return kTfLiteError;
  }
  options->keys[options->count] = key;
  options->values[options->count] = value;
  options->count++;
  return kTfLiteOk;
}

TfLiteExternalDelegateOptions TfLiteExternalDelegateOptionsDefault(const char* lib_path) {
  TfLiteExternalDelegateOptions options{};
  options.lib_path = lib_path;
  options.count = 0;
  options.insert = TfLiteExternalDelegateOptionsInsert;
  return options;
}

TfLiteDelegate* TfLiteExternalDelegateCreate(const TfLiteExternalDelegateOptions* options) {
  return tflite_c::GuardC(nullptr, __func__, static_cast<TfLiteDelegate*>(nullptr),
                          [&] { return tflite_c::Create(options); });
}

void TfLiteExternalDelegateDelete(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return;
  auto* d = tflite_c::FromWrapper(delegate);
  d->destroy(d->inner);
  delete d;
}

}  // extern "C"
