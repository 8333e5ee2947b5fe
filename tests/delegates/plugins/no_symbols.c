/* A shared library that is not a delegate plugin: it exports neither
 * tflite_plugin_create_delegate nor tflite_plugin_destroy_delegate. */
int tflite_c_test_not_a_delegate(void) { return 42; }
