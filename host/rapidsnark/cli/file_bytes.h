/* Whole files into memory for the rapidsnark-compatible programs (prover.c, verifier.c). */
#ifndef ZKP_RAPIDSNARK_FILE_BYTES_H
#define ZKP_RAPIDSNARK_FILE_BYTES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct zkp_file_bytes_t {
  char *data; /* size bytes and a NUL (JSON is read as a string); owned, zkp_file_bytes_free() */
  size_t size;
} zkp_file_bytes_t;

/* Reads `path`, a regular file (zkpipe's RegularFile: a FIFO, a device such as /dev/zero or a
 * directory is refused before it is opened). Returns 0, or -1 with the reason in `error`
 * ("open: No such file or directory", as rapidsnark's FileLoader reports it; "PATH: is a FIFO,
 * not a regular file (...)"); `error` holds `error_size` bytes. Implemented in C++. */
int zkp_file_bytes_read(const char *path, zkp_file_bytes_t *out, char *error, size_t error_size);
void zkp_file_bytes_free(zkp_file_bytes_t *bytes);

#ifdef __cplusplus
}
#endif

#endif /* ZKP_RAPIDSNARK_FILE_BYTES_H */
