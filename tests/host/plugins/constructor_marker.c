/* Not a plugin: a library whose constructor leaves a marker file (the path in
 * ZKP_TEST_MARKER_FILE), so a test can tell whether the host dlopen()ed it. The host must never
 * open it while listing a search folder (`zkpipe plugins`); only an explicit path opens it. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void leave_marker(void) {
  const char *path = getenv("ZKP_TEST_MARKER_FILE");
  if (path == NULL) return;
  FILE *f = fopen(path, "w");
  if (f != NULL) {
    fputs("constructor ran\n", f);
    fclose(f);
  }
}
