/* A plugin whose create function always fails, after explaining why through
 * report_error. It records the options it was given so the test can check
 * that they arrived intact. */
#include <stdio.h>
#include <string.h>

#include "tensorflow/lite/delegates/external/external_delegate_interface.h"

TfLiteDelegate* tflite_plugin_create_delegate(const char* const* keys, const char* const* values,
                                              size_t n, void (*report_error)(const char*)) {
  char message[256];
  snprintf(message, sizeof(message), "test plugin refuses to create a delegate (%u options%s%s%s%s)",
           (unsigned)n, n > 0 ? ", first " : "", n > 0 ? keys[0] : "", n > 0 ? "=" : "",
           n > 0 ? values[0] : "");
  if (report_error != NULL) report_error(message);
  return NULL;
}

void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate) { (void)delegate; }
