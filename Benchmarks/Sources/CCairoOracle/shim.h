#ifndef LAYERKIT_BENCH_CAIRO_SHIM_H
#define LAYERKIT_BENCH_CAIRO_SHIM_H
#include <cairo.h>
#endif
