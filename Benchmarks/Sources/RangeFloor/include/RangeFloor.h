// The physical floor under Kalends' range queries, in C: the same occurrences as the SQLite peer,
// in the leanest LMDB layouts that answer a window correctly, and in a tuned SQLite. Every answer
// applies RFC 4791 §9.9's overlap rule (an event [start, end) overlaps [from, to) when start < to
// and end > from; a zero-length one when from <= start < to), reads every matching id and sums it
// (the two big-endian halves of each 16-byte id, wrapping), so that answers can be compared.
#ifndef RANGE_FLOOR_H
#define RANGE_FLOOR_H

#include <stddef.h>
#include <stdint.h>

typedef struct range_floor range_floor;

/// What a query found: how many occurrences and the wrapping sum of their ids' halves.
typedef struct {
  uint64_t count;
  uint64_t id_sum;
} range_floor_answer;

/// Events longer than this (3 days, in seconds) are kept apart from the ordinary ones, so that
/// a window's scan starts at most the longest ordinary duration before it.
#define RANGE_FLOOR_LONG_SECONDS 259200

/// Builds the floors from the peer's `occurrences` table (calendar, start, end, id) at
/// `peer_sqlite`: an LMDB environment in the directory `lmdb_directory` (created empty by the
/// caller) and the tuned SQLite database `tuned_sqlite` (must not exist). 0 on success, else an
/// error with its message in `error`.
int range_floor_build(const char *peer_sqlite, const char *lmdb_directory, const char *tuned_sqlite,
                      char *error, size_t error_size);

/// Opens built floors read-only. 0 on success.
int range_floor_open(const char *lmdb_directory, const char *tuned_sqlite, range_floor **out, char *error,
                     size_t error_size);

void range_floor_close(range_floor *floor);

/// Floor (a): keys `calendar | start | id -> end`, one calendar's run scanned from `from` less its
/// longest ordinary duration, then its long events. `calendar` < 0: every calendar's run in turn
/// (the answer is not in start order across calendars).
int range_floor_query(range_floor *floor, int calendar, int64_t from, int64_t to, range_floor_answer *out);

/// Floor (b): one global index `start | calendar | id -> end` for every calendar, which returns
/// the occurrences of all calendars already in start order.
int range_floor_query_global(range_floor *floor, int64_t from, int64_t to, range_floor_answer *out);

/// The tuned SQLite (c): ordinary and long events in two tables, each with a covering index
/// `(calendar, start, end, id)`, the longest ordinary duration bounding the scan, `UNION ALL`.
/// `calendar` < 0: every calendar.
int range_floor_query_sqlite(range_floor *floor, int calendar, int64_t from, int64_t to, range_floor_answer *out);

#endif
