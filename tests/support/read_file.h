/* The C test programs of the C APIs (tests/client, tests/fleet): a whole file into a malloc'd
 * buffer, C99 only. Returns NULL if it cannot be read or is empty; *size is its length. */
#ifndef ZKPIPE_TESTS_SUPPORT_READ_FILE_H
#define ZKPIPE_TESTS_SUPPORT_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  long n;
  if (f == NULL) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
    buf = (unsigned char *)malloc((size_t)n);
    if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
      free(buf);
      buf = NULL;
    }
    *size = (size_t)n;
  }
  fclose(f);
  return buf;
}

#endif
