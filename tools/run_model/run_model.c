/* run_model: load a .tflite model through the public C API, run it, and
 * summarize every input and output tensor plus the time each step took.
 *
 *   run_model MODEL.tflite [--threads N] [--runs N] [--seed S]
 *                          [--input I=FILE]... [--shape I=D0,D1,...]...
 *                          [--output_dir DIR]
 *
 * An --input FILE is a NumPy .npy array (recognized by its magic bytes; dtype
 * and element count must match the tensor) or raw little-endian bytes.
 * --output_dir writes every output as DIR/output_<i>.npy.
 *
 * Exit status: 0 ok, 1 failure (the library's messages go to stderr),
 * 2 bad arguments, 3 the model needs operators this build does not have.
 * Inputs not given with --input get deterministic pseudo-random data (the same
 * for the same --seed), so two runs of the same build print the same checksums.
 * Timing: load = model + interpreter creation; avg_invoke averages runs 2..N
 * (the first Invoke often pays one-time costs) and equals first_invoke when
 * --runs is 1.
 * This program uses nothing but tensorflow/lite/c/c_api.h: it doubles as a
 * check that the public header is enough to drive a model end to end.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "npy.h"
#include "tensorflow/lite/c/c_api.h"

#define MAX_ITEMS 64
#define MAX_DIMS 16
#define ERR_CAP 8192

/* ---- error capture ---------------------------------------------------------
 * The library reports details through the error-reporter callback; the status
 * codes alone say only that something failed. Keep the messages so a failure
 * can be explained on exit. */
static char g_errors[ERR_CAP];
static size_t g_errors_len;

static void CaptureError(void* user_data, const char* format, va_list args) {
  (void)user_data;
  if (g_errors_len + 2 >= ERR_CAP) return;
  int n = vsnprintf(g_errors + g_errors_len, ERR_CAP - g_errors_len - 1, format, args);
  if (n < 0) return;
  g_errors_len += (size_t)n < ERR_CAP - g_errors_len - 1 ? (size_t)n : ERR_CAP - g_errors_len - 2;
  g_errors[g_errors_len++] = '\n';
  g_errors[g_errors_len] = '\0';
}

/* Exit status 3 (instead of 1) when the failure is an operator this build of
 * the library does not have, so scripts can tell "unsupported" from "broken". */
#define EXIT_UNSUPPORTED_OP 3

static int MentionsMissingOp(const char* text) {
  static const char* const kPhrases[] = {"Didn't find op", "unresolved", "Unresolved",
                                         "unsupported op", "Unsupported op"};
  for (size_t i = 0; i < sizeof(kPhrases) / sizeof(kPhrases[0]); ++i)
    if (strstr(text, kPhrases[i])) return 1;
  return 0;
}

static int Fail(const char* what) {
  fprintf(stderr, "run_model: %s failed\n", what);
  if (g_errors_len > 0) fprintf(stderr, "%s", g_errors);
  if (MentionsMissingOp(g_errors)) {
    fprintf(stderr, "run_model: the model uses operators this build does not support\n");
    return EXIT_UNSUPPORTED_OP;
  }
  return 1;
}

/* ---- options ----------------------------------------------------------------- */
typedef struct {
  int index;
  const char* value;
} IndexedArg;

typedef struct {
  const char* model_path;
  int threads;
  int runs;
  unsigned long seed;
  IndexedArg inputs[MAX_ITEMS];
  int num_inputs;
  IndexedArg shapes[MAX_ITEMS];
  int num_shapes;
  const char* output_dir;
} Options;

static const char kSynopsis[] =
    "usage: run_model MODEL.tflite [--threads N] [--runs N] [--seed S]\n"
    "                 [--input I=FILE]... [--shape I=D0,D1,...]... [--output_dir DIR]\n";
static const char kOptions[] =
    "  --threads N       interpreter threads (default: library default)\n"
    "  --runs N          number of Invoke calls (default 1)\n"
    "  --seed S          seed of the generated input data (default 1)\n"
    "  --input I=FILE    input tensor I from a .npy file or raw little-endian bytes\n"
    "  --shape I=DIMS    resize input I before AllocateTensors\n"
    "  --output_dir DIR  write output i to DIR/output_<i>.npy\n"
    "The library applies its XNNPACK delegate by default; set\n"
    "TFLITE_C_DISABLE_XNNPACK=1 to run on the builtin kernels only.\n";

static void Usage(FILE* out) {
  fputs(kSynopsis, out);
  fputs(kOptions, out);
}

/* --help: the usage text above in man-page sections (NAME, SYNOPSIS,
 * OPTIONS, EXAMPLES, EXIT STATUS). */
static void ManPage(FILE* out) {
  fputs("NAME\n"
        "    run_model - run a .tflite model through the tflite-c C API and summarize\n"
        "    its inputs, outputs and timings\n"
        "\n"
        "SYNOPSIS\n",
        out);
  fputs(kSynopsis, out);
  fputs("\nOPTIONS\n", out);
  fputs(kOptions, out);
  fputs("\n"
        "EXAMPLES\n"
        "    run_model mobilenet.tflite --threads 2 --runs 10\n"
        "    run_model model.tflite --input 0=image.npy --output_dir out/\n"
        "    TFLITE_C_DISABLE_XNNPACK=1 run_model model.tflite --shape 0=1,224,224,3\n"
        "\n"
        "EXIT STATUS\n"
        "    0 ok, 1 failure (the library's messages go to stderr), 2 bad arguments,\n"
        "    3 the model needs operators this build does not have.\n",
        out);
}

static int ParseLong(const char* s, long* out) {
  char* end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0') return 0;
  *out = v;
  return 1;
}

static int ParseIndexed(const char* s, IndexedArg* out) {
  const char* eq = strchr(s, '=');
  if (!eq || eq == s) return 0;
  char buf[32];
  size_t n = (size_t)(eq - s);
  if (n >= sizeof(buf)) return 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  long idx;
  if (!ParseLong(buf, &idx) || idx < 0 || idx > 1000000) return 0;
  out->index = (int)idx;
  out->value = eq + 1;
  return 1;
}

static int ParseArgs(int argc, char** argv, Options* o) {
  memset(o, 0, sizeof(*o));
  o->threads = -1;
  o->runs = 1;
  o->seed = 1;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    long n;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      ManPage(stdout);
      exit(0);
    } else if (strcmp(a, "--threads") == 0 && v && ParseLong(v, &n) && n >= -1 && n < 1024) {
      o->threads = (int)n;
      ++i;
    } else if (strcmp(a, "--runs") == 0 && v && ParseLong(v, &n) && n >= 1 && n <= 1000000) {
      o->runs = (int)n;
      ++i;
    } else if (strcmp(a, "--seed") == 0 && v && ParseLong(v, &n) && n >= 0) {
      o->seed = (unsigned long)n;
      ++i;
    } else if (strcmp(a, "--input") == 0 && v && o->num_inputs < MAX_ITEMS &&
               ParseIndexed(v, &o->inputs[o->num_inputs])) {
      ++o->num_inputs;
      ++i;
    } else if (strcmp(a, "--shape") == 0 && v && o->num_shapes < MAX_ITEMS &&
               ParseIndexed(v, &o->shapes[o->num_shapes])) {
      ++o->num_shapes;
      ++i;
    } else if (strcmp(a, "--output_dir") == 0 && v) {
      o->output_dir = v;
      ++i;
    } else if (a[0] != '-' && !o->model_path) {
      o->model_path = a;
    } else {
      fprintf(stderr, "run_model: bad argument '%s'%s\n", a,
              v && a[0] == '-' ? " (or its value)" : "");
      return 0;
    }
  }
  if (!o->model_path) {
    fprintf(stderr, "run_model: no model file given\n");
    return 0;
  }
  return 1;
}

/* ---- small helpers ------------------------------------------------------------ */
static double NowMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const char* TypeName(TfLiteType t) {
  switch (t) {
    case kTfLiteNoType: return "notype";
    case kTfLiteFloat32: return "float32";
    case kTfLiteInt32: return "int32";
    case kTfLiteUInt8: return "uint8";
    case kTfLiteInt64: return "int64";
    case kTfLiteString: return "string";
    case kTfLiteBool: return "bool";
    case kTfLiteInt16: return "int16";
    case kTfLiteComplex64: return "complex64";
    case kTfLiteInt8: return "int8";
    case kTfLiteFloat16: return "float16";
    case kTfLiteFloat64: return "float64";
    case kTfLiteComplex128: return "complex128";
    case kTfLiteUInt64: return "uint64";
    case kTfLiteResource: return "resource";
    case kTfLiteVariant: return "variant";
    case kTfLiteUInt32: return "uint32";
    case kTfLiteUInt16: return "uint16";
    case kTfLiteInt4: return "int4";
    case kTfLiteBFloat16: return "bfloat16";
    default: return "unknown";
  }
}

/* xorshift64*: tiny, fast, and identical on every platform. */
static uint64_t NextRandom(uint64_t* state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

static float HalfToFloat(uint16_t h) {
  int exp = (h >> 10) & 0x1f;
  int mant = h & 0x3ff;
  float v;
  if (exp == 0) v = ldexpf((float)mant, -24);
  else if (exp == 31) v = mant ? NAN : INFINITY;
  else v = ldexpf((float)(mant | 0x400), exp - 25);
  return (h & 0x8000) ? -v : v;
}

static uint16_t FloatToHalf(float f) { /* only for values in [-1, 1] */
  uint16_t sign = f < 0 ? 0x8000 : 0;
  float a = fabsf(f);
  if (a < 6.1035156e-05f) return sign; /* flush tiny values to zero */
  int e;
  float m = frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
  uint16_t mant = (uint16_t)((m * 2.0f - 1.0f) * 1024.0f);
  return (uint16_t)(sign | ((e - 1 + 15) << 10) | (mant & 0x3ff));
}

static size_t TypeSize(TfLiteType t) {
  switch (t) {
    case kTfLiteFloat32: case kTfLiteInt32: case kTfLiteUInt32: return 4;
    case kTfLiteInt64: case kTfLiteUInt64: case kTfLiteFloat64: case kTfLiteComplex64: return 8;
    case kTfLiteComplex128: return 16;
    case kTfLiteInt16: case kTfLiteUInt16: case kTfLiteFloat16: case kTfLiteBFloat16: return 2;
    case kTfLiteUInt8: case kTfLiteInt8: case kTfLiteBool: return 1;
    default: return 0;
  }
}

/* Fills a tensor with data that suits its type: floats in [-1, 1], 8/16-bit
 * integers over their full range, wider integers small and non-negative (they
 * are often indices or sizes), bools 0/1. */
static void FillDeterministic(TfLiteTensor* t, uint64_t seed) {
  uint8_t* data = (uint8_t*)TfLiteTensorData(t);
  size_t bytes = TfLiteTensorByteSize(t);
  TfLiteType type = TfLiteTensorType(t);
  size_t es = TypeSize(type);
  if (!data || bytes == 0) return;
  uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
  if (state == 0) state = 1;
  if (es == 0) { /* strings and other opaque types: leave as they are */
    return;
  }
  size_t n = bytes / es;
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = NextRandom(&state);
    double u = (double)(r >> 11) / 9007199254740992.0; /* [0, 1) */
    void* p = data + i * es;
    switch (type) {
      case kTfLiteFloat32: { float v = (float)(u * 2.0 - 1.0); memcpy(p, &v, 4); break; }
      case kTfLiteFloat64: { double v = u * 2.0 - 1.0; memcpy(p, &v, 8); break; }
      case kTfLiteFloat16: { uint16_t v = FloatToHalf((float)(u * 2.0 - 1.0)); memcpy(p, &v, 2); break; }
      case kTfLiteBFloat16: {
        float f = (float)(u * 2.0 - 1.0);
        uint32_t bits;
        memcpy(&bits, &f, 4);
        uint16_t v = (uint16_t)(bits >> 16);
        memcpy(p, &v, 2);
        break;
      }
      case kTfLiteInt32: case kTfLiteUInt32: { uint32_t v = (uint32_t)(r % 8); memcpy(p, &v, 4); break; }
      case kTfLiteInt64: case kTfLiteUInt64: { uint64_t v = r % 8; memcpy(p, &v, 8); break; }
      case kTfLiteBool: data[i] = (uint8_t)(r & 1); break;
      default: memcpy(p, &r, es); break; /* int8/uint8/int16/uint16/complex: raw bits */
    }
  }
}

static int ReadFileInto(const char* path, TfLiteTensor* t) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "run_model: cannot open '%s': %s\n", path, strerror(errno));
    return 0;
  }
  size_t want = TfLiteTensorByteSize(t);
  void* buf = malloc(want + 1);
  size_t got = buf ? fread(buf, 1, want + 1, f) : 0;
  fclose(f);
  if (got != want) {
    fprintf(stderr, "run_model: '%s' has %s%zu bytes, input tensor '%s' needs %zu\n", path,
            got > want ? "more than " : "", got > want ? want : got,
            TfLiteTensorName(t) ? TfLiteTensorName(t) : "", want);
    free(buf);
    return 0;
  }
  TfLiteStatus s = TfLiteTensorCopyFromBuffer(t, buf, want);
  free(buf);
  if (s != kTfLiteOk) return Fail("TfLiteTensorCopyFromBuffer") == 0;
  return 1;
}

/* ---- summaries ------------------------------------------------------------------ */
static double ElementAsDouble(const uint8_t* p, TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32: { float v; memcpy(&v, p, 4); return v; }
    case kTfLiteFloat64: { double v; memcpy(&v, p, 8); return v; }
    case kTfLiteFloat16: { uint16_t v; memcpy(&v, p, 2); return HalfToFloat(v); }
    case kTfLiteBFloat16: {
      uint16_t v; memcpy(&v, p, 2);
      uint32_t bits = (uint32_t)v << 16; float f; memcpy(&f, &bits, 4); return f;
    }
    case kTfLiteInt32: { int32_t v; memcpy(&v, p, 4); return v; }
    case kTfLiteUInt32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case kTfLiteInt64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
    case kTfLiteUInt64: { uint64_t v; memcpy(&v, p, 8); return (double)v; }
    case kTfLiteInt16: { int16_t v; memcpy(&v, p, 2); return v; }
    case kTfLiteUInt16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case kTfLiteInt8: return (int8_t)p[0];
    case kTfLiteUInt8: case kTfLiteBool: return p[0];
    default: return 0.0;
  }
}

static uint64_t Checksum(const TfLiteTensor* t) {
  const uint8_t* data = (const uint8_t*)TfLiteTensorData(t);
  size_t bytes = TfLiteTensorByteSize(t);
  uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
  for (size_t i = 0; data && i < bytes; ++i) h = (h ^ data[i]) * 0x100000001b3ULL;
  return h;
}

static void PrintTensor(const char* kind, int index, const TfLiteTensor* t) {
  if (!t) {
    printf("%-6s %d: <null tensor>\n", kind, index);
    return;
  }
  const char* name = TfLiteTensorName(t);
  TfLiteType type = TfLiteTensorType(t);
  size_t bytes = TfLiteTensorByteSize(t);
  printf("%-6s %d: '%s' %s [", kind, index, name ? name : "", TypeName(type));
  int32_t nd = TfLiteTensorNumDims(t);
  for (int32_t d = 0; d < nd && d < MAX_DIMS; ++d) printf("%s%d", d ? "," : "", (int)TfLiteTensorDim(t, d));
  printf("] %zu bytes", bytes);
  TfLiteQuantizationParams q = TfLiteTensorQuantizationParams(t);
  if (q.scale != 0.0f) printf(" q(scale=%g, zero_point=%d)", (double)q.scale, (int)q.zero_point);

  const uint8_t* data = (const uint8_t*)TfLiteTensorData(t);
  if (!data) {
    printf(" (no data)\n");
    return;
  }
  printf(" fnv1a=%016llx", (unsigned long long)Checksum(t));

  size_t es = TypeSize(type);
  if (es == 0 || type == kTfLiteComplex64 || type == kTfLiteComplex128 || bytes < es) {
    printf("\n");
    return;
  }
  size_t n = bytes / es;
  double mn = INFINITY, mx = -INFINITY, sum = 0.0;
  size_t nan_count = 0;
  for (size_t i = 0; i < n; ++i) {
    double v = ElementAsDouble(data + i * es, type);
    if (v != v) { ++nan_count; continue; }
    if (v < mn) mn = v;
    if (v > mx) mx = v;
    sum += v;
  }
  size_t finite = n - nan_count;
  printf(" min=%.6g max=%.6g mean=%.6g", finite ? mn : 0.0, finite ? mx : 0.0,
         finite ? sum / (double)finite : 0.0);
  if (nan_count) printf(" nan=%zu", nan_count);
  printf("\n");
}

/* ---- main ------------------------------------------------------------------------- */
static int ParseDims(const char* s, int* dims, int* count) {
  *count = 0;
  if (*s == '\0') return 1; /* scalar */
  while (*s) {
    char* end = NULL;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0 || v > 1L << 30 || *count >= MAX_DIMS) return 0;
    dims[(*count)++] = (int)v;
    s = end;
    if (*s == ',') ++s;
    else if (*s != '\0') return 0;
  }
  return 1;
}

/* The model's input, output and signature counts and the thread setting. */
static void PrintModelSummary(TfLiteInterpreter* interpreter, int threads) {
  int32_t n_in = TfLiteInterpreterGetInputTensorCount(interpreter);
  int32_t n_out = TfLiteInterpreterGetOutputTensorCount(interpreter);
  int32_t n_sig = TfLiteInterpreterGetSignatureCount(interpreter);
  printf("inputs: %d  outputs: %d  signatures: %d", (int)n_in, (int)n_out, (int)n_sig);
  for (int32_t i = 0; i < n_sig; ++i) {
    const char* key = TfLiteInterpreterGetSignatureKey(interpreter, i);
    printf("%s'%s'", i ? ", " : " (", key ? key : "");
  }
  printf("%s\n", n_sig ? ")" : "");
  if (threads == -1) printf("threads: default\n");
  else printf("threads: %d\n", threads);
}

/* --shape: resizes the inputs. Returns 0, or the exit status of a failure. */
static int ApplyShapes(TfLiteInterpreter* interpreter, const Options* opt, int32_t n_in) {
  for (int k = 0; k < opt->num_shapes; ++k) {
    int dims[MAX_DIMS], nd;
    if (opt->shapes[k].index >= n_in || !ParseDims(opt->shapes[k].value, dims, &nd)) {
      fprintf(stderr, "run_model: bad --shape %d=%s (model has %d inputs)\n",
              opt->shapes[k].index, opt->shapes[k].value, (int)n_in);
      return 2;
    }
    if (TfLiteInterpreterResizeInputTensor(interpreter, opt->shapes[k].index, dims, nd) !=
        kTfLiteOk) {
      return Fail("TfLiteInterpreterResizeInputTensor");
    }
  }
  return 0;
}

/* --input files, or generated data, into every input (printed). 0 or the exit status. */
static int SetInputs(TfLiteInterpreter* interpreter, const Options* opt, int32_t n_in) {
  for (int k = 0; k < opt->num_inputs; ++k) {
    if (opt->inputs[k].index >= n_in) {
      fprintf(stderr, "run_model: --input %d: model has %d inputs\n", opt->inputs[k].index,
              (int)n_in);
      return 2;
    }
  }
  for (int32_t i = 0; i < n_in; ++i) {
    TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interpreter, i);
    if (!t) return Fail("TfLiteInterpreterGetInputTensor");
    const char* file = NULL;
    for (int k = 0; k < opt->num_inputs; ++k)
      if (opt->inputs[k].index == i) file = opt->inputs[k].value;
    if (file) {
      if (!(NpyIsNpyFile(file) ? NpyReadInto(file, t) : ReadFileInto(file, t))) return 1;
    } else {
      FillDeterministic(t, opt->seed * 1000003ULL + (uint64_t)i);
    }
    PrintTensor("input", (int)i, t);
  }
  return 0;
}

/* --runs Invoke calls: the first one's time, the others' sum. 0 or the exit status. */
static int InvokeRuns(TfLiteInterpreter* interpreter, int runs, double* t_first,
                      double* t_rest) {
  for (int r = 0; r < runs; ++r) {
    double t0 = NowMs();
    TfLiteStatus status = TfLiteInterpreterInvoke(interpreter);
    double dt = NowMs() - t0;
    if (status != kTfLiteOk) return Fail("TfLiteInterpreterInvoke");
    if (r == 0) *t_first = dt;
    else *t_rest += dt;
  }
  return 0;
}

/* Prints every output and writes it to --output_dir. Returns 0 or 1. */
static int ReportOutputs(TfLiteInterpreter* interpreter, const Options* opt, int32_t n_out) {
  for (int32_t i = 0; i < n_out; ++i)
    PrintTensor("output", (int)i, TfLiteInterpreterGetOutputTensor(interpreter, i));
  for (int32_t i = 0; opt->output_dir && i < n_out; ++i) {
    char path[4096];
    const int len = snprintf(path, sizeof path, "%s/output_%d.npy", opt->output_dir, (int)i);
    if (len <= 0 || (size_t)len >= sizeof path) {
      fprintf(stderr, "run_model: --output_dir path too long\n");
      return 1;
    }
    if (!NpyWrite(path, TfLiteInterpreterGetOutputTensor(interpreter, i))) return 1;
    printf("wrote %s\n", path);
  }
  return 0;
}

/* Sizes, fills and runs the interpreter, then reports. Returns the exit status. */
static int RunInterpreter(TfLiteInterpreter* interpreter, const Options* opt, double t_load) {
  int32_t n_in = TfLiteInterpreterGetInputTensorCount(interpreter);
  int32_t n_out = TfLiteInterpreterGetOutputTensorCount(interpreter);
  PrintModelSummary(interpreter, opt->threads);
  int rc = ApplyShapes(interpreter, opt, n_in);
  if (rc != 0) return rc;

  double t0 = NowMs();
  TfLiteStatus status = TfLiteInterpreterAllocateTensors(interpreter);
  double t_alloc = NowMs() - t0;
  if (status != kTfLiteOk) return Fail("TfLiteInterpreterAllocateTensors");
  rc = SetInputs(interpreter, opt, n_in);
  if (rc != 0) return rc;

  /* Graph inputs must survive Invoke (the same input can be run again). */
  uint64_t input_sums[MAX_ITEMS];
  for (int32_t i = 0; i < n_in && i < MAX_ITEMS; ++i)
    input_sums[i] = Checksum(TfLiteInterpreterGetInputTensor(interpreter, i));
  double t_first = 0.0, t_rest = 0.0;
  rc = InvokeRuns(interpreter, opt->runs, &t_first, &t_rest);
  if (rc != 0) return rc;
  rc = ReportOutputs(interpreter, opt, n_out);
  if (rc != 0) return rc;
  for (int32_t i = 0; i < n_in && i < MAX_ITEMS; ++i) {
    if (Checksum(TfLiteInterpreterGetInputTensor(interpreter, i)) != input_sums[i])
      fprintf(stderr, "run_model: warning: input %d changed during Invoke\n", (int)i);
  }

  printf("timing_ms: load=%.3f allocate=%.3f first_invoke=%.3f avg_invoke=%.3f runs=%d\n", t_load,
         t_alloc, t_first, opt->runs > 1 ? t_rest / (opt->runs - 1) : t_first, opt->runs);
  return 0;
}

int main(int argc, char** argv) {
  Options opt;
  if (!ParseArgs(argc, argv, &opt)) {
    Usage(stderr);
    return 2;
  }
  printf("TfLiteVersion: %s\n", TfLiteVersion());
  printf("model: %s\n", opt.model_path);

  int rc = 1;
  TfLiteModel* model = NULL;
  TfLiteInterpreterOptions* options = NULL;
  TfLiteInterpreter* interpreter = NULL;

  double t0 = NowMs();
  model = TfLiteModelCreateFromFileWithErrorReporter(opt.model_path, CaptureError, NULL);
  if (!model) {
    rc = Fail("loading the model");
    goto done;
  }
  options = TfLiteInterpreterOptionsCreate();
  if (!options) {
    rc = Fail("TfLiteInterpreterOptionsCreate");
    goto done;
  }
  if (opt.threads != -1) TfLiteInterpreterOptionsSetNumThreads(options, opt.threads);
  TfLiteInterpreterOptionsSetErrorReporter(options, CaptureError, NULL);
  interpreter = TfLiteInterpreterCreate(model, options);
  double t_load = NowMs() - t0;
  if (!interpreter) {
    rc = Fail("TfLiteInterpreterCreate");
    goto done;
  }
  rc = RunInterpreter(interpreter, &opt, t_load);

done:
  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  return rc;
}
