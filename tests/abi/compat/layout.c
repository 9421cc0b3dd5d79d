/* fields_v1.inc laid out by whichever zkpipe/ headers are on the include path: compiled once
 * against v1/include (ZKP_COMPAT_TABLE=zkp_compat_layout_v1) and once against today's abi/
 * (zkp_compat_layout_now). A field removed or renamed since v1 fails to compile here. */
#include <zkpipe/zkpipe.h>

#include "layout.h"

#define ZKP_STRUCT(T) {#T, NULL, 0, sizeof(T)},
#define ZKP_FIELD(T, F) {#T, #F, offsetof(T, F), sizeof(((T *)0)->F)},
static const zkp_compat_row_t kRows[] = {
#include "fields_v1.inc"
};

size_t ZKP_COMPAT_TABLE(const zkp_compat_row_t **rows) {
  *rows = kRows;
  return sizeof kRows / sizeof kRows[0];
}
