// SQLite calls that Swift cannot make itself: sqlite3_db_config is variadic.
#pragma once

#include <sqlite3.h>

/// `sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL)`: closing the last connection leaves the WAL
/// as it is instead of checkpointing it into the database file. Returns SQLITE_OK or an error code.
int cw8_sqlite3_no_checkpoint_on_close(sqlite3 *db);
