/* view.c: the viewer's view transform (pan, zoom about a point, fit, resize)
 * and applying it to an encoded scene. Pure arithmetic, no Vulkan. */
#include "vw.h"

#include <math.h>

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
  float s = (float)v->scale, tx = (float)v->tx, ty = (float)v->ty;
  for (uint32_t i = 0; i < src->transform_count; i++) {
    cn_transform t = src->transforms[i];
    transforms[i] = (cn_transform){s * t.a, s * t.b, s * t.c, s * t.d, s * t.e + tx, s * t.f + ty};
  }
  out->transforms = transforms;
  out->viewport[0] = 0.0f;
  out->viewport[1] = 0.0f;
  out->viewport[2] = (float)w;
  out->viewport[3] = (float)h;
}
