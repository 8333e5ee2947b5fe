/* A plugin that exports tflite_plugin_create_delegate but not
 * tflite_plugin_destroy_delegate. */
#include <stddef.h>

#include "tensorflow/lite/delegates/external/external_delegate_interface.h"

TfLiteDelegate* tflite_plugin_create_delegate(const char* const* keys, const char* const* values,
                                              size_t n, void (*report_error)(const char*)) {
  (void)keys, (void)values, (void)n, (void)report_error;
  return NULL;
}
