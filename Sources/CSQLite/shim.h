/* RunWay's window onto SQLite: the header, and SQLITE_TRANSIENT (a cast macro Swift cannot
 * import) as bind functions that copy their argument. */
#ifndef RUNWAY_CSQLITE_SHIM_H
#define RUNWAY_CSQLITE_SHIM_H

#include <sqlite3.h>

static inline int rw_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text) {
    return sqlite3_bind_text(statement, index, text, -1, SQLITE_TRANSIENT);
}

static inline int rw_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int count) {
    return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}

#endif
