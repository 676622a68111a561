#ifndef LAYERKIT_CPIXMAN_SHIM_H
#define LAYERKIT_CPIXMAN_SHIM_H
#include <pixman.h>
#endif
