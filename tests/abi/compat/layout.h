/* One ABI's struct layouts as a table, for comparing two versions of the headers (layout.c is
 * compiled against each; ZKP_COMPAT_TABLE names the function of each build). */
#ifndef ZKP_COMPAT_LAYOUT_H
#define ZKP_COMPAT_LAYOUT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct zkp_compat_row_t {
  const char *type;
  const char *field; /* NULL: the row gives the struct's own size */
  size_t offset;
  size_t size;
} zkp_compat_row_t;

/* The rows of fields_v1.inc as the v1 copy of the headers lays them out, and as today's do. */
size_t zkp_compat_layout_v1(const zkp_compat_row_t **rows);
size_t zkp_compat_layout_now(const zkp_compat_row_t **rows);

#ifdef __cplusplus
}
#endif

#endif
