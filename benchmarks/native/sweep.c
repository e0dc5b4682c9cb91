/*
 * The native side of `layout bench sweep --native`: MPICH's MPI_Pack and MPI_Unpack on the sweep's
 * layouts, built with MPI type constructors from the same numbers the Java side uses
 * (dev.layout.bench.sweep.SweepPoint). Built by the bench command with `mpicc -O2`; run as one
 * process (no mpiexec needed: a singleton MPI_Init) beside the JVM that measures the engine, which
 * asks it for one slice at a time so that MPICH's slice runs right next to the engine's.
 *
 *   sweep
 *
 * reads requests from stdin, one a line: shape elemBytes blockBytes stride blocksPerType count pack ms
 * (shape 0 vector, 1 hvector of vectors, 2 indexed_block, 3 struct; pack 1 for MPI_Pack, 0 for
 * MPI_Unpack) and answers each with a line
 *   MBps fnv1a64(packed bytes)
 * where MB/s is 10^6 packed bytes per second of this thread's CPU time over one slice of ms. When
 * the layout differs from the last request's, it is built anew and each direction first runs one
 * untimed slice.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROW 16
#define SEED 0x5eedULL

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The permutation of SweepPoint.permutation: Fisher-Yates driven by splitmix64. */
static void permutation(long long *p, long long n, uint64_t seed) {
  for (long long i = 0; i < n; i++) p[i] = i;
  uint64_t x = seed;
  for (long long i = n - 1; i > 0; i--) {
    x += 0x9E3779B97F4A7C15ULL;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    long long j = (long long)(z % (uint64_t)(i + 1));
    long long t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

static MPI_Datatype element(int e) {
  return e == 1 ? MPI_INT8_T : e == 4 ? MPI_FLOAT : MPI_DOUBLE;
}

static MPI_Datatype build(int shape, int e, long long w, long long s, long long bpt) {
  MPI_Datatype t, inner, raw;
  MPI_Datatype el = element(e);
  int b = (int)(w / e);
  int st = (int)(s / e);
  switch (shape) {
    case 0:
      MPI_Type_vector((int)bpt, b, st, el, &t);
      break;
    case 1:
      MPI_Type_vector(ROW, b, st, el, &inner);
      MPI_Type_create_hvector((int)(bpt / ROW), 1, (MPI_Aint)((ROW + 1) * s), inner, &t);
      MPI_Type_free(&inner);
      break;
    case 2: {
      long long *p = malloc(sizeof(long long) * bpt);
      int *d = malloc(sizeof(int) * bpt);
      permutation(p, bpt, SEED);
      for (long long i = 0; i < bpt; i++) d[i] = (int)(p[i] * st);
      MPI_Type_create_indexed_block((int)bpt, b, d, el, &t);
      free(p);
      free(d);
      break;
    }
    default: {
      /* SweepPoint.members: float64, int32 and int8 members in a row, resized to the stride. */
      long long f = w / 16 * 8;
      long long i = (w - f) / 8 * 4;
      long long c = w - f - i;
      long long bytes[3] = {f, i, c};
      int unit[3] = {8, 4, 1};
      MPI_Datatype kinds[3] = {MPI_DOUBLE, MPI_INT32_T, MPI_INT8_T};
      int lens[3];
      MPI_Aint disps[3];
      MPI_Datatype types[3];
      int n = 0;
      long long at = 0;
      for (int k = 0; k < 3; k++) {
        if (bytes[k] > 0) {
          lens[n] = (int)(bytes[k] / unit[k]);
          disps[n] = (MPI_Aint)at;
          types[n] = kinds[k];
          at += bytes[k];
          n++;
        }
      }
      MPI_Type_create_struct(n, lens, disps, types, &raw);
      MPI_Type_create_resized(raw, 0, (MPI_Aint)s, &t);
      MPI_Type_free(&raw);
    }
  }
  MPI_Type_commit(&t);
  return t;
}

/*
 * n bytes starting 16 bytes past a 64-byte line, where the Java side's memory starts (the data of a
 * large heap array, a large malloc'd or direct buffer): how many lines a block touches depends on
 * it, and malloc alone would put MPICH's buffers at whatever offset earlier points' frees left.
 * Free with free(*raw).
 */
static char *line16(long long n, void **raw) {
  if (posix_memalign(raw, 64, (size_t)n + 64) != 0) {
    fprintf(stderr, "sweep: cannot allocate %lld bytes\n", n);
    exit(3);
  }
  return (char *)*raw + 16;
}

/* One slice of one direction: MB/s. */
static double slice(int pack, MPI_Datatype t, int count, char *user, char *packed, int bytes, double ms) {
  double t0 = now();
  long long runs = 0;
  double t1;
  do {
    int pos = 0;
    if (pack) {
      MPI_Pack(user, count, t, packed, bytes, &pos, MPI_COMM_SELF);
    } else {
      MPI_Unpack(packed, bytes, &pos, user, count, t, MPI_COMM_SELF);
    }
    runs++;
    t1 = now();
  } while (t1 - t0 < ms / 1000.0);
  return (double)bytes * runs / (t1 - t0) / 1e6;
}

int main(int argc, char **argv) {
  if (argc != 1) {
    fprintf(stderr, "usage: sweep (requests on stdin: shape elemBytes blockBytes stride blocksPerType count pack ms)\n");
    return 2;
  }
  MPI_Init(&argc, &argv);
  int shape, e, pack;
  long long w, s, bpt, count;
  double ms;
  long long last[6] = {-1, -1, -1, -1, -1, -1};
  MPI_Datatype t = MPI_DATATYPE_NULL;
  void *userRaw = NULL, *packedRaw = NULL;
  char *user = NULL, *packed = NULL;
  int bytes = 0;
  uint64_t h = 0;
  while (scanf("%d %d %lld %lld %lld %lld %d %lf", &shape, &e, &w, &s, &bpt, &count, &pack, &ms) == 8) {
    long long now6[6] = {shape, e, w, s, bpt, count};
    if (memcmp(now6, last, sizeof last) != 0) {
      if (t != MPI_DATATYPE_NULL) {
        MPI_Type_free(&t);
        free(userRaw);
        free(packedRaw);
      }
      memcpy(last, now6, sizeof last);
      t = build(shape, e, w, s, bpt);
      MPI_Aint lb, extent, tlb, textent;
      MPI_Type_get_extent(t, &lb, &extent);
      MPI_Type_get_true_extent(t, &tlb, &textent);
      long long userBytes = (count - 1) * extent + tlb + textent;
      bytes = (int)(w * bpt * count);
      user = line16(userBytes, &userRaw);
      packed = line16(bytes, &packedRaw);
      for (long long k = 0; k < userBytes; k++) user[k] = (char)((k * 31 + 7) & 0xFF);
      int pos = 0;
      MPI_Pack(user, (int)count, t, packed, bytes, &pos, MPI_COMM_SELF);
      h = 0xcbf29ce484222325ULL;
      for (int k = 0; k < bytes; k++) {
        h ^= (unsigned char)packed[k];
        h *= 0x100000001b3ULL;
      }
      slice(1, t, (int)count, user, packed, bytes, ms);
      slice(0, t, (int)count, user, packed, bytes, ms);
    }
    double v = slice(pack, t, (int)count, user, packed, bytes, ms);
    printf("%.1f %016llx\n", v, (unsigned long long)h);
    fflush(stdout);
  }
  if (t != MPI_DATATYPE_NULL) {
    MPI_Type_free(&t);
    free(userRaw);
    free(packedRaw);
  }
  MPI_Finalize();
  return 0;
}
