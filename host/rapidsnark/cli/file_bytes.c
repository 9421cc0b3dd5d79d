#include "file_bytes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, int code, char *error, size_t error_size) {
  snprintf(error, error_size, "%s: %s", what, strerror(code));
  return -1;
}

int zkp_file_bytes_read(const char *path, zkp_file_bytes_t *out, char *error, size_t error_size) {
  out->data = NULL;
  out->size = 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL) return fail("open", errno, error, error_size);
  size_t capacity = 1 << 16, size = 0;
  char *data = malloc(capacity + 1);
  while (data != NULL) {
    size += fread(data + size, 1, capacity - size, f);
    if (size < capacity) break;
    char *grown = realloc(data, 2 * capacity + 1);
    if (grown == NULL) {
      free(data);
      data = NULL;
      break;
    }
    data = grown;
    capacity *= 2;
  }
  const int read_error = data == NULL ? ENOMEM : (ferror(f) ? EIO : 0);
  fclose(f);
  if (read_error != 0) {
    free(data);
    return fail("read", read_error, error, error_size);
  }
  data[size] = '\0';
  out->data = data;
  out->size = size;
  return 0;
}

void zkp_file_bytes_free(zkp_file_bytes_t *bytes) {
  free(bytes->data);
  bytes->data = NULL;
  bytes->size = 0;
}
