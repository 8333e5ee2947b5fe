// library_diff: runs one model through two TensorFlow Lite C libraries (for
// example this runtime and upstream's libtensorflowlite_c.so) on identical
// generated inputs and compares every output. Each library runs in its own
// child process (dlopen there), so the two never share symbols and a crash
// on one side is reported, not inherited.
//
//   library_diff --graph=model.tflite --lib_a=build/libtflite_c.so
//                --lib_b=/path/to/upstream/libtensorflowlite_c.so
//
// Exit status: 0 all outputs within tolerance, 1 some differ, 2 a side
// failed (library, model, allocation or invoke) or bad flags.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"

enum XnnpackMode { kXnnpackDefault, kXnnpackOn, kXnnpackOff };

typedef struct {
  const char* graph;
  const char* lib[2];
  enum XnnpackMode xnnpack[2];
  int threads;
  double atol, rtol;
  long int_tolerance;
  uint64_t seed;
  float lo, hi;
} Flags;

// ---- one side (in a child process) -------------------------------------------------

typedef struct {
  TfLiteModel* (*ModelCreateFromFile)(const char*);
  void (*ModelDelete)(TfLiteModel*);
  TfLiteInterpreterOptions* (*OptionsCreate)(void);
  void (*OptionsDelete)(TfLiteInterpreterOptions*);
  void (*OptionsSetNumThreads)(TfLiteInterpreterOptions*, int32_t);
  void (*OptionsSetErrorReporter)(TfLiteInterpreterOptions*, void (*)(void*, const char*, va_list),
                                  void*);
  void (*OptionsAddDelegate)(TfLiteInterpreterOptions*, TfLiteOpaqueDelegate*);
  void (*OptionsSetUseXNNPACK)(TfLiteInterpreterOptions*, bool);  // ours only
  TfLiteInterpreter* (*InterpreterCreate)(const TfLiteModel*, const TfLiteInterpreterOptions*);
  void (*InterpreterDelete)(TfLiteInterpreter*);
  TfLiteStatus (*AllocateTensors)(TfLiteInterpreter*);
  TfLiteStatus (*Invoke)(TfLiteInterpreter*);
  int32_t (*InputCount)(const TfLiteInterpreter*);
  TfLiteTensor* (*Input)(const TfLiteInterpreter*, int32_t);
  int32_t (*OutputCount)(const TfLiteInterpreter*);
  const TfLiteTensor* (*Output)(const TfLiteInterpreter*, int32_t);
  TfLiteType (*Type)(const TfLiteTensor*);
  int32_t (*NumDims)(const TfLiteTensor*);
  int32_t (*Dim)(const TfLiteTensor*, int32_t);
  size_t (*ByteSize)(const TfLiteTensor*);
  void* (*Data)(const TfLiteTensor*);
  TfLiteXNNPackDelegateOptions (*XnnOptionsDefault)(void);
  TfLiteDelegate* (*XnnCreate)(const TfLiteXNNPackDelegateOptions*);
  void (*XnnDelete)(TfLiteDelegate*);
} Api;

static char g_log[4096];  // the reporter's last messages (child)

static void Reporter(void* user, const char* format, va_list args) {
  (void)user;
  const size_t used = strlen(g_log);
  if (used + 2 >= sizeof(g_log)) return;
  vsnprintf(g_log + used, sizeof(g_log) - used - 1, format, args);
  strncat(g_log, "\n", sizeof(g_log) - strlen(g_log) - 1);
}

static int Resolve(void* h, Api* a, char* why, size_t why_size) {
#define REQUIRED(field, name)                                          \
  do {                                                                 \
    *(void**)(&a->field) = dlsym(h, name);                             \
    if (a->field == NULL) {                                            \
      snprintf(why, why_size, "the library does not export %s", name); \
      return 0;                                                        \
    }                                                                  \
  } while (0)
  REQUIRED(ModelCreateFromFile, "TfLiteModelCreateFromFile");
  REQUIRED(ModelDelete, "TfLiteModelDelete");
  REQUIRED(OptionsCreate, "TfLiteInterpreterOptionsCreate");
  REQUIRED(OptionsDelete, "TfLiteInterpreterOptionsDelete");
  REQUIRED(OptionsSetNumThreads, "TfLiteInterpreterOptionsSetNumThreads");
  REQUIRED(OptionsSetErrorReporter, "TfLiteInterpreterOptionsSetErrorReporter");
  REQUIRED(OptionsAddDelegate, "TfLiteInterpreterOptionsAddDelegate");
  REQUIRED(InterpreterCreate, "TfLiteInterpreterCreate");
  REQUIRED(InterpreterDelete, "TfLiteInterpreterDelete");
  REQUIRED(AllocateTensors, "TfLiteInterpreterAllocateTensors");
  REQUIRED(Invoke, "TfLiteInterpreterInvoke");
  REQUIRED(InputCount, "TfLiteInterpreterGetInputTensorCount");
  REQUIRED(Input, "TfLiteInterpreterGetInputTensor");
  REQUIRED(OutputCount, "TfLiteInterpreterGetOutputTensorCount");
  REQUIRED(Output, "TfLiteInterpreterGetOutputTensor");
  REQUIRED(Type, "TfLiteTensorType");
  REQUIRED(NumDims, "TfLiteTensorNumDims");
  REQUIRED(Dim, "TfLiteTensorDim");
  REQUIRED(ByteSize, "TfLiteTensorByteSize");
  REQUIRED(Data, "TfLiteTensorData");
#undef REQUIRED
  *(void**)(&a->OptionsSetUseXNNPACK) = dlsym(h, "TfLiteInterpreterOptionsSetUseXNNPACK");
  *(void**)(&a->XnnOptionsDefault) = dlsym(h, "TfLiteXNNPackDelegateOptionsDefault");
  *(void**)(&a->XnnCreate) = dlsym(h, "TfLiteXNNPackDelegateCreate");
  *(void**)(&a->XnnDelete) = dlsym(h, "TfLiteXNNPackDelegateDelete");
  return 1;
}

// xorshift64*, seeded per input so both sides generate the same values.
static uint64_t Next(uint64_t* s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static void FillInput(const Api* a, TfLiteTensor* t, uint64_t seed, float lo, float hi) {
  unsigned char* p = (unsigned char*)a->Data(t);
  const size_t bytes = a->ByteSize(t);
  if (p == NULL) return;
  uint64_t s = seed | 1;
  switch (a->Type(t)) {
    case kTfLiteFloat32:
      for (size_t i = 0; i < bytes / 4; ++i) {
        const float u = (float)((Next(&s) >> 40) * (1.0 / 16777216.0));
        ((float*)p)[i] = lo + (hi - lo) * u;
      }
      break;
    case kTfLiteInt32:  // often indices or sizes: small values
      for (size_t i = 0; i < bytes / 4; ++i) ((int32_t*)p)[i] = (int32_t)(Next(&s) % 8);
      break;
    case kTfLiteInt64:
      for (size_t i = 0; i < bytes / 8; ++i) ((int64_t*)p)[i] = (int64_t)(Next(&s) % 8);
      break;
    case kTfLiteBool:
      for (size_t i = 0; i < bytes; ++i) p[i] = (unsigned char)(Next(&s) & 1);
      break;
    case kTfLiteString: break;  // left as the library made it
    default:                    // integer and packed types: any bit pattern
      for (size_t i = 0; i < bytes; ++i) p[i] = (unsigned char)(Next(&s) >> 56);
      break;
  }
}

static void WriteAll(int fd, const void* data, size_t n) {
  const char* p = (const char*)data;
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) _exit(3);
    p += w;
    n -= (size_t)w;
  }
}

// Result stream: int32 status (0 ok), then either a message (uint32 length +
// bytes) or int32 output count and per output: int32 type, int32 rank, rank
// int32 dims, uint64 byte count, the bytes.
static void Fail(int fd, const char* what) {
  const int32_t status = 1;
  char msg[sizeof(g_log) + 256];
  snprintf(msg, sizeof(msg), "%s%s%s", what, g_log[0] ? ": " : "", g_log);
  const uint32_t n = (uint32_t)strlen(msg);
  WriteAll(fd, &status, sizeof(status));
  WriteAll(fd, &n, sizeof(n));
  WriteAll(fd, msg, n);
  _exit(0);
}

static void RunSide(const Flags* f, int side, int fd) {
  char why[512];
  void* h = dlopen(f->lib[side], RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    snprintf(why, sizeof(why), "cannot load %s (%s)", f->lib[side], dlerror());
    Fail(fd, why);
  }
  Api a;
  memset(&a, 0, sizeof(a));
  if (!Resolve(h, &a, why, sizeof(why))) Fail(fd, why);
  TfLiteModel* model = a.ModelCreateFromFile(f->graph);
  if (model == NULL) Fail(fd, "cannot load the model");
  TfLiteInterpreterOptions* options = a.OptionsCreate();
  a.OptionsSetErrorReporter(options, Reporter, NULL);
  a.OptionsSetNumThreads(options, f->threads);
  TfLiteDelegate* xnn = NULL;
  if (f->xnnpack[side] == kXnnpackOn) {
    if (a.XnnOptionsDefault == NULL || a.XnnCreate == NULL || a.XnnDelete == NULL)
      Fail(fd, "--xnnpack=on: the library has no TfLiteXNNPackDelegateCreate");
    TfLiteXNNPackDelegateOptions xo = a.XnnOptionsDefault();
    xo.num_threads = f->threads;
    xnn = a.XnnCreate(&xo);
    if (xnn == NULL) Fail(fd, "TfLiteXNNPackDelegateCreate failed");
    a.OptionsAddDelegate(options, (TfLiteOpaqueDelegate*)xnn);
  }
  // With a delegate of its own the default one is not needed either.
  if (f->xnnpack[side] != kXnnpackDefault && a.OptionsSetUseXNNPACK != NULL)
    a.OptionsSetUseXNNPACK(options, false);
  TfLiteInterpreter* it = a.InterpreterCreate(model, options);
  if (it == NULL) Fail(fd, "cannot create the interpreter");
  if (a.AllocateTensors(it) != kTfLiteOk) Fail(fd, "AllocateTensors failed");
  for (int32_t i = 0; i < a.InputCount(it); ++i)
    FillInput(&a, a.Input(it, i), f->seed * 1000003u + (uint64_t)i, f->lo, f->hi);
  if (a.Invoke(it) != kTfLiteOk) Fail(fd, "Invoke failed");
  const int32_t status = 0, count = a.OutputCount(it);
  WriteAll(fd, &status, sizeof(status));
  WriteAll(fd, &count, sizeof(count));
  for (int32_t i = 0; i < count; ++i) {
    const TfLiteTensor* t = a.Output(it, i);
    const int32_t type = (int32_t)a.Type(t), rank = a.NumDims(t);
    WriteAll(fd, &type, sizeof(type));
    WriteAll(fd, &rank, sizeof(rank));
    for (int32_t d = 0; d < rank; ++d) {
      const int32_t dim = a.Dim(t, d);
      WriteAll(fd, &dim, sizeof(dim));
    }
    const void* data = a.Data(t);
    const uint64_t bytes = data != NULL ? (uint64_t)a.ByteSize(t) : 0;
    WriteAll(fd, &bytes, sizeof(bytes));
    if (bytes > 0) WriteAll(fd, data, (size_t)bytes);
  }
  // Leave without tearing down: the parent has what it needs.
  _exit(0);
}

// ---- the parent --------------------------------------------------------------------

typedef struct {
  unsigned char* data;
  size_t size, pos;
} Buffer;

static int Take(Buffer* b, void* out, size_t n) {
  if (b->size - b->pos < n) return 0;
  memcpy(out, b->data + b->pos, n);
  b->pos += n;
  return 1;
}

typedef struct {
  int32_t type, rank, dims[16];
  uint64_t bytes;
  const unsigned char* data;
} Output;

typedef struct {
  int ok;
  char message[sizeof(g_log) + 256];
  int32_t count;
  Output* outputs;
  Buffer raw;
} Side;

static int Collect(const Flags* f, int side, Side* out) {
  memset(out, 0, sizeof(*out));
  int fds[2];
  if (pipe(fds) != 0) return 0;
  fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) {
    close(fds[0]);
    RunSide(f, side, fds[1]);
  }
  close(fds[1]);
  size_t cap = 1 << 16;
  out->raw.data = (unsigned char*)malloc(cap);
  for (;;) {
    if (out->raw.data == NULL) break;
    if (out->raw.size == cap) {
      cap *= 2;
      unsigned char* grown = (unsigned char*)realloc(out->raw.data, cap);
      if (grown == NULL) break;
      out->raw.data = grown;
    }
    const ssize_t r = read(fds[0], out->raw.data + out->raw.size, cap - out->raw.size);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    out->raw.size += (size_t)r;
  }
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  Buffer* b = &out->raw;
  int32_t status = -1;
  if (!Take(b, &status, sizeof(status))) {
    if (WIFSIGNALED(wstatus))
      snprintf(out->message, sizeof(out->message), "crashed (signal %d)", WTERMSIG(wstatus));
    else
      snprintf(out->message, sizeof(out->message), "exited (status %d) without a result",
               WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    return 1;
  }
  if (status != 0) {
    uint32_t n = 0;
    if (Take(b, &n, sizeof(n)) && n < sizeof(out->message)) Take(b, out->message, n);
    return 1;
  }
  if (!Take(b, &out->count, sizeof(out->count)) || out->count < 0 || out->count > 100000) {
    snprintf(out->message, sizeof(out->message), "sent a malformed result");
    return 1;
  }
  out->outputs = (Output*)calloc((size_t)out->count + 1, sizeof(Output));
  for (int32_t i = 0; i < out->count; ++i) {
    Output* o = &out->outputs[i];
    if (!Take(b, &o->type, 4) || !Take(b, &o->rank, 4) || o->rank < 0 || o->rank > 16) goto bad;
    for (int32_t d = 0; d < o->rank; ++d)
      if (!Take(b, &o->dims[d], 4)) goto bad;
    if (!Take(b, &o->bytes, 8) || b->size - b->pos < o->bytes) goto bad;
    o->data = b->data + b->pos;
    b->pos += (size_t)o->bytes;
  }
  out->ok = 1;
  return 1;
bad:
  snprintf(out->message, sizeof(out->message), "sent a malformed result");
  return 1;
}

static const char* TypeName(int32_t t) {
  switch (t) {
    case kTfLiteFloat32: return "FLOAT32";
    case kTfLiteFloat16: return "FLOAT16";
    case kTfLiteFloat64: return "FLOAT64";
    case kTfLiteInt8: return "INT8";
    case kTfLiteUInt8: return "UINT8";
    case kTfLiteInt16: return "INT16";
    case kTfLiteUInt16: return "UINT16";
    case kTfLiteInt32: return "INT32";
    case kTfLiteUInt32: return "UINT32";
    case kTfLiteInt64: return "INT64";
    case kTfLiteBool: return "BOOL";
    case kTfLiteString: return "STRING";
    default: return "OTHER";
  }
}

// Element `i` as a double (integers exactly up to 2^53); 0 if not numeric.
static int Element(const Output* o, size_t i, double* v) {
  const unsigned char* p = o->data;
#define TFLITE_C_LOAD(ctype)                          \
  do {                                                \
    ctype x;                                          \
    memcpy(&x, p + sizeof(ctype) * i, sizeof(ctype)); \
    *v = (double)x;                                   \
    return 1;                                         \
  } while (0)
  switch (o->type) {
    case kTfLiteFloat32: TFLITE_C_LOAD(float);
    case kTfLiteFloat64: TFLITE_C_LOAD(double);
    case kTfLiteInt8: TFLITE_C_LOAD(int8_t);
    case kTfLiteUInt8:
    case kTfLiteBool: TFLITE_C_LOAD(uint8_t);
    case kTfLiteInt16: TFLITE_C_LOAD(int16_t);
    case kTfLiteUInt16: TFLITE_C_LOAD(uint16_t);
    case kTfLiteInt32: TFLITE_C_LOAD(int32_t);
    case kTfLiteUInt32: TFLITE_C_LOAD(uint32_t);
    case kTfLiteInt64: TFLITE_C_LOAD(int64_t);
    default: return 0;
  }
#undef TFLITE_C_LOAD
}

static size_t ElementSize(int32_t type) {
  switch (type) {
    case kTfLiteFloat32:
    case kTfLiteInt32:
    case kTfLiteUInt32: return 4;
    case kTfLiteFloat64:
    case kTfLiteInt64: return 8;
    case kTfLiteInt16:
    case kTfLiteUInt16:
    case kTfLiteFloat16: return 2;
    default: return 1;
  }
}

static void Shape(const Output* o, char* s, size_t n) {
  size_t used = (size_t)snprintf(s, n, "[");
  for (int32_t d = 0; d < o->rank && used < n; ++d)
    used += (size_t)snprintf(s + used, n - used, d ? ",%d" : "%d", o->dims[d]);
  if (used < n) snprintf(s + used, n - used, "]");
}

// Prints one output's comparison; returns whether it is within tolerance.
static int CompareOutput(const Flags* f, int index, const Output* a, const Output* b) {
  char sa[128], sb[128];
  Shape(a, sa, sizeof(sa));
  Shape(b, sb, sizeof(sb));
  if (a->type != b->type || strcmp(sa, sb) != 0 || a->bytes != b->bytes) {
    printf("output %d: %s %s vs %s %s: DIFFER (type or shape)\n", index, TypeName(a->type), sa,
           TypeName(b->type), sb);
    return 0;
  }
  const int is_float = a->type == kTfLiteFloat32 || a->type == kTfLiteFloat64;
  double probe;
  if (a->bytes > 0 && !Element(a, 0, &probe)) {
    const int same = memcmp(a->data, b->data, (size_t)a->bytes) == 0;
    printf("output %d: %s %s: %s (bytes compared)\n", index, TypeName(a->type), sa,
           same ? "identical" : "DIFFER");
    return same;
  }
  const size_t n = (size_t)(a->bytes / ElementSize(a->type));
  size_t beyond = 0, first_beyond = 0, different = 0;
  double max_abs = 0;
  for (size_t i = 0; i < n; ++i) {
    double x = 0, y = 0;
    Element(a, i, &x);
    Element(b, i, &y);
    int bad;
    if (is_float && (isnan(x) || isnan(y) || isinf(x) || isinf(y))) {
      bad = !((isnan(x) && isnan(y)) || x == y);
    } else {
      const double d = fabs(x - y);
      if (d > max_abs) max_abs = d;
      bad = is_float ? d > f->atol + f->rtol * fabs(x) : d > (double)f->int_tolerance;
    }
    different += x != y && !(isnan(x) && isnan(y));
    if (bad && beyond++ == 0) first_beyond = i;
  }
  printf("output %d: %s %s: max abs diff %.3g, %zu of %zu elements differ, %zu beyond tolerance",
         index, TypeName(a->type), sa, max_abs, different, n, beyond);
  if (beyond > 0) {
    double x = 0, y = 0;
    Element(a, first_beyond, &x);
    Element(b, first_beyond, &y);
    printf(" (first at %zu: %.9g vs %.9g)", first_beyond, x, y);
  }
  printf("\n");
  return beyond == 0;
}

static int ParseMode(const char* v, enum XnnpackMode* m) {
  if (strcmp(v, "default") == 0)
    *m = kXnnpackDefault;
  else if (strcmp(v, "on") == 0 || strcmp(v, "true") == 0)
    *m = kXnnpackOn;
  else if (strcmp(v, "off") == 0 || strcmp(v, "false") == 0)
    *m = kXnnpackOff;
  else
    return 0;
  return 1;
}

static void Usage(FILE* out) {
  fprintf(out,
          "usage: library_diff --graph=model.tflite --lib_a=LIB --lib_b=LIB [options]\n"
          "  Runs the model through two TensorFlow Lite C libraries on the same generated\n"
          "  inputs and compares the outputs (A is the reference for relative tolerance).\n"
          "  --xnnpack_a=default|on|off  (and --xnnpack_b) default: the library's own\n"
          "      behaviour; on: add TfLiteXNNPackDelegateCreate's delegate; off: no\n"
          "      XNNPACK (TfLiteInterpreterOptionsSetUseXNNPACK where the library has it;\n"
          "      upstream's C library applies none by default)\n"
          "  --num_threads=1  --seed=1  --input_range=-1,1 (float inputs)\n"
          "  --atol=1e-5 --rtol=1e-4 (float outputs)  --int_tolerance=0 (integer outputs)\n"
          "Exit status: 0 within tolerance, 1 outputs differ, 2 a side failed or bad flags.\n");
}

static int ParseFlags(int argc, char** argv, Flags* f) {
  memset(f, 0, sizeof(*f));
  f->threads = 1;
  f->atol = 1e-5;
  f->rtol = 1e-4;
  f->seed = 1;
  f->lo = -1;
  f->hi = 1;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char* eq = strchr(arg, '=');
    if (strcmp(arg, "--help") == 0) {
      Usage(stdout);
      exit(0);
    }
    if (strncmp(arg, "--", 2) != 0 || eq == NULL) {
      fprintf(stderr, "library_diff: unexpected argument '%s'\n", arg);
      return 0;
    }
    const size_t klen = (size_t)(eq - arg - 2);
    const char* key = arg + 2;
    const char* v = eq + 1;
    char* end = NULL;
    int ok = 1;
#define KEY(name) (klen == strlen(name) && strncmp(key, name, klen) == 0)
    if (KEY("graph"))
      f->graph = v;
    else if (KEY("lib_a"))
      f->lib[0] = v;
    else if (KEY("lib_b"))
      f->lib[1] = v;
    else if (KEY("xnnpack_a"))
      ok = ParseMode(v, &f->xnnpack[0]);
    else if (KEY("xnnpack_b"))
      ok = ParseMode(v, &f->xnnpack[1]);
    else if (KEY("num_threads")) {
      f->threads = (int)strtol(v, &end, 10);
      ok = *v && !*end;
    } else if (KEY("seed")) {
      f->seed = strtoull(v, &end, 10);
      ok = *v && !*end;
    } else if (KEY("atol")) {
      f->atol = strtod(v, &end);
      ok = *v && !*end && f->atol >= 0;
    } else if (KEY("rtol")) {
      f->rtol = strtod(v, &end);
      ok = *v && !*end && f->rtol >= 0;
    } else if (KEY("int_tolerance")) {
      f->int_tolerance = strtol(v, &end, 10);
      ok = *v && !*end && f->int_tolerance >= 0;
    } else if (KEY("input_range")) {
      ok = sscanf(v, "%f,%f", &f->lo, &f->hi) == 2 && f->lo <= f->hi;
    } else {
      fprintf(stderr, "library_diff: unknown flag '%s'\n", arg);
      return 0;
    }
#undef KEY
    if (!ok) {
      fprintf(stderr, "library_diff: bad value in '%s'\n", arg);
      return 0;
    }
  }
  if (f->graph == NULL || f->lib[0] == NULL || f->lib[1] == NULL) {
    fprintf(stderr, "library_diff: --graph, --lib_a and --lib_b are required\n");
    return 0;
  }
  return 1;
}

int main(int argc, char** argv) {
  Flags f;
  if (!ParseFlags(argc, argv, &f)) {
    Usage(stderr);
    return 2;
  }
  static const char* kModes[] = {"default", "on", "off"};
  Side sides[2];
  for (int s = 0; s < 2; ++s) {
    printf("%c: %s (XNNPACK %s)\n", 'A' + s, f.lib[s], kModes[f.xnnpack[s]]);
    if (!Collect(&f, s, &sides[s])) {
      fprintf(stderr, "library_diff: cannot start a child process: %s\n", strerror(errno));
      return 2;
    }
  }
  int failed = 0;
  for (int s = 0; s < 2; ++s) {
    if (!sides[s].ok) {
      printf("%c failed: %s\n", 'A' + s, sides[s].message);
      failed = 1;
    }
  }
  if (failed) return 2;
  int result = 0;
  if (sides[0].count != sides[1].count) {
    printf("DIFFER: %d outputs vs %d\n", sides[0].count, sides[1].count);
    return 1;
  }
  for (int32_t i = 0; i < sides[0].count; ++i)
    if (!CompareOutput(&f, i, &sides[0].outputs[i], &sides[1].outputs[i])) result = 1;
  printf("%s\n", result == 0 ? "MATCH" : "DIFFER");
  for (int s = 0; s < 2; ++s) {
    free(sides[s].outputs);
    free(sides[s].raw.data);
  }
  return result;
}
