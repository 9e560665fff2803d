#ifndef KALENDS_CLMDB_SHIM_H
#define KALENDS_CLMDB_SHIM_H
#include <lmdb.h>
/* LMDB reports system failures as errno values: the LMDB module names them (ENOSPC, EACCES …) and
   describes them (strerror) through this module, on every platform's C library. */
#include <errno.h>
#include <string.h>
#endif
