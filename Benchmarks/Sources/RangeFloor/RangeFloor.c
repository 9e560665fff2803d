#include "RangeFloor.h"

#include <lmdb.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Keys: floor (a) `calendar (1) | start (8) | id (16)`, floor (b) `start (8) | calendar (1) | id (16)`,
// each valued `end (8)`; times big-endian with the sign bit flipped, so that keys sort by time.
enum { KEY_SIZE = 25, CALENDARS = 256 };

struct range_floor {
  MDB_env *env;
  MDB_txn *txn;  // one read transaction, reset and renewed around each query
  MDB_cursor *cursor_calendar, *cursor_calendar_long, *cursor_global, *cursor_global_long;
  MDB_dbi calendar, calendar_long, global, global_long;
  int64_t longest[CALENDARS];  // the longest ordinary duration per calendar
  int64_t longest_all;
  sqlite3 *sqlite;
  sqlite3_stmt *one, *all;
};

static void put_time(unsigned char *out, int64_t value) {
  uint64_t bits = (uint64_t)value ^ 0x8000000000000000ull;
  for (int i = 7; i >= 0; i--) {
    out[i] = (unsigned char)bits;
    bits >>= 8;
  }
}

static uint64_t get_u64(const unsigned char *in) {
  uint64_t value = 0;
  for (int i = 0; i < 8; i++) value = value << 8 | in[i];
  return value;
}

static int64_t get_time(const unsigned char *in) { return (int64_t)(get_u64(in) ^ 0x8000000000000000ull); }

static int overlaps(int64_t start, int64_t end, int64_t from, int64_t to) {
  return start < to && (end > from || (end == start && start >= from));
}

static void fail(char *error, size_t size, const char *what, const char *detail) {
  if (error && size) snprintf(error, size, "%s: %s", what, detail ? detail : "failed");
}

static int open_env(const char *directory, unsigned int flags, MDB_env **out) {
  MDB_env *env = NULL;
  int rc = mdb_env_create(&env);
  if (!rc) rc = mdb_env_set_mapsize(env, (size_t)16 << 30);
  if (!rc) rc = mdb_env_set_maxdbs(env, 8);
  if (!rc) rc = mdb_env_open(env, directory, flags | MDB_NOTLS, 0600);
  if (rc && env) mdb_env_close(env);
  if (!rc) *out = env;
  return rc;
}

// Appends the peer's rows, in `order`, to `ordinary` and `long_events` with keys laid out by
// `global`; records the longest ordinary duration per calendar in `longest` (when not NULL).
static int load(sqlite3 *peer, MDB_txn *txn, MDB_dbi ordinary, MDB_dbi long_events, int global, int64_t *longest,
                char *error, size_t error_size) {
  const char *sql = global ? "SELECT calendar, start, \"end\", id FROM occurrences ORDER BY start, calendar, id"
                           : "SELECT calendar, start, \"end\", id FROM occurrences ORDER BY calendar, start, id";
  sqlite3_stmt *rows = NULL;
  if (sqlite3_prepare_v2(peer, sql, -1, &rows, NULL) != SQLITE_OK) {
    fail(error, error_size, "reading the peer", sqlite3_errmsg(peer));
    return -1;
  }
  int rc = 0;
  unsigned char key[KEY_SIZE], value[8];
  while (sqlite3_step(rows) == SQLITE_ROW) {
    int calendar = sqlite3_column_int(rows, 0);
    int64_t start = sqlite3_column_int64(rows, 1), end = sqlite3_column_int64(rows, 2);
    if (calendar < 0 || calendar >= CALENDARS || sqlite3_column_bytes(rows, 3) != 16) {
      fail(error, error_size, "reading the peer", "a calendar outside 0-255 or an id not of 16 bytes");
      rc = -1;
      break;
    }
    if (global) {
      put_time(key, start);
      key[8] = (unsigned char)calendar;
    } else {
      key[0] = (unsigned char)calendar;
      put_time(key + 1, start);
    }
    memcpy(key + 9, sqlite3_column_blob(rows, 3), 16);
    put_time(value, end);
    int is_long = end - start > RANGE_FLOOR_LONG_SECONDS;
    if (!is_long && longest && end - start > longest[calendar]) longest[calendar] = end - start;
    MDB_val k = {KEY_SIZE, key}, v = {8, value};
    rc = mdb_put(txn, is_long ? long_events : ordinary, &k, &v, MDB_APPEND);
    if (rc) {
      fail(error, error_size, "appending to LMDB", mdb_strerror(rc));
      break;
    }
  }
  sqlite3_finalize(rows);
  return rc;
}

static int build_lmdb(const char *peer_path, const char *directory, char *error, size_t error_size) {
  sqlite3 *peer = NULL;
  if (sqlite3_open_v2(peer_path, &peer, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    fail(error, error_size, "opening the peer", peer ? sqlite3_errmsg(peer) : NULL);
    sqlite3_close(peer);
    return -1;
  }
  sqlite3_exec(peer, "PRAGMA cache_size = -1048576; PRAGMA temp_store = MEMORY;", NULL, NULL, NULL);
  MDB_env *env = NULL;
  int rc = open_env(directory, MDB_NOSYNC | MDB_WRITEMAP, &env);
  if (rc) {
    fail(error, error_size, "opening LMDB", mdb_strerror(rc));
    sqlite3_close(peer);
    return rc;
  }
  MDB_txn *txn = NULL;
  MDB_dbi calendar, calendar_long, global, global_long, meta;
  int64_t longest[CALENDARS] = {0};
  rc = mdb_txn_begin(env, NULL, 0, &txn);
  if (!rc) rc = mdb_dbi_open(txn, "calendar", MDB_CREATE, &calendar);
  if (!rc) rc = mdb_dbi_open(txn, "calendar_long", MDB_CREATE, &calendar_long);
  if (!rc) rc = mdb_dbi_open(txn, "global", MDB_CREATE, &global);
  if (!rc) rc = mdb_dbi_open(txn, "global_long", MDB_CREATE, &global_long);
  if (!rc) rc = mdb_dbi_open(txn, "meta", MDB_CREATE, &meta);
  if (rc) fail(error, error_size, "creating the databases", mdb_strerror(rc));
  if (!rc) rc = load(peer, txn, calendar, calendar_long, 0, longest, error, error_size);
  if (!rc) rc = load(peer, txn, global, global_long, 1, NULL, error, error_size);
  unsigned char value[8];
  for (int c = 0; !rc && c < CALENDARS; c++) {
    unsigned char key = (unsigned char)c;
    put_time(value, longest[c]);
    MDB_val k = {1, &key}, v = {8, value};
    rc = mdb_put(txn, meta, &k, &v, 0);
  }
  if (!rc) rc = mdb_txn_commit(txn);
  else if (txn) mdb_txn_abort(txn);
  if (!rc) rc = mdb_env_sync(env, 1);
  if (rc && error && !error[0]) fail(error, error_size, "committing", mdb_strerror(rc));
  mdb_env_close(env);
  sqlite3_close(peer);
  return rc;
}

static int build_sqlite(const char *peer_path, const char *tuned_path, char *error, size_t error_size) {
  sqlite3 *db = NULL;
  if (sqlite3_open_v2(tuned_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
    fail(error, error_size, "creating the tuned SQLite", db ? sqlite3_errmsg(db) : NULL);
    sqlite3_close(db);
    return -1;
  }
  char *attach = sqlite3_mprintf("ATTACH %Q AS peer", peer_path);
  char sql[2048];
  snprintf(sql, sizeof sql,
           "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -1048576;"
           "PRAGMA temp_store = MEMORY;"
           "CREATE TABLE short (calendar INTEGER NOT NULL, start INTEGER NOT NULL, \"end\" INTEGER NOT NULL,"
           "  id BLOB NOT NULL);"
           "CREATE TABLE long (calendar INTEGER NOT NULL, start INTEGER NOT NULL, \"end\" INTEGER NOT NULL,"
           "  id BLOB NOT NULL);"
           "BEGIN;"
           "INSERT INTO short SELECT calendar, start, \"end\", id FROM peer.occurrences WHERE \"end\" - start <= %d"
           "  ORDER BY calendar, start, \"end\", id;"
           "INSERT INTO long SELECT calendar, start, \"end\", id FROM peer.occurrences WHERE \"end\" - start > %d"
           "  ORDER BY calendar, start, \"end\", id;"
           "CREATE INDEX short_cover ON short (calendar, start, \"end\", id);"
           "CREATE INDEX long_cover ON long (calendar, start, \"end\", id);"
           "CREATE TABLE longest (calendar INTEGER PRIMARY KEY, seconds INTEGER NOT NULL);"
           "INSERT INTO longest SELECT calendar, max(\"end\" - start) FROM short GROUP BY calendar;"
           "COMMIT; ANALYZE;",
           RANGE_FLOOR_LONG_SECONDS, RANGE_FLOOR_LONG_SECONDS);
  char *message = NULL;
  int rc = sqlite3_exec(db, attach, NULL, NULL, &message);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, sql, NULL, NULL, &message);
  if (rc != SQLITE_OK) fail(error, error_size, "building the tuned SQLite", message);
  sqlite3_free(message);
  sqlite3_free(attach);
  sqlite3_close(db);
  return rc == SQLITE_OK ? 0 : -1;
}

int range_floor_build(const char *peer_sqlite, const char *lmdb_directory, const char *tuned_sqlite, char *error,
                      size_t error_size) {
  if (error && error_size) error[0] = 0;
  int rc = build_lmdb(peer_sqlite, lmdb_directory, error, error_size);
  return rc ? rc : build_sqlite(peer_sqlite, tuned_sqlite, error, error_size);
}

int range_floor_open(const char *lmdb_directory, const char *tuned_sqlite, range_floor **out, char *error,
                     size_t error_size) {
  range_floor *floor = calloc(1, sizeof *floor);
  if (!floor) return -1;
  int rc = open_env(lmdb_directory, MDB_RDONLY, &floor->env);
  MDB_dbi meta;
  if (!rc) rc = mdb_txn_begin(floor->env, NULL, MDB_RDONLY, &floor->txn);
  if (!rc) rc = mdb_dbi_open(floor->txn, "calendar", 0, &floor->calendar);
  if (!rc) rc = mdb_dbi_open(floor->txn, "calendar_long", 0, &floor->calendar_long);
  if (!rc) rc = mdb_dbi_open(floor->txn, "global", 0, &floor->global);
  if (!rc) rc = mdb_dbi_open(floor->txn, "global_long", 0, &floor->global_long);
  if (!rc) rc = mdb_dbi_open(floor->txn, "meta", 0, &meta);
  for (int c = 0; !rc && c < CALENDARS; c++) {
    unsigned char key = (unsigned char)c;
    MDB_val k = {1, &key}, v;
    rc = mdb_get(floor->txn, meta, &k, &v);
    if (!rc) floor->longest[c] = get_time(v.mv_data);
    if (!rc && floor->longest[c] > floor->longest_all) floor->longest_all = floor->longest[c];
  }
  // Handles opened in a transaction stay open only once it commits (a reset would close them).
  if (!rc) rc = mdb_txn_commit(floor->txn);
  floor->txn = NULL;
  if (!rc) rc = mdb_txn_begin(floor->env, NULL, MDB_RDONLY, &floor->txn);
  if (!rc) rc = mdb_cursor_open(floor->txn, floor->calendar, &floor->cursor_calendar);
  if (!rc) rc = mdb_cursor_open(floor->txn, floor->calendar_long, &floor->cursor_calendar_long);
  if (!rc) rc = mdb_cursor_open(floor->txn, floor->global, &floor->cursor_global);
  if (!rc) rc = mdb_cursor_open(floor->txn, floor->global_long, &floor->cursor_global_long);
  if (rc) {
    fail(error, error_size, "opening the LMDB floor", mdb_strerror(rc));
    range_floor_close(floor);
    return rc;
  }
  mdb_txn_reset(floor->txn);
  if (sqlite3_open_v2(tuned_sqlite, &floor->sqlite, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
    fail(error, error_size, "opening the tuned SQLite", floor->sqlite ? sqlite3_errmsg(floor->sqlite) : NULL);
    range_floor_close(floor);
    return -1;
  }
  sqlite3_exec(floor->sqlite, "PRAGMA mmap_size = 17179869184; PRAGMA cache_size = -1048576;", NULL, NULL, NULL);
  const char *overlap = "start < ?2 AND (\"end\" > ?1 OR (\"end\" = start AND start >= ?1))";
  char one[1024], all[1024];
  snprintf(one, sizeof one,
           "SELECT id, start, \"end\" FROM short WHERE calendar = ?3 AND start >= ?4 AND %s "
           "UNION ALL SELECT id, start, \"end\" FROM long WHERE calendar = ?3 AND %s",
           overlap, overlap);
  snprintf(all, sizeof all,
           "SELECT id, start, \"end\" FROM short WHERE calendar IN (SELECT calendar FROM longest) AND start >= ?4 "
           "AND %s UNION ALL SELECT id, start, \"end\" FROM long WHERE %s",
           overlap, overlap);
  if (sqlite3_prepare_v3(floor->sqlite, one, -1, SQLITE_PREPARE_PERSISTENT, &floor->one, NULL) != SQLITE_OK ||
      sqlite3_prepare_v3(floor->sqlite, all, -1, SQLITE_PREPARE_PERSISTENT, &floor->all, NULL) != SQLITE_OK) {
    fail(error, error_size, "preparing the tuned SQLite's queries", sqlite3_errmsg(floor->sqlite));
    range_floor_close(floor);
    return -1;
  }
  *out = floor;
  return 0;
}

void range_floor_close(range_floor *floor) {
  if (!floor) return;
  sqlite3_finalize(floor->one);
  sqlite3_finalize(floor->all);
  sqlite3_close(floor->sqlite);
  if (floor->txn) mdb_txn_abort(floor->txn);  // closes its cursors
  if (floor->env) mdb_env_close(floor->env);
  free(floor);
}

static void take(const unsigned char *id, range_floor_answer *out) {
  out->count += 1;
  out->id_sum += get_u64(id) + get_u64(id + 8);
}

// Scans `cursor` from `key` (of `prefix` leading bytes that must match) while the start at
// `start_offset` is before `to`.
static int scan(MDB_cursor *cursor, unsigned char *key, size_t prefix, size_t start_offset, int64_t from, int64_t to,
                range_floor_answer *out) {
  MDB_val k = {KEY_SIZE, key}, v;
  unsigned char first[KEY_SIZE];
  memcpy(first, key, prefix);
  int rc = mdb_cursor_get(cursor, &k, &v, MDB_SET_RANGE);
  while (rc == 0) {
    const unsigned char *found = k.mv_data;
    if (memcmp(found, first, prefix) != 0) break;
    int64_t start = get_time(found + start_offset);
    if (start >= to) break;
    if (overlaps(start, get_time(v.mv_data), from, to)) take(found + 9, out);
    rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT);
  }
  return rc == MDB_NOTFOUND ? 0 : rc;
}

static int query_calendar(range_floor *floor, int calendar, int64_t from, int64_t to, range_floor_answer *out) {
  unsigned char key[KEY_SIZE] = {0};
  key[0] = (unsigned char)calendar;
  put_time(key + 1, from - floor->longest[calendar]);
  int rc = scan(floor->cursor_calendar, key, 1, 1, from, to, out);
  if (rc) return rc;
  memset(key + 1, 0, KEY_SIZE - 1);
  put_time(key + 1, INT64_MIN);
  return scan(floor->cursor_calendar_long, key, 1, 1, from, to, out);
}

static int begin(range_floor *floor) {
  int rc = mdb_txn_renew(floor->txn);
  if (!rc) rc = mdb_cursor_renew(floor->txn, floor->cursor_calendar);
  if (!rc) rc = mdb_cursor_renew(floor->txn, floor->cursor_calendar_long);
  if (!rc) rc = mdb_cursor_renew(floor->txn, floor->cursor_global);
  if (!rc) rc = mdb_cursor_renew(floor->txn, floor->cursor_global_long);
  return rc;
}

int range_floor_query(range_floor *floor, int calendar, int64_t from, int64_t to, range_floor_answer *out) {
  out->count = 0;
  out->id_sum = 0;
  int rc = begin(floor);
  if (calendar >= 0) {
    if (!rc) rc = query_calendar(floor, calendar, from, to, out);
  } else {
    for (int c = 0; !rc && c < CALENDARS; c++) {
      if (floor->longest[c] > 0) rc = query_calendar(floor, c, from, to, out);
    }
  }
  mdb_txn_reset(floor->txn);
  return rc;
}

int range_floor_query_global(range_floor *floor, int64_t from, int64_t to, range_floor_answer *out) {
  out->count = 0;
  out->id_sum = 0;
  int rc = begin(floor);
  unsigned char key[KEY_SIZE] = {0};
  put_time(key, from - floor->longest_all);
  if (!rc) rc = scan(floor->cursor_global, key, 0, 0, from, to, out);
  memset(key, 0, KEY_SIZE);
  put_time(key, INT64_MIN);
  if (!rc) rc = scan(floor->cursor_global_long, key, 0, 0, from, to, out);
  mdb_txn_reset(floor->txn);
  return rc;
}

int range_floor_query_sqlite(range_floor *floor, int calendar, int64_t from, int64_t to, range_floor_answer *out) {
  out->count = 0;
  out->id_sum = 0;
  sqlite3_stmt *statement = calendar >= 0 ? floor->one : floor->all;
  sqlite3_reset(statement);
  sqlite3_bind_int64(statement, 1, from);
  sqlite3_bind_int64(statement, 2, to);
  if (calendar >= 0) sqlite3_bind_int(statement, 3, calendar);
  sqlite3_bind_int64(statement, 4, from - (calendar >= 0 ? floor->longest[calendar] : floor->longest_all));
  int rc;
  while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
    if (sqlite3_column_bytes(statement, 0) != 16) return -1;
    take(sqlite3_column_blob(statement, 0), out);
    (void)sqlite3_column_int64(statement, 1);
    (void)sqlite3_column_int64(statement, 2);
  }
  return rc == SQLITE_DONE ? 0 : rc;
}
