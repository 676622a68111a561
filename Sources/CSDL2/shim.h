#ifndef LAYERKIT_CSDL2_SHIM_H
#define LAYERKIT_CSDL2_SHIM_H
#include <SDL2/SDL.h>
#include <string.h>

// SDL's composite macros, which Swift does not import.
static const int lk_sdl_windowpos_centered = SDL_WINDOWPOS_CENTERED;
static const Uint32 lk_sdl_pixelformat_argb8888 = SDL_PIXELFORMAT_ARGB8888;
static const Uint32 lk_sdl_pixelformat_rgb888 = SDL_PIXELFORMAT_RGB888;

/// The OpenGL renderer string (GL_RENDERER) of `renderer`'s context when it is an OpenGL or
/// OpenGL ES renderer, else NULL. The renderer's context is current on the thread that made it.
static inline const char *lk_sdl_gl_renderer_name(SDL_Renderer *renderer) {
    SDL_RendererInfo info;
    if (SDL_GetRendererInfo(renderer, &info) != 0 || !info.name || strncmp(info.name, "opengl", 6) != 0) return NULL;
    typedef const unsigned char *(*lk_gl_get_string)(unsigned int);
    lk_gl_get_string get_string = (lk_gl_get_string)SDL_GL_GetProcAddress("glGetString");
    if (!get_string) return NULL;
    return (const char *)get_string(0x1F01 /* GL_RENDERER */);
}
#endif
