// Stands in for <assert.h> when zkpipe compiles circom's C++ output into a witness generator
// (zkpipe witness build puts this folder first on the include path). circom's code asserts what
// the circuit's `assert` statements say and what its runtime expects of the input; the standard
// assert aborts the process, this one throws, so a bad input fails its calculation with the
// message circom printed just before (a "Failed assert in template ... line N"), and the host
// goes on. Always on, whatever NDEBUG says. No include guard, as <assert.h> has none.
#undef assert
[[noreturn]] void zkp_circom_assert_failed(const char* expression, const char* file, int line);
#define assert(expression) \
  (static_cast<bool>(expression) ? static_cast<void>(0) : zkp_circom_assert_failed(#expression, __FILE__, __LINE__))
