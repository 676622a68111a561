#ifndef LAYERKIT_CSDL2_SHIM_H
#define LAYERKIT_CSDL2_SHIM_H
#include <SDL2/SDL.h>

// SDL's composite macros, which Swift does not import.
static const int lk_sdl_windowpos_centered = SDL_WINDOWPOS_CENTERED;
static const Uint32 lk_sdl_pixelformat_argb8888 = SDL_PIXELFORMAT_ARGB8888;
#endif
