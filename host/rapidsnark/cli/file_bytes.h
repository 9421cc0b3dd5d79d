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

/* Writes the two files together or not at all (zkpipe's services::write_files_together: each
 * through a temporary in its folder, renamed in once both are written, the first put back if
 * the second rename fails). Returns 0, or -1 with the reason, strerror's words included ("...:
 * No space left on device"), in `error`. */
int zkp_file_bytes_write_pair(const char *path1, const char *data1, size_t size1, const char *path2, const char *data2,
                              size_t size2, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* ZKP_RAPIDSNARK_FILE_BYTES_H */
