/*
 * hsdis for JDK 17 on Debian, for reading the JIT's machine code (-XX:+PrintAssembly).
 *
 * Why: Debian's libhsdis0-fcml (the only hsdis package there) exports the JDK 8 entry point,
 * decode_instructions; JDK 9 and later look for decode_instructions_virtual and, not finding it,
 * print machine code as hex. This shim exports the new entry point and calls the old one on the
 * same bytes (the JVM hands it code in place, so the addresses printed are the real ones).
 *
 * Build and install (as root; the JVM looks in lib/server before lib/):
 *   apt-get install -y libhsdis0-fcml
 *   gcc -shared -fPIC -O2 -o hsdis-amd64.so benchmarks/tools/hsdis-shim.c -ldl
 *   cp hsdis-amd64.so "$(dirname "$(readlink -f "$(which java)")")/../lib/server/"
 * Use:
 *   LAYOUT_JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=print,dev.layout.dataloop.Segment::leaf" \
 *     bin/layout bench pack --case FACE_XZ_F32 --target offheap
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

typedef void *(*event_cb)(void *, const char *, void *);
typedef int (*printf_cb)(void *, const char *, ...);
typedef void *(*decode_fn)(void *, void *, event_cb, void *, printf_cb, void *, const char *);

void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char *buffer, uintptr_t length, event_cb ev,
                                  void *ev_stream, printf_cb pr, void *pr_stream, const char *options, int newline) {
  static decode_fn decode = NULL;
  (void) start_va;
  (void) end_va;
  (void) newline;
  if (decode == NULL) {
    void *lib = dlopen("/usr/lib/x86_64-linux-gnu/libhsdis.so.0", RTLD_NOW);
    if (lib == NULL || (decode = (decode_fn) dlsym(lib, "decode_instructions")) == NULL) {
      return NULL;
    }
  }
  return decode((void *) buffer, (void *) (buffer + length), ev, ev_stream, pr, pr_stream, options);
}
