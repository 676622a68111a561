#ifndef LAYERKIT_CHARFBUZZ_SHIM_H
#define LAYERKIT_CHARFBUZZ_SHIM_H
#include <hb.h>
#endif
