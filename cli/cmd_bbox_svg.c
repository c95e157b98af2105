/* cmd_bbox_svg.c: `canopy bbox FILE.svg`: the whole scene stage (path boxes,
 * clip/blend boxes, bins of 256 px) on an SVG; one line per element on the
 * output: "INDEX TAG x0 y0 x1 y1" or "INDEX TAG empty", TAG one of fill stroke
 * clip endclip blend endblend; a summary line on stderr. */
#include "cli.h"

#include <canopy/cn_scene_stage.h>

#include <stdio.h>

static const char *tag_name(uint32_t t) {
  switch (t) {
    case CN_TAG_FILL: return "fill";
    case CN_TAG_STROKE: return "stroke";
    case CN_TAG_BEGIN_CLIP: return "clip";
    case CN_TAG_END_CLIP: return "endclip";
    case CN_TAG_BEGIN_BLEND: return "blend";
    case CN_TAG_END_BLEND: return "endblend";
    default: return "?";
  }
}

int cli_bbox_svg(const char *svg, const char *out_path, bool cpu, const cn_svg_options *opt) {
  cn_scene_builder *b = NULL;
  cn_result r = cn_scene_builder_create(&b);
  if (r != CN_OK) return cli_fail("bbox", "cannot create a scene builder", r);
  cn_scene_data scene;
  r = cn_svg_load_file(b, svg, opt, &scene, NULL);
  if (r != CN_OK) {
    cn_scene_builder_destroy(b);
    return cli_fail_file("bbox", svg, r);
  }
  cn_scene_stage_result res;
  cn_scene_stage_desc desc = {0};
  cn_bins_grid grid;
  if (cn_bins_grid_make(scene.viewport, 256, &grid) != CN_OK) desc.no_bins = true; /* too large for bins */
  int rc = CLI_OK;
  cn_context *ctx = NULL;
  if (cpu) {
    r = cn_scene_stage_cpu(&scene, NULL, &desc, &res);
    if (r != CN_OK) rc = cli_fail("bbox", "CPU reference failed", r);
  } else {
    rc = cli_context("bbox", &ctx);
    if (rc == CLI_OK) {
      r = cn_scene_stage_run(ctx, &scene, &desc, &res);
      if (r != CN_OK) rc = cli_fail("bbox", "GPU scene stage failed", r);
    }
  }
  cli_out o;
  if (rc == CLI_OK) rc = cli_out_open("bbox", out_path, &o);
  if (rc == CLI_OK) {
    FILE *f = o.f;
    for (uint64_t i = 0; i < res.n; i++) {
      fprintf(f, "%llu %s ", (unsigned long long)i, tag_name(res.tags[i]));
      cli_write_box(f, res.boxes[i]);
    }
    rc = cli_out_commit("bbox", &o);
    uint64_t groups = 0;
    for (uint64_t i = 0; i < res.n; i++) groups += res.tags[i] >= CN_TAG_BEGIN_CLIP;
    fprintf(stderr, "%s: %llu elements (%llu BEGIN/END), %ux%u bins of 256 px, %llu bin entries\n", svg,
            (unsigned long long)res.n, (unsigned long long)groups, res.grid.nbx, res.grid.nby,
            (unsigned long long)res.bin_total);
  }
  if (r == CN_OK) cn_scene_stage_result_free(&res);
  cn_context_destroy(ctx);
  cn_scene_builder_destroy(b);
  return rc;
}
