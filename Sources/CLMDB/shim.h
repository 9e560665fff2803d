#ifndef KALENDS_CLMDB_SHIM_H
#define KALENDS_CLMDB_SHIM_H
#include <lmdb.h>
#endif
