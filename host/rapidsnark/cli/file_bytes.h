/* Whole files into memory for the rapidsnark-compatible programs (prover.c, verifier.c). */
#ifndef ZKP_RAPIDSNARK_FILE_BYTES_H
#define ZKP_RAPIDSNARK_FILE_BYTES_H

#include <stddef.h>

typedef struct zkp_file_bytes_t {
  char *data; /* size bytes and a NUL (JSON is read as a string); owned, zkp_file_bytes_free() */
  size_t size;
} zkp_file_bytes_t;

/* Reads `path`. Returns 0, or -1 with errno's text in `error` ("open: No such file or
 * directory", as rapidsnark's FileLoader reports it); `error` holds `error_size` bytes. */
int zkp_file_bytes_read(const char *path, zkp_file_bytes_t *out, char *error, size_t error_size);
void zkp_file_bytes_free(zkp_file_bytes_t *bytes);

#endif /* ZKP_RAPIDSNARK_FILE_BYTES_H */
