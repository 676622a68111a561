#ifndef LAYERKIT_BENCH_MALLOC_SHIM_H
#define LAYERKIT_BENCH_MALLOC_SHIM_H
#include <malloc.h>
#endif
