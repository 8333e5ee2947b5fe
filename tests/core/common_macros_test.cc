// The checking macros of common.h (TF_LITE_ENSURE and family,
// TF_LITE_MAYBE_KERNEL_LOG): the status each returns and the message each
// reports.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "tensorflow/lite/builtin_op_data.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/c_api_types.h"
#include "tensorflow/lite/c/common.h"

namespace {

// ---- the checking macros ----------------------------------------------------

std::string g_last_error;
void RecordError(TfLiteContext*, const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  vsnprintf(buf, sizeof(buf), format, args);
  va_end(args);
  g_last_error = buf;
}

TfLiteStatus EnsureTrue(TfLiteContext* ctx, bool v) {
  TF_LITE_ENSURE(ctx, v);
  return kTfLiteOk;
}
TfLiteStatus EnsureEq(TfLiteContext* ctx, int a, int b) {
  TF_LITE_ENSURE_EQ(ctx, a, b);
  return kTfLiteOk;
}
TfLiteStatus EnsureTypes(TfLiteContext* ctx, TfLiteType a, TfLiteType b) {
  TF_LITE_ENSURE_TYPES_EQ(ctx, a, b);
  return kTfLiteOk;
}
TfLiteStatus EnsureNear(TfLiteContext* ctx, float a, float b) {
  TF_LITE_ENSURE_NEAR(ctx, a, b, 0.01f);
  return kTfLiteOk;
}
TfLiteStatus EnsureMsg(TfLiteContext* ctx, bool v) {
  TF_LITE_ENSURE_MSG(ctx, v, "custom %d", 42);
  return kTfLiteOk;
}
// The argument is deliberately named like a typical macro temporary.
TfLiteStatus EnsureStatus(TfLiteStatus s) {
  TF_LITE_ENSURE_STATUS(s);
  return kTfLiteOk;
}
TfLiteStatus EnsureOk(TfLiteContext* ctx, TfLiteStatus s) {
  (void)ctx;  // the macro does not use its context argument
  TF_LITE_ENSURE_OK(ctx, s);
  return kTfLiteOk;
}

TEST(Macros, EnsureFamily) {
  TfLiteContext ctx;
  std::memset(&ctx, 0, sizeof(ctx));
  ctx.ReportError = RecordError;

  EXPECT_EQ(EnsureTrue(&ctx, true), kTfLiteOk);
  EXPECT_EQ(EnsureTrue(&ctx, false), kTfLiteError);
  EXPECT_NE(g_last_error.find("v was not true"), std::string::npos);

  EXPECT_EQ(EnsureEq(&ctx, 3, 3), kTfLiteOk);
  EXPECT_EQ(EnsureEq(&ctx, 3, 4), kTfLiteError);
  EXPECT_NE(g_last_error.find("a != b (3 != 4)"), std::string::npos);

  EXPECT_EQ(EnsureTypes(&ctx, kTfLiteInt8, kTfLiteInt8), kTfLiteOk);
  EXPECT_EQ(EnsureTypes(&ctx, kTfLiteInt8, kTfLiteFloat32), kTfLiteError);
  EXPECT_NE(g_last_error.find("(INT8 != FLOAT32)"), std::string::npos);

  EXPECT_EQ(EnsureNear(&ctx, 1.0f, 1.005f), kTfLiteOk);
  EXPECT_EQ(EnsureNear(&ctx, 1.0f, 2.0f), kTfLiteError);
  EXPECT_NE(g_last_error.find("not near"), std::string::npos);

  EXPECT_EQ(EnsureMsg(&ctx, false), kTfLiteError);
  EXPECT_NE(g_last_error.find("custom 42"), std::string::npos);

  EXPECT_EQ(EnsureStatus(kTfLiteOk), kTfLiteOk);
  EXPECT_EQ(EnsureStatus(kTfLiteDelegateError), kTfLiteDelegateError);
  EXPECT_EQ(EnsureOk(&ctx, kTfLiteCancelled), kTfLiteCancelled);

  g_last_error.clear();
  TfLiteContext* none = nullptr;
  TF_LITE_MAYBE_KERNEL_LOG(none, "ignored");
  TF_LITE_MAYBE_KERNEL_LOG(&ctx, "seen %s", "here");
  EXPECT_EQ(g_last_error, "seen here");
}

}  // namespace
