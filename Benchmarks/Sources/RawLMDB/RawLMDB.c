#include "RawLMDB.h"

#include <errno.h>
#include <lmdb.h>
#include <stdlib.h>
#include <string.h>

struct raw_lmdb {
  MDB_env *env;
  MDB_dbi dbi;
};

static void big_endian(uint64_t value, unsigned char out[8]) {
  for (int i = 7; i >= 0; i--) {
    out[i] = (unsigned char)(value & 0xff);
    value >>= 8;
  }
}

static uint64_t from_big_endian(const unsigned char *bytes) {
  uint64_t value = 0;
  for (int i = 0; i < 8; i++) value = value << 8 | bytes[i];
  return value;
}

int raw_lmdb_open(const char *path, raw_lmdb_durability durability, size_t map_size, const char *database,
                  raw_lmdb **out) {
  MDB_env *env = NULL;
  int rc = mdb_env_create(&env);
  if (rc) return rc;
  unsigned int flags = MDB_NOTLS;
  if (durability == RAW_LMDB_SYNC_NO_META) flags |= MDB_NOMETASYNC;
  if (durability == RAW_LMDB_SYNC_NONE) flags |= MDB_NOSYNC;
  rc = mdb_env_set_mapsize(env, map_size);
  if (!rc) rc = mdb_env_set_maxreaders(env, 126);
  if (!rc) rc = mdb_env_set_maxdbs(env, 64);
  if (!rc) rc = mdb_env_open(env, path, flags, 0600);
  MDB_txn *txn = NULL;
  MDB_dbi dbi = 0;
  if (!rc) rc = mdb_txn_begin(env, NULL, 0, &txn);
  if (!rc) {
    rc = mdb_dbi_open(txn, database, MDB_CREATE, &dbi);
    if (rc) mdb_txn_abort(txn);
    else rc = mdb_txn_commit(txn);
  }
  if (rc) {
    mdb_env_close(env);
    return rc;
  }
  raw_lmdb *raw = malloc(sizeof *raw);
  if (!raw) {
    mdb_env_close(env);
    return ENOMEM;
  }
  raw->env = env;
  raw->dbi = dbi;
  *out = raw;
  return 0;
}

void raw_lmdb_close(raw_lmdb *raw) {
  if (!raw) return;
  mdb_env_close(raw->env);
  free(raw);
}

int raw_lmdb_put_commit(raw_lmdb *raw, uint64_t key, const void *value, size_t size) {
  unsigned char key_bytes[8];
  big_endian(key, key_bytes);
  MDB_txn *txn;
  int rc = mdb_txn_begin(raw->env, NULL, 0, &txn);
  if (rc) return rc;
  MDB_val k = {sizeof key_bytes, key_bytes};
  MDB_val v = {size, (void *)value};
  rc = mdb_put(txn, raw->dbi, &k, &v, 0);
  if (rc) {
    mdb_txn_abort(txn);
    return rc;
  }
  return mdb_txn_commit(txn);
}

int raw_lmdb_append_batch(raw_lmdb *raw, uint64_t first_key, size_t count, const void *value, size_t size) {
  MDB_txn *txn;
  int rc = mdb_txn_begin(raw->env, NULL, 0, &txn);
  if (rc) return rc;
  unsigned char key_bytes[8];
  for (size_t i = 0; i < count; i++) {
    big_endian(first_key + i, key_bytes);
    MDB_val k = {sizeof key_bytes, key_bytes};
    MDB_val v = {size, (void *)value};
    rc = mdb_put(txn, raw->dbi, &k, &v, MDB_APPEND);
    if (rc) {
      mdb_txn_abort(txn);
      return rc;
    }
  }
  return mdb_txn_commit(txn);
}

int raw_lmdb_append_batch_chained(raw_lmdb *raw, uint64_t first_key, size_t count, const void *value,
                                  size_t size, raw_lmdb_sha256 sha256) {
  if (size < 1 + 8 + 64) return EINVAL;
  unsigned char *prefixed = calloc(1, 1 + size);  // 0x00 ‖ record
  if (prefixed == NULL) return ENOMEM;
  unsigned char *record = prefixed + 1;
  memcpy(record, value, size);
  memset(record + size - 32, 0, 32);  // the first record chains to 32 zero bytes
  MDB_txn *txn;
  int rc = mdb_txn_begin(raw->env, NULL, 0, &txn);
  if (rc) {
    free(prefixed);
    return rc;
  }
  unsigned char key_bytes[8];
  for (size_t i = 0; i < count; i++) {
    big_endian(first_key + i, key_bytes);
    memcpy(record + 1, key_bytes, sizeof key_bytes);
    memcpy(record + size - 64, record + size - 32, 32);  // the previous record's hash
    sha256(prefixed, 1 + size - 32, record + size - 32);
    MDB_val k = {sizeof key_bytes, key_bytes};
    MDB_val v = {size, record};
    rc = mdb_put(txn, raw->dbi, &k, &v, MDB_APPEND);
    if (rc) {
      mdb_txn_abort(txn);
      free(prefixed);
      return rc;
    }
  }
  free(prefixed);
  return mdb_txn_commit(txn);
}

int raw_lmdb_scan(raw_lmdb *raw, size_t *count, uint64_t *checksum) {
  MDB_txn *txn;
  int rc = mdb_txn_begin(raw->env, NULL, MDB_RDONLY, &txn);
  if (rc) return rc;
  MDB_cursor *cursor;
  rc = mdb_cursor_open(txn, raw->dbi, &cursor);
  if (rc) {
    mdb_txn_abort(txn);
    return rc;
  }
  size_t visited = 0;
  uint64_t sum = 0;
  MDB_val k, v;
  MDB_cursor_op op = MDB_FIRST;
  while ((rc = mdb_cursor_get(cursor, &k, &v, op)) == 0) {
    visited++;
    sum += v.mv_size + (v.mv_size ? ((const unsigned char *)v.mv_data)[0] : 0);
    op = MDB_NEXT;
  }
  mdb_cursor_close(cursor);
  mdb_txn_abort(txn);
  if (rc != MDB_NOTFOUND) return rc;
  *count = visited;
  *checksum = sum;
  return 0;
}

int raw_lmdb_last_key(raw_lmdb *raw, uint64_t *key) {
  MDB_txn *txn;
  int rc = mdb_txn_begin(raw->env, NULL, MDB_RDONLY, &txn);
  if (rc) return rc;
  MDB_cursor *cursor;
  rc = mdb_cursor_open(txn, raw->dbi, &cursor);
  if (!rc) {
    MDB_val k, v;
    rc = mdb_cursor_get(cursor, &k, &v, MDB_LAST);
    if (rc == MDB_NOTFOUND) {
      *key = 0;
      rc = 0;
    } else if (!rc) {
      *key = k.mv_size == 8 ? from_big_endian(k.mv_data) : 0;
    }
    mdb_cursor_close(cursor);
  }
  mdb_txn_abort(txn);
  return rc;
}

int raw_lmdb_value_size(raw_lmdb *raw, uint64_t key, size_t *size) {
  unsigned char key_bytes[8];
  big_endian(key, key_bytes);
  MDB_txn *txn;
  int rc = mdb_txn_begin(raw->env, NULL, MDB_RDONLY, &txn);
  if (rc) return rc;
  MDB_val k = {sizeof key_bytes, key_bytes};
  MDB_val v;
  rc = mdb_get(txn, raw->dbi, &k, &v);
  if (!rc) *size = v.mv_size;
  mdb_txn_abort(txn);
  return rc;
}

int raw_lmdb_sync(raw_lmdb *raw) { return mdb_env_sync(raw->env, 1); }

const char *raw_lmdb_strerror(int code) { return mdb_strerror(code); }

int raw_lmdb_database_stat(const char *path, const char *database, size_t *pages, size_t *entries,
                           unsigned int *page_size) {
  MDB_env *env = NULL;
  int rc = mdb_env_create(&env);
  if (rc) return rc;
  rc = mdb_env_set_maxdbs(env, 64);
  if (!rc) rc = mdb_env_set_maxreaders(env, 126);
  if (!rc) rc = mdb_env_open(env, path, MDB_NOTLS | MDB_RDONLY, 0600);
  MDB_txn *txn = NULL;
  if (!rc) rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn);
  if (!rc) {
    MDB_dbi dbi = 0;
    MDB_stat stat;
    rc = mdb_dbi_open(txn, database, 0, &dbi);
    if (!rc) rc = mdb_stat(txn, dbi, &stat);
    if (!rc) {
      *pages = stat.ms_branch_pages + stat.ms_leaf_pages + stat.ms_overflow_pages;
      *entries = stat.ms_entries;
      *page_size = stat.ms_psize;
    }
    mdb_txn_abort(txn);
  }
  mdb_env_close(env);
  return rc;
}
