#ifndef LAYERKIT_CCAIRO_SHIM_H
#define LAYERKIT_CCAIRO_SHIM_H
// cairo is a test and benchmark oracle only: the LayerKit library never links it.
#include <cairo.h>
#endif
