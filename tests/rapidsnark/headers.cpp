// The same check as C++ (headers.c): the headers' extern "C" blocks and declarations.
#include "headers.c"
