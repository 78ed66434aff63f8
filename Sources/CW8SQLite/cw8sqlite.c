#include "cw8sqlite.h"

#include <stddef.h>

int cw8_sqlite3_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
}
