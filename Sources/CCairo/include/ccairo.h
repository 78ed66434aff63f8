#pragma once
#include <stddef.h>

#include "cdynamiclibrary.h"

// The part of cairo's C API that W8Chart draws with (and its tests decode PNGs with), declared here and resolved at
// run time: `ccairo_load` dlopens libcairo.so.2 the first time a chart is drawn, so the commands that draw nothing
// never load cairo, X11 and the libraries they pull in. The types and enum values are cairo's own (its ABI has been
// stable since 1.0); the functions are `static inline` wrappers with cairo's names that call through the table.

typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;

typedef enum _cairo_status {
    CAIRO_STATUS_SUCCESS = 0,
    CAIRO_STATUS_NO_MEMORY = 1,
    CAIRO_STATUS_WRITE_ERROR = 11,
} cairo_status_t;

typedef enum _cairo_format { CAIRO_FORMAT_INVALID = -1, CAIRO_FORMAT_ARGB32 = 0, CAIRO_FORMAT_RGB24 = 1 } cairo_format_t;
typedef enum _cairo_line_join { CAIRO_LINE_JOIN_MITER, CAIRO_LINE_JOIN_ROUND, CAIRO_LINE_JOIN_BEVEL } cairo_line_join_t;
typedef enum _cairo_line_cap { CAIRO_LINE_CAP_BUTT, CAIRO_LINE_CAP_ROUND, CAIRO_LINE_CAP_SQUARE } cairo_line_cap_t;
typedef enum _cairo_font_slant {
    CAIRO_FONT_SLANT_NORMAL,
    CAIRO_FONT_SLANT_ITALIC,
    CAIRO_FONT_SLANT_OBLIQUE
} cairo_font_slant_t;
typedef enum _cairo_font_weight { CAIRO_FONT_WEIGHT_NORMAL, CAIRO_FONT_WEIGHT_BOLD } cairo_font_weight_t;
typedef enum _cairo_svg_unit {
    CAIRO_SVG_UNIT_USER = 0,
    CAIRO_SVG_UNIT_EM,
    CAIRO_SVG_UNIT_EX,
    CAIRO_SVG_UNIT_PX,
    CAIRO_SVG_UNIT_IN,
    CAIRO_SVG_UNIT_CM,
    CAIRO_SVG_UNIT_MM,
    CAIRO_SVG_UNIT_PT,
    CAIRO_SVG_UNIT_PC,
    CAIRO_SVG_UNIT_PERCENT
} cairo_svg_unit_t;

typedef struct {
    double x_bearing, y_bearing, width, height, x_advance, y_advance;
} cairo_text_extents_t;

typedef cairo_status_t (*cairo_write_func_t)(void *closure, const unsigned char *data, unsigned int length);

// Every function used: F(return type, name, parameters, arguments), V(name, parameters, arguments) for void ones.
#define CCAIRO_FUNCTIONS(F, V)                                                                                        \
    F(const char *, cairo_status_to_string, (cairo_status_t status), (status))                                        \
    F(cairo_surface_t *, cairo_image_surface_create, (cairo_format_t format, int width, int height),                  \
      (format, width, height))                                                                                        \
    F(cairo_surface_t *, cairo_image_surface_create_from_png, (const char *filename), (filename))                     \
    F(int, cairo_image_surface_get_width, (cairo_surface_t * surface), (surface))                                     \
    F(int, cairo_image_surface_get_height, (cairo_surface_t * surface), (surface))                                    \
    F(int, cairo_image_surface_get_stride, (cairo_surface_t * surface), (surface))                                    \
    F(unsigned char *, cairo_image_surface_get_data, (cairo_surface_t * surface), (surface))                          \
    F(cairo_format_t, cairo_image_surface_get_format, (cairo_surface_t * surface), (surface))                         \
    F(cairo_status_t, cairo_surface_write_to_png_stream,                                                              \
      (cairo_surface_t * surface, cairo_write_func_t write, void *closure), (surface, write, closure))                \
    F(cairo_surface_t *, cairo_svg_surface_create_for_stream,                                                         \
      (cairo_write_func_t write, void *closure, double width, double height), (write, closure, width, height))        \
    V(cairo_svg_surface_set_document_unit, (cairo_surface_t * surface, cairo_svg_unit_t unit), (surface, unit))       \
    F(cairo_status_t, cairo_surface_status, (cairo_surface_t * surface), (surface))                                   \
    V(cairo_surface_flush, (cairo_surface_t * surface), (surface))                                                    \
    V(cairo_surface_finish, (cairo_surface_t * surface), (surface))                                                   \
    V(cairo_surface_destroy, (cairo_surface_t * surface), (surface))                                                  \
    F(cairo_t *, cairo_create, (cairo_surface_t * target), (target))                                                  \
    F(cairo_status_t, cairo_status, (cairo_t * cr), (cr))                                                             \
    V(cairo_destroy, (cairo_t * cr), (cr))                                                                            \
    V(cairo_set_source_rgb, (cairo_t * cr, double red, double green, double blue), (cr, red, green, blue))            \
    V(cairo_rectangle, (cairo_t * cr, double x, double y, double width, double height), (cr, x, y, width, height))    \
    V(cairo_fill, (cairo_t * cr), (cr))                                                                               \
    V(cairo_new_sub_path, (cairo_t * cr), (cr))                                                                       \
    V(cairo_new_path, (cairo_t * cr), (cr))                                                                           \
    V(cairo_arc, (cairo_t * cr, double xc, double yc, double radius, double angle1, double angle2),                    \
      (cr, xc, yc, radius, angle1, angle2))                                                                           \
    V(cairo_move_to, (cairo_t * cr, double x, double y), (cr, x, y))                                                  \
    V(cairo_line_to, (cairo_t * cr, double x, double y), (cr, x, y))                                                  \
    V(cairo_curve_to, (cairo_t * cr, double x1, double y1, double x2, double y2, double x3, double y3),               \
      (cr, x1, y1, x2, y2, x3, y3))                                                                                   \
    V(cairo_set_line_join, (cairo_t * cr, cairo_line_join_t line_join), (cr, line_join))                              \
    V(cairo_set_line_cap, (cairo_t * cr, cairo_line_cap_t line_cap), (cr, line_cap))                                  \
    V(cairo_set_line_width, (cairo_t * cr, double width), (cr, width))                                                \
    V(cairo_set_dash, (cairo_t * cr, const double *dashes, int num_dashes, double offset),                            \
      (cr, dashes, num_dashes, offset))                                                                               \
    V(cairo_stroke, (cairo_t * cr), (cr))                                                                             \
    V(cairo_select_font_face,                                                                                         \
      (cairo_t * cr, const char *family, cairo_font_slant_t slant, cairo_font_weight_t weight),                       \
      (cr, family, slant, weight))                                                                                    \
    V(cairo_set_font_size, (cairo_t * cr, double size), (cr, size))                                                   \
    V(cairo_text_extents, (cairo_t * cr, const char *utf8, cairo_text_extents_t *extents), (cr, utf8, extents))       \
    V(cairo_show_text, (cairo_t * cr, const char *utf8), (cr, utf8))

#define CDL_TABLE ccairo_functions
/// The resolved functions; filled by `ccairo_load`.
struct ccairo_table {
    CCAIRO_FUNCTIONS(CDL_POINTER, CDL_VOID_POINTER)
};
extern struct ccairo_table ccairo_functions;

/// dlopens libcairo.so.2 and resolves every function, once per process (later calls return the first result).
/// 0 on success; otherwise -1, and `ccairo_error` says why in one line (dlerror's text).
int ccairo_load(void);
const char *ccairo_error(void);

// The wrappers: valid only after `ccairo_load` returned 0.
CCAIRO_FUNCTIONS(CDL_WRAPPER, CDL_VOID_WRAPPER)
#undef CDL_TABLE
