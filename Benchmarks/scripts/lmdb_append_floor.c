// What LMDB alone needs to write a store's projections as a rebuild writes them: the floor under
// `kalends rebuild`'s serialized writes. See Benchmarks/scripts/lmdb-append-floor, which builds and runs it.
//
// It reads every entry of the named databases of STORE into memory (not timed), then, in a scratch
// environment, fills the databases once and empties them (so that, as in a rebuild, the pages come
// from LMDB's free list), and times appending the same entries again, database after database, with
// MDB_APPEND through one cursor per transaction, in durable transactions of CHUNK entries. It prints
// each database's entries, their keys' and values' megabytes, the seconds and the time per entry,
// and for all of them the CPU time taken (user and system): the rest of the seconds is spent
// waiting for the durable commits' flushes, which in a rebuild overlap the other threads' work.
//
//   lmdb_append_floor STORE SCRATCH CHUNK DATABASE...
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define CHECK(call)                                                                    \
  do {                                                                                 \
    int rc_ = (call);                                                                  \
    if (rc_ != 0) {                                                                    \
      fprintf(stderr, "lmdb_append_floor: %s: %s\n", #call, mdb_strerror(rc_));       \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

typedef struct {
  const char *name;
  size_t count;
  size_t *offsets; // key length, key, value length, value: one after the other in `bytes`
  unsigned char *bytes;
  size_t used, capacity;
  size_t payload; // the keys' and values' bytes
} Entries;

/// The process's user and system CPU seconds so far.
static void cpu(double *user, double *system) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  *user = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6;
  *system = (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void append(Entries *e, const MDB_val *v) {
  while (e->used + sizeof(size_t) + v->mv_size > e->capacity) {
    e->capacity = e->capacity ? e->capacity * 2 : 1 << 20;
    e->bytes = realloc(e->bytes, e->capacity);
    if (!e->bytes) exit(1);
  }
  memcpy(e->bytes + e->used, &v->mv_size, sizeof(size_t));
  memcpy(e->bytes + e->used + sizeof(size_t), v->mv_data, v->mv_size);
  e->used += sizeof(size_t) + v->mv_size;
  e->payload += v->mv_size;
}

static MDB_val next(const Entries *e, size_t *at) {
  MDB_val v;
  memcpy(&v.mv_size, e->bytes + *at, sizeof(size_t));
  v.mv_data = e->bytes + *at + sizeof(size_t);
  *at += sizeof(size_t) + v.mv_size;
  return v;
}

static void load(MDB_env *env, Entries *e) {
  MDB_txn *txn;
  MDB_dbi dbi;
  MDB_cursor *cursor;
  MDB_val key, value;
  CHECK(mdb_txn_begin(env, NULL, MDB_RDONLY, &txn));
  CHECK(mdb_dbi_open(txn, e->name, 0, &dbi));
  CHECK(mdb_cursor_open(txn, dbi, &cursor));
  int rc = mdb_cursor_get(cursor, &key, &value, MDB_FIRST);
  while (rc == 0) {
    append(e, &key);
    append(e, &value);
    e->count++;
    rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT);
  }
  if (rc != MDB_NOTFOUND) CHECK(rc);
  mdb_cursor_close(cursor);
  mdb_txn_abort(txn);
}

/// Appends every entry of `e` in transactions of `chunk` entries; returns the seconds taken.
static double write_all(MDB_env *env, const Entries *e, size_t chunk) {
  double start = now();
  MDB_txn *txn;
  MDB_dbi dbi;
  CHECK(mdb_txn_begin(env, NULL, 0, &txn));
  CHECK(mdb_dbi_open(txn, e->name, MDB_CREATE, &dbi));
  CHECK(mdb_txn_commit(txn));
  size_t at = 0, done = 0;
  while (done < e->count) {
    MDB_cursor *cursor;
    CHECK(mdb_txn_begin(env, NULL, 0, &txn));
    CHECK(mdb_cursor_open(txn, dbi, &cursor));
    for (size_t n = 0; n < chunk && done < e->count; n++, done++) {
      MDB_val key = next(e, &at), value = next(e, &at);
      CHECK(mdb_cursor_put(cursor, &key, &value, MDB_APPEND));
    }
    mdb_cursor_close(cursor);
    CHECK(mdb_txn_commit(txn));
  }
  return now() - start;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: lmdb_append_floor STORE SCRATCH CHUNK DATABASE...\n");
    return 2;
  }
  size_t chunk = (size_t)strtoul(argv[3], NULL, 10);
  int count = argc - 4;
  Entries *dbs = calloc((size_t)count, sizeof(Entries));
  MDB_env *source, *target;
  CHECK(mdb_env_create(&source));
  CHECK(mdb_env_set_maxdbs(source, 64));
  CHECK(mdb_env_open(source, argv[1], MDB_RDONLY | MDB_NOTLS, 0644));
  size_t bytes = 0, payload = 0;
  for (int d = 0; d < count; d++) {
    dbs[d].name = argv[4 + d];
    load(source, &dbs[d]);
    bytes += dbs[d].used;
    payload += dbs[d].payload;
  }
  mdb_env_close(source);
  CHECK(mdb_env_create(&target));
  CHECK(mdb_env_set_maxdbs(target, 64));
  CHECK(mdb_env_set_mapsize(target, bytes * 3 + ((size_t)1 << 30)));
  CHECK(mdb_env_open(target, argv[2], MDB_NOTLS, 0644));
  // The first fill lays out the file; emptied, its pages are on the free list, as in a rebuild.
  for (int d = 0; d < count; d++) write_all(target, &dbs[d], chunk);
  MDB_txn *txn;
  CHECK(mdb_txn_begin(target, NULL, 0, &txn));
  for (int d = 0; d < count; d++) {
    MDB_dbi dbi;
    CHECK(mdb_dbi_open(txn, dbs[d].name, 0, &dbi));
    CHECK(mdb_drop(txn, dbi, 0));
  }
  CHECK(mdb_txn_commit(txn));
  double total = 0, user0, system0, user1, system1;
  size_t entries = 0;
  cpu(&user0, &system0);
  for (int d = 0; d < count; d++) {
    double seconds = write_all(target, &dbs[d], chunk);
    total += seconds;
    entries += dbs[d].count;
    printf("%-22s %9zu entries %8.1f MB %7.3f s %6.0f ns/entry\n", dbs[d].name, dbs[d].count,
           (double)dbs[d].payload / 1e6, seconds, seconds / (double)dbs[d].count * 1e9);
  }
  cpu(&user1, &system1);
  printf("%-22s %9zu entries %8.1f MB %7.3f s\n", "total", entries, (double)payload / 1e6, total);
  printf("%-22s %.3f s user, %.3f s system\n", "CPU", user1 - user0, system1 - system0);
  mdb_env_close(target);
  return 0;
}
