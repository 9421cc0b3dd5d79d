/* A shared library that is not a zkpipe plugin: it exports a function, but no
 * zkp_plugin_entry. The host must refuse it and say so. */
int zkp_test_not_a_plugin(void) { return 42; }
