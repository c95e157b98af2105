/* view.c: the viewer's view transform (pan, zoom about a point, fit, resize)
 * and applying it to an encoded scene. Pure arithmetic, no Vulkan; the 2D
 * affine algebra is cglm's (3x3 matrices, column-major). */
#include "host.h"
#include "vw.h"

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

/* The view as a matrix: translate after scale. */
static void vw__view_mat3(const vw_view *v, mat3 m) {
  glm_mat3_identity(m);
  glm_translate2d(m, (vec2){(float)v->tx, (float)v->ty});
  glm_scale2d(m, (vec2){(float)v->scale, (float)v->scale});
}

static void vw__affine_mat3(const cn_transform *t, mat3 m) {
  glm_mat3_identity(m);
  m[0][0] = t->a, m[0][1] = t->b;
  m[1][0] = t->c, m[1][1] = t->d;
  m[2][0] = t->e, m[2][1] = t->f;
}

static cn_transform vw__mat3_affine(mat3 m) { return (cn_transform){m[0][0], m[0][1], m[1][0], m[1][1], m[2][0], m[2][1]}; }

void vw_view_affine(const vw_view *v, float out[6]) {
  mat3 m;
  vw__view_mat3(v, m);
  cn_transform t = vw__mat3_affine(m);
  memcpy(out, &t, 6 * sizeof(float));
}

vw_map vw_view_map(const vw_view *shown, const vw_view *now) {
  /* a framebuffer point p under the current view is the scene point now^-1 p,
   * which the shown picture has at shown * now^-1 p */
  mat3 a, b, inv, m;
  vw__view_mat3(shown, a);
  vw__view_mat3(now, b);
  glm_mat3_inv(b, inv);
  glm_mat3_mul(a, inv, m);
  return (vw_map){m[0][0], m[2][0], m[2][1]};
}

vw_view vw_view_fit(const float box[4], double w, double h) {
  double bw = (double)box[2] - box[0], bh = (double)box[3] - box[1];
  if (!(bw > 0) || !(bh > 0) || !isfinite(bw) || !isfinite(bh)) return (vw_view){1.0, 0.0, 0.0};
  double s = fmin(w / bw, h / bh);
  if (s < VW_ZOOM_MIN) s = VW_ZOOM_MIN;
  if (s > VW_ZOOM_MAX) s = VW_ZOOM_MAX;
  /* Centre; round the offset to whole pixels so a 1:1 fit stays pixel-exact. */
  double tx = floor((w - s * bw) * 0.5 + 0.5) - s * box[0];
  double ty = floor((h - s * bh) * 0.5 + 0.5) - s * box[1];
  return (vw_view){s, tx, ty};
}

vw_view vw_view_zoom_at(vw_view v, double factor, double px, double py) {
  double s = v.scale * factor;
  if (s < VW_ZOOM_MIN) s = VW_ZOOM_MIN;
  if (s > VW_ZOOM_MAX) s = VW_ZOOM_MAX;
  double k = s / v.scale;
  /* (px - t) / scale is the scene point under the cursor; keep it there. */
  return (vw_view){s, px - (px - v.tx) * k, py - (py - v.ty) * k};
}

vw_view vw_view_pan(vw_view v, double dx, double dy) { return (vw_view){v.scale, v.tx + dx, v.ty + dy}; }

vw_view vw_view_resize(vw_view v, double ow, double oh, double nw, double nh) {
  return vw_view_pan(v, (nw - ow) * 0.5, (nh - oh) * 0.5);
}

void vw_view_scene(const vw_view *v, const cn_scene_data *src, uint32_t w, uint32_t h, cn_transform *transforms,
                   cn_scene_data *out) {
  *out = *src;
  mat3 view, t, m;
  vw__view_mat3(v, view);
  for (uint32_t i = 0; i < src->transform_count; i++) {
    vw__affine_mat3(&src->transforms[i], t);
    glm_mat3_mul(view, t, m);
    transforms[i] = vw__mat3_affine(m);
  }
  out->transforms = transforms;
  out->viewport[0] = 0.0f;
  out->viewport[1] = 0.0f;
  out->viewport[2] = (float)w;
  out->viewport[3] = (float)h;
}
