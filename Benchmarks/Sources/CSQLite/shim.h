// SQLite's C API from the system (Debian's libsqlite3-dev), for the range-query comparison.
#include <sqlite3.h>
