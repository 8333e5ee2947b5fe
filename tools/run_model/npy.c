#include "npy.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* numpy's dtype string for a tensor type (little-endian host), or NULL. */
static const char* Descr(TfLiteType t) {
  switch (t) {
    case kTfLiteFloat32: return "<f4";
    case kTfLiteFloat16: return "<f2";
    case kTfLiteFloat64: return "<f8";
    case kTfLiteInt8: return "|i1";
    case kTfLiteUInt8: return "|u1";
    case kTfLiteInt16: return "<i2";
    case kTfLiteUInt16: return "<u2";
    case kTfLiteInt32: return "<i4";
    case kTfLiteUInt32: return "<u4";
    case kTfLiteInt64: return "<i8";
    case kTfLiteUInt64: return "<u8";
    case kTfLiteBool: return "|b1";
    case kTfLiteComplex64: return "<c8";
    case kTfLiteComplex128: return "<c16";
    default: return NULL;
  }
}

/* Same dtype, where '<', '=' and (for one-byte types) '|' all mean native
 * little-endian order. */
static int SameDescr(const char* want, const char* have) {
  if (strlen(have) < 2 || strlen(want) < 2) return 0;
  const char order = have[0];
  if (order != '<' && order != '=' && order != '|') return 0;
  if (order == '|' && want[0] != '|') return 0;
  return strcmp(want + 1, have + 1) == 0;
}

int NpyIsNpyFile(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) return 0;
  char head[6];
  const size_t got = fread(head, 1, sizeof head, f);
  fclose(f);
  return got == sizeof head && memcmp(head, kMagic, sizeof head) == 0;
}

/* Finds `key` (e.g. "'descr'") in the header dictionary and returns a pointer
 * just past the ':' that follows it, or NULL. */
static const char* ValueOf(const char* header, const char* key) {
  const char* k = strstr(header, key);
  if (!k) return NULL;
  k += strlen(key);
  while (*k == ' ') ++k;
  if (*k != ':') return NULL;
  ++k;
  while (*k == ' ') ++k;
  return k;
}

/* Parses the header dictionary. Returns 1 and fills the outputs, or 0. */
static int ParseHeader(const char* header, char* descr, size_t descr_size, int* fortran,
                       int64_t* dims, int* rank) {
  const char* d = ValueOf(header, "'descr'");
  if (!d || (*d != '\'' && *d != '"')) return 0;
  const char quote = *d++;
  const char* end = strchr(d, quote);
  if (!end || (size_t)(end - d) >= descr_size) return 0;
  memcpy(descr, d, (size_t)(end - d));
  descr[end - d] = '\0';

  const char* fo = ValueOf(header, "'fortran_order'");
  if (!fo) return 0;
  if (strncmp(fo, "False", 5) == 0) *fortran = 0;
  else if (strncmp(fo, "True", 4) == 0) *fortran = 1;
  else return 0;

  const char* s = ValueOf(header, "'shape'");
  if (!s || *s != '(') return 0;
  ++s;
  *rank = 0;
  for (;;) {
    while (*s == ' ' || *s == ',') ++s;
    if (*s == ')') break;
    if (*s < '0' || *s > '9' || *rank >= 16) return 0;
    char* after = NULL;
    errno = 0;
    const long long v = strtoll(s, &after, 10);
    if (errno != 0 || after == s || v < 0 || v > INT32_MAX) return 0;
    dims[(*rank)++] = (int64_t)v;
    s = after;
  }
  return 1;
}

/* Reads the magic, the version and the header dictionary of an open .npy
 * file. Returns the header (to free), or NULL after saying why. */
static char* ReadHeader(FILE* f, const char* path) {
  unsigned char pre[12];
  if (fread(pre, 1, 8, f) != 8 || memcmp(pre, kMagic, sizeof kMagic) != 0) {
    fprintf(stderr, "run_model: '%s' is not a .npy file\n", path);
    return NULL;
  }
  const int major = pre[6];
  size_t header_len;
  if (major == 1) {
    if (fread(pre + 8, 1, 2, f) != 2) goto truncated;
    header_len = (size_t)pre[8] | ((size_t)pre[9] << 8);
  } else if (major == 2 || major == 3) {
    if (fread(pre + 8, 1, 4, f) != 4) goto truncated;
    header_len = (size_t)pre[8] | ((size_t)pre[9] << 8) | ((size_t)pre[10] << 16) |
                 ((size_t)pre[11] << 24);
    if (header_len > (1u << 20)) {
      fprintf(stderr, "run_model: '%s': .npy header of %zu bytes is too large\n", path,
              header_len);
      return NULL;
    }
  } else {
    fprintf(stderr, "run_model: '%s': .npy format version %d is not supported\n", path, major);
    return NULL;
  }
  char* header = (char*)malloc(header_len + 1);
  if (!header) return NULL;
  if (fread(header, 1, header_len, f) != header_len) {
    free(header);
    goto truncated;
  }
  header[header_len] = '\0';
  return header;
truncated:
  fprintf(stderr, "run_model: '%s' is truncated\n", path);
  return NULL;
}

/* Whether the array the header describes fits input tensor `t`: its dtype,
 * C order, and its element count (another shape is noted, not refused). */
static int FitsTensor(const char* path, const char* header, const TfLiteTensor* t) {
  const char* name = TfLiteTensorName(t) ? TfLiteTensorName(t) : "";
  char descr[16];
  int fortran = 0, rank = 0;
  int64_t dims[16];
  if (!ParseHeader(header, descr, sizeof descr, &fortran, dims, &rank)) {
    fprintf(stderr, "run_model: '%s': cannot parse the .npy header\n", path);
    return 0;
  }
  const char* want = Descr(TfLiteTensorType(t));
  if (!want || !SameDescr(want, descr)) {
    fprintf(stderr, "run_model: '%s' holds dtype '%s', input tensor '%s' needs %s%s%s\n", path,
            descr, name, want ? "'" : "", want ? want : "a type .npy cannot hold",
            want ? "'" : "");
    return 0;
  }
  if (fortran) {
    fprintf(stderr, "run_model: '%s' is in Fortran order; only C order is supported\n", path);
    return 0;
  }
  int64_t count = 1, tensor_count = 1;
  int same_shape = rank == TfLiteTensorNumDims(t);
  for (int i = 0; i < rank; ++i) {
    count *= dims[i];
    if (count > ((int64_t)1 << 40)) break;
  }
  for (int i = 0; i < TfLiteTensorNumDims(t); ++i) {
    tensor_count *= TfLiteTensorDim(t, i);
    if (same_shape && TfLiteTensorDim(t, i) != dims[i]) same_shape = 0;
  }
  if (count != tensor_count) {
    fprintf(stderr, "run_model: '%s' has %lld elements, input tensor '%s' needs %lld\n", path,
            (long long)count, name, (long long)tensor_count);
    return 0;
  }
  if (!same_shape) {
    fprintf(stderr, "run_model: note: '%s' has another shape than input '%s' (same element "
            "count); its data is used in order\n", path, name);
  }
  return 1;
}

/* Reads exactly the tensor's byte size of data (no more in the file) into `t`. */
static int ReadData(FILE* f, const char* path, TfLiteTensor* t) {
  const size_t bytes = TfLiteTensorByteSize(t);
  void* data = malloc(bytes + 1);
  if (!data) return 0;
  int ok = 0;
  const size_t got = fread(data, 1, bytes + 1, f);
  if (got != bytes) {
    fprintf(stderr, "run_model: '%s' has %s%zu data bytes, input tensor '%s' needs %zu\n", path,
            got > bytes ? "more than " : "", got > bytes ? bytes : got,
            TfLiteTensorName(t) ? TfLiteTensorName(t) : "", bytes);
  } else if (TfLiteTensorCopyFromBuffer(t, data, bytes) != kTfLiteOk) {
    fprintf(stderr, "run_model: copying '%s' into the input tensor failed\n", path);
  } else {
    ok = 1;
  }
  free(data);
  return ok;
}

int NpyReadInto(const char* path, TfLiteTensor* t) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "run_model: cannot open '%s': %s\n", path, strerror(errno));
    return 0;
  }
  char* header = ReadHeader(f, path);
  const int ok = header != NULL && FitsTensor(path, header, t) && ReadData(f, path, t);
  free(header);
  fclose(f);
  return ok;
}

int NpyWrite(const char* path, const TfLiteTensor* t) {
  const char* descr = Descr(TfLiteTensorType(t));
  if (!descr) {
    fprintf(stderr, "run_model: output '%s' has a type .npy cannot hold (TfLiteType %d)\n",
            TfLiteTensorName(t) ? TfLiteTensorName(t) : "", (int)TfLiteTensorType(t));
    return 0;
  }
  char header[512];
  int n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                   descr);
  const int rank = TfLiteTensorNumDims(t);
  for (int i = 0; i < rank && n > 0 && (size_t)n < sizeof header; ++i) {
    n += snprintf(header + n, sizeof header - (size_t)n, "%d%s", TfLiteTensorDim(t, i),
                  rank == 1 ? "," : (i + 1 < rank ? ", " : ""));
  }
  if (n > 0 && (size_t)n < sizeof header) n += snprintf(header + n, sizeof header - (size_t)n, "), }");
  if (n <= 0 || (size_t)n + 64 >= sizeof header) {
    fprintf(stderr, "run_model: output '%s' has too many dimensions for .npy\n",
            TfLiteTensorName(t) ? TfLiteTensorName(t) : "");
    return 0;
  }
  /* Pad with spaces so that magic + version + length + header is a multiple
   * of 64 bytes, ending in a newline. */
  size_t total = 10 + (size_t)n + 1;
  const size_t padded = (total + 63) / 64 * 64;
  while (total < padded) {
    header[n++] = ' ';
    ++total;
  }
  header[n++] = '\n';
  FILE* f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "run_model: cannot write '%s': %s\n", path, strerror(errno));
    return 0;
  }
  const unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                                 (unsigned char)(n & 0xff), (unsigned char)(n >> 8)};
  const size_t bytes = TfLiteTensorByteSize(t);
  const void* data = TfLiteTensorData(t);
  int ok = fwrite(pre, 1, sizeof pre, f) == sizeof pre &&
           fwrite(header, 1, (size_t)n, f) == (size_t)n &&
           (bytes == 0 || (data && fwrite(data, 1, bytes, f) == bytes));
  if (fclose(f) != 0) ok = 0;
  if (!ok) fprintf(stderr, "run_model: writing '%s' failed\n", path);
  return ok;
}
