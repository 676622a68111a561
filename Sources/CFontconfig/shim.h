#ifndef LAYERKIT_CFONTCONFIG_SHIM_H
#define LAYERKIT_CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>
// Property names are string macros, which Swift does not import.
static const char *const lk_fc_family = FC_FAMILY;
static const char *const lk_fc_file = FC_FILE;
static const char *const lk_fc_index = FC_INDEX;
static const char *const lk_fc_weight = FC_WEIGHT;
static const char *const lk_fc_slant = FC_SLANT;
#endif
