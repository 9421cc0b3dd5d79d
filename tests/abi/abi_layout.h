/* What the C half of the ABI test reports to the C++ half. */
#ifndef ZKP_ABI_LAYOUT_H
#define ZKP_ABI_LAYOUT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct zkp_abi_layout_t {
  const char *type;
  size_t size;
  size_t header_offset;
} zkp_abi_layout_t;

/* 1 if every struct declared with ZKP_HEADER_INIT records its own size and version 1. */
int zkp_abi_c_headers_ok(void);

/* Writes up to `capacity` rows (every header-carrying struct, as C lays it out) and
 * returns how many there are. */
size_t zkp_abi_c_layout(zkp_abi_layout_t *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
