#ifndef KALENDS_RAW_LMDB_H
#define KALENDS_RAW_LMDB_H

// The raw LMDB baseline of the Kalends benchmarks: the bare minimum LMDB work for each operation
// the store does, written straight against <lmdb.h>. Keys are 8-byte big-endian positions, as in
// the Kalends log. <lmdb.h> stays inside RawLMDB.c so that this module never clashes with the root
// package's CLMDB module. Every function returns 0 or an LMDB error code (raw_lmdb_strerror).

#include <stddef.h>
#include <stdint.h>

typedef struct raw_lmdb raw_lmdb;

/// How commits reach the disk, as in Kalends' StoreOptions.Durability.
typedef enum {
  RAW_LMDB_SYNC_FULL = 0,      // fsync data and meta page on every commit (LMDB's default)
  RAW_LMDB_SYNC_NO_META = 1,   // MDB_NOMETASYNC
  RAW_LMDB_SYNC_NONE = 2,      // MDB_NOSYNC
} raw_lmdb_durability;

/// Opens (creating when missing) the environment in the existing directory `path` with the flags a
/// Kalends store uses (MDB_NOTLS plus the durability flag, 64 named databases, 126 readers) and the
/// named database `database` in it.
int raw_lmdb_open(const char *path, raw_lmdb_durability durability, size_t map_size, const char *database,
                  raw_lmdb **out);
void raw_lmdb_close(raw_lmdb *raw);

/// One write transaction: one put of `size` bytes under `key`, commit.
int raw_lmdb_put_commit(raw_lmdb *raw, uint64_t key, const void *value, size_t size);

/// One write transaction: `count` puts with MDB_APPEND under `first_key`, `first_key + 1`, …, each
/// of the same `size` bytes, commit.
int raw_lmdb_append_batch(raw_lmdb *raw, uint64_t first_key, size_t count, const void *value, size_t size);

/// A SHA-256 implementation: hashes `size` bytes at `data` into the 32 bytes at `digest`.
typedef void (*raw_lmdb_sha256)(const void *data, size_t size, uint8_t *digest);

/// What `raw_lmdb_append_batch` does plus the least work the log format requires of every record:
/// the value is a record template of `size` bytes ending in two 32-byte hashes; each record gets
/// its position (big-endian, at byte 1), the previous record's hash, and its own hash computed by
/// `sha256` over `0x00 ‖ record without its hash` (one call on contiguous bytes). The chain starts
/// from 32 zero bytes in every call.
int raw_lmdb_append_batch_chained(raw_lmdb *raw, uint64_t first_key, size_t count, const void *value,
                                  size_t size, raw_lmdb_sha256 sha256);

/// One read transaction: a cursor from the first entry to the last, reading the first byte of every
/// value. Sets `count` to the entries visited and `checksum` to the sum of their sizes and first bytes.
int raw_lmdb_scan(raw_lmdb *raw, size_t *count, uint64_t *checksum);

/// The last key of the database (0 when empty).
int raw_lmdb_last_key(raw_lmdb *raw, uint64_t *key);

/// The size of the value stored under `key`, or MDB_NOTFOUND.
int raw_lmdb_value_size(raw_lmdb *raw, uint64_t key, size_t *size);

/// Flushes everything committed (mdb_env_sync with force).
int raw_lmdb_sync(raw_lmdb *raw);

const char *raw_lmdb_strerror(int code);

/// LMDB's statistics of the named database `database` in the environment at `path` (opened read-only
/// with MDB_NOTLS and 64 named databases): its pages (branch + leaf + overflow), entries and the page
/// size. Measures an index's size on disk.
int raw_lmdb_database_stat(const char *path, const char *database, size_t *pages, size_t *entries,
                           unsigned int *page_size);

#endif
